import { Redis } from 'ioredis';

/*
 * Redis keys under one prefix, for tests and benches that share a Redis with other runs: each
 * run writes under a prefix of its own and deletes it afterwards. Imports no test runner, so a
 * bench process may use it (`@strata/testkit/redis`).
 */

/** Deletes every key under `prefix:` (SCAN, so a busy Redis is not blocked); returns how many. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 2 });
  client.on('error', () => undefined);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) deleted += await client.del(...keys);
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
  return deleted;
}

/** How many keys are under `prefix:`. */
export async function countRedisKeys(url: string, prefix: string): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 2 });
  client.on('error', () => undefined);
  try {
    let count = 0;
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      count += keys.length;
    } while (cursor !== '0');
    return count;
  } finally {
    client.disconnect();
  }
}

import type { Redis } from 'ioredis';
import type { JobRef } from '@strata/core';
import type { StrataKeys } from './redis-keys.js';

/** One entry: a job enqueued and not yet applied (it may have failed). */
export interface IndexEntry {
  ref: JobRef;
  /** From one counter: orders entries (oldest first) and tells enqueues of a key apart. */
  token: number;
}

// KEYS: sequence, sessions set, then one session hash per entry. ARGV: job key, ref JSON, session id per entry.
const ADD = `
local out = {}
for i = 3, #KEYS do
  local a = (i - 3) * 3
  local n = redis.call('INCR', KEYS[1])
  redis.call('HSET', KEYS[i], ARGV[a + 1], n .. '|' .. ARGV[a + 2])
  redis.call('SADD', KEYS[2], ARGV[a + 3])
  out[i - 2] = n
end
return out`;

// KEYS: session hash, sessions set. ARGV: job key, token, session id.
const REMOVE_IF_TOKEN = `
local v = redis.call('HGET', KEYS[1], ARGV[1])
if not v or string.sub(v, 1, string.len(ARGV[2]) + 1) ~= ARGV[2] .. '|' then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HLEN', KEYS[1]) == 0 then redis.call('SREM', KEYS[2], ARGV[3]) end
return 1`;

/**
 * Which jobs of a session are not applied yet, so that `pending(sessionId)` reads a few
 * entries instead of scanning every queue. It is a hint: the jobs' BullMQ states are the
 * truth, and an entry whose jobs are gone is removed by whoever notices.
 */
export class PendingIndex {
  constructor(
    private readonly client: Redis,
    private readonly keys: StrataKeys,
  ) {}

  /** Records enqueues, in order; returns their tokens. */
  async add(refs: JobRef[]): Promise<number[]> {
    if (refs.length === 0) return [];
    const { keys } = this;
    const hashes = refs.map((ref) => keys.pending(ref.sessionId));
    const args = refs.flatMap((ref) => [ref.key, JSON.stringify(ref), ref.sessionId]);
    const tokens = (await this.client.eval(ADD, hashes.length + 2, keys.sequence, keys.pendingSessions, ...hashes, ...args)) as number[];
    return tokens.map(Number);
  }

  /** Removes the entry of `key` if it is still the enqueue `token` made. */
  async remove(ref: Pick<JobRef, 'key' | 'sessionId'>, token: number): Promise<void> {
    const { keys } = this;
    await this.client.eval(REMOVE_IF_TOKEN, 2, keys.pending(ref.sessionId), keys.pendingSessions, ref.key, String(token), ref.sessionId);
  }

  /** Entries of one session, or of all, oldest first. */
  async entries(sessionId?: string): Promise<IndexEntry[]> {
    const sessions = sessionId === undefined ? await this.client.smembers(this.keys.pendingSessions) : [sessionId];
    const pipeline = this.client.pipeline();
    for (const id of sessions) pipeline.hgetall(this.keys.pending(id));
    const replies = (await pipeline.exec()) ?? [];
    const entries: IndexEntry[] = [];
    for (const [error, hash] of replies) {
      if (error) throw error;
      for (const value of Object.values(hash as Record<string, string>)) entries.push(parseEntry(value));
    }
    return entries.sort((a, b) => a.token - b.token);
  }
}

function parseEntry(value: string): IndexEntry {
  const bar = value.indexOf('|');
  return { token: Number(value.slice(0, bar)), ref: JSON.parse(value.slice(bar + 1)) as JobRef };
}

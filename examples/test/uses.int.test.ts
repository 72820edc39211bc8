import { describe, expect, it } from 'vitest';
import { requireService } from '@strata/testkit';
import { countRedisKeys } from '@strata/testkit/redis';
import { runExample } from './run-example.js';

const REDIS_URL = process.env.STRATA_REDIS_URL ?? 'redis://127.0.0.1:6379';
const CHROMA_URL = process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';
const COLLECTIONS = `${CHROMA_URL}/api/v2/tenants/default_tenant/databases/default_database/collections`;

// Skipped with the reason when a server is down, unless STRATA_REQUIRE_SERVICES=1 (then they fail).
const noRedis = await requireService('Redis', async () => {
  await countRedisKeys(REDIS_URL, 'strata-example-probe').catch((error: unknown) => {
    throw new Error(`no answer at ${REDIS_URL} (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  });
});
const noChroma = await requireService('Chroma', async () => {
  const heartbeat = `${CHROMA_URL}/api/v2/heartbeat`;
  const response = await fetch(heartbeat, { signal: AbortSignal.timeout(5000) }).catch((error: unknown) => {
    throw new Error(`no answer at ${heartbeat} (${error instanceof Error ? error.message : String(error)})`, { cause: error });
  });
  if (!response.ok) throw new Error(`GET ${heartbeat} answered ${response.status}`);
});

describe.skipIf(noRedis !== null)(`examples/worker-beside-app.ts${noRedis ? ` (skipped: ${noRedis})` : ''}`, () => {
  it('the worker derives what the app appended; the app applies it; the run leaves no key behind', async () => {
    const { code, stdout, stderr } = await runExample('worker-beside-app.ts', { STRATA_REDIS_URL: REDIS_URL });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [, prefix] = /^app and worker on \S+, key prefix (strata-example-\w+)\n/.exec(stdout) ?? [];
    expect(prefix).toBeDefined();
    expect(stdout).toMatch(/\napp appended 6 turns; /);
    const [, jobs] = /\nafter flush, the worker had run ([1-9]\d*) job\(s\), 0 left pending:\n/.exec(stdout) ?? [];
    expect(Number(jobs)).toBeGreaterThanOrEqual(1);
    expect(stdout).toMatch(/^ {2}ingest: ingest:ses_\w+:1-6 \(attempt 1\)$/m);
    expect(stdout).toMatch(/\nfacts the worker derived \([1-9]\d*\):\n/);
    expect(stdout).toContain("  - User's sister is Ingrid.\n");
    expect(stdout).toMatch(/\ncontext for "Who is Ingrid\?" holds what the worker derived: summaries 1, facts [1-9]\d*; jobs pending 0\n/);
    expect(stdout).toContain(`strata queues (prefix "${prefix}")`);
    expect(stdout).toContain(`derived ${jobs}, applied ${jobs}, retries 0, failures 0, stalled 0\n`);
    expect(stdout).toMatch(new RegExp(`\\ndeleted [1-9]\\d* Redis keys matching ${prefix}:\\*, 0 left\\n$`));
    expect(await countRedisKeys(REDIS_URL, prefix!)).toBe(0);
  });
});

describe.skipIf(noChroma !== null)(`examples/chroma.ts${noChroma ? ` (skipped: ${noChroma})` : ''}`, () => {
  it('search finds a fact through Chroma; after forget the collection holds none of the session records; the collection is deleted', async () => {
    const { code, stdout, stderr } = await runExample('chroma.ts', { STRATA_CHROMA_URL: CHROMA_URL });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const [, collection] = /^knowledge base: Chroma at \S+, collection (strata-example-[\w-]+__strata-hashing-v1__256)\n/.exec(stdout) ?? [];
    expect(collection).toBeDefined();
    expect(stdout).toMatch(/\nsearch "Where do I live\?" \(facts, BM25 \+ Chroma vectors\):\n {2}0\.\d{4} fact_\S+: User lives in Porto\.\n/);
    const held = /\nChroma holds (\d+) records of session (ses_\w+): turn 6, summary ([1-9]\d*), fact ([1-9]\d*); 0 of them hold text /.exec(stdout);
    expect(held).not.toBeNull();
    const [, records, sessionId, summaries, facts] = held!;
    expect(Number(records)).toBe(6 + Number(summaries) + Number(facts));
    expect(stdout).toContain(`\nforgot session ${sessionId}: 6 turns, ${summaries} summaries, ${facts} facts\n`);
    expect(stdout).toContain(`\nafter forget, the Chroma collection holds 0 of the session's ${records} records (0 with its sessionId, 0 in all)\n`);
    expect(stdout).toMatch(new RegExp(`\\ndeleted collection ${collection}\\n$`));
    expect((await fetch(`${COLLECTIONS}/${collection}`)).status).toBe(404);
  });
});

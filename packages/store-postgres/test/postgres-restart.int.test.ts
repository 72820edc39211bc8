import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresSessionStore } from '../src/index.js';
import { privateClusterUnavailable, startPrivateCluster, type PrivateCluster } from './private-cluster.js';
import { appendsWhile } from './retrying-appends.js';

const T0 = Date.UTC(2024, 0, 1);
const unavailable = privateClusterUnavailable();
if (unavailable !== null && process.env.STRATA_REQUIRE_SERVICES === '1') throw new Error(`a private PostgreSQL cluster cannot run here: ${unavailable}`);

describe.skipIf(unavailable !== null)(`PostgresSessionStore across a PostgreSQL restart${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let cluster: PrivateCluster | undefined;
  afterAll(() => cluster?.stop());

  it('fails the calls made while the server restarts with a retryable BACKEND_UNAVAILABLE, then works again with nothing acknowledged lost', async () => {
    cluster = startPrivateCluster();
    const store = await createPostgresSessionStore({ url: cluster.url, poolSize: 3, poolTimeoutMs: 2000 });
    try {
      await store.write({ ops: [{ type: 'putSession', session: { id: 's1', namespace: 'ns', metadata: {}, createdAt: T0, updatedAt: T0, lastSeq: 0 } }] });
      let before = 0;
      const { acknowledged, failures } = await appendsWhile(
        store,
        's1',
        3,
        async (progress) => {
          await progress.acknowledged(10);
          before = (await store.messages({ sessionId: 's1' })).length;
          // the restart fails the appends in flight and those made while the server is down, then the writers get on again
          await Promise.all([cluster?.restart(), progress.failed(1)]);
          await progress.acknowledged(10, 30_000);
        },
        50,
      );
      expect(before).toBeGreaterThan(0);
      expect(failures.length).toBeGreaterThan(0);
      for (const failure of failures) {
        expect(failure.code, failure.message).toBe('BACKEND_UNAVAILABLE');
        expect(failure.retryable).toBe(true);
      }
      // the store recovered by itself: new writes and reads work on fresh connections
      await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id: 'after', role: 'user', content: 'after the restart', createdAt: T0, metadata: {} }] }] });
      const stored = await store.messages({ sessionId: 's1' });
      expect(new Set(stored.map((m) => m.id))).toEqual(new Set([...acknowledged, 'after']));
      expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
      expect(stored.length).toBeGreaterThan(before);
    } finally {
      await store.close();
    }
  }, 60_000);
});

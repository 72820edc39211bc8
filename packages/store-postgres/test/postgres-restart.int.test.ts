import { afterAll, describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import { createPostgresSessionStore } from '../src/index.js';
import { privateClusterUnavailable, startPrivateCluster, type PrivateCluster } from './private-cluster.js';

const T0 = Date.UTC(2024, 0, 1);
const unavailable = privateClusterUnavailable();
if (unavailable !== null && process.env.STRATA_REQUIRE_SERVICES === '1') throw new Error(`a private PostgreSQL cluster cannot run here: ${unavailable}`);

describe.skipIf(unavailable !== null)(`PostgresSessionStore across a PostgreSQL restart${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let cluster: PrivateCluster | undefined;
  afterAll(() => cluster?.stop());

  it('fails the calls made while the server restarts with a retryable BACKEND_UNAVAILABLE, then works again with nothing acknowledged lost', async () => {
    cluster = startPrivateCluster(55_000 + Math.floor(Math.random() * 4000));
    const store = await createPostgresSessionStore({ url: cluster.url, poolSize: 3, poolTimeoutMs: 2000 });
    try {
      await store.write({ ops: [{ type: 'putSession', session: { id: 's1', namespace: 'ns', metadata: {}, createdAt: T0, updatedAt: T0, lastSeq: 0 } }] });
      const acknowledged: string[] = [];
      const failures: StrataError[] = [];
      let stop = false;
      const writer = async (w: number): Promise<void> => {
        for (let i = 0; !stop; i++) {
          const id = `w${w}-${i}`;
          for (;;) {
            try {
              await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id, role: 'user', content: `turn ${id}`, createdAt: T0 + i, metadata: {} }] }] });
              acknowledged.push(id);
              break;
            } catch (error) {
              if (!StrataError.is(error)) throw error;
              // a commit cut off by the restart may have gone through: the retry then finds the id taken
              if (error.code === 'CONFLICT' && /already exists/.test(error.message)) {
                acknowledged.push(id);
                break;
              }
              failures.push(error);
              if (!error.retryable) throw error;
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
          }
        }
      };
      const writers = [0, 1, 2].map(writer);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const before = acknowledged.length;
      cluster.restart();
      await new Promise((resolve) => setTimeout(resolve, 700));
      stop = true;
      await Promise.all(writers);
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

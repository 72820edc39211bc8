import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { StrataError } from '../src/errors/strata-error.js';
import type { PendingJob } from '../src/domain/retrieval.js';
import type { JobQueue, JobRuntime } from '../src/ports/job-queue.js';
import type { BackgroundError } from '../src/services/background-errors.js';

/** A queue that cannot be reached: planning after an append fails in the background. */
function unreachableQueue(): JobQueue {
  const down = (): never => {
    throw new StrataError('BACKEND_UNAVAILABLE', 'the queue is down', { hint: 'Start it.', retryable: true });
  };
  return { derivesInline: false, keepsJobs: false, start: async () => undefined, enqueue: async () => down(), pending: async () => down(), drain: async () => undefined, close: async () => undefined };
}

/** A queue whose job never finishes: every drain returns with it still running. */
function stuckQueue(job: PendingJob): JobQueue & { drains: number } {
  const queue = {
    drains: 0,
    derivesInline: false,
    keepsJobs: false,
    start: async (_runtime: JobRuntime) => undefined,
    enqueue: async () => undefined,
    pending: async () => [job],
    drain: async () => {
      queue.drains++;
    },
    close: async () => undefined,
  };
  return queue;
}

const RUNNING: PendingJob = { key: 'ingest:s:1-2', type: 'ingest', sessionId: 's', fromSeq: 1, toSeq: 2, state: 'running', attempts: 1 };
const FAILED: PendingJob = { ...RUNNING, key: 'ingest:s:3-4', fromSeq: 3, toSeq: 4, state: 'failed', error: 'model down' };

describe('failures of background work', () => {
  it('are told to onError with their kind and session, while the call that caused them succeeded', async () => {
    const events: BackgroundError[] = [];
    const memory = await createMemory({ queue: unreachableQueue(), onError: (event) => events.push(event) });
    const session = await memory.sessions.create({ namespace: 'n' });
    const [stored] = await memory.append(session.id, { role: 'user', content: 'My train leaves at nine.' });
    expect(stored?.seq).toBe(1);
    // planning runs on the next macrotask; getContext waits for it, and tries again what failed
    await memory.getContext(session.id, { budgetTokens: 200 }).catch(() => undefined);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect([event.kind, event.sessionId, (event.error as StrataError).code]).toEqual(['schedule', session.id, 'BACKEND_UNAVAILABLE']);
  });

  it('without onError, become one process warning per kind, never silence', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on('warning', onWarning);
    try {
      const memory = await createMemory({ queue: unreachableQueue() });
      const session = await memory.sessions.create({ namespace: 'n' });
      for (const content of ['One.', 'Two.']) {
        await memory.append(session.id, { role: 'user', content });
        await memory.getContext(session.id, { budgetTokens: 200 }).catch(() => undefined);
      }
      // warnings are emitted on the next tick
      await new Promise((resolve) => setImmediate(resolve));
      const ours = warnings.filter((w) => (w as Error & { code?: string }).code === 'STRATA_BACKGROUND_ERROR');
      expect(ours.map((w) => w.message)).toEqual([expect.stringMatching(/^strata: schedule failed in the background \(session .+\): the queue is down/)]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('a listener that throws does not stop the work that reported to it', async () => {
    const memory = await createMemory({
      queue: unreachableQueue(),
      onError: () => {
        throw new Error('listener bug');
      },
    });
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => {
      uncaught.push(error);
    };
    // vitest reports uncaught exceptions as failures: take this one over for the test
    const listeners = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    process.on('uncaughtException', onUncaught);
    try {
      const session = await memory.sessions.create({ namespace: 'n' });
      await memory.append(session.id, { role: 'user', content: 'Hello.' });
      await memory.getContext(session.id, { budgetTokens: 200 }).catch(() => undefined);
      await new Promise((resolve) => setImmediate(resolve));
      // once for each failed planning (after the append, again in getContext)
      expect(uncaught.length).toBeGreaterThan(0);
      for (const error of uncaught) expect(error).toEqual(new Error('listener bug'));
      // the memory goes on serving
      expect((await memory.messages(session.id)).map((m) => m.content)).toEqual(['Hello.']);
    } finally {
      process.off('uncaughtException', onUncaught);
      for (const listener of listeners) process.on('uncaughtException', listener);
    }
  });
});

describe('flush', () => {
  it('reports what is left when it gives up, instead of returning as if done', async () => {
    const queue = stuckQueue(RUNNING);
    const memory = await createMemory({ queue });
    expect(await memory.flush()).toMatchObject({ settled: false, pending: [RUNNING], derivation: { results: 0 } });
    expect(queue.drains).toBe(100);
  });

  it('is settled with the jobs that failed for good listed', async () => {
    const memory = await createMemory({ queue: stuckQueue(FAILED) });
    expect(await memory.flush()).toMatchObject({ settled: true, pending: [FAILED], derivation: { results: 0 } });
  });

  it('is settled with nothing pending once derivation has landed', async () => {
    const memory = await createMemory();
    const session = await memory.sessions.create({ namespace: 'n' });
    await memory.append(
      session.id,
      Array.from({ length: 12 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `Turn ${i} about the garden and the tomatoes.` })),
    );
    const report = await memory.flush();
    expect([report.settled, report.pending]).toEqual([true, []]);
    // what the flush waited for is counted in its report: 12 turns ingested (offline: no tokens)
    expect(report.derivation.results).toBeGreaterThan(0);
    expect(report.derivation.byJobType.ingest).toBeUndefined();
    expect([report.derivation.inputTokens, report.derivation.degradedResults]).toEqual([0, 0]);
    await memory.close();
  });
});

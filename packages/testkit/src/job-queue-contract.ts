// Kept in one file: one contract suite (the JobQueue port), its cases side by side.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import type { DeriveAttempt, DeriveJob, DeriveResult, JobQueue, JobRuntime, TranscriptTurn } from '@strata/core';

export interface JobQueueContractOptions {
  /**
   * A fresh, unstarted queue for each test. Allow at least 3 attempts per job and keep the
   * backoff small (a few ms): the suite does not know the queue's retry settings.
   */
  create: () => Promise<JobQueue>;
  /** Releases what `create` made (obliterate a Redis queue). `close()` is called first. */
  destroy?: (q: JobQueue) => Promise<void>;
  /** Test title -> reason: known gaps of this adapter, shown in the skipped test's name. */
  skip?: Record<string, string>;
  /** true when enqueue completes work before resolving */
  inline?: boolean;
}

/** A summarize job over `fromSeq..toSeq` of a session, with one turn per seq. */
function summarizeJob(sessionId = 's1', fromSeq = 1, toSeq = 2): DeriveJob {
  const turns: TranscriptTurn[] = [];
  for (let seq = fromSeq; seq <= toSeq; seq++) {
    const role = seq % 2 === 1 ? 'user' : 'assistant';
    turns.push({ id: `${sessionId}-m${seq}`, seq, role, content: `turn ${seq}`, createdAt: seq });
  }
  const key = `summarize:${sessionId}:${fromSeq}-${toSeq}`;
  return { key, type: 'summarize', sessionId, namespace: 'ns-a', fromSeq, toSeq, turns };
}

/** A runtime that records applied results and fails on demand. */
interface Harness {
  runtime: JobRuntime;
  applied: DeriveResult[];
  appliedKeys: () => string[];
  deriveCalls: Map<string, number>;
  /** The attempt each derive of a key was told, in call order. */
  deriveAttempts: Map<string, DeriveAttempt[]>;
  /** The next `times` derives (or applies) of `key` throw; Infinity means always. */
  failDerive: (key: string, times: number) => void;
  failApply: (key: string, times: number) => void;
  /** Derives of `key` throw StrataError INVALID_INPUT (bad input: never worth retrying). */
  rejectInput: (key: string) => void;
  /** Derives of `key` wait until `open()`; `entered` resolves when one has started. */
  gate: (key: string) => { entered: Promise<void>; open: () => void };
}

function createHarness(): Harness {
  const applied: DeriveResult[] = [];
  const deriveCalls = new Map<string, number>();
  const deriveAttempts = new Map<string, DeriveAttempt[]>();
  const deriveFailures = new Map<string, number>();
  const applyFailures = new Map<string, number>();
  const gates = new Map<string, { enter: () => void; opened: Promise<void> }>();
  const rejected = new Set<string>();
  const takeFailure = (failures: Map<string, number>, key: string, what: string): void => {
    const left = failures.get(key) ?? 0;
    if (left <= 0) return;
    failures.set(key, left - 1);
    throw new Error(`${what} exploded for ${key}`);
  };
  const runtime: JobRuntime = {
    async derive(job, attempt) {
      deriveCalls.set(job.key, (deriveCalls.get(job.key) ?? 0) + 1);
      deriveAttempts.set(job.key, [...(deriveAttempts.get(job.key) ?? []), { number: attempt.number, isFinal: attempt.isFinal }]);
      const gate = gates.get(job.key);
      if (gate !== undefined) {
        gate.enter();
        await gate.opened;
      }
      takeFailure(deriveFailures, job.key, 'derive');
      if (rejected.has(job.key)) throw new StrataError('INVALID_INPUT', `turns of ${job.key} are malformed`, { hint: 'test input' });
      if (job.type !== 'summarize') throw new Error(`unexpected job type ${job.type}`);
      const { key, type, sessionId, namespace, fromSeq, toSeq } = job;
      const sourceMessageIds = job.turns.map((turn) => turn.id);
      const ref = { key, type, sessionId, namespace, fromSeq, toSeq };
      return { job: ref, text: `summary of ${key}`, vector: [1, 0], sourceMessageIds, degraded: false };
    },
    async apply(result) {
      takeFailure(applyFailures, result.job.key, 'apply');
      applied.push(result);
    },
  };
  return {
    runtime,
    applied,
    appliedKeys: () => applied.map((result) => result.job.key),
    deriveCalls,
    deriveAttempts,
    failDerive: (key, times) => deriveFailures.set(key, times),
    failApply: (key, times) => applyFailures.set(key, times),
    rejectInput: (key) => rejected.add(key),
    gate: (key) => {
      let enter = (): void => undefined;
      let open = (): void => undefined;
      const entered = new Promise<void>((resolve) => (enter = resolve));
      const opened = new Promise<void>((resolve) => (open = resolve));
      gates.set(key, { enter, opened });
      return { entered, open };
    },
  };
}

type Define = (title: string, fn: () => Promise<void>) => void;
interface Context {
  queue: () => JobQueue;
  harness: () => Harness;
}

/**
 * The behaviour every {@link JobQueue} adapter must have, checked through `drain()` and
 * `pending()` only, so that inline, in-process and Redis-backed queues all run it unchanged.
 */
export function describeJobQueueContract(name: string, options: JobQueueContractOptions): void {
  describe(`JobQueue contract: ${name}`, () => {
    let queue: JobQueue;
    let harness: Harness;
    const test: Define = (title, fn) => {
      const reason = options.skip?.[title];
      if (reason === undefined) it(title, fn);
      else it.skip(`${title} (skipped: ${reason})`, fn);
    };

    beforeEach(async () => {
      harness = createHarness();
      queue = await options.create();
      await queue.start(harness.runtime);
    });
    afterEach(async () => {
      await queue.close();
      await options.destroy?.(queue);
    });

    const context: Context = { queue: () => queue, harness: () => harness };
    describeDelivery(test, context, options.inline === true);
    describeFailures(test, context);
  });
}

function describeDelivery(test: Define, { queue, harness }: Context, inline: boolean): void {
  test('drain with nothing enqueued resolves', async () => {
    await queue().drain();
    expect(await queue().pending()).toEqual([]);
  });

  test('every enqueued job is applied exactly once after drain', async () => {
    const jobs = [summarizeJob('s1', 1, 2), summarizeJob('s1', 3, 4), summarizeJob('s2', 1, 3)];
    await queue().enqueue(jobs);
    await queue().drain();
    expect([...harness().appliedKeys()].sort()).toEqual(jobs.map((job) => job.key).sort());
    const s2 = harness().applied.find((result) => result.job.key === 'summarize:s2:1-3');
    expect(s2).toMatchObject({ text: 'summary of summarize:s2:1-3', sourceMessageIds: ['s2-m1', 's2-m2', 's2-m3'] });
    expect(await queue().pending()).toEqual([]);
  });

  test('a key repeated within one enqueue call is applied once', async () => {
    await queue().enqueue([summarizeJob(), summarizeJob(), summarizeJob('s1', 3, 4)]);
    await queue().drain();
    expect([...harness().appliedKeys()].sort()).toEqual(['summarize:s1:1-2', 'summarize:s1:3-4']);
  });

  test('a key enqueued again while queued is applied once', async () => {
    await Promise.all([queue().enqueue([summarizeJob()]), queue().enqueue([summarizeJob()])]);
    await queue().drain();
    expect(harness().appliedKeys()).toEqual(['summarize:s1:1-2']);
  });

  test('a key enqueued again while running is applied once', async () => {
    const gate = harness().gate('summarize:s1:1-2');
    const first = queue().enqueue([summarizeJob()]);
    await gate.entered;
    await queue().enqueue([summarizeJob()]);
    gate.open();
    await first;
    await queue().drain();
    expect(harness().appliedKeys()).toEqual(['summarize:s1:1-2']);
    expect(harness().deriveCalls.get('summarize:s1:1-2')).toBe(1);
  });

  test('50 jobs are all applied, each once', async () => {
    const jobs = Array.from({ length: 50 }, (_, i) => summarizeJob(`s${i % 5}`, 2 * i + 1, 2 * i + 2));
    await queue().enqueue(jobs);
    await queue().drain();
    expect(harness().applied).toHaveLength(50);
    expect(new Set(harness().appliedKeys())).toEqual(new Set(jobs.map((job) => job.key)));
    expect(await queue().pending()).toEqual([]);
  });

  test('the queue keeps working after a drain, and concurrent drains all resolve', async () => {
    await queue().enqueue([summarizeJob('s1', 1, 2)]);
    await queue().drain();
    await queue().enqueue([summarizeJob('s1', 3, 4), summarizeJob('s2', 1, 2)]);
    await Promise.all([queue().drain(), queue().drain(), queue().drain()]);
    expect(harness().applied).toHaveLength(3);
  });

  test('close is idempotent', async () => {
    await queue().enqueue([summarizeJob()]);
    await queue().drain();
    await queue().close();
    await expect(queue().close()).resolves.toBeUndefined();
    expect(harness().appliedKeys()).toEqual(['summarize:s1:1-2']);
  });

  if (inline) {
    test('enqueue resolves after the job is applied', async () => {
      await queue().enqueue([summarizeJob()]);
      expect(harness().appliedKeys()).toEqual(['summarize:s1:1-2']);
    });
  }
}

function describeFailures(test: Define, { queue, harness }: Context): void {
  test('a derive that fails twice then succeeds is applied once', async () => {
    harness().failDerive('summarize:s1:1-2', 2);
    await queue().enqueue([summarizeJob()]);
    await queue().drain();
    expect(harness().appliedKeys()).toEqual(['summarize:s1:1-2']);
    expect(harness().deriveCalls.get('summarize:s1:1-2')).toBe(3);
    expect(await queue().pending()).toEqual([]);
  });

  test('a failing apply is retried like a failing derive', async () => {
    harness().failApply('summarize:s1:1-2', 1);
    await queue().enqueue([summarizeJob()]);
    await queue().drain();
    expect(harness().appliedKeys()).toEqual(['summarize:s1:1-2']);
    expect(await queue().pending()).toEqual([]);
  });

  test('a job that always fails is listed as failed and does not fail enqueue or drain', async () => {
    harness().failDerive('summarize:s1:1-2', Infinity);
    await expect(queue().enqueue([summarizeJob(), summarizeJob('s1', 3, 4)])).resolves.toBeUndefined();
    await queue().drain();
    expect(harness().appliedKeys()).toEqual(['summarize:s1:3-4']);
    const pending = await queue().pending();
    expect(pending).toEqual([
      expect.objectContaining({
        key: 'summarize:s1:1-2',
        type: 'summarize',
        sessionId: 's1',
        fromSeq: 1,
        toSeq: 2,
        state: 'failed',
      }),
    ]);
    expect(pending[0]?.attempts).toBeGreaterThanOrEqual(1);
    expect(pending[0]?.error).toContain('derive exploded');
  });

  test('derive is told its attempt number, and only the last attempt is final', async () => {
    harness().failDerive('summarize:s1:1-2', Infinity);
    await queue().enqueue([summarizeJob()]);
    await queue().drain();
    const attempts = harness().deriveAttempts.get('summarize:s1:1-2') ?? [];
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.map((a) => a.number)).toEqual(attempts.map((_, i) => i + 1));
    expect(attempts.map((a) => a.isFinal)).toEqual(attempts.map((_, i) => i === attempts.length - 1));
  });

  test('a derive rejecting its input (INVALID_INPUT) fails at once, without retries', async () => {
    harness().rejectInput('summarize:s1:1-2');
    await queue().enqueue([summarizeJob()]);
    await queue().drain();
    expect(harness().deriveCalls.get('summarize:s1:1-2')).toBe(1);
    expect(await queue().pending()).toEqual([expect.objectContaining({ key: 'summarize:s1:1-2', state: 'failed', attempts: 1 })]);
  });

  test('a failed key enqueued again is retried and applied', async () => {
    harness().failDerive('summarize:s1:1-2', Infinity);
    await queue().enqueue([summarizeJob()]);
    await queue().drain();
    harness().failDerive('summarize:s1:1-2', 0);
    await queue().enqueue([summarizeJob()]);
    await queue().drain();
    expect(harness().appliedKeys()).toEqual(['summarize:s1:1-2']);
    expect(await queue().pending()).toEqual([]);
  });

  test('pending lists oldest first and filters by session', async () => {
    const jobs = [summarizeJob('s1', 1, 2), summarizeJob('s2', 1, 2), summarizeJob('s1', 3, 4)];
    for (const job of jobs) {
      harness().failDerive(job.key, Infinity);
      await queue().enqueue([job]);
      await queue().drain();
    }
    expect((await queue().pending()).map((job) => job.key)).toEqual(jobs.map((job) => job.key));
    expect((await queue().pending('s1')).map((job) => job.key)).toEqual(['summarize:s1:1-2', 'summarize:s1:3-4']);
    expect((await queue().pending('s2')).map((job) => job.sessionId)).toEqual(['s2']);
    expect(await queue().pending('nobody')).toEqual([]);
  });
}

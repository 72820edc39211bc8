import { describe, expect, it } from 'vitest';
import { createInProcessJobQueue } from '../src/adapters/queues/in-process-job-queue.js';
import type { ExtractedFact } from '../src/domain/jobs.js';
import { StrataError } from '../src/errors/strata-error.js';
import { toModelError } from '../src/models/to-model-error.js';
import type { ExtractInput, FactExtractor, Summarizer, SummarizeInput } from '../src/ports/models.js';
import type { JobQueue, JobRuntime } from '../src/ports/job-queue.js';
import type { ThreadSelector } from '../src/ports/thread-selector.js';
import type { BackgroundError } from '../src/services/background-errors.js';
import { createTestMemory } from './helpers.js';

const ENDPOINT = 'models.internal:8080';

/** An extractor on a model endpoint: fails `failures` times as the endpoint being down, then answers with usage. */
function endpointExtractor(failures: number, answer: 'fact' | 'none' = 'fact'): FactExtractor & { calls: number } {
  const extractor = {
    name: 'endpoint-extractor',
    calls: 0,
    async extract({ turns, onUsage }: ExtractInput): Promise<ExtractedFact[]> {
      extractor.calls += 1;
      if (extractor.calls <= failures) throw toModelError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'small-model', ENDPOINT);
      onUsage?.({ inputTokens: 120, outputTokens: 30, model: 'small-model' });
      const first = turns[0];
      if (answer === 'none' || first === undefined) return [];
      return [{ subject: 'user', predicate: 'likes', object: 'tea', text: 'The user likes tea.', sourceMessageIds: [first.id], validFrom: first.createdAt, confidence: 0.9 }];
    },
  };
  return extractor;
}

/** A summarizer that reports usage under another model name. */
const namedSummarizer: Summarizer = {
  name: 'endpoint-summarizer',
  async summarize({ turns, onUsage }: SummarizeInput) {
    onUsage?.({ inputTokens: 200, outputTokens: 40, model: 'big-model' });
    return { text: `summary of ${turns.length} turns` };
  },
  async consolidate({ summaries, onUsage }) {
    onUsage?.({ inputTokens: 50, outputTokens: 10, model: 'big-model' });
    return { text: summaries.join(' ') };
  },
};

describe('model failures are reported with the endpoint and the job, and counted', () => {
  it('a try that failed and is retried: onError kind derive (job, attempt, endpoint host), stats and the flush report count it', async () => {
    const events: BackgroundError[] = [];
    const extractor = endpointExtractor(2);
    const { memory } = await createTestMemory({ extractor, queue: createInProcessJobQueue({ attempts: 4, backoffMs: 1 }), onError: (e) => events.push(e) });
    const session = await memory.sessions.create({ namespace: 'ns' });
    await memory.append(session.id, { role: 'user', content: 'I like tea.' });
    const report = await memory.flush();

    const derive = events.filter((e) => e.kind === 'derive');
    expect(derive.map((e) => [e.job?.type, e.attempt, e.endpoint, e.sessionId])).toEqual([
      ['ingest', { number: 1, willRetry: true }, ENDPOINT, session.id],
      ['ingest', { number: 2, willRetry: true }, ENDPOINT, session.id],
    ]);
    expect(derive[0]?.job?.key).toMatch(/^ingest:/);
    expect(String((derive[0]?.error as StrataError | undefined)?.message)).toContain(`at ${ENDPOINT}`);
    expect(events.some((e) => e.kind === 'degraded')).toBe(false);
    // the third try answered: nothing degraded, the model's fact stored
    expect((await memory.facts.list({ namespace: 'ns' })).map((f) => [f.text, f.degraded])).toEqual([['The user likes tea.', false]]);
    expect(report.derivation).toMatchObject({ failedTries: 2, degradedResults: 0, inputTokens: 120, outputTokens: 30, modelCalls: 1 });
    expect(memory.stats().derivation.failedTries).toBe(2);
  });

  it('a failure the offline fallback replaced: onError kind degraded, with why and the endpoint host', async () => {
    const events: BackgroundError[] = [];
    const refusing: FactExtractor = {
      name: 'refusing',
      extract: async () => {
        throw toModelError(Object.assign(new Error('401 bad key sk-secret'), { status: 401 }), 'small-model', ENDPOINT);
      },
    };
    const { memory } = await createTestMemory({ extractor: refusing, queue: createInProcessJobQueue({ backoffMs: 1 }), onError: (e) => events.push(e) });
    const session = await memory.sessions.create({ namespace: 'ns' });
    await memory.append(session.id, { role: 'user', content: 'My sister lives in a small town by the sea.' });
    const report = await memory.flush();
    const degraded = events.filter((e) => e.kind === 'degraded');
    expect(degraded).toHaveLength(1);
    expect(degraded[0]).toMatchObject({ sessionId: session.id, endpoint: ENDPOINT, job: { type: 'ingest' } });
    const error = degraded[0]?.error as StrataError;
    expect([error.code, error.endpoint]).toEqual(['CONFIG_INVALID', ENDPOINT]);
    expect(error.message).toContain('derived offline (degraded)');
    // a not-retryable failure falls back at once: no failed try was retried
    expect(events.filter((e) => e.kind === 'derive')).toEqual([]);
    expect(report.derivation).toMatchObject({ degradedResults: 1, failedTries: 0 });
  });
});

describe('token usage by job type, model and namespace', () => {
  it('stats() and flush() split it; usage() sums the ledger per namespace and session, and keeps namespaces apart', async () => {
    const { memory } = await createTestMemory({ extractor: endpointExtractor(0, 'none'), summarizer: namedSummarizer, queue: createInProcessJobQueue() });
    const a = await memory.sessions.create({ namespace: 'team-a' });
    const b = await memory.sessions.create({ namespace: 'team-b' });
    for (let i = 0; i < 12; i++) await memory.append(a.id, { role: i % 2 ? 'assistant' : 'user', content: `Turn ${i} about the weekly plan.` });
    await memory.append(b.id, { role: 'user', content: 'One turn here.' });
    const report = await memory.flush();
    const stats = memory.stats().derivation;

    const ingestJobs = stats.byJobType.ingest?.calls ?? 0;
    expect(ingestJobs).toBeGreaterThan(0);
    expect(stats.byJobType.ingest).toEqual({ calls: ingestJobs, inputTokens: 120 * ingestJobs, outputTokens: 30 * ingestJobs });
    expect(stats.byModel['small-model']).toEqual(stats.byJobType.ingest);
    const summarized = stats.byJobType.summarize?.calls ?? 0;
    expect(summarized).toBeGreaterThan(0);
    expect(stats.byModel['big-model']?.calls).toBe(summarized + (stats.byJobType.consolidate?.calls ?? 0));
    expect(stats.inputTokens).toBe(Object.values(stats.byModel).reduce((sum, u) => sum + u.inputTokens, 0));
    expect(Object.keys(stats.byNamespace).sort()).toEqual(['team-a', 'team-b']);
    expect(stats.byNamespace['team-b']).toEqual({ calls: 1, inputTokens: 120, outputTokens: 30 });

    // the flush report counts what this flush applied (a second flush with nothing to do counts nothing)
    expect(report.derivation.inputTokens).toBe(stats.inputTokens);
    const idle = await memory.flush();
    expect([idle.derivation.results, idle.derivation.inputTokens, idle.derivation.byModel]).toEqual([0, 0, {}]);

    // usage() reads the ledger: the same sums, per namespace, never another namespace's
    const usageA = await memory.usage({ namespace: 'team-a' });
    const usageB = await memory.usage({ namespace: 'team-b' });
    expect(usageA.total.inputTokens + usageB.total.inputTokens).toBe(stats.inputTokens);
    expect(usageB).toMatchObject({ namespace: 'team-b', total: { calls: 1, inputTokens: 120, outputTokens: 30 }, byModel: { 'small-model': { calls: 1 } } });
    expect(Object.keys(usageA.bySession)).toEqual([a.id]);
    expect(usageA.byJobType.summarize?.calls).toBe(summarized);
    expect(await memory.usage({ namespace: 'team-a', sessionId: a.id })).toMatchObject({ sessionId: a.id, total: usageA.total });
    expect(await memory.usage({ namespace: 'nobody' })).toMatchObject({ jobs: 0, total: { calls: 0, inputTokens: 0, outputTokens: 0 }, byModel: {} });

    // another namespace's session is reported exactly like a session that does not exist
    const foreign = await memory.usage({ namespace: 'team-a', sessionId: b.id }).catch((e: unknown) => e);
    const missing = await memory.usage({ namespace: 'team-a', sessionId: 'no-such-session' }).catch((e: unknown) => e);
    expect(StrataError.is(foreign, 'NOT_FOUND') && StrataError.is(missing, 'NOT_FOUND')).toBe(true);
    expect((foreign as StrataError).message.replace(b.id, 'X')).toBe((missing as StrataError).message.replace('no-such-session', 'X'));
    await expect(memory.usage({ namespace: '' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });

    // forgetting a session forgets its jobs, and their usage with them
    await memory.sessions.delete(b.id);
    expect((await memory.usage({ namespace: 'team-b' })).total.calls).toBe(0);
  });
});

describe('thread selection on a model', () => {
  it('its calls count in stats (totals, threadSelection, model, namespace), not in the job ledger', async () => {
    const selector: ThreadSelector = {
      selectParents: async (requests, onUsage) => {
        for (const request of requests) if (request.candidates.length) onUsage?.({ inputTokens: 11, outputTokens: 1, model: 'selector-model' });
        return requests.map(() => null);
      },
    };
    const { memory } = await createTestMemory({ threadSelector: selector, queue: createInProcessJobQueue() });
    const session = await memory.sessions.create({ namespace: 'ns' });
    // a user turn has candidates once replies before it are attached
    await memory.append(session.id, [
      { role: 'user', content: 'We should plan the trip.' },
      { role: 'assistant', content: 'Where would you like to go?' },
    ]);
    await memory.flush();
    for (const content of ['Somewhere by the sea.', 'Maybe in May.'])
      await memory.append(session.id, [
        { role: 'user', content },
        { role: 'assistant', content: 'Noted.' },
      ]);
    const report = await memory.flush();
    const stats = memory.stats().derivation;
    const calls = stats.threadSelection.calls;
    expect(calls).toBeGreaterThan(0);
    expect(stats.threadSelection).toEqual({ calls, inputTokens: 11 * calls, outputTokens: calls });
    expect(stats.byModel['selector-model']).toEqual(stats.threadSelection);
    expect(stats.byNamespace.ns).toEqual(stats.threadSelection);
    expect([stats.modelCalls, stats.inputTokens]).toEqual([calls, 11 * calls]);
    expect(report.derivation.threadSelection.calls).toBeGreaterThan(0);
    expect(report.derivation.threadSelection.calls).toBeLessThanOrEqual(calls);
    // usage() reads the ledger: jobs only
    expect((await memory.usage({ namespace: 'ns' })).total.calls).toBe(0);
  });
});

describe('usage keys are data', () => {
  it('a model or namespace named __proto__ is counted under that name, and no prototype changes', async () => {
    const odd: FactExtractor = {
      name: 'odd',
      extract: async ({ onUsage }) => {
        onUsage?.({ inputTokens: 7, outputTokens: 3, model: '__proto__' });
        return [];
      },
    };
    const { memory } = await createTestMemory({ extractor: odd, queue: createInProcessJobQueue() });
    const session = await memory.sessions.create({ namespace: '__proto__' });
    await memory.append(session.id, { role: 'user', content: 'Hello there.' });
    await memory.flush();
    const stats = memory.stats().derivation;
    expect(Object.keys(stats.byModel)).toEqual(['__proto__']);
    expect(Object.hasOwn(stats.byNamespace, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(stats.byModel)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).inputTokens).toBeUndefined();
    const usage = await memory.usage({ namespace: '__proto__' });
    expect(Object.keys(usage.byModel)).toEqual(['__proto__']);
    expect(usage.total).toEqual({ inputTokens: 7, outputTokens: 3, calls: 1 });
  });
});

describe('retry backoff', () => {
  /** Runs `jobs` jobs that fail once, and returns how long each waited for its retry. */
  async function retryWaits(jitter: number | undefined, jobs: number): Promise<number[]> {
    const queue: JobQueue = createInProcessJobQueue({ backoffMs: 200, attempts: 2, concurrency: jobs, ...(jitter === undefined ? {} : { jitter }) });
    const failedAt = new Map<string, number>();
    const waits: number[] = [];
    const runtime: JobRuntime = {
      derive: async (job) => {
        const first = failedAt.get(job.key);
        if (first === undefined) {
          failedAt.set(job.key, performance.now());
          throw new StrataError('BACKEND_UNAVAILABLE', 'down', { hint: 'wait', retryable: true });
        }
        waits.push(performance.now() - first);
        return { job, turnVectors: [], facts: [], degraded: false } as never;
      },
      apply: async () => undefined,
    };
    await queue.start(runtime);
    await queue.enqueue(Array.from({ length: jobs }, (_, i) => ({ key: `ingest:s:${i}`, type: 'ingest' as const, sessionId: 's', namespace: 'n', fromSeq: i, toSeq: i, turns: [], knownFacts: [] })));
    await queue.drain();
    await queue.close();
    return waits;
  }

  it('is jittered by default: jobs failing together retry spread over the last half of the backoff, not in step', async () => {
    const waits = await retryWaits(undefined, 12);
    expect(waits).toHaveLength(12);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(95);
    expect(Math.max(...waits) - Math.min(...waits)).toBeGreaterThan(15);
  });

  it('jitter 0 retries after exactly the backoff; a jitter outside 0-1 is refused', async () => {
    const waits = await retryWaits(0, 4);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(195);
    expect(() => createInProcessJobQueue({ jitter: 1.5 })).toThrow(/jitter must be a number from 0 to 1/);
  });
});

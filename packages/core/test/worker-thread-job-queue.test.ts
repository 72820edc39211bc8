import { isMainThread, threadId } from 'node:worker_threads';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { createInProcessJobQueue } from '../src/adapters/queues/in-process-job-queue.js';
import { createWorkerThreadJobQueue } from '../src/adapters/queues/worker-thread-job-queue.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import { steppingClock } from './helpers.js';

const POLICY = { immediate: { maxMessages: 6, minMessages: 2 }, working: { batchMessages: 3, maxSummaries: 3 } };
const TAGGING = fileURLToPath(new URL('./fixtures/thread-tagging-models.ts', import.meta.url));
const UNSENDABLE = fileURLToPath(new URL('./fixtures/unsendable-models.ts', import.meta.url));
const CRASH_ONCE = fileURLToPath(new URL('./fixtures/crash-once-models.ts', import.meta.url));

const HISTORY = Array.from({ length: 90 }, (_, i) => ({
  role: i % 2 ? ('assistant' as const) : ('user' as const),
  name: i % 2 ? 'Ana' : 'Ben',
  content: i % 2 ? `I moved my pottery class to Thursday ${i}, and I adopted a cat named Miso last week.` : `What happened with the pottery class, round ${i}?`,
}));

async function derivedWith(queue: JobQueue) {
  const memory = await createMemory({ queue, policy: POLICY, clock: steppingClock() });
  const session = await memory.sessions.create({ namespace: 'ns' });
  await memory.append(session.id, HISTORY);
  await memory.flush();
  const context = await memory.getContext(session.id, { query: 'pottery class', budgetTokens: 1_500 });
  const facts = (await memory.facts.list({ namespace: 'ns', includeSuperseded: true })).map((f) => f.text).sort();
  const bundle = JSON.parse(await memory.export(session.id, { format: 'json' })) as { sessions: { summaries: { level: string; text: string; fromSeq: number }[] }[] };
  // batch summaries only: which batches a synopsis folds depends on when its job was planned, so on timing
  const summaries = (bundle.sessions[0]?.summaries ?? [])
    .filter((s) => s.level === 'batch')
    .map((s) => `${s.fromSeq} ${s.text}`)
    .sort();
  const pending = await queue.pending();
  await memory.close();
  return { context, facts, summaries, pending };
}

describe('WorkerThreadJobQueue: derivation off the event loop', () => {
  it('derives on a worker thread, applies here: summaries say which thread wrote them', async () => {
    expect(isMainThread).toBe(true);
    const { context, pending } = await derivedWith(createWorkerThreadJobQueue({ modelsModule: TAGGING }));
    expect(pending).toEqual([]);
    const working = context.manifest.filter((item) => item.tier === 'working');
    expect(working.length).toBeGreaterThan(0);
    const system = String(context.messages[0]?.content ?? '');
    const tags = new Set([...system.matchAll(/thread (\d+):/g)].map((m) => Number(m[1])));
    expect(tags.size).toBeGreaterThan(0);
    expect(tags.has(threadId)).toBe(false);
  });

  it('the offline models on the thread store what the in-process queue stores', async () => {
    const inThread = await derivedWith(createWorkerThreadJobQueue({ policy: POLICY }));
    const inProcess = await derivedWith(createInProcessJobQueue());
    expect(inThread.facts.length).toBeGreaterThan(0);
    expect(inThread.facts).toEqual(inProcess.facts);
    expect(inThread.summaries.length).toBeGreaterThan(0);
    expect(inThread.summaries).toEqual(inProcess.summaries);
  });

  it('an error from the thread keeps its code: bad input is not retried, the job is failed', async () => {
    const queue = createWorkerThreadJobQueue({ modelsModule: TAGGING, attempts: 3, backoffMs: 1 });
    const memory = await createMemory({ queue, policy: POLICY, clock: steppingClock() });
    const session = await memory.sessions.create({ namespace: 'ns' });
    await memory.append(session.id, [
      { role: 'user', content: 'poison pill one' },
      { role: 'assistant', content: 'poison pill two' },
      { role: 'user', content: 'poison pill three' },
      ...HISTORY.slice(0, 9),
    ]);
    await memory.flush();
    const failed = (await queue.pending()).filter((job) => job.state === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((job) => job.attempts === 1)).toBe(true);
    expect(failed[0]?.error).toContain('cannot be embedded');
    await memory.close();
  });

  it('a thread that dies mid-job fails it as retryable; the retry runs on a new thread and lands', async () => {
    const marker = join(mkdtempSync(join(tmpdir(), 'strata-crash-')), 'crashed');
    process.env.STRATA_TEST_CRASH_MARKER = marker;
    try {
      const queue = createWorkerThreadJobQueue({ modelsModule: CRASH_ONCE, attempts: 3, backoffMs: 1 });
      const { context, pending } = await derivedWith(queue);
      expect(existsSync(marker)).toBe(true);
      expect(pending).toEqual([]);
      expect(context.manifest.some((item) => item.tier === 'working')).toBe(true);
    } finally {
      delete process.env.STRATA_TEST_CRASH_MARKER;
      rmSync(dirname(marker), { recursive: true, force: true });
    }
  });

  it('a result that cannot cross the thread fails its job for good, with a hint, and the thread lives on', async () => {
    const queue = createWorkerThreadJobQueue({ modelsModule: UNSENDABLE, attempts: 3, backoffMs: 1 });
    const { pending, summaries } = await derivedWith(queue);
    const failed = pending.filter((job) => job.state === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((job) => job.type === 'ingest' && job.attempts === 1)).toBe(true);
    expect(failed[0]?.error).toContain('could not be sent from the thread');
    // summaries carry no facts: they still derive on the same thread
    expect(summaries.length).toBeGreaterThan(0);
  });

  it('close ends the thread: the process is not kept alive, later calls fail CLOSED', async () => {
    const queue = createWorkerThreadJobQueue({ policy: POLICY });
    const memory = await createMemory({ queue, policy: POLICY, clock: steppingClock() });
    const session = await memory.sessions.create({ namespace: 'ns' });
    await memory.append(session.id, HISTORY.slice(0, 12));
    await memory.close();
    await expect(queue.enqueue([])).rejects.toMatchObject({ code: 'CLOSED' });
  });
});

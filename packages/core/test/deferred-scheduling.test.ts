import { describe, expect, it } from 'vitest';
import { createMemory } from '../src/create-memory.js';
import { createInProcessJobQueue } from '../src/adapters/queues/in-process-job-queue.js';
import { InlineJobQueue } from '../src/adapters/queues/inline-job-queue.js';
import type { JobQueue } from '../src/ports/job-queue.js';
import type { DeriveJob } from '../src/domain/jobs.js';
import type { BackgroundError } from '../src/services/background-errors.js';

/** The in-process queue, counting the enqueue calls (one per planning that found work). */
function countingQueue(inner: JobQueue): JobQueue & { enqueues: DeriveJob[][] } {
  const enqueues: DeriveJob[][] = [];
  return {
    enqueues,
    derivesInline: inner.derivesInline,
    keepsJobs: inner.keepsJobs,
    start: (runtime) => inner.start(runtime),
    enqueue: async (jobs) => {
      enqueues.push(jobs);
      await inner.enqueue(jobs);
    },
    pending: (sessionId) => inner.pending(sessionId),
    drain: () => inner.drain(),
    close: () => inner.close(),
  };
}

const turns = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `turn ${from + i}: I went hiking near Lake Bled on day ${from + i}.` }));

describe('planning derivation after append (deferred to the next macrotask)', () => {
  it('append returns before planning; planning then runs once for the appends in between', async () => {
    const queue = countingQueue(createInProcessJobQueue());
    const memory = await createMemory({ queue });
    const session = await memory.sessions.create({ namespace: 'n' });
    for (const turn of turns(12)) await memory.append(session.id, turn);
    expect(queue.enqueues).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    // one planning for twelve appends: one ingest job covering all of them
    expect(queue.enqueues.length).toBe(1);
    expect(queue.enqueues[0]?.filter((job) => job.type === 'ingest').map((job) => [job.fromSeq, job.toSeq])).toEqual([[1, 12]]);
    await memory.close();
  });

  it('getContext waits for the planning of its session: its pending report lists the jobs', async () => {
    const queue = countingQueue(createInProcessJobQueue());
    const memory = await createMemory({ queue });
    const session = await memory.sessions.create({ namespace: 'n' });
    await memory.append(session.id, turns(4));
    let macrotaskRan = false;
    setImmediate(() => (macrotaskRan = true));
    const context = await memory.getContext(session.id, { query: 'hiking' });
    expect(context.pending.jobs.map((job) => job.type)).toContain('ingest');
    // it planned at once rather than after the next macrotask (where queued derivation runs)
    expect(macrotaskRan).toBe(false);
    expect(queue.enqueues.length).toBe(1);
    await memory.close();
  });

  it('flush applies what was appended just before; close waits for planning started by a last append', async () => {
    const errors: BackgroundError[] = [];
    const memory = await createMemory({ onError: (event) => errors.push(event) });
    const session = await memory.sessions.create({ namespace: 'n' });
    await memory.append(session.id, turns(30));
    await memory.flush();
    const hits = await memory.search({ namespace: 'n', query: 'Lake Bled hiking', kinds: ['fact', 'summary'] });
    expect(hits.length).toBeGreaterThan(0);
    await memory.append(session.id, turns(2, 30));
    await memory.close();
    expect(errors).toEqual([]);
  });

  it('with a queue that derives inline, derivation has landed when append returns', async () => {
    const memory = await createMemory({ queue: new InlineJobQueue() });
    const session = await memory.sessions.create({ namespace: 'n' });
    await memory.append(session.id, turns(30));
    const summaries = await memory.search({ namespace: 'n', query: 'Lake Bled hiking', kinds: ['summary'] });
    expect(summaries.length).toBeGreaterThan(0);
    await memory.close();
  });
});

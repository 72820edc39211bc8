import { describe, expect, it } from 'vitest';
import type { DeriveJob, JobRef } from '@strata/core';
import { KeyTracker } from '../src/key-tracker.js';
import type { CheckOutcome, Tracked } from '../src/key-tracker.js';

const job = (fromSeq: number): DeriveJob => ({
  key: `summarize:s:${fromSeq}-${fromSeq + 1}`, type: 'summarize', sessionId: 's', namespace: 'n', fromSeq, toSeq: fromSeq + 1, turns: [],
});
const refOf = ({ key, type, sessionId, namespace, fromSeq, toSeq }: DeriveJob): JobRef => ({ key, type, sessionId, namespace, fromSeq, toSeq });

/** A tracker whose checks answer from `answer`, recording what was checked and requeued. */
function trackerWith(answer: (items: Tracked[]) => CheckOutcome) {
  const requeued: DeriveJob[][] = [];
  const errors: unknown[] = [];
  const tracker = new KeyTracker({
    pollMs: 5,
    check: async (items) => answer(items),
    requeue: async (jobs) => void requeued.push(jobs),
    onError: (error) => errors.push(error),
  });
  return { tracker, requeued, errors };
}

const inFlight = (): CheckOutcome => ({ settled: [], lost: [] });

describe('KeyTracker', () => {
  it('drain resolves at once with nothing tracked, and when the last job settles', async () => {
    const { tracker } = trackerWith(inFlight);
    await tracker.drain();
    tracker.track(job(1));
    tracker.track(job(3));
    let isDrained = false;
    const drained = tracker.drain().then(() => (isDrained = true));
    tracker.settle(job(1).key);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isDrained).toBe(false);
    tracker.settle(job(3).key);
    await drained;
    tracker.close();
  });

  it('a job a check finds failed for good settles; a lost job is enqueued again, a lost reference forgotten', async () => {
    let round = 0;
    const { tracker, requeued } = trackerWith((items) => {
      round += 1;
      if (round === 1) return { settled: [job(1).key], lost: items.filter((item) => item.key !== job(1).key) };
      return { settled: items.map((item) => item.key), lost: [] };
    });
    tracker.track(job(1));
    tracker.track(job(3));
    tracker.adopt(refOf(job(5)));
    await tracker.drain();
    expect(requeued).toEqual([[job(3)]]);
    tracker.close();
  });

  it('adopting a key this run tracks keeps the whole job; close releases drains', async () => {
    const { tracker, requeued } = trackerWith((items) => ({ settled: [], lost: items }));
    tracker.track(job(1));
    tracker.adopt(refOf(job(1)));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(requeued.length).toBeGreaterThan(0);
    expect(requeued.every((jobs) => jobs.length === 1 && 'turns' in (jobs[0] as DeriveJob))).toBe(true);
    const drained = tracker.drain();
    tracker.close();
    await drained;
  });

  it('a job settled while a check runs is not taken for lost (it would be applied twice)', async () => {
    let release = (): void => undefined;
    const checking = new Promise<void>((resolve) => (release = resolve));
    let isChecking = false;
    const requeued: DeriveJob[][] = [];
    const tracker = new KeyTracker({
      pollMs: 5,
      check: async (items) => {
        isChecking = true;
        await checking; // meanwhile the job is applied: Redis no longer has it
        return { settled: [], lost: items };
      },
      requeue: async (jobs) => void requeued.push(jobs),
      onError: (error) => {
        throw error;
      },
    });
    tracker.track(job(1));
    while (!isChecking) await new Promise((resolve) => setTimeout(resolve, 2));
    tracker.settle(job(1).key);
    release();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(requeued).toEqual([]);
    tracker.close();
  });

  it('a failing check is reported and retried at the next poll', async () => {
    let calls = 0;
    const { tracker, errors } = trackerWith((items) => {
      calls += 1;
      if (calls === 1) throw new Error('Redis is restarting');
      return { settled: items.map((item) => item.key), lost: [] };
    });
    tracker.track(job(1));
    await tracker.drain();
    expect(errors).toEqual([new Error('Redis is restarting')]);
    tracker.close();
  });
});

import { describe, expect, it } from 'vitest';
import type { DeriveJob, JobRef } from '@strata/core';
import { KeyTracker } from '../src/key-tracker.js';
import type { CheckOutcome, Tracked } from '../src/key-tracker.js';
import { within } from './fixtures/wait.js';

const job = (fromSeq: number): DeriveJob => ({
  key: `summarize:s:${fromSeq}-${fromSeq + 1}`,
  type: 'summarize',
  sessionId: 's',
  namespace: 'n',
  fromSeq,
  toSeq: fromSeq + 1,
  turns: [],
});
const refOf = ({ key, type, sessionId, namespace, fromSeq, toSeq }: DeriveJob): JobRef => ({ key, type, sessionId, namespace, fromSeq, toSeq });
const HOUR = 3_600_000;

/** A tracker whose checks answer from `answer`, recording every check and requeue. No safety check within a test unless asked. */
function trackerWith(answer: (items: Tracked[]) => CheckOutcome | Promise<CheckOutcome>, safetyCheckMs = HOUR) {
  const checks: string[][] = [];
  const requeued: DeriveJob[][] = [];
  const errors: unknown[] = [];
  let onCheck = (): void => undefined;
  const tracker = new KeyTracker({
    safetyCheckMs,
    check: async (items) => {
      checks.push(items.map((item) => item.key));
      onCheck();
      return answer(items);
    },
    requeue: async (jobs) => void requeued.push(jobs),
    onError: (error) => errors.push(error),
  });
  /** Resolves at the next check (set before what triggers it). */
  const nextCheck = (): Promise<void> => new Promise((resolve) => (onCheck = resolve));
  return { tracker, checks, requeued, errors, nextCheck };
}

const inFlight = (): CheckOutcome => ({ settled: [], lost: [] });
const goneFromRedis = (items: Tracked[]): CheckOutcome => ({ settled: [], lost: items });
const failedForGood = (items: Tracked[]): CheckOutcome => ({ settled: items.map((item) => item.key), lost: [] });

/** True while `promise` has not resolved once pending callbacks and I/O callbacks have run. */
async function isPending(promise: Promise<unknown>): Promise<boolean> {
  let isDone = false;
  void promise.then(() => (isDone = true));
  await new Promise((resolve) => setImmediate(resolve));
  return !isDone;
}

describe('KeyTracker', () => {
  it('drain resolves at once with nothing tracked, and when the last job settles; nothing is read from Redis', async () => {
    const { tracker, checks } = trackerWith(inFlight);
    await tracker.drain();
    tracker.track(job(1));
    tracker.track(job(3));
    const drained = tracker.drain();
    tracker.settle(job(1).key);
    expect(await isPending(drained)).toBe(true);
    tracker.settle(job(3).key);
    await within(drained, 1000, 'drain after the last settle');
    expect(checks).toEqual([]);
    tracker.close();
  });

  it('an "applied" event settles its key once a check finds it gone, without enqueuing it again', async () => {
    const { tracker, checks, requeued } = trackerWith(goneFromRedis);
    tracker.track(job(1));
    tracker.track(job(3));
    const drained = tracker.drain();
    tracker.report(job(1).key, 'applied');
    tracker.report('summarize:other:1-2', 'applied'); // not tracked here: ignored
    tracker.report(job(3).key, 'applied');
    await within(drained, 1000, 'drain after both events');
    expect(checks.flat().sort()).toEqual([job(1).key, job(3).key].sort());
    expect(requeued).toEqual([]);
  });

  it('an "applied" event of an earlier enqueue does not settle the key while its new job is in flight', async () => {
    const { tracker, nextCheck } = trackerWith(inFlight);
    tracker.track(job(1));
    const drained = tracker.drain();
    const checked = nextCheck();
    tracker.report(job(1).key, 'applied');
    await within(checked, 1000, 'the check of the event');
    expect(await isPending(drained)).toBe(true);
    tracker.settle(job(1).key);
    await within(drained, 1000, 'drain after the settle');
  });

  it('a "failed" event settles a job a check finds failed for good', async () => {
    const { tracker, requeued } = trackerWith(failedForGood);
    tracker.track(job(1));
    const drained = tracker.drain();
    tracker.report(job(1).key, 'failed');
    await within(drained, 1000, 'drain after the failure');
    expect(requeued).toEqual([]);
  });

  it('after a reconnect every tracked job is checked: a lost job is enqueued again (whole), a lost reference forgotten', async () => {
    let round = 0;
    const { tracker, requeued, checks } = trackerWith((items) => {
      round += 1;
      if (round === 1) return { settled: [job(1).key], lost: items.filter((item) => item.key !== job(1).key) };
      return failedForGood(items);
    });
    tracker.track(job(1));
    tracker.track(job(3));
    tracker.adopt(refOf(job(5)));
    tracker.adopt(refOf(job(3))); // this run's whole job wins over a reference
    const drained = tracker.drain();
    tracker.recheck();
    expect(await isPending(drained)).toBe(true); // job(3) is enqueued again, not settled
    expect(requeued).toEqual([[job(3)]]);
    tracker.recheck();
    await within(drained, 1000, 'drain after the second check');
    expect(checks).toEqual([[job(1).key, job(3).key, job(5).key], [job(3).key]]);
  });

  it('a job settled while a check runs is not taken for lost (it would be applied twice)', async () => {
    let release = (): void => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { tracker, requeued, nextCheck } = trackerWith(async (items) => {
      await gate; // meanwhile job(1) is applied here: Redis no longer has it
      return { settled: [job(3).key], lost: items.filter((item) => item.key === job(1).key) };
    });
    tracker.track(job(1));
    tracker.track(job(3));
    const checking = nextCheck();
    tracker.recheck();
    await within(checking, 1000, 'the check');
    tracker.settle(job(1).key);
    release();
    await within(tracker.drain(), 1000, 'drain once job(3) is found failed');
    expect(requeued).toEqual([]);
  });

  it('a failing check is reported and its keys stay due until the next trigger', async () => {
    let calls = 0;
    const { tracker, errors, checks } = trackerWith((items) => {
      calls += 1;
      if (calls === 1) throw new Error('Redis is restarting');
      return goneFromRedis(items);
    });
    tracker.track(job(1));
    const drained = tracker.drain();
    tracker.report(job(1).key, 'applied');
    expect(await isPending(drained)).toBe(true);
    expect(errors).toEqual([new Error('Redis is restarting')]);
    tracker.recheck(); // the connection is back: the "applied" event is confirmed now
    await within(drained, 1000, 'drain after the retried check');
    expect(checks).toEqual([[job(1).key], [job(1).key]]);
  });

  it('the safety check finds a lost job with no event and no reconnect', async () => {
    const { tracker, requeued, nextCheck } = trackerWith(goneFromRedis, 5);
    const checked = nextCheck();
    tracker.track(job(1));
    await within(checked, 1000, 'the safety check');
    await within(new Promise<void>((resolve) => setImmediate(resolve)), 1000, 'the requeue');
    expect(requeued[0]).toEqual([job(1)]);
    tracker.close();
  });

  it('a backlog is checked in bounded rounds, each key once', async () => {
    const { tracker, checks } = trackerWith(failedForGood);
    for (let i = 0; i < 1200; i++) tracker.track(job(2 * i + 1));
    tracker.recheck();
    await within(tracker.drain(), 1000, 'drain of the backlog');
    expect(checks.map((keys) => keys.length)).toEqual([500, 500, 200]);
  });

  it('close releases drains and ignores later events', async () => {
    const { tracker, checks } = trackerWith(goneFromRedis);
    tracker.track(job(1));
    const drained = tracker.drain();
    tracker.close();
    await within(drained, 1000, 'drain after close');
    tracker.report(job(1).key, 'applied');
    tracker.recheck();
    await tracker.drain();
    expect(checks).toEqual([]);
  });
});

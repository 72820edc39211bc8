import type { Redis } from 'ioredis';
import type { DeriveJob, JobRef } from '@strata/core';
import type { CheckOutcome, Tracked } from './key-tracker.js';
import { presenceOfMany } from './queues.js';
import type { StrataQueues } from './queues.js';

/**
 * Where tracked jobs stand in Redis: settled when one of their BullMQ jobs failed for good,
 * lost when neither a derive nor an apply job exists (Redis lost its data), else in flight.
 * Applied jobs never get here: the apply worker settles them itself.
 */
export async function checkKeys(client: Redis, queues: StrataQueues, items: Tracked[]): Promise<CheckOutcome> {
  const presences = await presenceOfMany(client, queues, items);
  const outcome: CheckOutcome = { settled: [], lost: [] };
  items.forEach((item, i) => {
    const p = presences[i];
    if (p === undefined || p.derive === 'live' || p.apply === 'live') return;
    if (p.derive === 'failed' || p.apply === 'failed') outcome.settled.push(item.key);
    else outcome.lost.push(item);
  });
  return outcome;
}

export function refOf(job: DeriveJob | JobRef): JobRef {
  return { key: job.key, type: job.type, sessionId: job.sessionId, namespace: job.namespace, fromSeq: job.fromSeq, toSeq: job.toSeq };
}

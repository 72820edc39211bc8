import type { Redis } from 'ioredis';
import type { Job } from 'bullmq';
import type { PendingJob } from '@strata/core';
import type { IndexEntry, PendingIndex } from './pending-index.js';
import { presenceOf } from './queues.js';
import type { StrataQueues } from './queues.js';
import { jobIdOf } from './redis-keys.js';

/**
 * Jobs enqueued and not yet applied, oldest first: queued or running in a derive queue,
 * results waiting in the apply queue, and failed ones, with attempts and the last error.
 * Reads the index of the session (or of all sessions), then each listed job's state.
 */
export async function readPending(client: Redis, queues: StrataQueues, index: PendingIndex, sessionId?: string): Promise<PendingJob[]> {
  const entries = await index.entries(sessionId);
  const listed = await Promise.all(entries.map((entry) => describeEntry(client, queues, index, entry)));
  return listed.filter((job): job is PendingJob => job !== null);
}

async function describeEntry(client: Redis, queues: StrataQueues, index: PendingIndex, entry: IndexEntry): Promise<PendingJob | null> {
  const { ref } = entry;
  const id = jobIdOf(ref.key);
  const [applying, deriving] = await Promise.all([queues.apply.getJob(id), queues.derive[ref.type].getJob(id)]);
  const job: Job | undefined = applying ?? deriving;
  const base = { key: ref.key, type: ref.type, sessionId: ref.sessionId, fromSeq: ref.fromSeq, toSeq: ref.toSeq };
  if (job === undefined) {
    // Between two reads the job may have moved from derive to apply: ask again, atomically.
    const presence = await presenceOf(client, queues, ref);
    if (presence.derive === 'none' && presence.apply === 'none') {
      await index.remove(ref, entry.token);
      return null;
    }
    return { ...base, state: 'running', attempts: 1 };
  }
  const state = await job.getState();
  if (job === applying && (state === 'completed' || state === 'unknown')) return null;
  const attempts = Math.max(job.attemptsMade, job.attemptsStarted ?? 0);
  const shown: PendingJob['state'] = state === 'failed' ? 'failed' : state === 'active' || state === 'completed' || state === 'unknown' ? 'running' : 'queued';
  const listed: PendingJob = { ...base, state: shown, attempts };
  return job.failedReason ? { ...listed, error: job.failedReason } : listed;
}

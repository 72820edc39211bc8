import { describe, it } from 'vitest';
import type { JobQueue } from '@strata/core';
import { describeJobQueueContract } from '@strata/testkit';
import { createBullMqJobQueue } from '../src/index.js';
import { REDIS_URL, deleteKeys, redisUnavailable, uniquePrefix } from './redis-server.js';

const unavailable = await redisUnavailable();

// Each test gets its own prefix, whose keys are deleted in destroy.
const prefixes = new Map<JobQueue, string>();

if (unavailable === null) {
  describeJobQueueContract(`BullMqJobQueue (${REDIS_URL})`, {
    create: async () => {
      const prefix = uniquePrefix();
      const queue = await createBullMqJobQueue({ url: REDIS_URL, prefix, attempts: 3, backoffMs: 5 });
      prefixes.set(queue, prefix);
      return queue;
    },
    destroy: async (queue) => {
      const prefix = prefixes.get(queue);
      prefixes.delete(queue);
      if (prefix !== undefined) await deleteKeys(prefix);
    },
  });
} else {
  describe.skip(`worker: ${unavailable}`, () => {
    it('JobQueue contract', () => {});
  });
}

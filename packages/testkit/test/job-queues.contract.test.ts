import { InProcessJobQueue, createInlineJobQueue } from '@strata/core';
import { describeJobQueueContract } from '../src/job-queue-contract.js';

describeJobQueueContract('InlineJobQueue', {
  create: async () => createInlineJobQueue(),
  inline: true,
});

describeJobQueueContract('InProcessJobQueue', {
  create: async () => new InProcessJobQueue({ backoffMs: 5 }),
});

import type { Command } from 'commander';
import { StrataError } from '@strata/core';

/** `strata worker`: runs derivation jobs from Redis (BullMQ). */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('process derivation jobs from Redis (BullMQ): summaries, facts, embeddings')
    .action(() => {
      throw new StrataError('CONFIG_INVALID', 'strata worker is not available in this build: the BullMQ worker package is not ready yet', {
        hint: 'Run without --redis-url: the in-process queue derives summaries and facts inside each strata command.',
      });
    });
}

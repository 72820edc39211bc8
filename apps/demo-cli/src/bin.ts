#!/usr/bin/env node
import { Command } from 'commander';
import { StrataError } from '@strata/core';
import { runDemo } from './commands/demo.js';
import { loadConfig } from './config.js';

// `strata demo | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const program = new Command()
  .name('strata')
  .description('strata: multi-tier memory for LLM agents')
  .option('--data-dir <dir>', 'directory of the SQLite files (env STRATA_DATA_DIR)')
  .option('--chroma-url <url>', 'keep the knowledge base on a Chroma server (env STRATA_CHROMA_URL)')
  .showHelpAfterError();

program
  .command('demo')
  .description('run a scripted, offline conversation that shows the memory tiers at work')
  .action(async () => runDemo(loadConfig(program.opts<{ dataDir?: string; chromaUrl?: string }>())));

program.parseAsync(process.argv).catch((error: unknown) => {
  if (StrataError.is(error)) {
    process.stderr.write(`error: ${error.message}\nhint: ${error.hint}\n`);
    process.exit(error.code === 'BACKEND_UNAVAILABLE' ? 2 : 1);
  }
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

import { Option, type Command } from 'commander';
import { pc } from '../format/colors.js';
import { formatTime, print, printJson } from '../format/output.js';
import { clip, renderTable } from '../format/table.js';
import { configOf, positiveInt } from '../run-command.js';
import type { DeriveQueueName, WorkerEvent, wireQueueAdmin } from '../wiring.js';

const QUEUES: DeriveQueueName[] = ['ingest', 'summarize', 'consolidate'];

interface WorkerFlags {
  concurrency: number;
  queues: DeriveQueueName[];
  stats?: boolean;
  failed?: boolean;
  redrive?: boolean;
  verbose?: boolean;
  json?: boolean;
}

/** `strata worker`: runs derivation jobs from Redis (BullMQ), or reports on the queues. */
export function registerWorkerCommand(program: Command): void {
  program
    .command('worker')
    .description('run derivation jobs (summaries, facts, embeddings) from Redis; needs --redis-url. SIGTERM / Ctrl-C finish running jobs, then exit')
    .option('--concurrency <n>', 'jobs at once, per queue', positiveInt, 4)
    .addOption(new Option('--queues <name...>', 'queues to serve').choices(QUEUES).default(QUEUES))
    .option('--stats', 'print queue depth, latency and counters, then exit')
    .option('--failed', 'list jobs that failed for good, then exit')
    .option('--redrive', 'send failed jobs back to their queue, then exit')
    .option('--verbose', 'print every job, not only retries and failures')
    .option('--json', 'print JSON (with --stats, --failed, --redrive)')
    .action(async (flags: WorkerFlags, command: Command) => {
      const { config } = await configOf(command);
      const { wireQueueAdmin, wireWorker } = await import('../wiring.js');
      if (flags.stats || flags.failed || flags.redrive) return report(wireQueueAdmin(config), flags);
      const worker = await wireWorker(config, { concurrency: flags.concurrency, queues: flags.queues, onEvent: (event) => printEvent(event, flags.verbose === true) });
      print(`strata worker: serving ${flags.queues.join(', ')} on ${config.redisUrl} (prefix "${config.redisPrefix}"), concurrency ${flags.concurrency}`);
      print(pc.dim(`models: ${config.llm ? `${config.llm.model} at ${config.llm.baseUrl}` : 'offline'}; SIGTERM or Ctrl-C stops after the running jobs`));
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          print(`${signal}: finishing running jobs`);
          void worker.close().then(resolve);
        };
        process.once('SIGTERM', () => stop('SIGTERM'));
        process.once('SIGINT', () => stop('SIGINT'));
      });
      print('worker stopped');
    });
}

async function report(admin: ReturnType<typeof wireQueueAdmin>, flags: WorkerFlags): Promise<void> {
  if (flags.redrive) {
    const { redriven } = await admin.redrive();
    return flags.json ? printJson({ redriven }) : print(`sent ${redriven.length} failed job(s) back to their queue${redriven.length ? `: ${redriven.join(', ')}` : ''}`);
  }
  if (flags.failed) {
    const failed = await admin.failed();
    if (flags.json) return printJson(failed);
    if (!failed.length) return print('no failed jobs');
    return print(
      await renderTable(
        ['key', 'queue', 'attempts', 'failed at', 'error'],
        failed.map((j) => [j.key, j.queue, String(j.attempts), formatTime(j.failedAt), clip(j.error, 60)]),
      ),
    );
  }
  const stats = await admin.stats();
  if (flags.json) return printJson(stats);
  print(
    await renderTable(
      ['queue', 'waiting', 'active', 'delayed', 'failed'],
      Object.entries(stats.queues).map(([name, d]) => [name, String(d.waiting), String(d.active), String(d.delayed), String(d.failed)]),
    ),
  );
  const l = stats.latencyMs;
  print(`\nenqueue -> applied p50 ${l.apply.p50} ms, p95 ${l.apply.p95} ms (n=${l.apply.count}); model time p50 ${l.run.p50} ms`);
  print(`derived ${stats.derived}, applied ${stats.applied}, retries ${stats.retries}, failures ${stats.failures}, stalled ${stats.stalled} (prefix "${stats.prefix}")`);
}

function printEvent(event: WorkerEvent, verbose: boolean): void {
  if (!verbose && (event.type === 'active' || event.type === 'completed')) return;
  const colour = event.type === 'failed' ? pc.red : event.type === 'completed' ? pc.green : pc.yellow;
  print(`${colour(event.type)} ${event.queue} ${event.key}${event.attempt ? ` (attempt ${event.attempt})` : ''}${event.error ? `: ${event.error}` : ''}`);
}

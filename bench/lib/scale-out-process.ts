/**
 * An app process of the scale-out bench (bench/scenarios/scale-out.ts): opens a memory on a
 * PostgreSQL schema or a SQLite file that other such processes share, prints `ready`, waits for
 * `go` on stdin, appends `appends` turns one at a time to sessions of its own (a new one every
 * `sessionTurns` turns), prints `done <json>` with its wall time and each append's duration,
 * closes the memory and exits. argv[2] is the JSON {@link AppendProcessConfig}.
 *
 * Its queue derives nothing (a scale-out app leaves derivation to worker processes): the jobs
 * that each append plans are kept as pending, so planning sees them as a real queue's backlog,
 * and none runs; the appends' wall time is the store's write path (append, planning reads, the
 * job ledger), not the models'.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { setImmediate as nextMacrotask, setTimeout as sleep } from 'node:timers/promises';
import { createMemory, type JobQueue, type Memory, type PendingJob } from '@strata/core';
import { createPostgresSessionStore, PostgresSessionStore } from '@strata/store-postgres';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import { ConversationGenerator } from './conversation-generator.js';
import { nsToMs } from './stats.js';

/** What an app process of the scale-out bench is told (argv[2], JSON). */
export interface AppendProcessConfig {
  store: 'postgres' | 'sqlite';
  postgresUrl: string;
  /** PostgreSQL schema (store `postgres`). */
  schema: string;
  /** store `sqlite`: the SQLite file of the store and the KB; store `postgres`: the KB's SQLite file. */
  path: string;
  namespace: string;
  appends: number;
  sessionTurns: number;
  seed: number;
  /**
   * A chat-paced companion (part 1): at most this many turns a second, each an append then a
   * getContext with a question (1,000-token budget), as a chat app does. Unset: appends only,
   * back to back.
   */
  chatTurnsPerSecond?: number;
}

/** What a process prints after `done `. */
export interface AppendProcessReport {
  /** From `go` to the last append returned, in this process. */
  ms: number;
  /** Each append's duration, ms. */
  samples: number[];
  /** Jobs planned by the appends (kept pending, never run). */
  jobsPlanned: number;
}

/** A queue that keeps what is enqueued as pending (deduped by key) and runs nothing. */
function parkedQueue(): JobQueue & { planned: () => number } {
  const bySession = new Map<string, Map<string, PendingJob>>();
  let planned = 0;
  return {
    derivesInline: false,
    keepsJobs: false,
    start: async () => undefined,
    enqueue: async (jobs) => {
      for (const job of jobs) {
        const pending = bySession.get(job.sessionId) ?? new Map<string, PendingJob>();
        bySession.set(job.sessionId, pending);
        if (pending.has(job.key)) continue;
        pending.set(job.key, { key: job.key, type: job.type, sessionId: job.sessionId, fromSeq: job.fromSeq, toSeq: job.toSeq, state: 'queued', attempts: 0 });
        planned += 1;
      }
    },
    pending: async (sessionId) => (sessionId === undefined ? [...bySession.values()].flatMap((m) => [...m.values()]) : [...(bySession.get(sessionId)?.values() ?? [])]),
    drain: async () => undefined,
    close: async () => undefined,
    planned: () => planned,
  };
}

async function open(config: AppendProcessConfig, queue: JobQueue): Promise<Memory> {
  const store = config.store === 'postgres' ? await createPostgresSessionStore({ url: config.postgresUrl, schema: config.schema }) : await createSqliteSessionStore({ path: config.path });
  const memory = await createMemory({ store, knowledge: await createSqliteKnowledgeBase({ path: config.path }), queue });
  if (config.chatTurnsPerSecond !== undefined && store instanceof PostgresSessionStore) {
    // a chat app that has run a while: its lexical replica of the namespace is loaded before it is timed beside
    const { id } = await memory.sessions.create({ namespace: config.namespace });
    await memory.getContext(id, { query: 'warm up', budgetTokens: 1000 });
    while (!store.lexicalReplicaStats()?.held.some((held) => held.namespace === config.namespace)) await sleep(100);
  }
  return memory;
}

async function main(): Promise<void> {
  const config = JSON.parse(process.argv[2] ?? '{}') as AppendProcessConfig;
  const queue = parkedQueue();
  const memory = await open(config, queue);
  const chat = new ConversationGenerator(config.seed);
  const lines = createInterface({ input: process.stdin });
  const go = once(lines, 'line');
  process.stdout.write('ready\n');
  await go;
  const samples: number[] = [];
  let sessionId = '';
  const started = process.hrtime.bigint();
  const pace = config.chatTurnsPerSecond === undefined ? undefined : 1000 / config.chatTurnsPerSecond;
  for (let i = 0; i < config.appends; i++) {
    if (i % config.sessionTurns === 0) sessionId = (await memory.sessions.create({ namespace: config.namespace })).id;
    const turn = chat.next();
    const before = process.hrtime.bigint();
    await memory.append(sessionId, turn);
    samples.push(nsToMs(process.hrtime.bigint() - before));
    if (pace !== undefined) {
      await memory.getContext(sessionId, { query: chat.query(), budgetTokens: 1000 });
      const next = Number(started / 1_000_000n) + (i + 1) * pace;
      await sleep(Math.max(0, next - Number(process.hrtime.bigint() / 1_000_000n)));
    }
    // as an app awaiting its model: planning, deferred by the append, runs here
    await nextMacrotask();
  }
  const report: AppendProcessReport = { ms: nsToMs(process.hrtime.bigint() - started), samples, jobsPlanned: queue.planned() };
  process.stdout.write(`done ${JSON.stringify(report)}\n`);
  lines.close();
  await memory.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`scale-out app process: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);

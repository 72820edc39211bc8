// Kept in one file: one scenario, read top to bottom: the measurement in a child process, then its report.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { createMemory, createWorkerThreadJobQueue, type Memory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import { messagesBundle } from '../lib/bulk-corpus.js';
import type { Figure } from '../lib/bench-result.js';
import { ConversationGenerator } from '../lib/conversation-generator.js';

/**
 * A history moved into the embedded default (SQLite file, offline models) as one large
 * `append`, or as one `import`, then one chat turn (append + getContext) and the derivation of
 * the backlog, watched from the event loop:
 * - the longest gap between two runs of a 1 ms interval timer (the longest the loop was held)
 *   during the write, during the chat turn, and while the backlog derives;
 * - perf_hooks.monitorEventLoopDelay (1 ms resolution) while it derives.
 * Each variant runs in a fresh Node process, so none is timed behind another's heap.
 */

const SEED = 23;
const NAMESPACE = 'bulk';
const QUESTION = 'Where did we leave the garden plans?';

interface Variant {
  /** How the history arrives: one append call, or one import of a bundle. */
  how: 'append' | 'import';
  queue: 'in-process' | 'worker-thread';
}
const VARIANTS: Variant[] = [
  { how: 'append', queue: 'in-process' },
  { how: 'append', queue: 'worker-thread' },
  { how: 'import', queue: 'in-process' },
];
const QUEUE_LABEL: Record<Variant['queue'], string> = {
  'in-process': "in-process queue (createMemory's default)",
  'worker-thread': "worker-thread queue (the CLI's default with offline models)",
};

interface Measured {
  writeMs: number;
  writeLongestMs: number;
  chatTurnMs: number;
  chatTurnLongestMs: number;
  deriveMs: number;
  deriveLongestMs: number;
  delayP50Ms: number;
  delayP99Ms: number;
  delayMaxMs: number;
}

/** The longest gap between runs of a 1 ms interval timer, from start() to stop(). */
function longestGap(): { stop: () => number } {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

async function measure(variant: Variant, turns: number): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-bulk-'));
  const path = join(dir, 'memory.sqlite');
  let memory: Memory | undefined;
  try {
    memory = await createMemory({
      store: await createSqliteSessionStore({ path }),
      knowledge: await createSqliteKnowledgeBase({ path }),
      ...(variant.queue === 'worker-thread' ? { queue: createWorkerThreadJobQueue() } : {}),
    });
    let sessionId: string;
    // the history is made before the clock and the timer start: generating it is not the write
    const history = variant.how === 'append' ? new ConversationGenerator(SEED).turns(turns) : [];
    const bundle = variant.how === 'import' ? messagesBundle(new ConversationGenerator(SEED), NAMESPACE, 0, 1, turns) : undefined;
    const created = variant.how === 'append' ? (await memory.sessions.create({ namespace: NAMESPACE })).id : undefined;
    let gap = longestGap();
    let started = performance.now();
    if (created !== undefined) {
      sessionId = created;
      await memory.append(sessionId, history);
    } else {
      sessionId = (await memory.import(bundle as NonNullable<typeof bundle>)).sessionIds[0] as string;
    }
    const writeMs = performance.now() - started;
    const writeLongestMs = gap.stop();

    gap = longestGap();
    started = performance.now();
    await memory.append(sessionId, { role: 'user', content: QUESTION });
    await memory.getContext(sessionId, { query: QUESTION, budgetTokens: 2_000 });
    const chatTurnMs = performance.now() - started;
    const chatTurnLongestMs = gap.stop();

    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    gap = longestGap();
    started = performance.now();
    await memory.flush();
    const deriveMs = performance.now() - started;
    const deriveLongestMs = gap.stop();
    delay.disable();
    const ms = (ns: number): number => ns / 1e6;
    return { writeMs, writeLongestMs, chatTurnMs, chatTurnLongestMs, deriveMs, deriveLongestMs, delayP50Ms: ms(delay.percentile(50)), delayP99Ms: ms(delay.percentile(99)), delayMaxMs: ms(delay.max) };
  } finally {
    await memory?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Set in the child process of one variant: `how queue turns`. */
const CHILD_ENV = 'STRATA_BENCH_BULK_APPEND';

function inChild(variant: Variant, turns: number): Measured {
  const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, [CHILD_ENV]: `${variant.how} ${variant.queue} ${turns}` },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (child.status !== 0) throw new Error(`bulk-append child (${variant.how}, ${variant.queue}) failed: ${child.stderr.slice(-2000)}`);
  return JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as Measured;
}

if (process.env[CHILD_ENV] !== undefined) {
  const [how, queue, turns] = (process.env[CHILD_ENV] ?? '').split(' ');
  const measured = await measure({ how: how as Variant['how'], queue: queue as Variant['queue'] }, Number(turns));
  process.stdout.write(`${JSON.stringify(measured)}\n`);
}

/** Figures of each variant, named as the targets read them. */
export function bulkAppendFigures(turns: number): Figure[] {
  const figures: Figure[] = [];
  const round = (value: number): number => +value.toFixed(1);
  for (const variant of VARIANTS) {
    const m = inChild(variant, turns);
    const label = `SQLite, ${QUEUE_LABEL[variant.queue]}, ${turns.toLocaleString('en-US')}-turn ${variant.how === 'append' ? 'single append' : 'import (one bundle)'}`;
    figures.push(
      { name: `${label}: the ${variant.how} call`, value: Math.round(m.writeMs), unit: 'ms' },
      { name: `${label}: longest block during the ${variant.how} call`, value: round(m.writeLongestMs), unit: 'ms' },
      { name: `${label}: first chat turn after it (append + getContext; target <= 50)`, value: round(m.chatTurnMs), unit: 'ms' },
      { name: `${label}: longest block during that chat turn`, value: round(m.chatTurnLongestMs), unit: 'ms' },
      { name: `${label}: derivation of the backlog (flush)`, value: Math.round(m.deriveMs), unit: 'ms' },
      { name: `${label}: event-loop delay p50 while it derives`, value: round(m.delayP50Ms), unit: 'ms' },
      { name: `${label}: event-loop delay p99 while it derives (target <= 20)`, value: round(m.delayP99Ms), unit: 'ms' },
      { name: `${label}: longest block while it derives (target <= 50)`, value: round(m.deriveLongestMs), unit: 'ms' },
    );
  }
  return figures;
}

/** `npm run bench -- bulk-append`: the figures above at 10,000 turns (--quick: 2,000). */
export async function runBulkAppendBench(options: { quick: boolean }): Promise<{ figures: Figure[]; latencies: []; notes: string[] }> {
  const turns = options.quick ? 2_000 : 10_000;
  return {
    figures: bulkAppendFigures(turns),
    latencies: [],
    notes: [
      `One SQLite file (store and knowledge base, as the CLI's default), offline models. A generated history (made before the timer starts) of ${turns.toLocaleString('en-US')} turns arrives as one memory.append call on a new session, or as one memory.import of a one-session bundle; then one chat turn (append of a question + getContext with it as the query, 2,000-token budget), then flush (the whole backlog derives).`,
      'Longest block: the longest gap between two runs of a 1 ms setInterval timer in the measured span (how long the event loop was held at once). Event-loop delay: perf_hooks.monitorEventLoopDelay, 1 ms resolution, over the flush.',
      'Each variant runs in a fresh Node process. Targets (issue: scale without cliffs): first chat turn <= 50 ms, event-loop delay p99 <= 20 ms while it derives, longest block <= 50 ms.',
    ],
  };
}

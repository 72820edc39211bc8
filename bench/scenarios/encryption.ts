import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { createMemory, type Memory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { ConversationGenerator } from '../lib/conversation-generator.js';
import { summarize } from '../lib/stats.js';

/**
 * What encryption at rest costs: two SQLite memories side by side, one plain and one encrypted
 * (SQLCipher through better-sqlite3-multiple-ciphers), fed the same turns and asked the same
 * questions, calls alternating between them so that both see the same machine load.
 */

const SEED = 31;
const SESSION_TURNS = 50;
const KEY = 'bench-only key, not a secret';

interface Sizes {
  appends: number;
  corpus: number;
  contexts: number;
}
const FULL: Sizes = { appends: 3_000, corpus: 10_000, contexts: 500 };
const QUICK: Sizes = { appends: 500, corpus: 1_000, contexts: 100 };

async function sqliteMemory(dir: string, encryptionKey?: string): Promise<Memory> {
  const options = { path: join(dir, 'memory.sqlite'), ...(encryptionKey === undefined ? {} : { encryptionKey }) };
  return createMemory({ store: await createSqliteSessionStore(options), knowledge: await createSqliteKnowledgeBase(options) });
}

async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

export async function runEncryptionBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; notes: string[] }> {
  const sizes = options.quick ? QUICK : FULL;
  const dirs = [mkdtempSync(join(tmpdir(), 'strata-plain-')), mkdtempSync(join(tmpdir(), 'strata-sealed-'))] as const;
  const memories = [await sqliteMemory(dirs[0]), await sqliteMemory(dirs[1], KEY)] as const;
  try {
    const generator = new ConversationGenerator(SEED);
    const turns = generator.turns(sizes.corpus);
    const sessions: [string, string][] = [];
    const appendSamples: [number[], number[]] = [[], []];
    // single appends, a macrotask between them (derivation runs in the gaps), then the rest in batches
    for (let i = 0; i < turns.length; i++) {
      if (i % SESSION_TURNS === 0) sessions.push([(await memories[0].sessions.create({ namespace: 'bench' })).id, (await memories[1].sessions.create({ namespace: 'bench' })).id]);
      const [plainId, sealedId] = sessions[sessions.length - 1] as [string, string];
      const turn = turns[i]!;
      if (i < sizes.appends) {
        appendSamples[0].push(await timed(() => memories[0].append(plainId, turn)));
        appendSamples[1].push(await timed(() => memories[1].append(sealedId, turn)));
        await nextMacrotask();
      } else {
        await memories[0].append(plainId, turn);
        await memories[1].append(sealedId, turn);
      }
    }
    await Promise.all(memories.map((m) => m.flush()));
    const contextSamples: [number[], number[]] = [[], []];
    for (let i = 0; i < sizes.contexts + 20; i++) {
      const pair = sessions[generator.index(sessions.length)]!;
      const query = generator.query();
      for (const side of [0, 1] as const) {
        const ms = await timed(() => memories[side].getContext(pair[side], { query, budgetTokens: 1_000 }));
        if (i >= 20) contextSamples[side].push(ms);
      }
      await nextMacrotask();
    }
    const append = appendSamples.map(summarize);
    const context = contextSamples.map(summarize);
    const ratio = (a: number, b: number): number => +(b / a).toFixed(2);
    return {
      latencies: [
        { metric: 'append 1 message, plain SQLite', summary: append[0]! },
        { metric: 'append 1 message, encrypted SQLite', summary: append[1]! },
        { metric: `getContext, ${sizes.corpus} messages, plain SQLite`, summary: context[0]! },
        { metric: `getContext, ${sizes.corpus} messages, encrypted SQLite`, summary: context[1]! },
      ],
      figures: [
        { name: 'append p99, encrypted / plain', value: ratio(append[0]!.p99, append[1]!.p99), unit: 'x' },
        { name: 'append p50, encrypted / plain', value: ratio(append[0]!.p50, append[1]!.p50), unit: 'x' },
        { name: 'getContext p99, encrypted / plain', value: ratio(context[0]!.p99, context[1]!.p99), unit: 'x' },
        { name: 'getContext p50, encrypted / plain', value: ratio(context[0]!.p50, context[1]!.p50), unit: 'x' },
      ],
      notes: [
        'Two SQLite memories (store and knowledge base on one file each), one with encryptionKey (SQLCipher 4 format, better-sqlite3-multiple-ciphers 12.11.1), fed the same generated turns in sessions of 50 and asked the same generated questions (1,000-token budget); each call is timed on one and then the other, with a macrotask after each pair, so both run under the same load.',
        `The first ${sizes.appends} turns are single appends (timed); the rest of the ${sizes.corpus} are appended untimed, then derived (flush) before getContext is timed (20 warm-up pairs).`,
      ],
    };
  } finally {
    await Promise.all(memories.map((m) => m.close()));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

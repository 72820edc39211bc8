// Kept in one file: one scenario, read top to bottom: its setup, its measurements, its report.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { Memory, MessageInput } from '@strata/core';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { importFacts, importMessages } from '../lib/bulk-corpus.js';
import { ConversationGenerator } from '../lib/conversation-generator.js';
import { summarize, timeEach, timeOnce } from '../lib/stats.js';

/** How much work each stage does; `--quick` shrinks it to finish well under 30 s. */
export interface LatencySizes {
  singleWarmup: number;
  singleAppends: number;
  batchWarmup: number;
  batches: number;
  /** Messages stored by appends (derivation flushed) before getContext is measured, one corpus each. */
  corpora: number[];
  /**
   * Messages imported into one growing namespace (one corpus, measured at each size), then
   * `facts` facts imported into it and getContext measured again.
   */
  imported: number[];
  facts: number;
  contextWarmup: number;
  contextCalls: number;
}

export const FULL_SIZES: LatencySizes = {
  singleWarmup: 200,
  singleAppends: 5000,
  batchWarmup: 5,
  batches: 100,
  corpora: [1000, 10_000],
  imported: [100_000, 1_000_000],
  facts: 100_000,
  contextWarmup: 20,
  contextCalls: 500,
};

export const QUICK_SIZES: LatencySizes = {
  singleWarmup: 100,
  singleAppends: 1000,
  batchWarmup: 3,
  batches: 20,
  corpora: [1000],
  imported: [10_000],
  facts: 10_000,
  contextWarmup: 10,
  contextCalls: 200,
};

/** Turns per session: a long-ish chat, so that tiers fill and summaries get derived. */
const SESSION_TURNS = 50;
const BATCH_SIZE = 100;
const BUDGET_TOKENS = 1000;
const NAMESPACE = 'bench';
const SEED = 20_240_601;

export interface ScenarioOutput {
  latencies: LatencyMetric[];
  figures: Figure[];
  notes?: string[];
}

const rssMb = (): number => Math.round(process.memoryUsage().rss / 1024 ** 2);

/** What a latency run measures: a way to open a fresh memory, and its size on disk if any. */
export interface MemoryTarget {
  name: string;
  open: () => Promise<Memory>;
  /** Bytes the data takes on disk now (undefined for in-process memories). */
  bytesOnDisk?: () => number;
  /** Removes what `open` created (files), after each stage. */
  cleanup?: () => void;
}

/** Runs `fn`, naming the stage in any error so a failing API call is easy to place. */
async function stage<T>(target: MemoryTarget, name: string, fn: () => Promise<T>): Promise<T> {
  const started = process.hrtime.bigint();
  try {
    const result = await fn();
    // progress on stderr: a full run takes minutes, and the Markdown comes only at the end
    process.stderr.write(`bench: ${target.name}: ${name} (${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s)\n`);
    return result;
  } catch (error) {
    throw new Error(`${target.name}: stage "${name}" failed`, { cause: error });
  }
}

/** A fresh memory of the target, closed (and its files removed) afterwards. */
async function withMemory<T>(target: MemoryTarget, fn: (memory: Memory) => Promise<T>): Promise<T> {
  const memory = await target.open();
  try {
    return await fn(memory);
  } finally {
    await memory.close();
    target.cleanup?.();
  }
}

/**
 * Single-message appends, a new session every SESSION_TURNS turns. Each append is followed by
 * an untimed macrotask, as an app awaits a model between turns: the in-process queue plans
 * and derives then, on the same thread, so appends meet a store and indexes that derivation
 * keeps changing, as in production. That work's time is not the append's: the chat turn
 * (append + getContext) and the derivation throughput measure it.
 */
async function measureSingleAppends(target: MemoryTarget, sizes: LatencySizes): Promise<LatencyMetric> {
  return withMemory(target, async (memory) => {
    const chat = new ConversationGenerator(SEED);
    let sessionId = '';
    const appendOne = async (i: number): Promise<void> => {
      if (i % SESSION_TURNS === 0) sessionId = (await memory.sessions.create({ namespace: NAMESPACE })).id;
      await memory.append(sessionId, chat.next());
    };
    const all = await timeEach(sizes.singleWarmup + sizes.singleAppends, appendOne, () => nextMacrotask());
    // The session switch is a create + append; it is rare (1 in 50) and kept in the samples.
    return { metric: 'append 1 message', summary: summarize(all.slice(sizes.singleWarmup)) };
  });
}

/**
 * A chat turn as an app runs it: append the user's message, then getContext for the model
 * call (which waits for the planning the append deferred); the assistant's reply is appended
 * untimed, then a macrotask as the app awaits its model.
 */
async function measureChatTurns(target: MemoryTarget, sizes: LatencySizes): Promise<LatencyMetric> {
  return withMemory(target, async (memory) => {
    const chat = new ConversationGenerator(SEED + 2);
    let sessionId = '';
    const turns = Math.round(sizes.singleAppends / 5);
    const warmup = Math.round(sizes.singleWarmup / 5);
    let reply: MessageInput = { role: 'assistant', content: '' };
    const all = await timeEach(
      warmup + turns,
      async (i) => {
        if (i % (SESSION_TURNS / 2) === 0) sessionId = (await memory.sessions.create({ namespace: NAMESPACE })).id;
        const [user, assistant] = chat.turns(2) as [MessageInput, MessageInput];
        reply = { ...assistant, role: 'assistant' };
        await memory.append(sessionId, { ...user, role: 'user' });
        await memory.getContext(sessionId, { query: user.content, budgetTokens: BUDGET_TOKENS });
      },
      async () => {
        await memory.append(sessionId, reply);
        await nextMacrotask();
      },
    );
    return { metric: 'chat turn: append + getContext (untimed reply, macrotask)', summary: summarize(all.slice(warmup)) };
  });
}

/** Appends of BATCH_SIZE messages, each batch opening a new session (e.g. an imported chat). */
async function measureBatchAppends(target: MemoryTarget, sizes: LatencySizes): Promise<LatencyMetric> {
  return withMemory(target, async (memory) => {
    const chat = new ConversationGenerator(SEED + 1);
    const samples: number[] = [];
    for (let i = 0; i < sizes.batchWarmup + sizes.batches; i++) {
      const session = await memory.sessions.create({ namespace: NAMESPACE });
      const turns = chat.turns(BATCH_SIZE);
      const ms = await timeOnce(() => memory.append(session.id, turns));
      if (i >= sizes.batchWarmup) samples.push(ms);
      await nextMacrotask();
    }
    return { metric: `append batch of ${BATCH_SIZE}`, summary: summarize(samples) };
  });
}

/** Stores `messages` turns in one namespace, SESSION_TURNS per session; returns the session ids. */
async function fillNamespace(memory: Memory, chat: ConversationGenerator, messages: number): Promise<string[]> {
  const ids: string[] = [];
  for (let stored = 0; stored < messages; stored += SESSION_TURNS) {
    const session = await memory.sessions.create({ namespace: NAMESPACE, title: `chat ${ids.length + 1}` });
    await memory.append(session.id, chat.turns(Math.min(SESSION_TURNS, messages - stored)));
    ids.push(session.id);
  }
  return ids;
}

const label = (messages: number): string => (messages >= 1_000_000 ? `${messages / 1_000_000}M` : messages >= 1000 ? `${messages / 1000}k` : String(messages));

/** Fills a namespace, lets derivation land (flush), then times getContext on random sessions. */
async function measureContext(target: MemoryTarget, sizes: LatencySizes, messages: number): Promise<ScenarioOutput> {
  return withMemory(target, async (memory) => {
    const chat = new ConversationGenerator(SEED + messages);
    const name = label(messages);
    let sessionIds: string[] = [];
    const fillMs = await stage(target, `fill ${name}`, async () => timeOnce(async () => (sessionIds = await fillNamespace(memory, chat, messages))));
    const flushMs = await stage(target, `flush ${name}`, () => timeOnce(() => memory.flush()));
    let tokens = 0;
    let pendingJobs = 0;
    const all = await stage(target, `getContext ${name}`, () =>
      timeEach(
        sizes.contextWarmup + sizes.contextCalls,
        async () => {
          const sessionId = sessionIds[chat.index(sessionIds.length)] as string;
          const context = await memory.getContext(sessionId, { query: chat.query(), budgetTokens: BUDGET_TOKENS });
          tokens += context.tokens;
          pendingJobs = Math.max(pendingJobs, context.pending.jobs.length);
        },
        () => nextMacrotask(),
      ),
    );
    const calls = sizes.contextWarmup + sizes.contextCalls;
    const disk = target.bytesOnDisk?.();
    return {
      latencies: [{ metric: `getContext, ${name} messages in namespace`, summary: summarize(all.slice(sizes.contextWarmup)) }],
      figures: [
        { name: `fill ${name} messages (${sessionIds.length} sessions, appends of ${SESSION_TURNS})`, value: fillMs, unit: 'ms' },
        { name: `flush after fill ${name} (derivation)`, value: flushMs, unit: 'ms' },
        { name: `derivation throughput ${name}`, value: Math.round(messages / (flushMs / 1000)), unit: 'messages/s' },
        { name: `fill + flush throughput ${name}`, value: Math.round(messages / ((fillMs + flushMs) / 1000)), unit: 'messages/s' },
        { name: `mean context tokens ${name} (budget ${BUDGET_TOKENS})`, value: Math.round(tokens / calls), unit: 'tokens' },
        { name: `most pending jobs seen by getContext ${name}`, value: pendingJobs, unit: 'jobs' },
        { name: `rss with ${name} messages loaded`, value: rssMb(), unit: 'MB' },
        ...(disk === undefined ? [] : [{ name: `bytes on disk per 1,000 messages (${name} corpus, all tiers + indexes)`, value: Math.round((disk / messages) * 1000), unit: 'bytes' }]),
      ],
    };
  });
}

/** getContext on random sessions of `sessionIds` with the generator's queries; returns the samples after warm-up. */
async function timeContext(memory: Memory, chat: ConversationGenerator, sessionIds: string[], sizes: LatencySizes): Promise<{ samples: number[]; firstMs: number }> {
  const call = async (): Promise<void> => {
    const sessionId = sessionIds[chat.index(sessionIds.length)] as string;
    await memory.getContext(sessionId, { query: chat.query(), budgetTokens: BUDGET_TOKENS });
  };
  // the first call loads what the store caches per namespace (SQLite: lexical index, vectors)
  const firstMs = await timeOnce(call);
  const all = await timeEach(sizes.contextWarmup + sizes.contextCalls, call, () => nextMacrotask());
  return { samples: all.slice(sizes.contextWarmup), firstMs };
}

/**
 * One corpus grown by `memory.import` to each size in turn (as from `strata import`: turns
 * verbatim, no derivation run), getContext measured at each; then facts imported into the
 * same namespace and getContext measured again.
 */
async function measureImported(target: MemoryTarget, sizes: LatencySizes): Promise<ScenarioOutput> {
  const out: ScenarioOutput = { latencies: [], figures: [] };
  if (sizes.imported.length === 0) return out;
  return withMemory(target, async (memory) => {
    const chat = new ConversationGenerator(SEED + 7);
    const sessionIds: string[] = [];
    let stored = 0;
    const rssStart = rssMb();
    for (const messages of sizes.imported) {
      const name = label(messages);
      const imported = await stage(target, `import to ${name}`, () =>
        importMessages(memory, { namespace: NAMESPACE, seed: SEED + messages, messages: messages - stored, turns: SESSION_TURNS, perBundle: 5000, firstSession: sessionIds.length }),
      );
      sessionIds.push(...imported.sessionIds);
      out.figures.push({ name: `import throughput, ${label(stored)} -> ${name} messages (bundles of 5,000)`, value: Math.round((messages - stored) / (imported.ms / 1000)), unit: 'messages/s' });
      stored = messages;
      const { samples, firstMs } = await stage(target, `getContext ${name} imported`, () => timeContext(memory, chat, sessionIds, sizes));
      out.latencies.push({ metric: `getContext, ${name} messages in namespace (imported)`, summary: summarize(samples) });
      out.figures.push({ name: `first getContext after import to ${name} (loads caches)`, value: firstMs, unit: 'ms' });
      out.figures.push({ name: `rss growth with ${name} imported messages`, value: rssMb() - rssStart, unit: 'MB' });
      const disk = target.bytesOnDisk?.();
      if (disk !== undefined) out.figures.push({ name: `bytes on disk per message (${name} imported, turns + indexes + vectors)`, value: Math.round(disk / messages), unit: 'bytes' });
      if (messages === sizes.imported[0] && sizes.facts > 0) {
        const factMs = await stage(target, 'import facts', () => importFacts(memory, { namespace: NAMESPACE, seed: SEED, count: sizes.facts, perBundle: 5000 }));
        out.figures.push({ name: `fact import throughput (${label(sizes.facts)} facts)`, value: Math.round(sizes.facts / (factMs / 1000)), unit: 'facts/s' });
        const withFacts = await stage(target, 'getContext with facts', () => timeContext(memory, chat, sessionIds, sizes));
        out.latencies.push({ metric: `getContext, ${name} messages + ${label(sizes.facts)} facts in namespace`, summary: summarize(withFacts.samples) });
      }
    }
    return out;
  });
}

/** A memory's latency: append (single, batch) and getContext over growing corpora. */
export async function runMemoryLatency(target: MemoryTarget, sizes: LatencySizes): Promise<ScenarioOutput> {
  const rssBefore = rssMb();
  const latencies = [
    await stage(target, 'append 1 message', () => measureSingleAppends(target, sizes)),
    await stage(target, `append batch of ${BATCH_SIZE}`, () => measureBatchAppends(target, sizes)),
    await stage(target, 'chat turns', () => measureChatTurns(target, sizes)),
  ];
  const figures: Figure[] = [{ name: 'rss before', value: rssBefore, unit: 'MB' }];
  for (const messages of sizes.corpora) {
    const output = await measureContext(target, sizes, messages);
    latencies.push(...output.latencies);
    figures.push(...output.figures);
  }
  const imported = await measureImported(target, sizes);
  latencies.push(...imported.latencies);
  figures.push(...imported.figures);
  figures.push({ name: 'rss after', value: rssMb(), unit: 'MB' });
  const notes = [
    `Appends: one message at a time, a new session every ${SESSION_TURNS} turns, a macrotask between appends, untimed (as an app awaiting its model). An append returns once the turn is stored; planning its derivation runs on the next macrotask and the in-process queue derives in those gaps, on the same thread, outside the timed call. A chat turn (append, then getContext, which plans at once what that append deferred) shows the cost an app sees per turn; derivation throughput is measured on the filled corpora.`,
    `Corpora of ${sizes.corpora.map(label).join(' / ')} messages are appended (${SESSION_TURNS} turns per session) and derived (flush); those of ${sizes.imported.map(label).join(' / ')} are imported into one growing namespace in bundles of 5,000 (turns verbatim, no job ledger: memory.import derives them in the background, so these rows are timed while that derivation runs in the gaps between calls), then ${label(sizes.facts)} facts are imported into it. getContext asks a generated question on a random session with a ${BUDGET_TOKENS}-token budget, an untimed macrotask after each call (where the topic accesses it recorded are written).`,
  ];
  return { latencies, figures, notes };
}

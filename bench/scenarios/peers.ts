/**
 * strata next to its peers, the same work in the same process and run: single appends, then
 * "context for the next call" over a history of 1k and 10k messages. Peers:
 * - LangChain: InMemoryChatMessageHistory + trimMessages to the budget (newest that fit);
 * - LlamaIndex.TS: Memory (@llamaindex/core) with a token limit (its short-term window);
 * - mem0 OSS: Memory with an instant fake chat model, strata's offline hashing embeddings,
 *   its SQLite-backed "memory" vector store in memory, history off; context = search.
 * Ratios are strata / peer (below 1: strata is faster).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { AIMessage, HumanMessage, trimMessages, type BaseMessage } from '@langchain/core/messages';
import { InMemoryChatMessageHistory } from '@langchain/core/chat_history';
import { createMemory as createLlamaMemory } from '@llamaindex/core/memory';
import { createMemory, HashingEmbeddings, TiktokenTokenCounter, type MessageInput } from '@strata/core';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { ConversationGenerator } from '../lib/conversation-generator.js';
import { PeerFakeChatModel } from '../lib/peer-fake-chat-model.js';
import { summarize, timeEach } from '../lib/stats.js';

const BUDGET = 1000;
const SEED = 20_240_777;
const tokens = new TiktokenTokenCounter();

/** What each system does: append one message, and build the context for a query. */
interface System {
  name: string;
  append: (message: MessageInput) => Promise<void>;
  /** Untimed fill of the history (strata: appends of 50 turns, as an import would). */
  fill?: (messages: MessageInput[]) => Promise<void>;
  context: (query: string) => Promise<unknown>;
  close: () => Promise<void>;
}

interface Plan {
  appendWarmup: number;
  appends: number;
  sizes: number[];
  /** mem0 scans every stored vector per add: its history is kept to the first size. */
  mem0Sizes: number[];
  contextWarmup: number;
  contextCalls: number;
  /** Wall time after which a system's context calls stop (at least MIN_CALLS): LangChain's trimMessages takes seconds a call at 10k. */
  contextBudgetMs: number;
}

const FULL: Plan = { appendWarmup: 50, appends: 500, sizes: [1000, 10_000], mem0Sizes: [1000], contextWarmup: 20, contextCalls: 200, contextBudgetMs: 5000 };
const QUICK: Plan = { appendWarmup: 10, appends: 100, sizes: [300], mem0Sizes: [300], contextWarmup: 10, contextCalls: 100, contextBudgetMs: 1500 };

async function strataSystem(): Promise<System> {
  const memory = await createMemory();
  const session = await memory.sessions.create({ namespace: 'peers' });
  return {
    name: 'strata (in-memory)',
    append: async (message) => void (await memory.append(session.id, message)),
    fill: async (messages) => {
      for (let i = 0; i < messages.length; i += 50) await memory.append(session.id, messages.slice(i, i + 50));
      await memory.flush();
    },
    context: (query) => memory.getContext(session.id, { query, budgetTokens: BUDGET }),
    close: () => memory.close(),
  };
}

const toLangChain = (m: MessageInput): BaseMessage => (m.role === 'user' ? new HumanMessage(m.content) : new AIMessage(m.content));
const countMessages = (messages: BaseMessage[]): number => messages.reduce((sum, m) => sum + tokens.count(String(m.content)) + 4, 0);

async function langchainSystem(): Promise<System> {
  const history = new InMemoryChatMessageHistory();
  return {
    name: 'LangChain InMemoryChatMessageHistory + trimMessages',
    append: (message) => history.addMessage(toLangChain(message)),
    context: async () => trimMessages(await history.getMessages(), { maxTokens: BUDGET, strategy: 'last', tokenCounter: countMessages }),
    close: async () => history.clear(),
  };
}

async function llamaIndexSystem(): Promise<System> {
  const memory = createLlamaMemory({ tokenLimit: BUDGET, shortTermTokenLimitRatio: 1 });
  return {
    name: 'LlamaIndex.TS Memory (token limit)',
    append: (message) => memory.add({ role: message.role === 'user' ? 'user' : 'assistant', content: message.content }),
    context: () => memory.getLLM(),
    close: async () => undefined,
  };
}

async function mem0System(dir: string): Promise<System> {
  // mem0 reads this once, when its module loads; otherwise it posts telemetry (which fails offline).
  process.env.MEM0_TELEMETRY ??= 'false';
  const { Memory: Mem0Memory } = await import('mem0ai/oss');
  const embeddings = new HashingEmbeddings();
  const memory = new Mem0Memory({
    embedder: { provider: 'langchain', config: { model: embeddings } },
    llm: { provider: 'langchain', config: { model: new PeerFakeChatModel({}) } },
    vectorStore: { provider: 'memory', config: { collectionName: 'bench', dimension: embeddings.dimensions, dbPath: join(dir, 'mem0-vectors.db') } },
    historyStore: { provider: 'memory', config: {} },
    disableHistory: true,
  });
  return {
    name: 'mem0 OSS Memory (fake model, hashing embeddings)',
    append: async (message) => void (await memory.add([{ role: message.role === 'user' ? 'user' : 'assistant', content: message.content }], { userId: 'bench' })),
    context: (query) => memory.search(query, { filters: { user_id: 'bench' }, topK: 10 }),
    close: async () => undefined,
  };
}

/**
 * Appends (an untimed macrotask between, as an app awaiting a model: work a system defers
 * past its append runs there, uncounted), then context at each history size.
 */
async function measure(system: System, plan: Plan, sizes: number[]): Promise<Map<string, LatencyMetric>> {
  const chat = new ConversationGenerator(SEED);
  const out = new Map<string, LatencyMetric>();
  try {
    const appends = await timeEach(
      plan.appendWarmup + plan.appends,
      () => system.append(chat.next()),
      () => nextMacrotask(),
    );
    out.set('append', { metric: `${system.name}: append 1 message`, summary: summarize(appends.slice(plan.appendWarmup)) });
    let stored = plan.appendWarmup + plan.appends;
    for (const size of sizes) {
      const more = chat.turns(Math.max(0, size - stored));
      if (system.fill) await system.fill(more);
      else for (const message of more) await system.append(message);
      stored = Math.max(stored, size);
      const samples = await timeContextCalls(system, chat, plan);
      out.set(`context ${size}`, { metric: `${system.name}: context, ${size >= 1000 ? `${size / 1000}k` : size} messages`, summary: summarize(samples) });
    }
  } finally {
    await system.close();
  }
  return out;
}

const MIN_CALLS = 3;

/** Warm-up, then timed calls until `contextCalls` or the time budget; returns the timed samples. */
async function timeContextCalls(system: System, chat: ConversationGenerator, plan: Plan): Promise<number[]> {
  const started = Date.now();
  const samples: number[] = [];
  for (let i = 0; i < plan.contextWarmup + plan.contextCalls; i++) {
    const [ms] = await timeEach(1, () => system.context(chat.query()));
    if (i >= plan.contextWarmup || Date.now() - started > plan.contextBudgetMs) samples.push(ms as number);
    if (samples.length >= MIN_CALLS && Date.now() - started > plan.contextBudgetMs) break;
  }
  return samples;
}

const ratio = (a: number, b: number): number => Math.round((a / b) * 100) / 100;

/** Latencies of every system, and strata / peer ratios of p50 and p99 per operation. */
export async function runPeersBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; notes: string[] }> {
  const plan = options.quick ? QUICK : FULL;
  const dir = mkdtempSync(join(tmpdir(), 'strata-bench-peers-'));
  try {
    const strata = await measure(await strataSystem(), plan, plan.sizes);
    const peers = [
      { system: await langchainSystem(), sizes: plan.sizes },
      { system: await llamaIndexSystem(), sizes: plan.sizes },
      { system: await mem0System(dir), sizes: plan.mem0Sizes },
    ];
    const latencies = [...strata.values()];
    const figures: Figure[] = [];
    for (const { system, sizes } of peers) {
      const measured = await measure(system, plan, sizes);
      latencies.push(...measured.values());
      for (const [operation, metric] of measured) {
        const own = strata.get(operation);
        if (own === undefined) continue;
        figures.push({ name: `strata / ${system.name}: ${operation}, p50`, value: ratio(own.summary.p50, metric.summary.p50), unit: 'x' });
        figures.push({ name: `strata / ${system.name}: ${operation}, p99`, value: ratio(own.summary.p99, metric.summary.p99), unit: 'x' });
      }
    }
    return {
      latencies,
      figures,
      notes: [
        `Context: strata assembles summaries, facts and recalled turns for the query within ${BUDGET} tokens; LangChain and LlamaIndex return the newest turns that fit (no recall); mem0 returns its 10 best memories for the query (no budget).`,
        "strata derives summaries, facts and embeddings in the background after each append (in-process queue); mem0's add runs its extraction (the instant fake model), embeddings and a vector search inline.",
        "mem0 3.3.1's LangChain LLM adapter reads every AIMessage (they all carry an empty tool_calls array) as a tool call and stores nothing; the bench's fake model answers with a bare { content } so that mem0 really extracts and stores.",
        `Context calls stop after ${plan.contextBudgetMs / 1000} s per system and size (at least ${MIN_CALLS} calls; n in the table): LangChain's trimMessages calls the token counter on about one prefix per message, seconds a call at 10k messages.`,
        `mem0 keeps its vectors in SQLite and scores every one on each add and search, so its history stops at ${plan.mem0Sizes.join(', ')} messages.`,
      ],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

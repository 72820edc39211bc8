import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory, type MessageInput } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import type { Figure, LatencyMetric } from '../lib/bench-result.js';
import { seededRandom } from '../lib/conversation-generator.js';
import { summarize, timeEach, timeOnce } from '../lib/stats.js';

/**
 * Cold history: multi-topic conversations are generated (themes revisited, hours between
 * topics), then the clock jumps a week so that every topic but the newest of each session
 * leaves the active set. Reports the compression ratio of the cold turns (bytes stored /
 * bytes of text) and the latency of bringing one cold topic back (restore on access).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SEED = 20_261_123;

const THEMES: readonly string[][] = [
  ['bike', 'lanes', 'cycling', 'helmet', 'commute', 'tyres', 'route', 'canal'],
  ['lasagna', 'ricotta', 'spinach', 'oven', 'sauce', 'recipe', 'pasta', 'basil'],
  ['flight', 'Lisbon', 'hotel', 'luggage', 'itinerary', 'museum', 'tram', 'booking'],
  ['mortgage', 'interest', 'rate', 'deposit', 'savings', 'bank', 'loan', 'budget'],
  ['marathon', 'training', 'pace', 'intervals', 'shoes', 'recovery', 'mileage', 'hydration'],
  ['garden', 'tomatoes', 'compost', 'seedlings', 'watering', 'soil', 'pruning', 'greenhouse'],
  ['laptop', 'battery', 'keyboard', 'monitor', 'memory', 'warranty', 'charger', 'update'],
  ['puppy', 'training', 'leash', 'vet', 'vaccines', 'treats', 'walks', 'crate'],
  ['guitar', 'chords', 'strings', 'practice', 'scales', 'amplifier', 'tuning', 'songs'],
  ['interview', 'resume', 'salary', 'manager', 'portfolio', 'offer', 'references', 'team'],
];
const USER = [
  'Can you tell me more about the {a} and the {b}? I wonder whether the {c} matters for {d}.',
  'What would you suggest for the {a}, given my {b} and the {c}?',
  'I tried the {a} again yesterday, but the {b} was off. Should I change the {c}?',
  'Quick question on the {a}: is it better to start with the {b} or the {c}?',
];
const ASSISTANT = [
  'Sure. When it comes to the {a}, most people start with the {b}; the {c} depends on the {d}, and you can adjust the {e} later.',
  'Good question. The {a} usually matters less than the {b}. Keep an eye on the {c} and the {d}, and check the {e} every week.',
  'I would keep the {a} simple at first: settle the {b}, then look at the {c}. If the {d} still feels wrong, revisit the {e}.',
  'That happens often with the {a}. Try a different {b}, note how the {c} changes, and compare it with the {d} from last time.',
];

interface Sizes {
  sessions: number;
  topicsPerSession: number;
  exchangesPerTopic: [number, number];
}
const FULL: Sizes = { sessions: 24, topicsPerSession: 10, exchangesPerTopic: [4, 10] };
const QUICK: Sizes = { sessions: 6, topicsPerSession: 6, exchangesPerTopic: [3, 6] };

function fill(template: string, words: readonly string[], random: () => number): string {
  return template.replace(/\{[a-e]\}/g, () => words[Math.floor(random() * words.length)] ?? '');
}

function pick<T>(list: readonly T[], random: () => number): T {
  return list[Math.floor(random() * list.length)] as T;
}

/** One session: topics in blocks (a theme may come back), turns a couple of minutes apart. */
function conversation(sizes: Sizes, random: () => number, start: number): MessageInput[][] {
  const blocks: MessageInput[][] = [];
  let at = start;
  for (let b = 0; b < sizes.topicsPerSession; b++) {
    const theme = pick(THEMES, random);
    const [min, max] = sizes.exchangesPerTopic;
    const exchanges = min + Math.floor(random() * (max - min + 1));
    const block: MessageInput[] = [];
    for (let e = 0; e < exchanges; e++) {
      at += 2 * MINUTE;
      block.push({ role: 'user', content: fill(pick(USER, random), theme, random), createdAt: at });
      // Replies run two to three sentences, user turns one or two (see the average turn size figure).
      const sentences = 2 + Math.floor(random() * 2);
      const reply = Array.from({ length: sentences }, () => fill(pick(ASSISTANT, random), theme, random)).join(' ');
      at += MINUTE;
      block.push({ role: 'assistant', content: reply, createdAt: at });
    }
    blocks.push(block);
    at += 6 * HOUR;
  }
  return blocks;
}

interface Target {
  name: string;
  open: (clock: { now: () => number }) => Promise<{ memory: Memory; cleanup: () => void }>;
}

const TARGETS: Target[] = [
  { name: 'in-memory', open: async (clock) => ({ memory: await createMemory({ clock }), cleanup: () => undefined }) },
  {
    name: 'sqlite',
    open: async (clock) => {
      const dir = mkdtempSync(join(tmpdir(), 'strata-bench-topics-'));
      const path = join(dir, 'memory.sqlite');
      const memory = await createMemory({ clock, store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
      return { memory, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
];

export async function runTopicsCompressionBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[] }> {
  const sizes = options.quick ? QUICK : FULL;
  const latencies: LatencyMetric[] = [];
  const figures: Figure[] = [];
  for (const target of TARGETS) {
    const out = await measure(target, sizes);
    latencies.push(...out.latencies);
    figures.push(...out.figures);
  }
  return { latencies, figures };
}

async function measure(target: Target, sizes: Sizes): Promise<{ latencies: LatencyMetric[]; figures: Figure[] }> {
  const random = seededRandom(SEED);
  const start = Date.UTC(2026, 0, 5, 8, 0, 0);
  let now = start;
  const { memory, cleanup } = await target.open({ now: () => now });
  try {
    const sessions: string[] = [];
    for (let s = 0; s < sizes.sessions; s++) {
      const session = await memory.sessions.create({ namespace: 'bench-topics' });
      sessions.push(session.id);
      for (const block of conversation(sizes, random, start)) {
        now = Math.max(now, Number(block[block.length - 1]?.createdAt ?? now));
        await memory.append(session.id, block);
        await memory.flush();
      }
    }
    now += 7 * 24 * HOUR;
    const sweepMs = await timeOnce(() => memory.topics.decay());
    const topics = (await Promise.all(sessions.map((id) => memory.topics.list(id)))).flat();
    const cold = topics.filter((t) => !t.isActive);
    const sum = (list: typeof topics, key: 'textBytes' | 'storedBytes' | 'compressedMessages' | 'activeMessages') => list.reduce((n, t) => n + t[key], 0);
    const coldText = sum(cold, 'textBytes');
    const coldStored = sum(cold, 'storedBytes');
    const allText = sum(topics, 'textBytes');
    const allStored = sum(topics, 'storedBytes');
    const restoreMs = await timeEach(cold.length, (i) => memory.topics.restore(cold[i]?.id ?? ''));
    const label = target.name;
    return {
      latencies: [{ metric: `restore one cold topic (${label}, ${(sum(cold, 'compressedMessages') / Math.max(1, cold.length)).toFixed(1)} turns avg)`, summary: summarize(restoreMs) }],
      figures: [
        { name: `${label}: topics in ${sessions.length} sessions`, value: topics.length, unit: 'topics' },
        { name: `${label}: topics that left the active set`, value: cold.length, unit: 'topics' },
        { name: `${label}: turns stored compressed after the decay sweep`, value: sum(cold, 'compressedMessages'), unit: 'turns' },
        { name: `${label}: average turn size`, value: Math.round(allText / Math.max(1, sum(topics, 'activeMessages') + sum(topics, 'compressedMessages'))), unit: 'bytes' },
        { name: `${label}: cold turns, text bytes`, value: coldText, unit: 'bytes' },
        { name: `${label}: cold turns, bytes stored`, value: coldStored, unit: 'bytes' },
        { name: `${label}: compression ratio of cold turns (bytes stored / text bytes)`, value: percent(coldStored, coldText), unit: '%' },
        { name: `${label}: whole history, bytes stored / text bytes`, value: percent(allStored, allText), unit: '%' },
        { name: `${label}: topics still active with 3+ accesses (half-life at least doubled)`, value: topics.filter((t) => t.isActive && t.accessCount >= 3).length, unit: 'topics' },
        { name: `${label}: decay sweep over every session`, value: round(sweepMs), unit: 'ms' },
      ],
    };
  } finally {
    await memory.close();
    cleanup();
  }
}

function percent(part: number, whole: number): number {
  return Math.round((1000 * part) / Math.max(1, whole)) / 10;
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

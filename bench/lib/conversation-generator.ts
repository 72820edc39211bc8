import type { MessageInput } from '@strata/core';
import { ASSISTANT_TEMPLATES, QUERY_TEMPLATES, SLOTS, USER_TEMPLATES } from './conversation-vocabulary.js';

/** A pseudo-random source in [0, 1). */
export type Random = () => number;

/**
 * mulberry32: a tiny seeded PRNG. Math.random cannot be seeded, and runs must see the same
 * corpus to be comparable.
 */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: Random, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new RangeError('pick from an empty list');
  return item;
}

function fillTemplate(random: Random, template: string): string {
  return template.replace(/\{(\w+)\}/g, (_match, slot: string) => {
    const words = SLOTS[slot];
    if (words === undefined) throw new Error(`template slot {${slot}} has no word list in SLOTS`);
    return pick(random, words);
  });
}

function sentences(random: Random, templates: readonly string[], most: number): string {
  const count = 1 + Math.floor(random() * most);
  return Array.from({ length: count }, () => fillTemplate(random, pick(random, templates))).join(' ');
}

/**
 * Deterministic chat: alternating user and assistant turns of one to three sentences, and
 * queries about what was said. The same seed yields the same conversation.
 * @example
 * const chat = new ConversationGenerator(42);
 * await memory.append(session.id, chat.turns(100));
 */
export class ConversationGenerator {
  private readonly random: Random;
  private isUserNext = true;
  private readonly userTemplates: readonly string[];
  private readonly assistantTemplates: readonly string[];

  /** `templates` replaces the sentence lists (e.g. chatter that states no fact about the user). */
  constructor(seed: number, templates: { user?: readonly string[]; assistant?: readonly string[] } = {}) {
    this.random = seededRandom(seed);
    this.userTemplates = templates.user ?? USER_TEMPLATES;
    this.assistantTemplates = templates.assistant ?? ASSISTANT_TEMPLATES;
  }

  next(): MessageInput {
    const isUser = this.isUserNext;
    this.isUserNext = !isUser;
    return isUser ? { role: 'user', content: sentences(this.random, this.userTemplates, 3) } : { role: 'assistant', content: sentences(this.random, this.assistantTemplates, 2) };
  }

  turns(count: number): MessageInput[] {
    return Array.from({ length: count }, () => this.next());
  }

  query(): string {
    return fillTemplate(this.random, pick(this.random, QUERY_TEMPLATES));
  }

  /** An index in [0, size): lets scenarios pick sessions with the same seeded source. */
  index(size: number): number {
    return Math.floor(this.random() * size);
  }
}

import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenCounter } from '../ports/models.js';

const CACHE_LIMIT = 10_000;
const CACHEABLE_LENGTH = 2_000;
/** Nothing is treated as a special token: "<|endoftext|>" typed by a user is plain text. */
const AS_PLAIN_TEXT = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };

/**
 * Counts tokens with the o200k_base encoding (GPT-4o and later), bundled with gpt-tokenizer so
 * it works offline; counts equal OpenAI's tiktoken (a test checks them against js-tiktoken),
 * about eight times faster than js-tiktoken. Text that looks like a special token
 * ("<|endoftext|>") is counted as plain text instead of throwing: users may type anything.
 *
 * The engine counts the same messages on every context assembly, so short texts are cached
 * (bounded, oldest evicted first).
 *
 * @example
 * new TiktokenTokenCounter().count('hello world'); // 2
 */
export class TiktokenTokenCounter implements TokenCounter {
  readonly name = 'tiktoken:o200k_base';
  private readonly cache = new Map<string, number>();

  count(text: string): number {
    if (text.length === 0) return 0;
    const cacheable = text.length < CACHEABLE_LENGTH;
    if (cacheable) {
      const cached = this.cache.get(text);
      if (cached !== undefined) return cached;
    }
    const count = countTokens(text, AS_PLAIN_TEXT);
    if (cacheable) this.remember(text, count);
    return count;
  }

  private remember(text: string, count: number): void {
    if (this.cache.size >= CACHE_LIMIT) {
      const oldest = this.cache.keys().next();
      if (oldest.done !== true) this.cache.delete(oldest.value);
    }
    this.cache.set(text, count);
  }
}

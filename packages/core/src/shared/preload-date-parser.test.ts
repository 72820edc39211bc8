import * as chrono from 'chrono-node';
import { describe, expect, it } from 'vitest';
import { preloadDateParser, resolveRelativeDate } from './resolve-relative-date.js';

describe('preloadDateParser', () => {
  it("runs each of chrono's parsers for the first time on a turn of the event loop of its own (each compiles its patterns then), and parses after it resolve as before", async () => {
    // the turn of the event loop each parser first ran on, counted by a callback that re-queues itself
    let turn = 0;
    let counting = true;
    const count = (): void => {
      turn++;
      if (counting) setImmediate(count);
    };
    const firstRun = new Map<object, number>();
    const parsers = chrono.casual.parsers as unknown as { pattern: (...args: unknown[]) => unknown }[];
    const originals = parsers.map((parser) => parser.pattern);
    parsers.forEach((parser, i) => {
      parser.pattern = function (this: unknown, ...args: unknown[]) {
        if (!firstRun.has(parser)) firstRun.set(parser, turn);
        return (originals[i] as (...a: unknown[]) => unknown).apply(this, args);
      };
    });
    try {
      setImmediate(count);
      await preloadDateParser();
      counting = false;
    } finally {
      parsers.forEach((parser, i) => {
        parser.pattern = originals[i] as (...args: unknown[]) => unknown;
      });
    }
    expect(firstRun.size).toBe(parsers.length);
    expect(new Set(firstRun.values()).size).toBe(parsers.length);
    expect(resolveRelativeDate('we flew out three days ago', Date.UTC(2024, 4, 10))?.iso).toBe('2024-05-07');
  });
});

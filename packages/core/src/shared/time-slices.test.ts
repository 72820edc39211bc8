import { readFile } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { timeSlices, yieldToTimersAndIo } from './time-slices.js';

afterEach(() => vi.restoreAllMocks());

describe('timeSlices', () => {
  it('yields the event loop only once the slice is used up, then starts a new slice', async () => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const pause = timeSlices(8);
    const events: string[] = [];
    setImmediate(() => events.push('other task'));
    now = 8;
    await pause();
    events.push('within the slice');
    now = 9;
    await pause();
    events.push('after the slice');
    now = 16;
    await pause();
    events.push('within the new slice');
    expect(events).toEqual(['within the slice', 'other task', 'after the slice', 'within the new slice']);
  });
});

describe('yieldToTimersAndIo', () => {
  it('lets a due timer run before it resolves, even when called from an I/O callback', async () => {
    const order: string[] = [];
    // a finished read's callback runs in the poll phase, where one setImmediate would come straight after it
    await new Promise<void>((resolve) => {
      readFile(new URL(import.meta.url), () => {
        setTimeout(() => order.push('timer'), 0);
        const started = Date.now();
        while (Date.now() - started < 2); // the timer is due before the yield starts
        void yieldToTimersAndIo().then(() => {
          order.push('after the yield');
          resolve();
        });
      });
    });
    expect(order).toEqual(['timer', 'after the yield']);
  });
});

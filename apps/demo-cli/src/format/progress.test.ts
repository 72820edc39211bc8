import { PassThrough } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { whileWaiting } from './progress.js';

/** A terminal-like stream that keeps what was written. */
function terminal(): NodeJS.WriteStream & { written: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & { written: () => string };
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const ok = (): boolean => true;
  Object.assign(stream, { isTTY: true, columns: 80, cursorTo: ok, clearLine: ok, moveCursor: ok, written: () => text });
  return stream;
}

describe('whileWaiting', () => {
  it('shows nothing for a wait under 300 ms', async () => {
    const stream = terminal();
    expect(
      await whileWaiting(
        'loading',
        sleep(20).then(() => 7),
        stream,
      ),
    ).toBe(7);
    expect(stream.written()).toBe('');
  });

  it('shows a spinner once a wait passes 300 ms, and removes it when the work ends', async () => {
    const stream = terminal();
    expect(
      await whileWaiting(
        'loading the index',
        sleep(600).then(() => 'done'),
        stream,
      ),
    ).toBe('done');
    expect(stream.written()).toContain('loading the index');
  });

  it('passes a failure through, spinner gone', async () => {
    const stream = terminal();
    await expect(
      whileWaiting(
        'loading',
        sleep(400).then(() => Promise.reject(new Error('boom'))),
        stream,
      ),
    ).rejects.toThrow('boom');
  });
});

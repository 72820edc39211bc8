import { describe, expect, it } from 'vitest';
import { asBackground, foregroundIdle, foregroundInFlight, inForeground } from './foreground.js';

/** Resolves with how long `promise` took, in ms. */
async function timed(promise: Promise<unknown>): Promise<number> {
  const start = performance.now();
  await promise;
  return performance.now() - start;
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('foreground calls and the background pause points that give way to them', () => {
  it('lets a pause point through at once when no call is in flight', async () => {
    expect(foregroundInFlight()).toBe(0);
    let passed = false;
    const idle = foregroundIdle(10_000).then(() => {
      passed = true;
    });
    // resolved before any macrotask: nothing to wait for
    await Promise.resolve();
    await idle;
    expect(passed).toBe(true);
  });

  it('holds a pause point until the last call in flight settles, a failed one included', async () => {
    const first = deferred();
    const second = deferred();
    const calls = [inForeground(() => first.promise), inForeground(() => second.promise.then(() => Promise.reject(new Error('boom'))))];
    expect(foregroundInFlight()).toBe(2);
    let passed = false;
    const idle = foregroundIdle(10_000).then(() => {
      passed = true;
    });
    first.resolve();
    await calls[0];
    await new Promise((r) => setTimeout(r, 5));
    expect(passed).toBe(false);
    second.resolve();
    await expect(calls[1]).rejects.toThrow('boom');
    await idle;
    expect(passed).toBe(true);
    expect(foregroundInFlight()).toBe(0);
  });

  it('waits at most maxWaitMs for a call that does not end, so background work still gets its turns', async () => {
    const never = deferred();
    const call = inForeground(() => never.promise);
    const waited = await timed(foregroundIdle(30));
    expect(waited).toBeGreaterThanOrEqual(25);
    expect(waited).toBeLessThan(1_000);
    never.resolve();
    await call;
  });

  it('counts background work run inside a call (inline derivation) as not in flight, and the call again after it', async () => {
    const seen: number[] = [];
    await inForeground(async () => {
      seen.push(foregroundInFlight());
      await asBackground(async () => {
        seen.push(foregroundInFlight());
        // its own pause points do not wait for the call that runs it
        expect(await timed(foregroundIdle(10_000))).toBeLessThan(1_000);
      });
      seen.push(foregroundInFlight());
    });
    expect(seen).toEqual([1, 0, 1]);
    expect(foregroundInFlight()).toBe(0);
  });
});

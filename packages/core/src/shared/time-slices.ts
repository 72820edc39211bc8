import { setImmediate as nextMacrotask } from 'node:timers/promises';

/**
 * How long offline extraction runs before it yields the event loop: a job's 20 turns took
 * 25-50 ms at once, and with the in-process queue that is the app's event loop.
 */
export const EXTRACTION_SLICE_MS = 8;

/**
 * A loop's pause point: awaited between items, it yields the event loop (one macrotask) once
 * the loop has run `ms` since it began or last yielded, and returns at once otherwise.
 * @example
 * const pause = timeSlices(8);
 * for (const turn of turns) { await pause(); work(turn); }
 */
export function timeSlices(ms: number): () => Promise<void> {
  let deadline = performance.now() + ms;
  return async () => {
    if (performance.now() <= deadline) return;
    await nextMacrotask();
    deadline = performance.now() + ms;
  };
}

/**
 * Yields until timers and I/O have had their turn. One setImmediate is not enough when the
 * caller runs in an I/O callback (or after an `import()` resolved there): its continuation
 * runs in the same turn of the event loop, straight after, so the two tasks hold the loop as
 * one. The second setImmediate runs only after the next turn's timers and I/O.
 */
export async function yieldToTimersAndIo(): Promise<void> {
  await nextMacrotask();
  await nextMacrotask();
}

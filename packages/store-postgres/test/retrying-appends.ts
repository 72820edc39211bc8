import { vi } from 'vitest';
import { StrataError, type SessionStore } from '@strata/core';

const T0 = Date.UTC(2024, 0, 1);

/** What concurrent appenders saw while something happened to the server. */
export interface AppendsUnderFaults {
  /** Ids of the appends the store acknowledged. */
  acknowledged: string[];
  /** The errors appends failed with before a retry. */
  failures: StrataError[];
}

/** What `during` can wait for: the appenders' progress, counted from when `during` started. */
export interface AppendProgress {
  /** Resolves once `more` appends were acknowledged after this call; rejects after `ms`. */
  acknowledged(more: number, ms?: number): Promise<void>;
  /** Resolves once `more` appends failed after this call; rejects after `ms`. */
  failed(more: number, ms?: number): Promise<void>;
}

/**
 * Runs `writers` loops that append to `sessionId` as an app would, each retrying an append
 * after a retryable error with the same message (its id makes a retry safe: a commit cut off
 * may have gone through, and the retry then finds the id taken), while `during` runs; stops
 * them when it resolves. A non-StrataError or a non-retryable one rejects.
 */
export async function appendsWhile(store: SessionStore, sessionId: string, writers: number, during: (progress: AppendProgress) => Promise<void>, retryDelayMs = 0): Promise<AppendsUnderFaults> {
  const acknowledged: string[] = [];
  const failures: StrataError[] = [];
  let stop = false;
  const writer = async (w: number): Promise<void> => {
    for (let i = 0; !stop; i++) {
      const id = `w${w}-${i}`;
      for (;;) {
        try {
          await store.write({ ops: [{ type: 'appendMessages', sessionId, messages: [{ id, role: 'user', content: `turn ${id}`, createdAt: T0 + i, metadata: {} }] }] });
          acknowledged.push(id);
          break;
        } catch (error) {
          if (!StrataError.is(error)) throw error;
          if (error.code === 'CONFLICT' && /already exists/.test(error.message)) {
            acknowledged.push(id);
            break;
          }
          failures.push(error);
          if (!error.retryable) throw error;
          if (retryDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
        }
      }
    }
  };
  const grown =
    (list: unknown[], what: string) =>
    (more: number, ms = 15_000) => {
      const target = list.length + more;
      return vi.waitFor(
        () => {
          if (list.length < target) throw new Error(`${more} more appends ${what} did not happen within ${ms} ms (${list.length - target + more} did)`);
        },
        { timeout: ms, interval: 5 },
      );
    };
  const progress: AppendProgress = { acknowledged: grown(acknowledged, 'acknowledged'), failed: grown(failures, 'failing') };
  const running = Array.from({ length: writers }, (_, w) => writer(w));
  try {
    await during(progress);
  } finally {
    stop = true;
  }
  await Promise.all(running);
  return { acknowledged, failures };
}

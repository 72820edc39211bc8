/**
 * The calls an app is waiting on (`getContext`, `append`, `search`) that are in flight in this
 * thread, so that background derivation sharing the event loop gives way to them. On a store
 * reached over the network a call yields to the event loop at each of its reads, and every
 * slice of derivation that starts in such a gap (extraction, applying a result: 8-40 ms each)
 * adds to the call's latency. At its pause points (before deriving a job, before applying a
 * result, between extraction slices) derivation waits until no such call is in flight, at most
 * {@link FOREGROUND_WAIT_MS}, then goes on: under a steady load it still gets its turns.
 *
 * Kept per thread (a module's state): a worker thread that derives has its own, with no
 * foreground calls, and never waits.
 */

/** The longest a pause point waits for the calls in flight. */
export const FOREGROUND_WAIT_MS = 20;

let inFlight = 0;
const waiting = new Set<() => void>();

/** Runs an app-facing call, counted as in flight until it settles. */
export async function inForeground<T>(work: () => Promise<T>): Promise<T> {
  inFlight += 1;
  try {
    return await work();
  } finally {
    leave();
  }
}

/**
 * Inside a foreground call, runs background work it waits for (derivation done inline by a
 * queue that derives inline) as not in flight, so that the work's own pause points do not wait
 * for the very call that runs it.
 */
export async function asBackground<T>(work: () => Promise<T>): Promise<T> {
  leave();
  try {
    return await work();
  } finally {
    inFlight += 1;
  }
}

/** Resolves at once when no foreground call is in flight, else once none is or after `maxWaitMs`. */
export function foregroundIdle(maxWaitMs = FOREGROUND_WAIT_MS): Promise<void> {
  if (inFlight === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      waiting.delete(done);
      resolve();
    };
    const timer = setTimeout(done, maxWaitMs);
    waiting.add(done);
  });
}

/** How many foreground calls are in flight (for tests). */
export function foregroundInFlight(): number {
  return inFlight;
}

function leave(): void {
  inFlight -= 1;
  if (inFlight === 0) for (const done of [...waiting]) done();
}

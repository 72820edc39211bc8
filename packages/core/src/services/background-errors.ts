import type { JobType } from '../domain/derived.js';

/**
 * Failures of work a memory does off the caller's path, after the call that caused it has
 * returned: the caller cannot catch them, so they are reported to a listener instead.
 */

/** What failed in the background. */
export type BackgroundErrorKind =
  /** Planning derivation after an append or import; retried by `flush()` and the session's next append. */
  | 'schedule'
  /** Re-deriving what was derived offline, once a model answered again; retried on its next answer. */
  | 'rederive'
  /** The thread selector; the turns it was choosing parents for attached linearly. */
  | 'thread-selector'
  /** Recording the topic accesses of a read (the read itself succeeded). */
  | 'topic-access'
  /** Items of a model's answer left out because they did not validate; the job kept the valid ones (the error lists what and why). */
  | 'model-output'
  /** A try of a derivation job failed (its model, its embeddings or its apply); `willRetry` says whether the queue tries again. */
  | 'derive'
  /** A job's model failed and the offline fallback's output was applied instead: marked degraded, re-derived once the model answers. */
  | 'degraded';

/** One failure of background work, as the `onError` listener receives it: what failed, the error, and the session. */
export interface BackgroundError {
  kind: BackgroundErrorKind;
  error: unknown;
  /** The session the work was for, when it was for one. */
  sessionId?: string;
  /** The derivation job (kinds `derive`, `degraded`, `model-output`). */
  job?: { key: string; type: JobType };
  /** Kind `derive`: which try failed (1 for the first), and whether the queue tries again. */
  attempt?: { number: number; willRetry: boolean };
  /** The model endpoint's host (`host:port`) when a model call failed; never a key or a path. */
  endpoint?: string;
}

/** Told of each background failure. It must not throw: what it throws is rethrown as an uncaught exception. */
export type BackgroundErrorListener = (event: BackgroundError) => void;

/**
 * The reporter a memory uses: the listener when one is given; else a process warning, once per
 * kind (`STRATA_BACKGROUND_ERROR`), so that a failure is never silent.
 */
export function backgroundErrorReporter(listener: BackgroundErrorListener | undefined): BackgroundErrorListener {
  if (listener !== undefined) {
    return (event) => {
      try {
        listener(event);
      } catch (thrown) {
        // the listener's own failure belongs to its owner, not to the background work that reported
        queueMicrotask(() => {
          throw thrown;
        });
      }
    };
  }
  const warned = new Set<BackgroundErrorKind>();
  return (event) => {
    if (warned.has(event.kind)) return;
    warned.add(event.kind);
    const reason = event.error instanceof Error ? event.error.message : String(event.error);
    process.emitWarning(
      `strata: ${event.kind} failed in the background${event.sessionId ? ` (session ${event.sessionId})` : ''}: ${reason}. Pass onError to createMemory to be told of every failure.`,
      { code: 'STRATA_BACKGROUND_ERROR' },
    );
  };
}

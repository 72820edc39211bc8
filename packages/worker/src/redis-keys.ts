import type { JobType } from '@strata/core';

/** The derive queues, one per job type, so that a worker can serve only some of them. */
export const DERIVE_QUEUES = ['ingest', 'summarize', 'consolidate'] as const satisfies readonly JobType[];
/** A derive queue's name, which is its job type: `ingest`, `summarize` or `consolidate`. */
export type DeriveQueueName = (typeof DERIVE_QUEUES)[number];
/** Results waiting for the store owner. */
export const APPLY_QUEUE = 'apply';
/** Any of strata's BullMQ queues: a derive queue, or `apply`, where results wait for the store owner. */
export type QueueName = DeriveQueueName | typeof APPLY_QUEUE;
export const QUEUE_NAMES: readonly QueueName[] = [...DERIVE_QUEUES, APPLY_QUEUE];

/**
 * The BullMQ job id of a strata job key (`type:session:from-to`). Deterministic and
 * injective: BullMQ refuses most ids containing ':', and a session id may contain one, so
 * '%' and ':' are percent-encoded.
 */
export function jobIdOf(key: string): string {
  return key.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/** The strata job key of a BullMQ job id made by {@link jobIdOf} (its inverse). */
export function keyOfJobId(id: string): string {
  return id.replace(/%3A/g, ':').replace(/%25/g, '%');
}

/** strata's own Redis keys under a prefix, beside BullMQ's `<prefix>:<queue>:*`. */
export function strataKeys(prefix: string) {
  const base = `${prefix}:strata`;
  return {
    /** Counter giving each enqueue an order and a token. */
    sequence: `${base}:seq`,
    /** Hash key -> `<token>|<JobRef JSON>` of a session's unapplied jobs. */
    pending: (sessionId: string) => `${base}:pending:${sessionId}`,
    /** Set of session ids that have a pending hash. */
    pendingSessions: `${base}:pending-sessions`,
    /** Hash of counters: derived, applied, retries, failures, stalled. */
    counters: `${base}:counters`,
    /** Capped lists of latency samples in ms. */
    latency: (what: LatencyKind) => `${base}:latency:${what}`,
  };
}

export type LatencyKind = 'derive' | 'run' | 'apply';
export type StrataKeys = ReturnType<typeof strataKeys>;

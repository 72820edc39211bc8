import type { Session } from '../domain/session.js';
import type { NewMessage, StoredMessage } from '../domain/message.js';
import type { Fact, JobRecord, JobType, Summary, SummaryLevel } from '../domain/derived.js';

/**
 * Which sessions `SessionStore.sessions` returns: by ids, by namespace, not updated since a
 * time; the conditions given all apply. Newest `updatedAt` first, `limit` keeps the first N.
 */
export interface SessionFilter {
  ids?: string[];
  namespace?: string;
  /** Only sessions last updated before this time (epoch ms). */
  updatedBefore?: number;
  limit?: number;
}

/**
 * Which messages `SessionStore.messages` returns: by session, namespace, ids, seq bounds or
 * seq ranges; the conditions given all apply. Ordered by session, then seq ascending.
 */
export interface MessageFilter {
  sessionId?: string;
  namespace?: string;
  ids?: string[];
  /** Inclusive seq bounds, only with `sessionId`. */
  fromSeq?: number;
  toSeq?: number;
  /** Keep only the newest N of the matching messages (still returned oldest first). */
  last?: number;
  /** Messages within any of these inclusive seq ranges, each of one session: one read for many windows. */
  seqRanges?: SeqRange[];
}

/** An inclusive range of seqs within one session (`fromSeq` to `toSeq`, both kept). */
export interface SeqRange {
  sessionId: string;
  fromSeq: number;
  toSeq: number;
}

/**
 * Which summaries `SessionStore.summaries` returns: by session, namespace, ids, level, range
 * end or source message; the conditions given all apply. Ordered by session, then `fromSeq`.
 */
export interface SummaryFilter {
  sessionId?: string;
  namespace?: string;
  ids?: string[];
  level?: SummaryLevel;
  /** Only summaries whose range ends at or after this seq. */
  minToSeq?: number;
  /** Summaries whose provenance includes any of these message ids. */
  sourceMessageIds?: string[];
}

/**
 * Which facts `SessionStore.facts` returns: by namespace, ids, subject, predicate or its kind,
 * source message; the conditions given all apply. Current facts only unless
 * `includeSuperseded`; ordered by `validFrom`, then id.
 */
export interface FactFilter {
  namespace?: string;
  ids?: string[];
  subject?: string;
  predicate?: string;
  /** Facts whose predicate's kind (the part before `:`, or the whole predicate) is one of these. */
  predicateKinds?: string[];
  /** Facts whose provenance includes any of these message ids. */
  sourceMessageIds?: string[];
  /** Default false: only current facts (no `validTo`). */
  includeSuperseded?: boolean;
  /** Keep only the newest N of the matching facts by `validFrom` then id (still returned oldest first). */
  last?: number;
}

/**
 * Which job ledger records `SessionStore.jobs` returns: one session's, optionally of one job
 * type; ordered by `toSeq` ascending.
 */
export interface JobFilter {
  sessionId: string;
  type?: JobType;
  /** Keep only the N records with the highest `toSeq`. */
  last?: number;
}

/**
 * One step of an atomic write. Steps run in order inside one transaction.
 * - `putSession`: insert or replace a session (keeps the stored `lastSeq` if higher).
 * - `appendMessages`: assign seq `lastSeq+1...` in order, bump `lastSeq` and `updatedAt`.
 * - `insertMessages`: store messages with the seq they carry (imports); raises `lastSeq`.
 * - `putSummaries` / `putFacts`: insert or replace by id.
 * - `recordJobs`: add to the job ledger.
 * - `delete`: remove by id. Deleting a session also deletes its messages, summaries and
 *   job records (not facts: facts belong to the namespace; core trims their provenance).
 */
export type StoreOp =
  | { type: 'putSession'; session: Session }
  | { type: 'appendMessages'; sessionId: string; messages: NewMessage[] }
  | { type: 'insertMessages'; messages: StoredMessage[] }
  | { type: 'putSummaries'; summaries: Summary[] }
  | { type: 'putFacts'; facts: Fact[] }
  | { type: 'recordJobs'; jobs: JobRecord[] }
  | {
      type: 'delete';
      sessions?: string[];
      messages?: string[];
      summaries?: string[];
      facts?: string[];
      jobs?: string[];
    };

/** The steps `SessionStore.write` applies in one transaction, in order: all or nothing. */
export interface WriteBatch {
  ops: StoreOp[];
  /** If set and this job key is already in the ledger, nothing is written (`applied: false`). */
  unlessJobApplied?: string;
}

/**
 * What `SessionStore.write` did: `applied` is false (and nothing was written) when
 * `unlessJobApplied` named a job already in the ledger.
 */
export interface WriteReceipt {
  applied: boolean;
  /** Messages stored by `appendMessages` / `insertMessages` steps, in order. */
  messages: StoredMessage[];
}

/**
 * The source of truth: sessions, verbatim messages, summaries, facts and the job ledger.
 * Reads return copies; callers may not mutate stored records through them. Lexical search
 * over these records is the {@link LexicalIndex} port, which the bundled stores implement too.
 */
export interface SessionStore {
  /**
   * Applies every step of the batch in one transaction: all or nothing.
   * Integrity is checked inside the transaction, so that several processes applying
   * derivations to one store stay correct: after the batch, a fact slot (namespace +
   * subject + predicate) has at most one current fact, and the batch summaries of a
   * session do not overlap.
   * @throws StrataError NOT_FOUND when appending to an unknown session; CONFLICT when a
   *   message id already exists, an inserted seq is taken, or an integrity rule would break
   *   (retry after re-reading); BACKEND_UNAVAILABLE when the backend cannot be reached
   *   (retryable). Nothing is written when it throws.
   */
  write(batch: WriteBatch): Promise<WriteReceipt>;
  /** Sessions matching the filter, most recently updated first. */
  sessions(filter: SessionFilter): Promise<Session[]>;
  /** Messages matching the filter, ordered by session then seq ascending. */
  messages(filter: MessageFilter): Promise<StoredMessage[]>;
  /** Summaries matching the filter, ordered by session then `fromSeq` ascending. */
  summaries(filter: SummaryFilter): Promise<Summary[]>;
  /** Facts matching the filter, ordered by `validFrom` then id. */
  facts(filter: FactFilter): Promise<Fact[]>;
  /** Job ledger records of one session, ordered by `toSeq` ascending. */
  jobs(filter: JobFilter): Promise<JobRecord[]>;
  /**
   * How many messages each of these sessions holds now (forgotten ones not counted), from the
   * store's index of a session's seqs: no message is read, so a listing of sessions costs
   * the same however long they are. Every id given is a key of the result; an unknown session
   * counts 0.
   */
  countMessages(sessionIds: readonly string[]): Promise<Map<string, number>>;
  /** Releases resources. Further calls throw CLOSED. Idempotent. */
  close(): Promise<void>;
}

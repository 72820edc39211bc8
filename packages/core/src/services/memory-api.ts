import type { MessageInput, StoredMessage } from '../domain/message.js';
import type { Fact } from '../domain/derived.js';
import type { PendingJob, SearchHit } from '../domain/retrieval.js';
import type { Session } from '../domain/session.js';
import type { ContextOptions, ContextResult } from './retrieval/context.js';
import type { FlushOptions, FlushReport } from './derivation/derivation-progress.js';
import type { MemoryStats } from './derivation/derivation-stats.js';
import type { UsageReport } from './derivation/usage-report.js';
import type { ForgetReport, ForgetTarget } from './lifecycle/forget.js';
import type { ExportFormat, ImportOptions, ImportReport } from './lifecycle/transfer.js';

/** What `MemoryApi.search` takes: a namespace, a query, how many hits and of which kinds. */
export interface SearchRequest {
  /** The namespace searched (compared exactly). */
  namespace: string;
  /** The query text. */
  query: string;
  /** How many hits to return. */
  k?: number;
  /** Which kinds of records to search; default all three. */
  kinds?: ('turn' | 'summary' | 'fact')[];
  /** Each turn hit carries up to this many turns of its thread path. */
  contextDepth?: number;
  /** `false`: a look that is not a use (topics are not touched). */
  touch?: boolean;
}

/**
 * The operations of a memory that an app calls, in process (`Memory`, from `createMemory`) or
 * over HTTP (`createRemoteMemory` from `@strata/client`): the same calls, inputs, results and
 * StrataError codes on both. Integrations (`@strata/langchain`, `@strata/ai-sdk`, the server)
 * take a `MemoryApi`, so they work on either. Each member is documented on `Memory`.
 */
export interface MemoryApi {
  /** Sessions: create, read, list, rename, delete. */
  readonly sessions: {
    /** Creates an empty session in `namespace`. @throws StrataError CONFLICT when `id` is taken. */
    create(input: { namespace: string; id?: string; title?: string; metadata?: Record<string, unknown> }): Promise<Session>;
    /** The session with this id, or null when there is none. */
    get(id: string): Promise<Session | null>;
    /** Sessions, most recently updated first (ties by id). */
    list(filter?: { namespace?: string; limit?: number; updatedBefore?: number }): Promise<Session[]>;
    /** Sets a session's title. @throws StrataError NOT_FOUND for an unknown session. */
    rename(id: string, title: string): Promise<Session>;
    /** Forgets the session and everything derived from it. @throws StrataError NOT_FOUND for an unknown session. */
    delete(id: string): Promise<ForgetReport>;
  };
  /** Long-term facts of a namespace. */
  readonly facts: {
    /** The namespace's facts, oldest first; only current ones unless `includeSuperseded`. */
    list(filter: { namespace: string; includeSuperseded?: boolean }): Promise<Fact[]>;
  };
  /** Stores turns verbatim and schedules their derivation; returns them with their `seq`. */
  append(sessionId: string, message: MessageInput | MessageInput[]): Promise<StoredMessage[]>;
  /** A session's stored turns, oldest first, narrowed by seq bounds or the newest N. */
  messages(sessionId: string, options?: { fromSeq?: number; toSeq?: number; last?: number }): Promise<StoredMessage[]>;
  /** The context for the next model call within a token budget, with its manifest. */
  getContext(sessionId: string, options?: ContextOptions): Promise<ContextResult>;
  /** Hybrid search over one namespace's turns, summaries and facts, best first. */
  search(request: SearchRequest): Promise<SearchHit[]>;
  /** Deletes messages, facts, a session or a namespace, and what was derived from them. */
  forget(target: ForgetTarget): Promise<ForgetReport>;
  /** One session in a format (`json` is the lossless bundle for import). */
  export(sessionId: string, options: { format: ExportFormat }): Promise<string>;
  /** Imports a bundle from `export`, all or nothing. */
  import(bundle: unknown, options?: ImportOptions): Promise<ImportReport>;
  /** Resolves when the derivation enqueued so far has been applied; returns what is left. */
  flush(options?: FlushOptions): Promise<FlushReport>;
  /** Derivation jobs not yet applied: queued, running or failed. */
  pending(): Promise<PendingJob[]>;
  /** Derivation counters and token usage since this memory was created. */
  stats(): MemoryStats;
  /** Token usage of the jobs applied to a namespace (or one of its sessions), from the job ledger. */
  usage(filter: { namespace: string; sessionId?: string }): Promise<UsageReport>;
  /** Closes the memory; later calls throw CLOSED. */
  close(): Promise<void>;
}

import type { MessageInput, StoredMessage } from '../domain/message.js';
import type { Fact } from '../domain/derived.js';
import type { PendingJob, SearchHit } from '../domain/retrieval.js';
import type { Session } from '../domain/session.js';
import type { ContextOptions, ContextResult } from './retrieval/context.js';
import type { FlushOptions, FlushReport } from './derivation/derivation-progress.js';
import type { MemoryStats } from './derivation/derivation-stats.js';
import type { ForgetReport, ForgetTarget } from './lifecycle/forget.js';
import type { ExportFormat, ImportOptions, ImportReport } from './lifecycle/transfer.js';

/** What `MemoryApi.search` takes: a namespace, a query, how many hits and of which kinds. */
export interface SearchRequest {
  namespace: string;
  query: string;
  k?: number;
  kinds?: ('turn' | 'summary' | 'fact')[];
  contextDepth?: number;
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
    create(input: { namespace: string; id?: string; title?: string; metadata?: Record<string, unknown> }): Promise<Session>;
    get(id: string): Promise<Session | null>;
    list(filter?: { namespace?: string; limit?: number; updatedBefore?: number }): Promise<Session[]>;
    rename(id: string, title: string): Promise<Session>;
    delete(id: string): Promise<ForgetReport>;
  };
  /** Long-term facts of a namespace. */
  readonly facts: {
    list(filter: { namespace: string; includeSuperseded?: boolean }): Promise<Fact[]>;
  };
  append(sessionId: string, message: MessageInput | MessageInput[]): Promise<StoredMessage[]>;
  messages(sessionId: string, options?: { fromSeq?: number; toSeq?: number; last?: number }): Promise<StoredMessage[]>;
  getContext(sessionId: string, options?: ContextOptions): Promise<ContextResult>;
  search(request: SearchRequest): Promise<SearchHit[]>;
  forget(target: ForgetTarget): Promise<ForgetReport>;
  export(sessionId: string, options: { format: ExportFormat }): Promise<string>;
  import(bundle: unknown, options?: ImportOptions): Promise<ImportReport>;
  flush(options?: FlushOptions): Promise<FlushReport>;
  pending(): Promise<PendingJob[]>;
  stats(): MemoryStats;
  close(): Promise<void>;
}

import { StrataError } from '@strata/core';
import type {
  Fact,
  FactFilter,
  JobFilter,
  JobRecord,
  LexicalHit,
  LexicalIndex,
  LexicalQuery,
  LinkFilter,
  MessageFilter,
  Session,
  SessionFilter,
  SessionStore,
  StoredMessage,
  Summary,
  SummaryFilter,
  Topic,
  TopicFilter,
  TopicOp,
  TopicStorage,
  TopicStore,
  TurnLink,
  WriteBatch,
  WriteReceipt,
} from '@strata/core';
import { Database } from './database.js';
import type { PostgresConnectionOptions } from './database.js';
import { searchDocuments } from './lexical.js';
import { DEFAULT_REPLICA_DOCUMENTS, LexicalReplica, type LexicalReplicaStats } from './lexical-replica.js';
import { ImportStatistics } from './statistics.js';
import { migrate } from './migrations.js';
import { appendInOneStatement } from './write-messages.js';
import { countMessages, selectFacts, selectJobs, selectMessages, selectSessions, selectSummaries } from './session-queries.js';
import { applyBatch } from './session-write.js';
import { applyTopicOp, selectLinks, selectTopicStorage, selectTopics } from './topic-ops.js';

/** Options of `createPostgresSessionStore`: the {@link PostgresConnectionOptions} (URL, schema, pool), and the lexical replica's cap. */
export interface PostgresSessionStoreOptions extends PostgresConnectionOptions {
  /**
   * Documents (turns, summaries, facts) this process holds in its lexical replicas across
   * namespaces (about 0.9 KB of heap each); past it, the least recently searched namespaces are
   * dropped and loaded again on their next search. The namespace being searched is always held.
   * 0 answers every search by BM25 in SQL.
   * @defaultValue 1_000_000
   */
  lexicalReplicaDocuments?: number;
}

/**
 * A {@link SessionStore} on PostgreSQL, shared by every app process and worker that opens the
 * same database and schema. As its own {@link LexicalIndex} it ranks with BM25 over postings
 * written in the same transaction as the records: in process, from a replica of the
 * namespace's postings caught up from the server before each search (see `LexicalReplica`),
 * or computed by the server while that replica loads. As a {@link TopicStore} it keeps topics and turn links
 * in their own tables and cold turns compressed in their row.
 *
 * Each `write` is one transaction (a lone append, one statement). Appends lock their session's row, so seqs stay gap-free
 * across processes; `unlessJobApplied` locks the job's key, so a job is applied once.
 */
export class PostgresSessionStore implements SessionStore, LexicalIndex, TopicStore {
  private closed = false;
  private readonly statistics: ImportStatistics;
  private readonly replica: LexicalReplica | undefined;

  /** @internal use createPostgresSessionStore(), which connects and migrates first */
  constructor(
    private readonly db: Database,
    options: { lexicalReplicaDocuments?: number | undefined } = {},
  ) {
    this.statistics = new ImportStatistics(db.schema);
    const cap = options.lexicalReplicaDocuments ?? DEFAULT_REPLICA_DOCUMENTS;
    this.replica = cap > 0 ? new LexicalReplica(db, cap) : undefined;
  }

  async write(batch: WriteBatch): Promise<WriteReceipt> {
    this.assertOpen('write');
    const [only] = batch.ops;
    // a lone append (a chat turn) is one statement: one round trip, atomic on its own
    const receipt =
      batch.ops.length === 1 && only?.type === 'appendMessages' && only.messages.length > 0 && batch.unlessJobApplied === undefined
        ? { applied: true, messages: await appendInOneStatement(this.db, only.sessionId, only.messages) }
        : await this.db.transaction((tx) => applyBatch(tx, batch));
    const imported = batch.ops.reduce((n, op) => n + (op.type === 'insertMessages' ? op.messages.length : 0), 0);
    if (imported > 0) await this.refreshStatistics(imported);
    return receipt;
  }

  /**
   * Brings the planner's statistics up to date after an import (see statistics.ts). The write
   * has committed by then, so a failure here does not fail it: statistics only guide plans,
   * and autovacuum still refreshes them on its own round.
   */
  private async refreshStatistics(imported: number): Promise<void> {
    await this.statistics.imported(this.db, imported).catch(() => undefined);
  }

  async sessions(filter: SessionFilter): Promise<Session[]> {
    this.assertOpen('sessions');
    return selectSessions(this.db, filter);
  }

  async messages(filter: MessageFilter): Promise<StoredMessage[]> {
    this.assertOpen('messages');
    return selectMessages(this.db, filter);
  }

  async summaries(filter: SummaryFilter): Promise<Summary[]> {
    this.assertOpen('summaries');
    return selectSummaries(this.db, filter);
  }

  async facts(filter: FactFilter): Promise<Fact[]> {
    this.assertOpen('facts');
    return selectFacts(this.db, filter);
  }

  async jobs(filter: JobFilter): Promise<JobRecord[]> {
    this.assertOpen('jobs');
    return selectJobs(this.db, filter);
  }

  async countMessages(sessionIds: readonly string[]): Promise<Map<string, number>> {
    this.assertOpen('countMessages');
    return countMessages(this.db, sessionIds);
  }

  async search(query: LexicalQuery): Promise<LexicalHit[]> {
    this.assertOpen('search');
    if (!(query.k >= 1)) return [];
    return (await this.replica?.search(query)) ?? searchDocuments(this.db, query);
  }

  /**
   * The lexical replicas of this process: the namespaces held and loading, the cap, and how
   * many searches each path answered (undefined when `lexicalReplicaDocuments` is 0).
   */
  lexicalReplicaStats(): LexicalReplicaStats | undefined {
    return this.replica?.stats();
  }

  async writeTopics(ops: TopicOp[]): Promise<void> {
    this.assertOpen('writeTopics');
    await this.db.transaction(async (tx) => {
      for (const op of ops) await applyTopicOp(tx, op);
    });
  }

  async topics(filter: TopicFilter): Promise<Topic[]> {
    this.assertOpen('topics');
    return selectTopics(this.db, filter);
  }

  async links(filter: LinkFilter): Promise<TurnLink[]> {
    this.assertOpen('links');
    return selectLinks(this.db, filter);
  }

  async topicStorage(filter: { sessionId: string }): Promise<TopicStorage[]> {
    this.assertOpen('topicStorage');
    return selectTopicStorage(this.db, filter.sessionId);
  }

  /** Ends the pool's connections. Idempotent; further calls throw CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.replica?.close();
    await this.db.close();
  }

  private assertOpen(method: string): void {
    if (!this.closed) return;
    throw new StrataError('CLOSED', `PostgresSessionStore.${method}() was called after close() (${this.db.where}).`, {
      hint: 'A closed store cannot be reopened; create a new one with createPostgresSessionStore().',
    });
  }
}

/**
 * Connects to PostgreSQL and opens strata's schema in it, creating and migrating it if needed
 * (once, under an advisory lock, however many processes open it at once).
 * @throws StrataError CONFIG_INVALID for a bad URL or schema name, a schema of a newer strata
 *   or one holding other tables; BACKEND_UNAVAILABLE when the server cannot be reached.
 *
 * @example
 * ```ts
 * const store = await createPostgresSessionStore({ url: 'postgres://postgres@127.0.0.1:5432/postgres' });
 * const memory = await createMemory({ store });
 * ```
 */
export async function createPostgresSessionStore(options: PostgresSessionStoreOptions): Promise<PostgresSessionStore> {
  const db = new Database(options);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return new PostgresSessionStore(db, { lexicalReplicaDocuments: options.lexicalReplicaDocuments });
}

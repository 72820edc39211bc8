// Kept in one file: the adapter class, one method per port operation; its SQL lives in session-queries.ts, session-write.ts and sqlite-topic-ops.ts.
import type Database from 'better-sqlite3';
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
  Topic,
  TopicFilter,
  TopicOp,
  TopicStorage,
  TopicStore,
  TurnLink,
  MessageFilter,
  Session,
  SessionFilter,
  SessionStore,
  StoredMessage,
  Summary,
  SummaryFilter,
  WriteBatch,
  WriteReceipt,
} from '@strata/core';
import { openDatabase } from './open-database.js';
import type { SqliteOpenOptions } from './open-database.js';
import { assertIntegrity } from './session-integrity.js';
import { SessionLexicalCache, type LexicalCacheStats, type LexicalEpochs } from './session-lexical-cache.js';
import { countMessages, selectFacts, selectJobs, selectMessages, selectSessions, selectSummaries } from './session-queries.js';
import { StatementCache } from './session-statement-cache.js';
import { prepareWriteStatements } from './session-statements.js';
import type { WriteStatements } from './session-statements.js';
import { applyStoreOp } from './session-write.js';
import { toStrataError } from './to-strata-error.js';
import { WalCheckpointer } from './wal-checkpointer.js';
import { prepareTopicWrites, selectLinks, selectTopicStorage, selectTopics } from './sqlite-topic-ops.js';

/** Where the store keeps its data, how safely it writes, and how much of its lexical index it holds in memory. */
export interface SqliteSessionStoreOptions extends SqliteOpenOptions {
  /**
   * Lexical documents (turns, summaries, facts) held in memory across namespaces; past it the
   * least recently searched namespaces are dropped, and restored from their snapshot in the
   * file on their next search.
   * @defaultValue 100_000
   */
  lexicalCacheDocuments?: number;
}

/**
 * A {@link SessionStore} in one SQLite file (better-sqlite3): WAL journal, provenance in its
 * own table. As its own {@link LexicalIndex} it searches with BM25 in process, from an index
 * loaded from the file and kept in step inside each write. Each `write` is one
 * `BEGIN IMMEDIATE` transaction, so several processes can append to one file: the second
 * writer waits (busy timeout) rather than failing on a lock upgrade. As a {@link TopicStore}
 * it keeps topics and turn links in their own tables and cold turns deflated in their row. Calls are synchronous
 * underneath; the promises exist because the port is asynchronous.
 */
export class SqliteSessionStore implements SessionStore, LexicalIndex, TopicStore {
  private readonly reads: StatementCache;
  private readonly lexical: SessionLexicalCache;
  private readonly applyBatch: (batch: WriteBatch) => { receipt: WriteReceipt; warm: string[] };
  private readonly applyTopics: (ops: TopicOp[]) => void;
  private readonly checkpoints: WalCheckpointer;
  private closed = false;

  /**
   * Takes an open, migrated database from `createSqliteSessionStore`; it only prepares
   * statements (which reads the schema), and connects or migrates nothing.
   */
  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    options: { lexicalCacheDocuments?: number | undefined } = {},
  ) {
    this.reads = new StatementCache(db);
    this.checkpoints = new WalCheckpointer(db);
    const lexicalOptions = { afterCommit: () => this.checkpoints.afterCommit() };
    this.lexical = new SessionLexicalCache(db, options.lexicalCacheDocuments === undefined ? lexicalOptions : { ...lexicalOptions, maxDocuments: options.lexicalCacheDocuments });
    const statements = prepareWriteStatements(db);
    const transaction = db.transaction((batch: WriteBatch): { receipt: WriteReceipt; epochs: LexicalEpochs | undefined } => {
      this.lexical.beforeWrite(batch.ops);
      const receipt = applyInTransaction(statements, batch);
      return { receipt, epochs: receipt.applied ? this.lexical.bumpIfLexical(batch.ops) : undefined };
    });
    this.applyBatch = (batch) => {
      const { receipt, epochs } = transaction.immediate(batch);
      const warm = this.lexical.applied(batch.ops, receipt.messages, epochs);
      // forgotten means gone: the deleted bytes leave the WAL now, not at the next checkpoint
      if (receipt.applied && batch.ops.some(deletesRows)) this.checkpoints.scrub();
      else this.checkpoints.afterCommit();
      return { receipt, warm };
    };
    // Topic writes leave indexed text as it was (a cold turn is indexed restored): no lexical epoch.
    const applyTopics = prepareTopicWrites(db);
    const titleOf = db.prepare<[string], string>('SELECT title FROM topics WHERE id = ?').pluck();
    // a topic deleted or retitled after a forget held the forgotten turn's words in its title
    const removesText = (ops: TopicOp[]): boolean =>
      ops.some((op) => (op.type === 'deleteTopics' && op.ids.length > 0) || (op.type === 'putTopics' && op.topics.some((t) => (titleOf.get(t.id) ?? t.title) !== t.title)));
    this.applyTopics = (ops) => {
      const scrub = removesText(ops);
      applyTopics(ops);
      if (scrub) this.checkpoints.scrub();
      else this.checkpoints.afterCommit();
    };
  }

  /**
   * Applies the batch in one transaction. A batch that indexes many documents into a namespace
   * (an append of thousands of turns, an import) returns once the lexical index holds them,
   * built in slices that each yield the event loop, so the next search finds it ready.
   */
  async write(batch: WriteBatch): Promise<WriteReceipt> {
    const { receipt, warm } = this.run('write', () => this.applyBatch(batch));
    for (const namespace of warm) if (!this.closed) await this.searchable(() => this.lexical.catchUp(namespace));
    return receipt;
  }

  async sessions(filter: SessionFilter): Promise<Session[]> {
    return this.run('sessions', () => selectSessions(this.reads, filter));
  }

  async messages(filter: MessageFilter): Promise<StoredMessage[]> {
    return this.run('messages', () => selectMessages(this.reads, filter));
  }

  async summaries(filter: SummaryFilter): Promise<Summary[]> {
    return this.run('summaries', () => selectSummaries(this.reads, filter));
  }

  async facts(filter: FactFilter): Promise<Fact[]> {
    return this.run('facts', () => selectFacts(this.reads, filter));
  }

  async jobs(filter: JobFilter): Promise<JobRecord[]> {
    return this.run('jobs', () => selectJobs(this.reads, filter));
  }

  async countMessages(sessionIds: readonly string[]): Promise<Map<string, number>> {
    return this.run('countMessages', () => countMessages(this.reads, sessionIds));
  }

  async search(query: LexicalQuery): Promise<LexicalHit[]> {
    this.run('search', () => undefined);
    return this.searchable(() => this.lexical.search(query));
  }

  /** Awaits work of the lexical cache, its driver errors as StrataErrors naming the file. */
  private async searchable<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toStrataError(error, this.file);
    }
  }

  /**
   * The lexical cache: the namespaces it holds, its cap, and the documents its loads analyzed
   * or restored from snapshots (a load after a clean close analyzes none).
   */
  lexicalCacheStats(): LexicalCacheStats {
    return this.run('lexicalCacheStats', () => this.lexical.stats());
  }

  /**
   * Namespaces stored before names had to be exact that today's rules would reject, found
   * when the file was migrated (schema 8): they stay readable under their exact name; to
   * rename one, export its sessions and import them with another namespace.
   */
  namespaceProblems(): { namespace: string; problem: string }[] {
    return this.run('namespaceProblems', () => this.db.prepare<[], { namespace: string; problem: string }>('SELECT namespace, problem FROM namespace_problems ORDER BY namespace').all());
  }

  async writeTopics(ops: TopicOp[]): Promise<void> {
    this.run('writeTopics', () => this.applyTopics(ops));
  }

  async topics(filter: TopicFilter): Promise<Topic[]> {
    return this.run('topics', () => selectTopics(this.reads, filter));
  }

  async links(filter: LinkFilter): Promise<TurnLink[]> {
    return this.run('links', () => selectLinks(this.reads, filter));
  }

  async topicStorage(filter: { sessionId: string }): Promise<TopicStorage[]> {
    return this.run('topicStorage', () => selectTopicStorage(this.reads, filter.sessionId));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Before the checkpointer stops: the snapshots it writes are commits like any other.
    this.mapErrors(() => this.lexical.close());
    await this.checkpoints.release();
    this.mapErrors(() => this.db.close());
  }

  /** Runs a read or write on the open database. */
  private run<T>(method: string, call: () => T): T {
    if (this.closed) {
      throw new StrataError('CLOSED', `SqliteSessionStore.${method}() was called after close() (${this.file}).`, {
        hint: 'A closed store cannot be reopened; create a new one with createSqliteSessionStore().',
      });
    }
    return this.mapErrors(call);
  }

  /** The one place where driver errors leave the store, as StrataErrors naming the file. */
  private mapErrors<T>(call: () => T): T {
    try {
      return call();
    } catch (error) {
      throw toStrataError(error, this.file);
    }
  }
}

/** The body of `write`'s transaction: a throw anywhere rolls the whole batch back. */
function applyInTransaction(statements: WriteStatements, batch: WriteBatch): WriteReceipt {
  const key = batch.unlessJobApplied;
  // Checked under the write lock, so two processes applying one job cannot both pass.
  if (key !== undefined && statements.jobExists.get(key) !== undefined) return { applied: false, messages: [] };
  const messages = batch.ops.flatMap((op) => applyStoreOp(statements, op));
  assertIntegrity(statements, batch.ops);
  return { applied: true, messages };
}

/**
 * Opens (creating and migrating if needed) a SQLite session store. Use `path: ':memory:'`
 * for a private, unpersisted database (tests).
 * @throws StrataError CONFIG_INVALID for a corrupt, foreign or newer file;
 *   BACKEND_UNAVAILABLE when the file cannot be opened or written.
 *
 * @example
 * ```ts
 * const store = await createSqliteSessionStore({ path: './strata.db' });
 * const now = Date.now();
 * await store.write({
 *   ops: [
 *     { type: 'putSession', session: { id: 's1', namespace: 'user:42', metadata: {}, createdAt: now, updatedAt: now, lastSeq: 0 } },
 *     { type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm1', role: 'user', content: 'I moved to Berlin', createdAt: now, metadata: {} }] },
 *   ],
 * });
 * const hits = await store.search({ namespace: 'user:42', text: 'moving', kinds: ['turn'], k: 5 });
 * // hits: [{ kind: 'turn', id: 'm1', score: 0.2876... }] ('moving' and 'moved' share the stem 'move')
 * await store.close();
 * ```
 */
export async function createSqliteSessionStore(options: SqliteSessionStoreOptions): Promise<SqliteSessionStore> {
  const db = openDatabase(options);
  try {
    return new SqliteSessionStore(db, options.path, { lexicalCacheDocuments: options.lexicalCacheDocuments });
  } catch (error) {
    db.close();
    throw toStrataError(error, options.path);
  }
}

/**
 * Whether a write step forgets turns or sessions (with what was derived from them, in the same
 * batch): their text must then leave the file and the WAL. A synopsis replaced by a newer one
 * is not forgotten, and derivation would pay a checkpoint for each.
 */
function deletesRows(op: WriteBatch['ops'][number]): boolean {
  return op.type === 'delete' && ((op.sessions?.length ?? 0) > 0 || (op.messages?.length ?? 0) > 0);
}

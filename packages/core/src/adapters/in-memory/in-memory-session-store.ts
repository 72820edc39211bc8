import type { Fact, JobRecord, Summary } from '../../domain/derived.js';
import type { StoredMessage } from '../../domain/message.js';
import type { Session } from '../../domain/session.js';
import { StrataError } from '../../errors/strata-error.js';
import type { LexicalHit, LexicalIndex, LexicalQuery } from '../../ports/lexical-index.js';
import type { FactFilter, JobFilter, MessageFilter, SessionFilter, SessionStore, SummaryFilter, WriteBatch, WriteReceipt } from '../../ports/session-store.js';
import type { Topic, TopicStorage, TurnLink } from '../../domain/topic.js';
import type { LinkFilter, TopicFilter, TopicOp, TopicStore } from '../../ports/topic-store.js';
import { applyStoreOp } from './in-memory-apply-op.js';
import { copyFact, copyJob, copyMessage, copySession, copySummary } from './in-memory-copies.js';
import { applyTopicOp, copyTopic, selectLinks, selectTopicStorage, selectTopics } from './in-memory-topic-ops.js';
import { assertIntegrity } from './in-memory-integrity.js';
import { selectFacts, selectJobs, selectMessages, selectSessions, selectSummaries } from './in-memory-queries.js';
import { InMemoryTables } from './in-memory-tables.js';

/**
 * The reference {@link SessionStore}: everything in process memory, lost on exit. Used in
 * tests, demos and as the executable definition of the port's rules. Writes are atomic
 * (an undo log reverts a failing batch); reads and writes copy records, so callers never
 * share objects with the store (reads copy by shape: `in-memory-copies.ts`). As its own
 * {@link LexicalIndex} it searches with BM25, one
 * index per namespace, updated inside each write. As a {@link TopicStore} it keeps cold turns
 * deflated in memory and inflates them on read.
 */
export class InMemorySessionStore implements SessionStore, LexicalIndex, TopicStore {
  private tables = new InMemoryTables();
  private closed = false;

  async write(batch: WriteBatch): Promise<WriteReceipt> {
    const tables = this.open('write');
    const key = batch.unlessJobApplied;
    if (key !== undefined && tables.jobs.has(key)) return { applied: false, messages: [] };
    const stored = tables.undo.run(() => {
      const written = batch.ops.flatMap((op) => applyStoreOp(tables, op));
      assertIntegrity(tables, batch.ops);
      return written;
    });
    return { applied: true, messages: stored.map((m) => copyMessage(m)) };
  }

  async sessions(filter: SessionFilter): Promise<Session[]> {
    return selectSessions(this.open('sessions'), filter).map(copySession);
  }

  async messages(filter: MessageFilter): Promise<StoredMessage[]> {
    const tables = this.open('messages');
    return selectMessages(tables, filter).map((m) => copyMessage(m, tables.textOf(m)));
  }

  async summaries(filter: SummaryFilter): Promise<Summary[]> {
    return selectSummaries(this.open('summaries'), filter).map(copySummary);
  }

  async facts(filter: FactFilter): Promise<Fact[]> {
    return selectFacts(this.open('facts'), filter).map(copyFact);
  }

  async jobs(filter: JobFilter): Promise<JobRecord[]> {
    return selectJobs(this.open('jobs'), filter).map(copyJob);
  }

  async countMessages(sessionIds: readonly string[]): Promise<Map<string, number>> {
    const tables = this.open('countMessages');
    return new Map(sessionIds.map((id) => [id, tables.sessionMessages(id).length]));
  }

  async search(query: LexicalQuery): Promise<LexicalHit[]> {
    return this.open('search').lexical.search(query);
  }

  async writeTopics(ops: TopicOp[]): Promise<void> {
    const tables = this.open('writeTopics');
    tables.undo.run(() => {
      for (const op of ops) applyTopicOp(tables, op);
    });
  }

  async topics(filter: TopicFilter): Promise<Topic[]> {
    return selectTopics(this.open('topics'), filter).map(copyTopic);
  }

  async links(filter: LinkFilter): Promise<TurnLink[]> {
    return selectLinks(this.open('links'), filter).map((l) => ({ ...l }));
  }

  async topicStorage(filter: { sessionId: string }): Promise<TopicStorage[]> {
    return selectTopicStorage(this.open('topicStorage'), filter.sessionId);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    // Drop every record now rather than whenever the store object becomes unreachable.
    this.tables = new InMemoryTables();
  }

  private open(method: string): InMemoryTables {
    if (!this.closed) return this.tables;
    throw new StrataError('CLOSED', `InMemorySessionStore.${method}() was called after close().`, {
      hint: 'A closed store cannot be reopened; create a new one with createInMemorySessionStore().',
    });
  }
}

/**
 * Creates an empty in-memory session store. Nothing is persisted: use it for tests, demos
 * and short-lived agents; use the SQLite store (`@strata/store-sqlite`) to keep sessions.
 *
 * @example
 * ```ts
 * const store = await createInMemorySessionStore();
 * const now = Date.now();
 * await store.write({
 *   ops: [
 *     { type: 'putSession', session: { id: 's1', namespace: 'user:42', metadata: {}, createdAt: now, updatedAt: now, lastSeq: 0 } },
 *     { type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm1', role: 'user', content: 'I moved to Berlin', createdAt: now, metadata: {} }] },
 *   ],
 * });
 * const hits = await store.search({ namespace: 'user:42', text: 'moving', kinds: ['turn'], k: 5 });
 * // hits: [{ kind: 'turn', id: 'm1', score: 0.28... }]
 * ```
 */
export async function createInMemorySessionStore(): Promise<SessionStore & LexicalIndex & TopicStore> {
  return new InMemorySessionStore();
}

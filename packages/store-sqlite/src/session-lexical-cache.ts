import type Database from 'better-sqlite3';
import { factLexicalText, InMemoryLexicalIndex, restoreText, turnLexicalText } from '@strata/core';
import type { LexicalHit, LexicalKind, LexicalQuery, StoreOp, StoredMessage } from '@strata/core';

const EPOCH_SQL = "SELECT value FROM knowledge_meta WHERE key = 'lexical_epoch'";
// One statement reads and bumps: the value before is the one returned minus one.
const BUMP_SQL = `INSERT INTO knowledge_meta (key, value) VALUES ('lexical_epoch', '1')
  ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1 RETURNING CAST(value AS INTEGER) AS value`;

/** Ops that change what the lexical index holds (sessions and the job ledger do not). */
const LEXICAL_OPS: ReadonlySet<StoreOp['type']> = new Set(['appendMessages', 'insertMessages', 'putSummaries', 'putFacts', 'delete']);

/** Epochs seen by one write: the value before it (inside its transaction) and after. */
export interface LexicalEpochs {
  before: number;
  after: number;
}

/**
 * BM25 answered in process, as the in-memory store does: FTS5's bm25() costs a few
 * microseconds per matching row, so a common term over 100k turns took 10-40 ms a query,
 * while this index visits only the postings of the query's terms. SQLite stays the truth
 * (the base tables hold every text; schema 4 dropped the FTS5 indexes, which cost every
 * write a segment update and about half the file); a namespace is loaded on its first
 * search. Every write that changes indexed text bumps a `lexical_epoch` in the file, in its
 * transaction: this store applies its own writes to the cache, and drops the cache when the
 * epoch moved by another connection's write. Its own writes are applied after the write
 * returns (next turn of the event loop, or the next search if sooner): analyzing a turn's
 * text was about a fifth of a single append's time.
 */
export class SessionLexicalCache {
  private index = new InMemoryLexicalIndex();
  private readonly loaded = new Set<string>();
  /** -1 until the first search or write reads the file's epoch. */
  private seenEpoch = -1;
  /** Changes of this store's committed writes, in commit order; applied before any search or load. */
  private pending: (() => void)[] = [];
  private applying: NodeJS.Immediate | undefined;
  private readonly statements;

  constructor(db: Database.Database) {
    this.statements = {
      epoch: db.prepare<[], { value: string }>(EPOCH_SQL),
      bump: db.prepare<[], number>(BUMP_SQL).pluck(),
      // A cold turn's text is in content_z (compressed); it is indexed like any other.
      turns: db.prepare<[string], { id: string; session_id: string; content: string; content_z: Buffer | null; name: string | null; created_at: number }>(
        'SELECT id, session_id, content, content_z, name, created_at FROM messages WHERE namespace = ?',
      ),
      summaries: db.prepare<[string], { id: string; session_id: string; text: string }>('SELECT id, session_id, text FROM summaries WHERE namespace = ?'),
      facts: db.prepare<[string], { id: string; text: string; predicate: string }>('SELECT id, text, predicate FROM facts WHERE namespace = ? AND valid_to IS NULL'),
    };
  }

  search(query: LexicalQuery): LexicalHit[] {
    const k = Number.isNaN(query.k) ? 0 : Math.max(0, Math.floor(query.k));
    if (k === 0) return [];
    this.syncWith(this.readEpoch());
    // Before a load: the rows it reads already hold these writes.
    this.applyPending();
    if (!this.loaded.has(query.namespace)) this.load(query.namespace);
    // Facts belong to the namespace, not to a session: a session-scoped search has none.
    const kinds = query.sessionId === undefined ? query.kinds : query.kinds.filter((kind) => kind !== 'fact');
    return this.index.search({ ...query, kinds, k });
  }

  /** Inside a write's transaction, after its ops: bumps the epoch when the write touched indexed text. */
  bumpIfLexical(ops: readonly StoreOp[]): LexicalEpochs | undefined {
    if (!ops.some((op) => LEXICAL_OPS.has(op.type))) return undefined;
    const after = Number(this.statements.bump.get());
    return { before: after - 1, after };
  }

  /**
   * After the write committed: queues its changes for the loaded namespaces when no other
   * connection wrote since this one last looked, else drops the cache (reloaded on the next
   * search). Changes are copied out now: the caller owns the ops and the returned messages.
   */
  applied(ops: readonly StoreOp[], stored: readonly StoredMessage[], epochs: LexicalEpochs | undefined): void {
    if (epochs === undefined) return;
    if (epochs.before !== this.seenEpoch) {
      this.reset(epochs.after);
      return;
    }
    this.seenEpoch = epochs.after;
    // Nothing loaded, nothing to update: a namespace loads every committed row.
    if (this.loaded.size === 0) return;
    // A deleted session takes its turns and summaries along, whose ids the op does not list.
    if (ops.some((op) => op.type === 'delete' && op.sessions?.length)) return this.reset(this.seenEpoch);
    for (const message of stored) this.queueAdd(message.namespace, { kind: 'turn', id: message.id, sessionId: message.sessionId }, turnLexicalText(message));
    for (const op of ops) this.queueOp(op);
    if (this.applying === undefined && this.pending.length > 0) {
      this.applying = setImmediate(() => this.applyPending());
      this.applying.unref();
    }
  }

  /** Drops queued work (the store is closing). */
  close(): void {
    this.clearPending();
  }

  private queueOp(op: StoreOp): void {
    if (op.type === 'putSummaries') {
      for (const s of op.summaries) this.queueAdd(s.namespace, { kind: 'summary', id: s.id, sessionId: s.sessionId }, s.text);
    } else if (op.type === 'putFacts') {
      for (const f of op.facts) {
        if (f.validTo === undefined) this.queueAdd(f.namespace, { kind: 'fact', id: f.id, sessionId: null }, factLexicalText(f));
        else this.queueRemove('fact', [f.id]);
      }
    } else if (op.type === 'delete') {
      this.queueRemove('turn', op.messages ?? []);
      this.queueRemove('summary', op.summaries ?? []);
      this.queueRemove('fact', op.facts ?? []);
    }
  }

  private queueAdd(namespace: string, entry: { kind: LexicalKind; id: string; sessionId: string | null }, text: string): void {
    if (this.loaded.has(namespace)) this.pending.push(() => this.add(namespace, entry, text));
  }

  private queueRemove(kind: LexicalKind, ids: readonly string[]): void {
    if (ids.length > 0) {
      const copy = [...ids];
      this.pending.push(() => this.removeEverywhere(kind, copy));
    }
  }

  private applyPending(): void {
    const changes = this.pending;
    this.clearPending();
    for (const change of changes) change();
  }

  private clearPending(): void {
    if (this.applying !== undefined) clearImmediate(this.applying);
    this.applying = undefined;
    this.pending = [];
  }

  private add(namespace: string, entry: { kind: LexicalKind; id: string; sessionId: string | null }, text: string): void {
    if (this.loaded.has(namespace)) this.index.add(namespace, entry, text);
  }

  private removeEverywhere(kind: LexicalKind, ids: readonly string[]): void {
    for (const namespace of this.loaded) for (const id of ids) this.index.remove(namespace, kind, id);
  }

  private load(namespace: string): void {
    for (const row of this.statements.turns.iterate(namespace)) {
      const content = row.content_z ? restoreText(row.content_z) : row.content;
      this.index.add(namespace, { kind: 'turn', id: row.id, sessionId: row.session_id }, turnLexicalText({ content, name: row.name ?? undefined, createdAt: row.created_at }));
    }
    for (const row of this.statements.summaries.iterate(namespace)) this.index.add(namespace, { kind: 'summary', id: row.id, sessionId: row.session_id }, row.text);
    for (const row of this.statements.facts.iterate(namespace)) this.index.add(namespace, { kind: 'fact', id: row.id, sessionId: null }, factLexicalText(row));
    this.loaded.add(namespace);
  }

  private syncWith(epoch: number): void {
    if (epoch !== this.seenEpoch) this.reset(epoch);
  }

  private reset(epoch: number): void {
    this.clearPending();
    this.index = new InMemoryLexicalIndex();
    this.loaded.clear();
    this.seenEpoch = epoch;
  }

  private readEpoch(): number {
    return Number(this.statements.epoch.get()?.value ?? 0);
  }
}

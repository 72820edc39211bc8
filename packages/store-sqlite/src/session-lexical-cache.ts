// Kept in one file: one cache whose state (namespaces loaded, changes pending, the epoch seen, snapshots due) each method keeps in step.
import type Database from 'better-sqlite3';
import { encodeLexicalDump, factLexicalText, InMemoryLexicalIndex, restoreText, turnLexicalText } from '@strata/core';
import type { LexicalHit, LexicalKind, LexicalQuery, StoreOp, StoredMessage } from '@strata/core';
import { LexicalSnapshots, type SnapshotMarks } from './lexical-snapshots.js';

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

/** How many documents the cache holds across namespaces by default (about 1 KB each in memory). */
export const DEFAULT_LEXICAL_CACHE_DOCUMENTS = 100_000;
/** A namespace's snapshot is rewritten once this many of its documents changed, or a fifth of them: writing it stays O(1) per change, amortized. */
const SAVE_AFTER_CHANGES = 2_000;
const SAVE_AFTER_FRACTION = 0.2;

/**
 * What `SqliteSessionStore.lexicalCacheStats()` reports: the namespaces held (least recently
 * searched first) with their document counts, the cap, and the documents loads analyzed or
 * restored from snapshots since the store was opened.
 */
export interface LexicalCacheStats {
  held: { namespace: string; documents: number }[];
  maxDocuments: number;
  documentsAnalyzedOnLoad: number;
  documentsRestored: number;
}

export interface SessionLexicalCacheOptions {
  /**
   * Documents (turns, summaries, facts) held in memory across namespaces; past it, the least
   * recently searched namespaces are dropped (after saving their snapshot) and restored from
   * it on their next search. The namespace being searched is always held.
   * @defaultValue 100_000
   */
  maxDocuments?: number;
  /** Called after each commit of a snapshot (the WAL checkpointer's hook). */
  afterCommit?: () => void;
}

/**
 * BM25 answered in process, as the in-memory store does: FTS5's bm25() costs a few
 * microseconds per matching row, so a common term over 100k turns took 10-40 ms a query,
 * while this index visits only the postings of the query's terms. SQLite stays the truth
 * (the base tables hold every text; schema 4 dropped the FTS5 indexes, which cost every
 * write a segment update and about half the file).
 *
 * A namespace is loaded on its first search from its snapshot (`lexical_snapshots`, see
 * {@link LexicalSnapshots}) plus the rows written after it; only without a usable snapshot
 * is every text analyzed again (about 40 µs a turn: 4 s at 100k turns). Snapshots are
 * rewritten once a fifth of a namespace changed, when a namespace leaves the cache, and on
 * close. Loaded namespaces are held least-recently-searched first under a cap in documents.
 *
 * Every write that changes indexed text bumps a `lexical_epoch` in the file, in its
 * transaction: this store applies its own writes to the cache, and drops the cache when the
 * epoch moved by another connection's write. Its own writes are applied after the write
 * returns (next turn of the event loop, or the next search if sooner): analyzing a turn's
 * text was about a fifth of a single append's time.
 */
export class SessionLexicalCache {
  private index = new InMemoryLexicalIndex();
  /** Loaded namespaces, least recently searched first. */
  private readonly loaded = new Set<string>();
  /** Per loaded namespace: documents added or removed since its snapshot was read or written. */
  private readonly changes = new Map<string, number>();
  /** -1 until the first search or write reads the file's epoch. */
  private seenEpoch = -1;
  /** Changes of this store's committed writes, in commit order; applied before any search or load. */
  private pending: (() => void)[] = [];
  private applying: NodeJS.Immediate | undefined;
  private saving: NodeJS.Immediate | undefined;
  private readonly snapshots: LexicalSnapshots;
  private readonly maxDocuments: number;
  private readonly afterCommit: () => void;
  private readonly statements;
  /** Documents analyzed by loads (rows without a snapshot, or written after it) and restored from snapshots. */
  private readonly loads = { analyzed: 0, restored: 0 };

  constructor(db: Database.Database, options: SessionLexicalCacheOptions = {}) {
    this.snapshots = new LexicalSnapshots(db);
    this.maxDocuments = options.maxDocuments ?? DEFAULT_LEXICAL_CACHE_DOCUMENTS;
    this.afterCommit = options.afterCommit ?? (() => undefined);
    this.statements = {
      epoch: db.prepare<[], { value: string }>(EPOCH_SQL),
      bump: db.prepare<[], number>(BUMP_SQL).pluck(),
      // A cold turn's text is in content_z (compressed); it is indexed like any other.
      turns: db.prepare<[string, number], { id: string; session_id: string; content: string; content_z: Buffer | null; name: string | null; created_at: number }>(
        'SELECT id, session_id, content, content_z, name, created_at FROM messages WHERE namespace = ? AND rowid > ?',
      ),
      summaries: db.prepare<[string, number], { id: string; session_id: string; text: string }>('SELECT id, session_id, text FROM summaries WHERE namespace = ? AND rowid > ?'),
      facts: db.prepare<[string, number], { id: string; text: string; predicate: string }>('SELECT id, text, predicate FROM facts WHERE namespace = ? AND valid_to IS NULL AND rowid > ?'),
      summaryIds: db.prepare<[string], string>('SELECT id FROM summaries WHERE namespace = ?').pluck(),
      factIds: db.prepare<[string], string>('SELECT id FROM facts WHERE namespace = ? AND valid_to IS NULL').pluck(),
    };
  }

  search(query: LexicalQuery): LexicalHit[] {
    const k = Number.isNaN(query.k) ? 0 : Math.max(0, Math.floor(query.k));
    if (k === 0) return [];
    this.syncWith(this.readEpoch());
    // Before a load: the rows it reads already hold these writes.
    this.applyPending();
    if (this.loaded.has(query.namespace)) {
      this.loaded.delete(query.namespace);
      this.loaded.add(query.namespace);
    } else {
      this.load(query.namespace);
    }
    // Facts belong to the namespace, not to a session: a session-scoped search has none.
    const kinds = query.sessionId === undefined ? query.kinds : query.kinds.filter((kind) => kind !== 'fact');
    return this.index.search({ ...query, kinds, k });
  }

  /** What the cache holds (namespaces least recently searched first) and what its loads cost so far. */
  stats(): LexicalCacheStats {
    return {
      held: [...this.loaded].map((namespace) => ({ namespace, documents: this.index.size(namespace) })),
      maxDocuments: this.maxDocuments,
      documentsAnalyzedOnLoad: this.loads.analyzed,
      documentsRestored: this.loads.restored,
    };
  }

  /** Inside a write's transaction, before its ops: forgotten turns take their namespace's snapshot along. */
  beforeWrite(ops: readonly StoreOp[]): void {
    this.snapshots.dropBeforeDeletes(ops);
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
    if (ops.some((op) => op.type === 'delete' && op.sessions?.length)) {
      this.reset(this.seenEpoch);
      return;
    }
    for (const message of stored) this.queueAdd(message.namespace, { kind: 'turn', id: message.id, sessionId: message.sessionId }, turnLexicalText(message));
    for (const op of ops) this.queueOp(op);
    if (this.applying === undefined && this.pending.length > 0) {
      this.applying = setImmediate(() => this.applyPending());
      this.applying.unref();
    }
  }

  /** Saves the snapshots of namespaces that changed since theirs, then drops queued work (the store is closing). */
  close(): void {
    this.applyPending();
    if (this.saving !== undefined) clearImmediate(this.saving);
    this.saving = undefined;
    for (const namespace of this.loaded) if ((this.changes.get(namespace) ?? 0) > 0) this.save(namespace);
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
    if (!this.loaded.has(namespace)) return;
    this.index.add(namespace, entry, text);
    this.changed(namespace, 1);
  }

  private removeEverywhere(kind: LexicalKind, ids: readonly string[]): void {
    for (const namespace of this.loaded) {
      let removed = 0;
      for (const id of ids) {
        if (!this.index.has(namespace, kind, id)) continue;
        this.index.remove(namespace, kind, id);
        removed++;
      }
      if (removed > 0) this.changed(namespace, removed);
    }
  }

  /** Counts changes to a loaded namespace, and schedules its snapshot once they are many. */
  private changed(namespace: string, count: number): void {
    const changes = (this.changes.get(namespace) ?? 0) + count;
    this.changes.set(namespace, changes);
    if (changes >= Math.max(SAVE_AFTER_CHANGES, SAVE_AFTER_FRACTION * this.index.size(namespace)) && this.saving === undefined) {
      this.saving = setImmediate(() => {
        this.saving = undefined;
        this.saveDue();
      });
      this.saving.unref();
    }
  }

  private saveDue(): void {
    this.applyPending();
    for (const namespace of this.loaded) {
      const changes = this.changes.get(namespace) ?? 0;
      if (changes >= Math.max(SAVE_AFTER_CHANGES, SAVE_AFTER_FRACTION * this.index.size(namespace))) this.save(namespace);
    }
  }

  /**
   * Writes the namespace's snapshot when the cache matches the file (no other connection
   * wrote since this one last looked). A snapshot is a shortcut, never the truth: one that
   * cannot be written (the file busy past the timeout, the disk full) is skipped, and the
   * next load reads more rows.
   */
  private save(namespace: string): void {
    const encoded = encodeLexicalDump(this.index.dump(namespace));
    const documents = this.index.size(namespace);
    try {
      const saved = this.snapshots.transaction(() => {
        if (this.readEpoch() !== this.seenEpoch) return false;
        this.snapshots.write(namespace, encoded, documents);
        return true;
      });
      if (!saved) return;
      this.changes.set(namespace, 0);
      this.afterCommit();
    } catch {
      // skipped, see above
    }
  }

  private load(namespace: string): void {
    const snapshot = this.snapshots.read(namespace);
    const marks: SnapshotMarks = snapshot?.marks ?? { messages: 0, summaries: 0, facts: 0 };
    if (snapshot !== undefined) {
      this.index.restore(namespace, snapshot.dump);
      this.loads.restored += this.index.size(namespace);
    }
    let added = 0;
    for (const row of this.statements.turns.iterate(namespace, marks.messages)) {
      const content = row.content_z ? restoreText(row.content_z) : row.content;
      this.index.add(namespace, { kind: 'turn', id: row.id, sessionId: row.session_id }, turnLexicalText({ content, name: row.name ?? undefined, createdAt: row.created_at }));
      added++;
    }
    for (const row of this.statements.summaries.iterate(namespace, marks.summaries)) {
      this.index.add(namespace, { kind: 'summary', id: row.id, sessionId: row.session_id }, row.text);
      added++;
    }
    for (const row of this.statements.facts.iterate(namespace, marks.facts)) {
      this.index.add(namespace, { kind: 'fact', id: row.id, sessionId: null }, factLexicalText(row));
      added++;
    }
    this.loads.analyzed += added;
    if (snapshot !== undefined) added += this.dropVanished(namespace);
    this.loaded.add(namespace);
    this.changes.set(namespace, 0);
    if (added > 0) this.changed(namespace, added);
    this.evictBeyondCap(namespace);
  }

  /** Removes the snapshot's summaries and current facts that are no longer in the file (replaced, superseded, deleted). */
  private dropVanished(namespace: string): number {
    let removed = 0;
    const kinds: [LexicalKind, Set<string>][] = [
      ['summary', new Set(this.statements.summaryIds.all(namespace))],
      ['fact', new Set(this.statements.factIds.all(namespace))],
    ];
    for (const [kind, present] of kinds) {
      for (const id of this.index.ids(namespace, kind)) {
        if (present.has(id)) continue;
        this.index.remove(namespace, kind, id);
        removed++;
      }
    }
    return removed;
  }

  /** Drops the least recently searched namespaces (saving their snapshot first) while the cache holds more documents than its cap. */
  private evictBeyondCap(keep: string): void {
    let total = 0;
    for (const namespace of this.loaded) total += this.index.size(namespace);
    for (const namespace of this.loaded) {
      if (total <= this.maxDocuments) break;
      if (namespace === keep) continue;
      if ((this.changes.get(namespace) ?? 0) > 0) this.save(namespace);
      total -= this.index.size(namespace);
      this.index.drop(namespace);
      this.loaded.delete(namespace);
      this.changes.delete(namespace);
    }
  }

  private syncWith(epoch: number): void {
    if (epoch !== this.seenEpoch) this.reset(epoch);
  }

  private reset(epoch: number): void {
    this.clearPending();
    this.index = new InMemoryLexicalIndex();
    this.loaded.clear();
    this.changes.clear();
    this.seenEpoch = epoch;
  }

  private readEpoch(): number {
    return Number(this.statements.epoch.get()?.value ?? 0);
  }
}

// Kept in one file: one cache whose state (namespaces loaded, changes pending, the epoch seen, snapshots due) each method keeps in step.
import type Database from 'better-sqlite3';
import { encodeLexicalDump, factLexicalText, InMemoryLexicalIndex, preloadTurnLexicalText, restoreText, turnLexicalText } from '@strata/core';
import { StrataError } from '@strata/core';
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
 * How long one slice of a load, or of queued changes, may hold the event loop before it yields
 * (analyzing a turn costs 40-130 µs: a 10k-turn append analyzed at once held it for over a second).
 */
const SLICE_MS = 8;
/** Rows one read of a load takes (keyset pages by rowid, so a slice never holds a statement open across a yield). */
const PAGE_ROWS = 32;
/** How long after a dropped due snapshot (a write came between its steps) the next is tried. */
const RETRY_SAVE_MS = 1000;
/** Queued changes a search applies at once before it rather than in slices (an append's worth). */
const APPLY_AT_ONCE = 64;
/** A write that indexes at least this many documents into one namespace brings that namespace up to date (loaded, changes applied) before it returns, in slices. */
export const WARM_AFTER_DOCUMENTS = 256;
/** Sliced attempts a search makes while other connections keep moving the epoch, before it loads in one go. */
const SLICED_ATTEMPTS = 3;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

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
  /** Changes of this store's committed writes, in commit order, from `pendingHead` on; applied before any search. */
  private pending: (() => void)[] = [];
  private pendingHead = 0;
  /** Namespaces being loaded in slices, each with the load every search of it waits on. */
  private readonly loading = new Map<string, Promise<void>>();
  /** Bumped by every reset and by close: a sliced load of an older generation stops at its next slice. */
  private generation = 0;
  private closed = false;
  private applying: NodeJS.Immediate | undefined;
  private saving: NodeJS.Immediate | undefined;
  /** A due snapshot is being written in steps (see saveInSteps). */
  private stepping = false;
  /** After a due snapshot was dropped: no other before this time (performance.now()). */
  private retryAt = 0;
  private readonly snapshots: LexicalSnapshots;
  private readonly maxDocuments: number;
  private readonly afterCommit: () => void;
  private readonly statements;
  private readonly pages: Record<LoadTable, PageReader>;
  /** Documents analyzed by loads (rows without a snapshot, or written after it) and restored from snapshots. */
  private readonly loads = { analyzed: 0, restored: 0 };

  constructor(db: Database.Database, options: SessionLexicalCacheOptions = {}) {
    this.snapshots = new LexicalSnapshots(db);
    this.maxDocuments = options.maxDocuments ?? DEFAULT_LEXICAL_CACHE_DOCUMENTS;
    this.afterCommit = options.afterCommit ?? (() => undefined);
    this.pages = pageReaders(db);
    this.statements = {
      epoch: db.prepare<[], { value: string }>(EPOCH_SQL),
      bump: db.prepare<[], number>(BUMP_SQL).pluck(),
      summaryIds: db.prepare<[string], string>('SELECT id FROM summaries WHERE namespace = ?').pluck(),
      factIds: db.prepare<[string], string>('SELECT id FROM facts WHERE namespace = ? AND valid_to IS NULL').pluck(),
    };
  }

  /**
   * BM25 over the namespace, with every write committed before the call applied (this
   * connection's and, through the epoch, every other's). A namespace not held yet is loaded in
   * slices and queued changes are applied in slices, so neither holds the event loop for long.
   * @throws StrataError CLOSED when the store closes while the search waits for a load.
   */
  async search(query: LexicalQuery): Promise<LexicalHit[]> {
    const k = Number.isNaN(query.k) ? 0 : Math.max(0, Math.floor(query.k));
    if (k === 0) return [];
    for (let attempt = 1; ; attempt++) {
      this.assertOpen();
      this.syncWith(this.readEpoch());
      const isReady = this.loaded.has(query.namespace) && this.pending.length - this.pendingHead <= APPLY_AT_ONCE;
      if (isReady || attempt > SLICED_ATTEMPTS) {
        // Before a load: the rows it reads already hold these writes.
        this.applyPending();
        if (!this.loaded.has(query.namespace)) this.loadAtOnce(query.namespace);
        break;
      }
      await this.catchUp(query.namespace);
    }
    this.loaded.delete(query.namespace);
    this.loaded.add(query.namespace);
    // Facts belong to the namespace, not to a session: a session-scoped search has none.
    const kinds = query.sessionId === undefined ? query.kinds : query.kinds.filter((kind) => kind !== 'fact');
    return this.index.search({ ...query, kinds, k });
  }

  /**
   * Brings the namespace up to date in slices: this connection's queued changes applied, the
   * namespace loaded if it is not held. A write of many documents awaits this before it
   * returns (an append of thousands of turns, an import), so the next search finds it ready.
   */
  async catchUp(namespace: string): Promise<void> {
    await preloadTurnLexicalText();
    await this.applyPendingInSlices();
    if (this.closed || this.loaded.has(namespace)) return;
    let load = this.loading.get(namespace);
    if (load === undefined) {
      const started = this.loadInSlices(namespace, this.generation);
      load = started.finally(() => {
        if (this.loading.get(namespace) === load) this.loading.delete(namespace);
      });
      this.loading.set(namespace, load);
    }
    await load;
    await this.applyPendingInSlices();
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
   * After the write committed: queues its changes for the namespaces held or loading when no
   * other connection wrote since this one last looked, else drops the cache (reloaded on the
   * next search). What the changes need is copied out now (the caller owns the ops and the
   * returned messages); texts are analyzed when the changes are applied, not here. Returns the
   * namespaces the write indexed many documents into ({@link WARM_AFTER_DOCUMENTS}), which the
   * store brings up to date before the write returns.
   */
  applied(ops: readonly StoreOp[], stored: readonly StoredMessage[], epochs: LexicalEpochs | undefined): string[] {
    if (epochs === undefined) return [];
    const warm = largeWrites(ops, stored);
    if (epochs.before !== this.seenEpoch) {
      this.reset(epochs.after);
      return warm;
    }
    this.seenEpoch = epochs.after;
    // Nothing held or loading, nothing to update: a namespace loads every committed row.
    if (this.loaded.size === 0 && this.loading.size === 0) return warm;
    // A deleted session takes its turns and summaries along, whose ids the op does not list.
    if (ops.some((op) => op.type === 'delete' && op.sessions?.length)) {
      this.reset(this.seenEpoch);
      return warm;
    }
    for (const message of stored) {
      if (!this.isHeld(message.namespace)) continue;
      const { namespace, id, sessionId, content, name, createdAt } = message;
      this.pending.push(() => this.add(namespace, { kind: 'turn', id, sessionId }, () => turnLexicalText({ content, name, createdAt })));
    }
    for (const op of ops) this.queueOp(op);
    this.scheduleApply();
    return warm;
  }

  /** Saves the snapshots of namespaces that changed since theirs, then drops queued work (the store is closing). */
  close(): void {
    this.applyPending();
    if (this.saving !== undefined) clearImmediate(this.saving);
    this.saving = undefined;
    for (const namespace of this.loaded) if ((this.changes.get(namespace) ?? 0) > 0) this.save(namespace);
    this.clearPending();
    this.closed = true;
    this.generation++;
  }

  private assertOpen(): void {
    if (this.closed)
      throw new StrataError('CLOSED', 'The SQLite session store was closed while a search waited for its lexical index.', { hint: 'Close the store after the searches made on it have settled.' });
  }

  /** Whether changes to the namespace are kept: it is held, or a load of it is under way (which applies them after the rows it read). */
  private isHeld(namespace: string): boolean {
    return this.loaded.has(namespace) || this.loading.has(namespace);
  }

  private queueOp(op: StoreOp): void {
    if (op.type === 'putSummaries') {
      for (const s of op.summaries) this.queueAdd(s.namespace, { kind: 'summary', id: s.id, sessionId: s.sessionId }, s.text);
    } else if (op.type === 'putFacts') {
      for (const f of op.facts) {
        if (f.validTo === undefined) {
          const fields = { text: f.text, predicate: f.predicate };
          this.queueAdd(f.namespace, { kind: 'fact', id: f.id, sessionId: null }, () => factLexicalText(fields));
        } else this.queueRemove('fact', [f.id]);
      }
    } else if (op.type === 'delete') {
      this.queueRemove('turn', op.messages ?? []);
      this.queueRemove('summary', op.summaries ?? []);
      this.queueRemove('fact', op.facts ?? []);
    }
  }

  private queueAdd(namespace: string, entry: { kind: LexicalKind; id: string; sessionId: string | null }, text: string | (() => string)): void {
    if (this.isHeld(namespace)) this.pending.push(() => this.add(namespace, entry, text));
  }

  private queueRemove(kind: LexicalKind, ids: readonly string[]): void {
    if (ids.length > 0) {
      const copy = [...ids];
      this.pending.push(() => this.removeEverywhere(kind, copy));
    }
  }

  /** Applies queued changes on a later turn of the event loop, a slice per turn. */
  private scheduleApply(): void {
    if (this.applying !== undefined || this.pending.length === this.pendingHead) return;
    this.applying = setImmediate(() => {
      this.applying = undefined;
      this.applySlice();
      this.scheduleApply();
    });
    this.applying.unref();
  }

  /** Applies queued changes, oldest first, for at most one slice's time; returns whether any are left. */
  private applySlice(): boolean {
    const deadline = performance.now() + SLICE_MS;
    while (this.pendingHead < this.pending.length) {
      const change = this.pending[this.pendingHead++] as () => void;
      change();
      if (performance.now() > deadline) break;
    }
    if (this.pendingHead < this.pending.length) return true;
    this.pending = [];
    this.pendingHead = 0;
    return false;
  }

  private async applyPendingInSlices(): Promise<void> {
    while (!this.closed && this.applySlice()) await nextTurn();
  }

  private applyPending(): void {
    while (this.applySlice());
    if (this.applying !== undefined) clearImmediate(this.applying);
    this.applying = undefined;
  }

  private clearPending(): void {
    if (this.applying !== undefined) clearImmediate(this.applying);
    this.applying = undefined;
    this.pending = [];
    this.pendingHead = 0;
  }

  private add(namespace: string, entry: { kind: LexicalKind; id: string; sessionId: string | null }, text: string | (() => string)): void {
    if (!this.isHeld(namespace)) return;
    this.index.add(namespace, entry, typeof text === 'string' ? text : text());
    if (this.loaded.has(namespace)) this.changed(namespace, 1);
  }

  private removeEverywhere(kind: LexicalKind, ids: readonly string[]): void {
    for (const namespace of [...this.loaded, ...this.loading.keys()]) {
      let removed = 0;
      for (const id of ids) {
        if (!this.index.has(namespace, kind, id)) continue;
        this.index.remove(namespace, kind, id);
        removed++;
      }
      if (removed > 0 && this.loaded.has(namespace)) this.changed(namespace, removed);
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
    // A snapshot marks every row up to now as held: not while changes wait to be applied (the next due save takes it).
    if (this.pendingHead < this.pending.length || this.stepping || performance.now() < this.retryAt) return;
    for (const namespace of this.loaded) {
      const changes = this.changes.get(namespace) ?? 0;
      if (changes >= Math.max(SAVE_AFTER_CHANGES, SAVE_AFTER_FRACTION * this.index.size(namespace))) {
        void this.saveInSteps(namespace);
        return;
      }
    }
  }

  /**
   * A due snapshot, written over three turns of the event loop: the dump, its encoding, the
   * write (at 12k turns: 9-12 ms, 4-17 ms, then an 800 KB write; done at once they held the
   * loop for up to 58 ms while a backlog derived). Written only when no lexical write happened
   * since the dump (the epoch this connection saw, and the file's, unchanged: a forget always
   * moves it), so the snapshot and its marks describe one state; else dropped, and the next
   * due save waits {@link RETRY_SAVE_MS} (a dump costs a slice of its own). close() and a
   * namespace leaving the cache still save at once.
   */
  private async saveInSteps(namespace: string): Promise<void> {
    this.stepping = true;
    try {
      const epoch = this.seenEpoch;
      const generation = this.generation;
      const unchanged = (): boolean => !this.closed && generation === this.generation && this.seenEpoch === epoch && this.pendingHead === this.pending.length && this.loaded.has(namespace);
      const dump = this.index.dump(namespace);
      const documents = this.index.size(namespace);
      await nextTurn();
      const encoded = unchanged() ? encodeLexicalDump(dump) : undefined;
      if (encoded !== undefined) await nextTurn();
      const saved = encoded !== undefined && unchanged() && this.writeSnapshot(namespace, encoded, documents, epoch);
      if (!saved) this.retryAt = performance.now() + RETRY_SAVE_MS;
    } finally {
      this.stepping = false;
    }
  }

  /**
   * Writes the namespace's snapshot when the cache matches the file (no other connection
   * wrote since this one last looked, no change of its own waits to be applied). A snapshot is
   * a shortcut, never the truth: one that cannot be written (the file busy past the timeout,
   * the disk full) is skipped, and the next load reads more rows.
   */
  private save(namespace: string): void {
    if (this.pendingHead < this.pending.length) return;
    this.writeSnapshot(namespace, encodeLexicalDump(this.index.dump(namespace)), this.index.size(namespace), this.seenEpoch);
  }

  /** Writes an encoded snapshot if the file's epoch is still `epoch` (the state it was dumped in); returns whether it did. */
  private writeSnapshot(namespace: string, encoded: Uint8Array, documents: number, epoch: number): boolean {
    try {
      const saved = this.snapshots.transaction(() => {
        if (this.readEpoch() !== epoch) return false;
        this.snapshots.write(namespace, encoded, documents);
        return true;
      });
      if (!saved) return false;
      this.changes.set(namespace, 0);
      this.afterCommit();
      return true;
    } catch {
      // skipped, see save()
      return false;
    }
  }

  /** Loads a namespace in one go: a search that found the epoch moving under its sliced attempts. */
  private loadAtOnce(namespace: string): void {
    const load = this.loadSteps(namespace);
    while (!load.next().done);
  }

  /**
   * Loads a namespace a slice at a time: its snapshot, then the rows written after it, read in
   * pages by rowid. Changes committed meanwhile are queued for it (the namespace counts as
   * held), and applied after: re-adding a row a page read already replaces it with the same
   * text, and a row deleted before its page comes is not read. Stops when the cache is reset
   * or closed (the searches waiting on it start over), or when a search loaded it at once.
   */
  private async loadInSlices(namespace: string, generation: number): Promise<void> {
    // not in the task of the write or search that asked: that one has had its share of the loop
    await nextTurn();
    if (generation !== this.generation || this.loaded.has(namespace)) return;
    const load = this.loadSteps(namespace);
    let deadline = performance.now() + SLICE_MS;
    while (!load.next().done) {
      if (performance.now() < deadline) continue;
      await nextTurn();
      // reset or closed meanwhile, or loaded at once by a search that could not wait
      if (generation !== this.generation || this.loaded.has(namespace)) return;
      deadline = performance.now() + SLICE_MS;
    }
  }

  /** A namespace's load, one page per step: its snapshot, then each table's rows after it; the last step marks it held. */
  private *loadSteps(namespace: string): Generator<void, void, void> {
    const snapshot = this.restoreSnapshot(namespace);
    let added = 0;
    for (const table of TABLES) {
      for (let after = snapshot.marks[table]; ; ) {
        const page = this.readPage(table, namespace, after, added);
        added = page.added;
        if (page.last === undefined) break;
        after = page.last;
        yield;
      }
    }
    this.finishLoad(namespace, snapshot.restored, added);
  }

  /** Restores the namespace's snapshot, if it has a usable one; returns its marks (zero without). */
  private restoreSnapshot(namespace: string): { marks: SnapshotMarks; restored: boolean } {
    const snapshot = this.snapshots.read(namespace);
    if (snapshot === undefined) return { marks: { messages: 0, summaries: 0, facts: 0 }, restored: false };
    this.index.restore(namespace, snapshot.dump);
    this.loads.restored += this.index.size(namespace);
    return { marks: snapshot.marks, restored: true };
  }

  /** Indexes one page of a table's rows after `after`; returns the running count and the page's last rowid (none when the table has no more). */
  private readPage(table: LoadTable, namespace: string, after: number, added: number): { added: number; last: number | undefined } {
    const rows = this.pages[table](namespace, after);
    for (const row of rows) this.index.add(namespace, row.entry, row.text);
    const last = rows.at(-1)?.rowid;
    return { added: added + rows.length, last: rows.length < PAGE_ROWS ? undefined : last };
  }

  /** Marks a loaded namespace held, drops what vanished since its snapshot, and keeps the cache under its cap. */
  private finishLoad(namespace: string, restored: boolean, added: number): void {
    this.loads.analyzed += added;
    let changes = added;
    if (restored) changes += this.dropVanished(namespace);
    this.loaded.add(namespace);
    this.changes.set(namespace, 0);
    if (changes > 0) this.changed(namespace, changes);
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
    this.generation++;
    this.loading.clear();
    this.index = new InMemoryLexicalIndex();
    this.loaded.clear();
    this.changes.clear();
    this.seenEpoch = epoch;
  }

  private readEpoch(): number {
    return Number(this.statements.epoch.get()?.value ?? 0);
  }
}

/** The tables a namespace loads from, named as a snapshot's marks are. */
type LoadTable = keyof SnapshotMarks;
const TABLES: readonly LoadTable[] = ['messages', 'summaries', 'facts'];

/** One row of a load: its rowid (the page's cursor), what it indexes as, and its text. */
interface PageRow {
  rowid: number;
  entry: { kind: LexicalKind; id: string; sessionId: string | null };
  text: string;
}
type PageReader = (namespace: string, after: number) => PageRow[];

/** Per table, the next {@link PAGE_ROWS} of a namespace's indexed rows after a rowid, texts as they are indexed. */
function pageReaders(db: Database.Database): Record<LoadTable, PageReader> {
  // A cold turn's text is in content_z (compressed); it is indexed like any other.
  const turns = db.prepare<[string, number, number], { rowid: number; id: string; session_id: string; content: string; content_z: Buffer | null; name: string | null; created_at: number }>(
    'SELECT rowid, id, session_id, content, content_z, name, created_at FROM messages WHERE namespace = ? AND rowid > ? ORDER BY rowid LIMIT ?',
  );
  const summaries = db.prepare<[string, number, number], { rowid: number; id: string; session_id: string; text: string }>(
    'SELECT rowid, id, session_id, text FROM summaries WHERE namespace = ? AND rowid > ? ORDER BY rowid LIMIT ?',
  );
  const facts = db.prepare<[string, number, number], { rowid: number; id: string; text: string; predicate: string }>(
    'SELECT rowid, id, text, predicate FROM facts WHERE namespace = ? AND valid_to IS NULL AND rowid > ? ORDER BY rowid LIMIT ?',
  );
  return {
    messages: (namespace, after) =>
      turns.all(namespace, after, PAGE_ROWS).map((row) => ({
        rowid: row.rowid,
        entry: { kind: 'turn', id: row.id, sessionId: row.session_id },
        text: turnLexicalText({ content: row.content_z ? restoreText(row.content_z) : row.content, name: row.name ?? undefined, createdAt: row.created_at }),
      })),
    summaries: (namespace, after) => summaries.all(namespace, after, PAGE_ROWS).map((row) => ({ rowid: row.rowid, entry: { kind: 'summary', id: row.id, sessionId: row.session_id }, text: row.text })),
    facts: (namespace, after) => facts.all(namespace, after, PAGE_ROWS).map((row) => ({ rowid: row.rowid, entry: { kind: 'fact', id: row.id, sessionId: null }, text: factLexicalText(row) })),
  };
}

/** Namespaces a write indexes at least {@link WARM_AFTER_DOCUMENTS} documents into. */
function largeWrites(ops: readonly StoreOp[], stored: readonly StoredMessage[]): string[] {
  const counts = new Map<string, number>();
  const count = (namespace: string, n = 1): void => {
    counts.set(namespace, (counts.get(namespace) ?? 0) + n);
  };
  for (const message of stored) count(message.namespace);
  for (const op of ops) {
    if (op.type === 'putSummaries') for (const s of op.summaries) count(s.namespace);
    else if (op.type === 'putFacts') for (const f of op.facts) count(f.namespace);
  }
  return [...counts].filter(([, n]) => n >= WARM_AFTER_DOCUMENTS).map(([namespace]) => namespace);
}

// Kept in one file: one cache whose state (namespaces held or loading, each one's snapshot and the catch-up it runs) each method keeps in step.
import { InMemoryLexicalIndex } from '@strata/core';
import type { LexicalHit, LexicalKind, LexicalQuery } from '@strata/core';
import type { Queryable } from './database.js';
import { REMOVALS_KEPT_SECONDS } from './lexical.js';

/** How many documents replicas hold across namespaces by default (about 0.9 KB each: 861 MB of heap for 1M turns, `postgres-search`). */
export const DEFAULT_REPLICA_DOCUMENTS = 1_000_000;
/** Documents one page of a load reads; a namespace of at most this many loads inside its first search. */
const PAGE_DOCUMENTS = 2_000;

/**
 * What `PostgresSessionStore.lexicalReplicaStats()` reports: the namespaces held (least
 * recently searched first) with their documents, those still loading, the cap, and how many
 * searches were answered by a replica and how many by SQL since the store was opened.
 */
export interface LexicalReplicaStats {
  held: { namespace: string; documents: number }[];
  loading: string[];
  maxDocuments: number;
  searchesByReplica: number;
  searchesBySql: number;
}

/** A held namespace: the snapshot its documents are up to, and the catch-ups it runs one after another. */
interface Replica {
  /** `pg_snapshot` text of the last read applied; every transaction it saw is in the index. */
  snapshot: string;
  /** Its xmin: documents and removals of older transactions were all seen. */
  xmin: string;
  /** The server's clock (seconds) at that read: past half of REMOVALS_KEPT_SECONDS, the namespace is loaded again. */
  readAt: number;
  /** The catch-up under way, if any. */
  running: Promise<void> | undefined;
  /** The next catch-up, not started yet: searches arriving meanwhile share it. */
  queued: Promise<void> | undefined;
  /** When (performance.now()) the last read began: the running catch-up's, or the load's. */
  readStartedAt: number;
}

interface SnapshotRow {
  snapshot: string;
  xmin: string;
  read_at: number;
}

interface DocumentRow {
  doc: string;
  kind: LexicalKind;
  id: string;
  session_id: string | null;
  length: number;
  terms: string[] | null;
  tfs: number[] | null;
}

type ChangeRow = DocumentRow & { op: 'a' | 'r' | 's'; snapshot: string | null; xmin: string | null; read_at: number | null };

const SNAPSHOT_SQL = 'SELECT pg_current_snapshot()::text AS snapshot, pg_snapshot_xmin(pg_current_snapshot())::text AS xmin, extract(epoch FROM statement_timestamp())::float8 AS read_at';

/** A document's postings as two arrays, in one statement with the document's row. */
const TERMS_OF_DOC = `CROSS JOIN LATERAL (SELECT array_agg(t.term) AS terms, array_agg(t.tf) AS tfs FROM lexical_terms t WHERE t.doc = d.doc) p`;

const PAGE_SQL = `SELECT d.doc::text AS doc, d.kind, d.id, d.session_id, d.length, p.terms, p.tfs
  FROM lexical_docs d ${TERMS_OF_DOC}
  WHERE d.namespace = $1 AND d.doc > $2::bigint ORDER BY d.doc LIMIT ${PAGE_DOCUMENTS}`;

/**
 * What a replica has not seen since its snapshot, in one statement: the removals and the
 * documents of transactions the snapshot did not see (committed since, or running then), and
 * the statement's own snapshot, which saw all that is returned.
 */
const CHANGES_SQL = `
  SELECT 'r' AS op, NULL::text AS doc, r.kind, r.id, NULL::text AS session_id, NULL::int AS length, NULL::text[] AS terms, NULL::real[] AS tfs,
    NULL::text AS snapshot, NULL::text AS xmin, NULL::float8 AS read_at
  FROM lexical_removals r WHERE r.namespace = $1 AND r.tx >= $2::xid8 AND NOT pg_visible_in_snapshot(r.tx, $3::pg_snapshot)
  UNION ALL
  SELECT 'a', d.doc::text, d.kind, d.id, d.session_id, d.length, p.terms, p.tfs, NULL, NULL, NULL
  FROM lexical_docs d ${TERMS_OF_DOC}
  WHERE d.namespace = $1 AND d.tx >= $2::xid8 AND NOT pg_visible_in_snapshot(d.tx, $3::pg_snapshot)
  UNION ALL
  SELECT 's', NULL, NULL, NULL, NULL, NULL, NULL, NULL, pg_current_snapshot()::text, pg_snapshot_xmin(pg_current_snapshot())::text,
    extract(epoch FROM statement_timestamp())::float8`;

/**
 * Lexical search answered in process from a replica of each hot namespace's postings, kept
 * up to date from PostgreSQL by transaction snapshot. BM25 computed in SQL reads every
 * posting of every query term (a common term over 1M turns is hundreds of thousands); the
 * replica is core's BM25 index, which skips what cannot enter the best k, over the same
 * postings, with the same formula.
 *
 * Never stale past a read: every search first asks the server, in one round trip, for what
 * was indexed or removed in the namespace by transactions its last snapshot did not see
 * (schema 5 records each document's transaction and logs removals), applies it, and only then
 * searches. So a process reads its own writes and every write acknowledged to anyone before
 * the search began, a forget in another process included; a process that lost its connection
 * meanwhile asks the same question when it is back. Searches of one namespace share a catch-up
 * that starts after they were called.
 *
 * A namespace is loaded on its first search: one page of documents inside that search (a
 * namespace that fits is answered by the replica at once), the rest in the background while
 * searches are answered by SQL. Loaded namespaces are held least recently searched first
 * under a cap in documents; the namespace just searched is always held.
 */
export class LexicalReplica {
  private readonly index = new InMemoryLexicalIndex();
  /** Held namespaces, least recently searched first. */
  private readonly held = new Map<string, Replica>();
  /** Namespaces being loaded in the background. */
  private readonly loading = new Set<string>();
  private readonly counts = { replica: 0, sql: 0 };
  /** Documents in the index across namespaces, held or loading (kept as they change: the cap is checked without a walk). */
  private documents = 0;
  /** Terms and session ids seen, each kept once (see `intern`); emptied when nothing is held. */
  private strings = new Map<string, string>();
  private closed = false;

  constructor(
    private readonly db: Queryable,
    private readonly maxDocuments: number,
  ) {}

  /**
   * The best hits from the namespace's replica, caught up first; undefined while the
   * namespace is not held yet (its load started), for the caller to answer by SQL.
   */
  async search(query: LexicalQuery): Promise<LexicalHit[] | undefined> {
    let replica = this.held.get(query.namespace);
    if (replica === undefined) {
      replica = await this.startLoad(query.namespace);
      if (replica === undefined) {
        this.counts.sql++;
        return undefined;
      }
    } else {
      await this.catchUp(query.namespace, replica, query.freshAsOf);
    }
    if (this.held.get(query.namespace) !== replica) {
      // dropped meanwhile (a stale snapshot, the cap): SQL answers, the next search loads again
      this.counts.sql++;
      return undefined;
    }
    this.held.delete(query.namespace);
    this.held.set(query.namespace, replica);
    this.counts.replica++;
    const kinds = query.sessionId === undefined ? query.kinds : query.kinds.filter((kind) => kind !== 'fact');
    return this.index.search({ ...query, kinds, k: Math.max(0, Math.floor(query.k)) });
  }

  stats(): LexicalReplicaStats {
    return {
      held: [...this.held.keys()].map((namespace) => ({ namespace, documents: this.index.size(namespace) })),
      loading: [...this.loading],
      maxDocuments: this.maxDocuments,
      searchesByReplica: this.counts.replica,
      searchesBySql: this.counts.sql,
    };
  }

  /** Drops everything held; background loads stop at their next page. */
  close(): void {
    this.closed = true;
    this.index.clear();
    this.documents = 0;
    this.held.clear();
    this.loading.clear();
    this.strings = new Map();
  }

  /**
   * Waits for the namespace's next catch-up, one that starts after this call: catch-ups of
   * one namespace run one after another, so an older read is never applied over a newer one.
   * With `freshAsOf`, the last one is enough when it began at or after that moment (a search
   * of the same context assembly started it): no second round trip.
   */
  private catchUp(namespace: string, replica: Replica, freshAsOf?: number): Promise<void> {
    // (should that one fail, a catch-up of this search's own)
    if (freshAsOf !== undefined && replica.readStartedAt >= freshAsOf) return (replica.running ?? Promise.resolve()).catch(() => this.catchUp(namespace, replica));
    if (replica.queued !== undefined) return replica.queued;
    const queued = (replica.running ?? Promise.resolve())
      .catch(() => undefined)
      .then(() => {
        replica.queued = undefined;
        replica.readStartedAt = performance.now();
        const running = this.applyChanges(namespace, replica);
        replica.running = running;
        return running;
      });
    replica.queued = queued;
    return queued;
  }

  /** Reads and applies what the replica's snapshot did not see, then keeps the read's snapshot. */
  private async applyChanges(namespace: string, replica: Replica): Promise<void> {
    const rows = await this.db.query<ChangeRow>(CHANGES_SQL, [namespace, replica.xmin, replica.snapshot], 'strata_replica_changes');
    if (this.held.get(namespace) !== replica) return;
    const mark = rows.find((row) => row.op === 's') as ChangeRow;
    if ((mark.read_at as number) - replica.readAt > REMOVALS_KEPT_SECONDS / 2) {
      // removals older than the log's span may be gone from it: load again rather than trust it
      this.drop(namespace);
      return;
    }
    const before = this.index.size(namespace);
    // removals first: a document removed then indexed again under its id comes back as a new row
    for (const row of rows) if (row.op === 'r') this.index.remove(namespace, row.kind, row.id);
    const added = rows.filter((row) => row.op === 'a').sort((a, b) => compareDocs(a.doc, b.doc));
    for (const row of added) this.add(namespace, row);
    this.documents += this.index.size(namespace) - before;
    this.keepCap(namespace);
    replica.snapshot = mark.snapshot as string;
    replica.xmin = mark.xmin as string;
    replica.readAt = mark.read_at as number;
  }

  /**
   * A namespace's first search: its snapshot, then its first page of documents. When that was
   * all of them, the namespace is caught up and held, and returned; else the rest loads in the
   * background and undefined is returned.
   */
  private async startLoad(namespace: string): Promise<Replica | undefined> {
    if (this.loading.has(namespace) || this.closed) return undefined;
    this.loading.add(namespace);
    try {
      const readStartedAt = performance.now();
      const [mark] = await this.db.query<SnapshotRow>(SNAPSHOT_SQL);
      const replica: Replica = { snapshot: mark?.snapshot as string, xmin: mark?.xmin as string, readAt: mark?.read_at as number, running: undefined, queued: undefined, readStartedAt };
      this.dropDocuments(namespace);
      const last = await this.loadPage(namespace, '0');
      if (last !== undefined) {
        void this.loadRest(namespace, replica, last);
        return undefined;
      }
      return await this.hold(namespace, replica);
    } catch (error) {
      this.forget(namespace);
      throw error;
    }
  }

  /** Loads the pages after `after` in the background; a failure drops the namespace (the next search loads it again). */
  private async loadRest(namespace: string, replica: Replica, after: string): Promise<void> {
    try {
      for (let last: string | undefined = after; last !== undefined; ) {
        if (this.closed || !this.loading.has(namespace)) return;
        last = await this.loadPage(namespace, last);
      }
      await this.hold(namespace, replica);
    } catch {
      this.forget(namespace);
    }
  }

  /** Adds one page of the namespace's documents after doc `after`; returns the last doc when the page was full. */
  private async loadPage(namespace: string, after: string): Promise<string | undefined> {
    const rows = await this.db.query<DocumentRow>(PAGE_SQL, [namespace, after], 'strata_replica_page');
    if (this.closed || !this.loading.has(namespace)) return undefined;
    const before = this.index.size(namespace);
    for (const row of rows) this.add(namespace, row);
    this.documents += this.index.size(namespace) - before;
    return rows.length === PAGE_DOCUMENTS ? (rows[rows.length - 1] as DocumentRow).doc : undefined;
  }

  /**
   * Marks a loaded namespace held, after catching up from the snapshot taken before its first
   * page (what changed while the pages were read: a document read twice is replaced by itself,
   * one removed before its page came is removed again, to no effect). Then keeps the cap.
   */
  private async hold(namespace: string, replica: Replica): Promise<Replica | undefined> {
    if (this.closed || !this.loading.has(namespace)) return undefined;
    this.held.set(namespace, replica);
    this.loading.delete(namespace);
    await this.catchUp(namespace, replica);
    this.keepCap(namespace);
    return this.held.get(namespace) === replica ? replica : undefined;
  }

  private add(namespace: string, row: DocumentRow): void {
    const terms = (row.terms ?? []).map((term) => this.intern(term));
    const sessionId = row.session_id === null ? null : this.intern(row.session_id);
    this.index.addAnalyzed(namespace, { kind: row.kind, id: row.id, sessionId }, terms, (row.tfs ?? []).map(Number), row.length);
  }

  /**
   * One string object for each term and session id: the driver makes a new one per row, and
   * each document keeps its terms (for its removal) and its session (for filtering).
   */
  private intern(text: string): string {
    const known = this.strings.get(text);
    if (known !== undefined) return known;
    this.strings.set(text, text);
    return text;
  }

  /** Drops the least recently searched namespaces (never `keep`, nor one loading) while the documents pass the cap. */
  private keepCap(keep: string): void {
    if (this.documents <= this.maxDocuments) return;
    for (const namespace of [...this.held.keys()]) {
      if (this.documents <= this.maxDocuments) break;
      if (namespace !== keep) this.drop(namespace);
    }
  }

  private drop(namespace: string): void {
    this.held.delete(namespace);
    this.dropDocuments(namespace);
    if (this.held.size === 0 && this.loading.size === 0) this.strings = new Map();
  }

  /** Removes the namespace's documents from the index, and from the count. */
  private dropDocuments(namespace: string): void {
    this.documents -= this.index.size(namespace);
    this.index.drop(namespace);
  }

  private forget(namespace: string): void {
    this.loading.delete(namespace);
    this.drop(namespace);
  }
}

/** Orders doc numbers given as decimal text (bigint). */
function compareDocs(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

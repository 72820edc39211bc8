import { Bm25Index } from '../../lexical/bm25-index.js';
import type { LexicalDump, LexicalEntry, LexicalImage } from '../../lexical/lexical-snapshot.js';
import type { LexicalHit, LexicalKind, LexicalQuery } from '../../ports/lexical-index.js';

/**
 * The in-memory store's lexical index: one BM25 index per namespace and kind, so a query can
 * never see another namespace's documents, and a fact lookup does not walk the postings of
 * every turn. Per-kind indexes mirror the per-table FTS5 indexes of the SQLite store.
 */
export class InMemoryLexicalIndex {
  private readonly byNamespace = new Map<string, Map<LexicalKind, Bm25Index<string | null>>>();

  /** Indexes `text` as the entry's document in its namespace and kind; re-adding an id replaces it. */
  add(namespace: string, entry: LexicalEntry, text: string): void {
    // The meta is the session alone: what a search filters on, and a restore allocates nothing per document for it.
    this.indexOf(namespace, entry.kind).add(entry.id, text, entry.sessionId);
  }

  /** Indexes a document analyzed elsewhere (see `Bm25Index.addAnalyzed`) as the entry's document in its namespace and kind; re-adding an id replaces it. */
  addAnalyzed(namespace: string, entry: LexicalEntry, terms: readonly string[], tfs: readonly number[], length: number): void {
    this.indexOf(namespace, entry.kind).addAnalyzed(entry.id, terms, tfs, length, entry.sessionId);
  }

  /** Removes one document, if indexed; drops indexes and namespaces it leaves empty. */
  remove(namespace: string, kind: LexicalKind, id: string): void {
    const kinds = this.byNamespace.get(namespace);
    const index = kinds?.get(kind);
    if (kinds === undefined || index === undefined) return;
    index.remove(id);
    if (index.size === 0) kinds.delete(kind);
    if (kinds.size === 0) this.byNamespace.delete(namespace);
  }

  /** Best first across the requested kinds, ties by kind then indexing order (each index's own order, kept by a stable sort). */
  search(query: LexicalQuery): LexicalHit[] {
    const kinds = this.byNamespace.get(query.namespace);
    if (kinds === undefined || query.kinds.length === 0) return [];
    const { sessionId } = query;
    const accept = (session: string | null): boolean => sessionId === undefined || session === sessionId;
    const hits: LexicalHit[] = [];
    for (const kind of new Set(query.kinds)) {
      const index = kinds.get(kind);
      if (index === undefined) continue;
      const found = query.terms === undefined ? index.search(query.text, query.k, accept) : index.searchTerms(query.terms, query.k, accept);
      for (const hit of found) hits.push({ kind, id: hit.id, score: hit.score });
    }
    return hits.sort((a, b) => b.score - a.score || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0)).slice(0, Math.max(0, Math.floor(query.k)));
  }

  /** The index of a namespace and kind, made when first written to. */
  private indexOf(namespace: string, kind: LexicalKind): Bm25Index<string | null> {
    let kinds = this.byNamespace.get(namespace);
    if (kinds === undefined) {
      kinds = new Map();
      this.byNamespace.set(namespace, kinds);
    }
    let index = kinds.get(kind);
    if (index === undefined) {
      index = new Bm25Index<string | null>();
      kinds.set(kind, index);
    }
    return index;
  }

  /** Drops every namespace's documents. */
  clear(): void {
    this.byNamespace.clear();
  }

  /** Drops one namespace's documents. */
  drop(namespace: string): void {
    this.byNamespace.delete(namespace);
  }

  /** Documents held for the namespace, of every kind. */
  size(namespace: string): number {
    let size = 0;
    for (const index of this.byNamespace.get(namespace)?.values() ?? []) size += index.size;
    return size;
  }

  /** Whether the namespace holds a document of this kind and id. */
  has(namespace: string, kind: LexicalKind, id: string): boolean {
    return this.byNamespace.get(namespace)?.get(kind)?.has(id) ?? false;
  }

  /** The ids of the namespace's documents of one kind. */
  ids(namespace: string, kind: LexicalKind): string[] {
    return this.byNamespace.get(namespace)?.get(kind)?.documentIds() ?? [];
  }

  /** One namespace's documents, for persisting them (see `encodeLexicalDump`). */
  dump(namespace: string): LexicalDump {
    const dump: LexicalDump = {};
    for (const [kind, index] of this.byNamespace.get(namespace) ?? []) dump[kind] = index.dump();
    return dump;
  }

  /** Replaces one namespace's documents with those of a snapshot read back (`decodeLexicalDump`). */
  restore(namespace: string, image: LexicalImage): void {
    const kinds = new Map<LexicalKind, Bm25Index<string | null>>();
    for (const [kind, part] of Object.entries(image) as [LexicalKind, NonNullable<LexicalImage[LexicalKind]>][]) {
      if (part.count > 0) kinds.set(kind, Bm25Index.restore(part));
    }
    if (kinds.size > 0) this.byNamespace.set(namespace, kinds);
    else this.byNamespace.delete(namespace);
  }
}

import { Bm25Index } from '../lexical/bm25-index.js';
import type { LexicalHit, LexicalKind, LexicalQuery } from '../ports/session-store.js';

interface LexicalEntry {
  kind: LexicalKind;
  id: string;
  /** Null for facts, which belong to a namespace rather than to a session. */
  sessionId: string | null;
}

/**
 * The in-memory store's lexical index: one BM25 index per namespace and kind, so a query can
 * never see another namespace's documents, and a fact lookup does not walk the postings of
 * every turn. Per-kind indexes mirror the per-table FTS5 indexes of the SQLite store.
 */
export class InMemoryLexicalIndex {
  private readonly byNamespace = new Map<string, Map<LexicalKind, Bm25Index<LexicalEntry>>>();

  add(namespace: string, entry: LexicalEntry, text: string): void {
    let kinds = this.byNamespace.get(namespace);
    if (kinds === undefined) {
      kinds = new Map();
      this.byNamespace.set(namespace, kinds);
    }
    let index = kinds.get(entry.kind);
    if (index === undefined) {
      index = new Bm25Index<LexicalEntry>();
      kinds.set(entry.kind, index);
    }
    index.add(entry.id, text, entry);
  }

  remove(namespace: string, kind: LexicalKind, id: string): void {
    const kinds = this.byNamespace.get(namespace);
    const index = kinds?.get(kind);
    if (kinds === undefined || index === undefined) return;
    index.remove(id);
    if (index.size === 0) kinds.delete(kind);
    if (kinds.size === 0) this.byNamespace.delete(namespace);
  }

  /** Best first across the requested kinds, ties by kind then id. */
  search(query: LexicalQuery): LexicalHit[] {
    const kinds = this.byNamespace.get(query.namespace);
    if (kinds === undefined || query.kinds.length === 0) return [];
    const { sessionId } = query;
    const accept = (entry: LexicalEntry): boolean => sessionId === undefined || entry.sessionId === sessionId;
    const hits: LexicalHit[] = [];
    for (const kind of new Set(query.kinds)) {
      const index = kinds.get(kind);
      if (index === undefined) continue;
      for (const hit of index.search(query.text, query.k, accept)) hits.push({ kind, id: hit.id, score: hit.score });
    }
    return hits
      .sort((a, b) => b.score - a.score || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, Math.max(0, Math.floor(query.k)));
  }

  clear(): void {
    this.byNamespace.clear();
  }
}

import { Bm25Index } from '../lexical/bm25-index.js';
import type { LexicalHit, LexicalKind, LexicalQuery } from '../ports/session-store.js';

interface LexicalEntry {
  kind: LexicalKind;
  id: string;
  /** Null for facts, which belong to a namespace rather than to a session. */
  sessionId: string | null;
}

/**
 * The in-memory store's lexical index: one BM25 index per namespace, so a query can never
 * see another namespace's documents and idf is computed within the namespace. Turn,
 * summary and fact ids are separate id spaces, so documents are keyed by kind and id.
 */
export class InMemoryLexicalIndex {
  private readonly byNamespace = new Map<string, Bm25Index<LexicalEntry>>();

  add(namespace: string, entry: LexicalEntry, text: string): void {
    let index = this.byNamespace.get(namespace);
    if (index === undefined) {
      index = new Bm25Index<LexicalEntry>();
      this.byNamespace.set(namespace, index);
    }
    index.add(docKey(entry.kind, entry.id), text, entry);
  }

  remove(namespace: string, kind: LexicalKind, id: string): void {
    const index = this.byNamespace.get(namespace);
    if (index === undefined) return;
    index.remove(docKey(kind, id));
    if (index.size === 0) this.byNamespace.delete(namespace);
  }

  search(query: LexicalQuery): LexicalHit[] {
    const index = this.byNamespace.get(query.namespace);
    if (index === undefined || query.kinds.length === 0) return [];
    const kinds = new Set(query.kinds);
    const { sessionId } = query;
    const accept = (entry: LexicalEntry): boolean =>
      kinds.has(entry.kind) && (sessionId === undefined || entry.sessionId === sessionId);
    const lookup = new Map<string, LexicalEntry>();
    const hits = index.search(query.text, query.k, (entry, key) => {
      const accepted = accept(entry);
      if (accepted) lookup.set(key, entry);
      return accepted;
    });
    return hits.flatMap((hit) => {
      const entry = lookup.get(hit.id);
      return entry === undefined ? [] : [{ kind: entry.kind, id: entry.id, score: hit.score }];
    });
  }

  clear(): void {
    this.byNamespace.clear();
  }
}

function docKey(kind: LexicalKind, id: string): string {
  return `${kind}:${id}`;
}

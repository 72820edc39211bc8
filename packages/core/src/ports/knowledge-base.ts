/** What a knowledge base entry indexes: a stored turn, a summary, or a fact. */
export type KnowledgeKind = 'turn' | 'summary' | 'fact';

/** An indexed item. The KB is an index: everything in it can be rebuilt from the store. */
export interface KnowledgeEntry {
  id: string;
  namespace: string;
  kind: KnowledgeKind;
  sessionId: string | null;
  vector: number[];
  /** False for superseded facts. */
  current: boolean;
  createdAt: number;
}

/**
 * Which entries a {@link KnowledgeBase} call covers: by namespace, kinds, session, current
 * only; the conditions given all apply, and an empty filter matches every entry.
 */
export interface KnowledgeFilter {
  namespace?: string;
  kinds?: KnowledgeKind[];
  sessionId?: string;
  /** Only entries with `current: true`. */
  currentOnly?: boolean;
}

/** A {@link KnowledgeBase.query} request: the `k` entries closest to `vector` within one namespace and the filter. */
export interface KnowledgeQuery {
  vector: number[];
  k: number;
  /** Queries are always scoped to one namespace. */
  filter: KnowledgeFilter & { namespace: string };
}

/** One result of {@link KnowledgeBase.query}: the entry's id, kind and session, and its cosine similarity. */
export interface KnowledgeMatch {
  id: string;
  kind: KnowledgeKind;
  sessionId: string | null;
  /** Cosine similarity in [-1, 1], higher is closer. */
  score: number;
}

/** Vector index over turns, summaries and facts. */
export interface KnowledgeBase {
  /**
   * Inserts or replaces entries by id. Idempotent.
   * @throws StrataError CONFIG_INVALID when a vector's dimension differs from the index's.
   */
  upsert(entries: KnowledgeEntry[]): Promise<void>;
  /** Top-k by cosine similarity among entries matching the filter, best first. */
  query(query: KnowledgeQuery): Promise<KnowledgeMatch[]>;
  /** Flips the `current` flag of existing entries; unknown ids are ignored. */
  setCurrent(changes: { id: string; current: boolean }[]): Promise<void>;
  /** Deletes by id or by filter; returns how many entries were removed. */
  delete(target: { ids: string[] } | { filter: KnowledgeFilter }): Promise<number>;
  /** How many entries match the filter. */
  count(filter: KnowledgeFilter): Promise<number>;
  /** Releases resources. Idempotent. */
  close(): Promise<void>;
}

import type { Collection } from 'chromadb';
import { StrataError } from '@strata/core';
import type { KnowledgeEntry, KnowledgeMatch } from '@strata/core';
import { matchFieldsOf, toMetadata } from './chroma-metadata.js';
import type { WhereClause } from './chroma-metadata.js';

/** Ids are read in pages this big: only ids travel (`include: []`), so a page stays small. */
const ID_PAGE = 10_000;

/**
 * The HTTP calls of the knowledge base on one collection, with the client's loosely typed
 * answers mapped to strata's types. Requests that carry records are cut into chunks of at
 * most `chunk`, below the server's batch limit.
 */
export class ChromaRecords {
  constructor(
    private readonly collection: Collection,
    private readonly chunk: number,
  ) {}

  async upsert(entries: KnowledgeEntry[]): Promise<void> {
    for (const part of chunksOf(entries, this.chunk)) {
      await this.collection.upsert({
        ids: part.map((entry) => entry.id),
        embeddings: part.map((entry) => entry.vector),
        metadatas: part.map(toMetadata),
      });
    }
  }

  /** Nearest first; Chroma's cosine distance is 1 - similarity. */
  async query(vector: number[], k: number, where: WhereClause | undefined): Promise<KnowledgeMatch[]> {
    const result = await this.collection.query({
      queryEmbeddings: [vector],
      nResults: k,
      ...(where && { where }),
      include: ['metadatas', 'distances'],
    });
    const ids = result.ids[0] ?? [];
    const distances = result.distances[0] ?? [];
    const metadatas = result.metadatas[0] ?? [];
    return ids.map((id, i) => ({ id, ...matchFieldsOf(id, metadatas[i]), score: scoreOf(id, distances[i]) }));
  }

  /** Which of `ids` exist (each once, in no particular order). */
  async existing(ids: string[]): Promise<string[]> {
    const found: string[] = [];
    // Chroma refuses a request that names an id twice.
    for (const part of chunksOf([...new Set(ids)], this.chunk)) {
      found.push(...(await this.collection.get({ ids: part, include: [] })).ids);
    }
    return found;
  }

  /**
   * Every id matching `where` (everything when undefined), page by page. Offsets are stable
   * only while nobody writes; a concurrent writer may make a page miss or repeat ids.
   */
  async idsWhere(where: WhereClause | undefined): Promise<string[]> {
    const ids = new Set<string>();
    for (let offset = 0; ; offset += ID_PAGE) {
      const page = await this.collection.get({ ...(where && { where }), limit: ID_PAGE, offset, include: [] });
      for (const id of page.ids) ids.add(id);
      if (page.ids.length < ID_PAGE) return [...ids];
    }
  }

  /** Chroma's update merges metadata: only `current` changes. */
  async setCurrent(changes: { id: string; current: boolean }[]): Promise<void> {
    for (const part of chunksOf(changes, this.chunk)) {
      await this.collection.update({ ids: part.map((c) => c.id), metadatas: part.map((c) => ({ current: c.current })) });
    }
  }

  async deleteIds(ids: string[]): Promise<void> {
    for (const part of chunksOf(ids, this.chunk)) await this.collection.delete({ ids: part });
  }

  /** Without a filter the server counts; with one, only ids are listed and counted. */
  async count(where: WhereClause | undefined): Promise<number> {
    if (where === undefined) return this.collection.count();
    return (await this.idsWhere(where)).length;
  }

  /** The dimension of a stored vector, or null in an empty collection. */
  async storedDimensions(): Promise<number | null> {
    const sample = await this.collection.get({ limit: 1, include: ['embeddings'] });
    return sample.embeddings[0]?.length ?? null;
  }
}

/** Cosine similarity from Chroma's distance, clamped: float32 rounding can step past ±1. */
function scoreOf(id: string, distance: number | null | undefined): number {
  if (typeof distance !== 'number' || Number.isNaN(distance)) {
    throw new StrataError('INTERNAL', `Chroma answered a query without a distance for "${id}" (got ${String(distance)}).`, {
      hint: 'This is unexpected; please report it with the Chroma server version.',
    });
  }
  return Math.max(-1, Math.min(1, 1 - distance));
}

function chunksOf<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

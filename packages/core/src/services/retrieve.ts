import type { Fact, Summary } from '../domain/derived.js';
import type { StoredMessage } from '../domain/message.js';
import type { SearchHit } from '../domain/retrieval.js';
import { fuseRankings } from '../engine/fuse-rankings.js';
import type { LexicalKind } from '../ports/session-store.js';
import type { MemoryDeps } from './deps.js';

export interface RetrieveRequest {
  namespace: string;
  query: string;
  k: number;
  kinds: LexicalKind[];
  /** Ids to leave out (already shown elsewhere in a context). */
  exclude?: ReadonlySet<string>;
}

/** A hit with the record it points at, so callers can render it. */
export type Retrieved =
  | (SearchHit & { kind: 'turn'; record: StoredMessage })
  | (SearchHit & { kind: 'summary'; record: Summary })
  | (SearchHit & { kind: 'fact'; record: Fact });

/**
 * Hybrid retrieval inside one namespace: BM25 candidates from the store and vector
 * candidates from the KB, fused by reciprocal rank, hydrated from the store (the truth:
 * anything the KB still knows but the store no longer has is dropped). Best first.
 */
export async function retrieve(deps: MemoryDeps, request: RetrieveRequest): Promise<Retrieved[]> {
  const { namespace, query, k, kinds } = request;
  if (!query.trim() || k <= 0) return [];
  const depth = Math.max(k * 3, 20);
  const [lexical, vector] = await Promise.all([
    deps.store.searchLexical({ namespace, text: query, kinds, k: depth }),
    vectorCandidates(deps, namespace, query, kinds, depth),
  ]);
  const exclude = request.exclude ?? new Set<string>();
  const keep = (id: string) => !exclude.has(id);
  const fused = fuseRankings([lexical.map((h) => h.id).filter(keep), vector.filter(keep)]);
  const hydrated = await hydrate(deps, namespace, fused.slice(0, depth).map((f) => f.id));
  const out: Retrieved[] = [];
  for (const { id, score } of fused) {
    const hit = hydrated.get(id);
    if (hit) out.push({ ...hit, score });
    if (out.length >= k) break;
  }
  return out;
}

async function vectorCandidates(deps: MemoryDeps, namespace: string, query: string, kinds: LexicalKind[], k: number): Promise<string[]> {
  const vector = await deps.embeddings.embedQuery(query);
  if (!vector.some((v) => v !== 0)) return [];
  const matches = await deps.knowledge.query({ vector, k, filter: { namespace, kinds, currentOnly: true } });
  return matches.filter((m) => m.score >= deps.policy.context.minSimilarity).map((m) => m.id);
}

async function hydrate(deps: MemoryDeps, namespace: string, ids: string[]): Promise<Map<string, Retrieved>> {
  const [messages, summaries, facts] = await Promise.all([
    deps.store.messages({ ids }),
    deps.store.summaries({ ids }),
    deps.store.facts({ ids }),
  ]);
  const out = new Map<string, Retrieved>();
  for (const m of messages.filter((r) => r.namespace === namespace)) {
    out.set(m.id, { kind: 'turn', id: m.id, text: m.content, score: 0, sessionId: m.sessionId, messageIds: [m.id], createdAt: m.createdAt, record: m });
  }
  for (const s of summaries.filter((r) => r.namespace === namespace)) {
    out.set(s.id, { kind: 'summary', id: s.id, text: s.text, score: 0, sessionId: s.sessionId, messageIds: s.sourceMessageIds, createdAt: s.createdAt, record: s });
  }
  for (const f of facts.filter((r) => r.namespace === namespace)) {
    out.set(f.id, { kind: 'fact', id: f.id, text: f.text, score: 0, sessionId: null, messageIds: f.sourceMessageIds, createdAt: f.validFrom, record: f });
  }
  return out;
}

/** Strips the hydrated record for the public search result. */
export function toSearchHit(hit: Retrieved): SearchHit {
  const { record: _record, ...rest } = hit;
  return rest;
}

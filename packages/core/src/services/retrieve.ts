import type { Fact, Summary } from '../domain/derived.js';
import type { StoredMessage } from '../domain/message.js';
import type { SearchHit } from '../domain/retrieval.js';
import { fuseRankings } from '../engine/fuse-rankings.js';
import { analyzeText } from '../lexical/analyze.js';
import { properNouns } from '../engine/proper-nouns.js';
import { isAboutDay, queryDayOf, type QueryDay } from '../engine/query-day.js';
import type { LexicalHit, LexicalKind } from '../ports/session-store.js';
import type { MemoryDeps } from './deps.js';

export interface RetrieveRequest {
  namespace: string;
  query: string;
  k: number;
  kinds: LexicalKind[];
  /** Ids to leave out (already shown elsewhere in a context). */
  exclude?: ReadonlySet<string>;
  /** The day the query names, if any ({@link queryDayFor}): resolved once for several retrievals of one query. */
  day: QueryDay | null;
}

/** The day a query names, if time-aware ranking is on: resolve once for several retrievals of one query. */
export function queryDayFor(deps: MemoryDeps, query: string): QueryDay | null {
  return (deps.policy.context.timeAware ? queryDayOf(query, deps.clock.now()) : undefined) ?? null;
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
 * Query expansion (policy.context): a day the query names is added as `MM-DD` and the
 * candidates about that day rank first (`timeAware`); for turns and summaries, the objects
 * of the best-matching facts (`expandWithFacts`) and the names in the best lexical turns
 * (`expandWithNames`) are each searched as one more ranking.
 */
export async function retrieve(deps: MemoryDeps, request: RetrieveRequest): Promise<Retrieved[]> {
  const { namespace, query, k, kinds } = request;
  if (!query.trim() || k <= 0) return [];
  const depth = Math.max(k * 3, 20);
  const { day } = request;
  const text = day === null ? query : `${query} ${day.key}`;
  const [lexical, vector, objects] = await Promise.all([
    deps.store.searchLexical({ namespace, text, kinds, k: depth }),
    vectorCandidates(deps, namespace, text, kinds, depth),
    factExpansion(deps, request),
  ]);
  // each expansion is a ranking of its own: a name and a fact object do not dilute each other
  const expansions = [objects.join(' '), (await nameExpansion(deps, request, lexical)).join(' ')].filter((t) => t.length > 0);
  const expanded = await Promise.all(expansions.map((t) => deps.store.searchLexical({ namespace, text: t, kinds, k: depth })));
  const exclude = request.exclude ?? new Set<string>();
  const keep = (id: string) => !exclude.has(id);
  const fused = fuseRankings([lexical.map((h) => h.id), vector, ...expanded.map((hits) => hits.map((h) => h.id))].map((ids) => ids.filter(keep)));
  const hydrated = await hydrate(deps, namespace, fused.slice(0, depth).map((f) => f.id));
  const ranked = day === null ? fused : aboutDayFirst(fused, hydrated, day);
  const out: Retrieved[] = [];
  for (const { id, score } of ranked) {
    const hit = hydrated.get(id);
    if (hit) out.push({ ...hit, score });
    if (out.length >= k) break;
  }
  return out;
}

/** Best lexical turns whose names expand a search for turns. */
const EXPANSION_TURNS = 2;

/**
 * Names (capitalised words) in the best lexical turn matches that the query does not hold,
 * for a search of turns: "Which city does my cousin live in?" finds "My cousin is called
 * Alice", and then "Alice moved to Hanoi". Empty when `expandWithNames` is off.
 */
async function nameExpansion(deps: MemoryDeps, request: RetrieveRequest, lexical: readonly LexicalHit[]): Promise<string[]> {
  if (!deps.policy.context.expandWithNames || !request.kinds.includes('turn')) return [];
  const ids = lexical.filter((hit) => hit.kind === 'turn').slice(0, EXPANSION_TURNS).map((hit) => hit.id);
  if (ids.length === 0) return [];
  const asked = new Set(analyzeText(request.query));
  const turns = await deps.store.messages({ ids });
  return turns
    .filter((m) => m.namespace === request.namespace)
    .flatMap((m) => properNouns(m.content))
    .filter((name) => analyzeText(name).every((term) => !asked.has(term)));
}

/** Facts per query whose objects may expand a search for turns and summaries. */
const EXPANSION_FACTS = 3;

/**
 * The objects of the current facts that match the query and whose slot the query names
 * (a predicate term in the query: "sister" -> Lena), as one more lexical query for turns and
 * summaries: "Which city does my sister live in?" then also finds "Lena moved to Seoul".
 * None when expansion is off, only facts are wanted, or no fact qualifies.
 */
async function factExpansion(deps: MemoryDeps, request: RetrieveRequest): Promise<string[]> {
  if (!deps.policy.context.expandWithFacts || !request.kinds.some((kind) => kind !== 'fact')) return [];
  const hits = await deps.store.searchLexical({ namespace: request.namespace, text: request.query, kinds: ['fact'], k: EXPANSION_FACTS });
  if (hits.length === 0) return [];
  const asked = new Set(analyzeText(request.query));
  const facts = await deps.store.facts({ ids: hits.map((h) => h.id) });
  return facts
    .filter((f) => f.namespace === request.namespace && analyzeText(f.predicate).some((term) => asked.has(term)))
    .map((f) => f.object);
}

/** Candidates about the asked day first (each group keeps its fused order). */
function aboutDayFirst(fused: { id: string; score: number }[], hydrated: Map<string, Retrieved>, day: QueryDay): { id: string; score: number }[] {
  const about: { id: string; score: number }[] = [];
  const rest: { id: string; score: number }[] = [];
  for (const entry of fused) {
    const hit = hydrated.get(entry.id);
    (hit !== undefined && isAboutDay(hit.text, hit.createdAt, day) ? about : rest).push(entry);
  }
  return [...about, ...rest];
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

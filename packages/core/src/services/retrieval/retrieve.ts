// Kept in one file: one retrieval pipeline; the channels and expansions below serve only `retrieve`, which fuses them.
import type { Fact, Summary } from '../../domain/derived.js';
import type { StoredMessage } from '../../domain/message.js';
import type { SearchHit } from '../../domain/retrieval.js';
import { fuseRankings } from '../../engine/retrieval/fuse-rankings.js';
import { spreadTurnScores } from '../../engine/retrieval/spread-turn-scores.js';
import { analyzeText, wordsOf } from '../../lexical/analyze.js';
import { predicateKind } from '../../lexical/fact-lexical-text.js';
import { RELATION_WORDS_BY_SLOT } from '../../models/facts/patterns/fact-vocabulary.js';
import { properNouns } from '../../engine/retrieval/proper-nouns.js';
import { parseQuery, type ParsedQuery } from '../../engine/retrieval/parsed-query.js';
import { isAboutDay, type QueryDay } from '../../engine/retrieval/query-day.js';
import type { LexicalHit, LexicalKind } from '../../ports/lexical-index.js';
import type { MemoryDeps } from '../deps.js';
import { readableOnly, unreadableReason, type SkippedRecord } from './readable.js';

export interface RetrieveRequest {
  namespace: string;
  /** The question, parsed once ({@link parsedQueryFor}) for every channel and every retrieval of it. */
  query: ParsedQuery;
  k: number;
  kinds: LexicalKind[];
  /** Ids to leave out (already shown elsewhere in a context). */
  exclude?: ReadonlySet<string>;
  /** Receives the records left out because they cannot be read ({@link readableOnly}). */
  skipped?: SkippedRecord[];
}

/** The question parsed once, with the memory's clock and policy (the day only when time-aware ranking is on). */
export function parsedQueryFor(deps: MemoryDeps, text: string): ParsedQuery {
  return parseQuery(text, { now: deps.clock.now(), timeAware: deps.policy.context.timeAware });
}

/** A hit with the record it points at, so callers can render it. */
export type Retrieved = (SearchHit & { kind: 'turn'; record: StoredMessage }) | (SearchHit & { kind: 'summary'; record: Summary }) | (SearchHit & { kind: 'fact'; record: Fact });

/**
 * Hybrid retrieval inside one namespace: BM25 candidates from the store, turns scored with a
 * share of their neighbours' scores and favoured when the query names their speaker
 * ({@link spreadTurnScores}), fused by weighted reciprocal rank with vector candidates from
 * the KB (`policy.context.vectorWeight`: off for the offline hashing embeddings), hydrated from
 * the store (the truth: anything the KB still knows but the store no longer has is dropped).
 * Best first. Query expansion (policy.context): a day the query names is added as `MM-DD` and the
 * candidates about that day rank first (`timeAware`); for turns and summaries, the objects
 * of the best-matching facts (`expandWithFacts`) and the names in the best lexical turns
 * (`expandWithNames`) are each searched as one more ranking.
 */
export async function retrieve(deps: MemoryDeps, request: RetrieveRequest): Promise<Retrieved[]> {
  const { namespace, query, k, kinds } = request;
  if (!query.text.trim() || k <= 0) return [];
  const depth = Math.max(k * 3, 30);
  const { day, searchText: text, searchTerms: terms } = query;
  const vectorWeight = deps.policy.context.vectorWeight ?? 0;
  const [direct, vector, objects, aliases, viaFacts] = await Promise.all([
    deps.lexical.search({ namespace, text, terms, kinds, k: depth }),
    vectorWeight > 0 ? vectorCandidates(deps, namespace, text, kinds, depth) : Promise.resolve([]),
    factExpansion(deps, request),
    entityExpansion(deps, request),
    turnsViaFacts(deps, request, depth),
  ]);
  const lexical = mergeHits(direct, viaFacts);
  const hydrated = await hydrate(deps, namespace, [...lexical, ...vector.map((id) => ({ id }))], request.skipped);
  // each expansion is a ranking of its own: a name and a fact object do not dilute each other
  const names = nameExpansion(deps, request, lexical, hydrated);
  const expansions: Expansion[] = [
    ...(objects.length ? [{ text: objects.join(' '), via: `the objects of the facts the query matches (${objects.join(', ')})` }] : []),
    ...(names.length ? [{ text: names.join(' '), via: `the names in the best matching turns (${names.join(', ')})` }] : []),
    ...aliases,
  ];
  const expanded = await Promise.all(expansions.map((e) => deps.lexical.search({ namespace, text: e.text, kinds, k: depth })));
  const unread = expanded.flat().filter((h) => !hydrated.has(h.id));
  if (unread.length > 0) for (const [id, hit] of await hydrate(deps, namespace, unread, request.skipped)) hydrated.set(id, hit);
  const lexicalRanking = await withTurnContext(deps, lexical, hydrated, query);
  const exclude = request.exclude ?? new Set<string>();
  const keep = (id: string) => !exclude.has(id);
  const lists = [lexicalRanking, vector, ...expanded.map((hits) => hits.map((h) => h.id))].map((ids) => ids.filter(keep));
  const fused = fuseRankings(lists, 60, [1, vectorWeight]);
  const ranked = day === null ? fused : aboutDayFirst(fused, hydrated, day);
  // what only an expansion found says which one
  const unexpanded = new Set([...(lists[0] ?? []), ...vector]);
  const viaOf = (id: string): string | undefined => (unexpanded.has(id) ? undefined : expansions[expanded.findIndex((hits) => hits.some((h) => h.id === id))]?.via);
  const out: Retrieved[] = [];
  for (const { id, score } of ranked) {
    const hit = hydrated.get(id);
    const via = viaOf(id);
    if (hit) out.push(via === undefined ? { ...hit, score } : { ...hit, score, via });
    if (out.length >= k) break;
  }
  return out;
}

/**
 * With `policy.context.factShare`, a search for turns also searches the current facts and gives
 * each source turn of a matching fact that share of the fact's score: a fact names who it is
 * about and resolves dates ("Ana went to a pottery class on 7 May 2023"), which the turn itself
 * ("I went to one yesterday") does not.
 */
async function turnsViaFacts(deps: MemoryDeps, request: RetrieveRequest, depth: number): Promise<LexicalHit[]> {
  const { factShare } = deps.policy.context;
  if (factShare <= 0 || !request.kinds.includes('turn')) return [];
  const { searchText: text, searchTerms: terms } = request.query;
  const hits = await deps.lexical.search({ namespace: request.namespace, text, terms, kinds: ['fact'], k: Math.min(depth, FACT_CHANNEL_HITS) });
  if (hits.length === 0) return [];
  const scoreOf = new Map(hits.map((h) => [h.id, h.score]));
  const facts = await deps.store.facts({ ids: hits.map((h) => h.id) });
  const turns = new Map<string, number>();
  for (const fact of facts) {
    if (fact.namespace !== request.namespace) continue;
    const share = (scoreOf.get(fact.id) ?? 0) * factShare;
    for (const id of fact.sourceMessageIds) turns.set(id, (turns.get(id) ?? 0) + share);
  }
  return [...turns].map(([id, score]) => ({ kind: 'turn' as const, id, score }));
}

/** Best facts whose source turns are credited (each hydrated: a weak match adds little). */
const FACT_CHANNEL_HITS = 20;

/** Lexical hits with the scores of the same id added up, best first. */
function mergeHits(first: readonly LexicalHit[], second: readonly LexicalHit[]): LexicalHit[] {
  if (second.length === 0) return [...first];
  const merged = new Map(first.map((h) => [`${h.kind}:${h.id}`, { ...h }]));
  for (const hit of second) {
    const entry = merged.get(`${hit.kind}:${hit.id}`);
    if (entry) entry.score += hit.score;
    else merged.set(`${hit.kind}:${hit.id}`, { ...hit });
  }
  return [...merged.values()].sort((a, b) => b.score - a.score);
}

/**
 * Turn hits whose neighbours are read and scored: at most this many, and only those scoring at
 * least SPREAD_MIN_SHARE of the best (a weak hit gives its neighbours too little to matter). On
 * the LoCoMo dev file (with factShare 0.25) 30 / 0.35 gave turn recall@10 76.7 %, 60 / 0.35
 * 76.6 %, 60 / 0.5 75.8 %; all neighbours are read in one store call.
 */
const SPREAD_HITS = 30;
const SPREAD_MIN_SHARE = 0.35;

/**
 * The lexical ranking with turns scored in their exchange ({@link spreadTurnScores}): reads the
 * turns around the best turn hits, adds them to `hydrated`, and returns every hit and those
 * neighbours, best first (summaries and facts keep their BM25 score; turn hits too weak to
 * spread come last, in lexical order).
 */
async function withTurnContext(deps: MemoryDeps, lexical: readonly LexicalHit[], hydrated: Map<string, Retrieved>, query: ParsedQuery): Promise<string[]> {
  const { neighbourShare, speakerBoost } = deps.policy.context;
  const turnHits = lexical.filter((h) => h.kind === 'turn');
  if (turnHits.length === 0 || (neighbourShare <= 0 && speakerBoost <= 0)) return lexical.map((h) => h.id);
  const best = turnHits[0]?.score ?? 0;
  const spreaders = turnHits.filter((h) => h.score >= best * SPREAD_MIN_SHARE).slice(0, SPREAD_HITS);
  const placed = new Map<string, StoredMessage>();
  for (const hit of turnHits) {
    const found = hydrated.get(hit.id);
    if (found?.kind === 'turn') placed.set(found.id, found.record);
  }
  if (neighbourShare > 0) {
    const seqRanges = spreaders.flatMap((h) => {
      const m = placed.get(h.id);
      return m === undefined ? [] : [{ sessionId: m.sessionId, fromSeq: m.seq - 2, toSeq: m.seq + 2 }];
    });
    for (const m of await deps.store.messages({ seqRanges })) {
      if (placed.has(m.id) || !m.content.trim() || unreadableReason('turn', m) !== undefined) continue;
      placed.set(m.id, m);
      hydrated.set(m.id, turnHit(m));
    }
  }
  const scores = new Map(spreaders.map((h) => [h.id, h.score]));
  const spread = spreadTurnScores([...placed.values()], scores, { neighbourShare, speakerBoost, queryWords: query.words });
  const others = lexical.filter((h) => h.kind !== 'turn');
  const ranked = [...spread, ...others].sort((a, b) => b.score - a.score).map((h) => h.id);
  // weak hits come after every neighbour of a strong one: measured, a neighbour is the better bet
  const listed = new Set(ranked);
  return [...ranked, ...turnHits.filter((h) => !listed.has(h.id)).map((h) => h.id)];
}

/** Best lexical turns whose names expand a search for turns. */
const EXPANSION_TURNS = 2;
/** Best lexical turns whose speakers' names are not expansions. */
const SPEAKER_SAMPLE = 20;

/**
 * Names (capitalised words) in the best lexical turn matches that the query does not hold,
 * for a search of turns: "Which city does my cousin live in?" finds "My cousin is called
 * Alice", and then "Alice moved to Hanoi". Empty when `expandWithNames` is off.
 */
function nameExpansion(deps: MemoryDeps, request: RetrieveRequest, lexical: readonly LexicalHit[], hydrated: ReadonlyMap<string, Retrieved>): string[] {
  if (!deps.policy.context.expandWithNames || !request.kinds.includes('turn')) return [];
  const ids = lexical
    .filter((hit) => hit.kind === 'turn')
    .slice(0, SPEAKER_SAMPLE)
    .map((hit) => hit.id);
  if (ids.length === 0) return [];
  const asked = new Set(request.query.terms);
  // hydrated holds the namespace's turns among them (a turn that is gone is not there)
  const turns = ids.flatMap((id) => {
    const hit = hydrated.get(id);
    return hit?.kind === 'turn' ? [hit.record] : [];
  });
  // the people talking are named everywhere: searching for them again finds nothing new
  const speakers = new Set(turns.flatMap((m) => (m.name ? analyzeText(m.name) : [])));
  const best = new Set(ids.slice(0, EXPANSION_TURNS));
  return turns
    .filter((m) => best.has(m.id))
    .flatMap((m) => properNouns(m.content))
    .filter((name) => analyzeText(name).every((term) => !asked.has(term) && !speakers.has(term)));
}

/** A text searched as a ranking of its own beside the query's, and what it comes from (a hit only it finds says so: {@link SearchHit.via}). */
interface Expansion {
  text: string;
  via: string;
}

/** Facts per query searched for the people it names. */
const ENTITY_FACTS = 10;

/**
 * For each person the query names who is someone's relative by a current fact ("User's sister
 * is Lena"), the words that fact calls them by beside their name ("sister"), as one more
 * ranking for turns and summaries: "Where does Lena work?" then also finds "My sister just got
 * a job at the port", which never names her. None when `expandWithEntities` is off, only
 * facts are wanted, or the query names nobody who is.
 */
async function entityExpansion(deps: MemoryDeps, request: RetrieveRequest): Promise<Expansion[]> {
  const { names } = request.query;
  if (!deps.policy.context.expandWithEntities || names.length === 0 || !request.kinds.some((kind) => kind !== 'fact')) return [];
  const hits = await deps.lexical.search({ namespace: request.namespace, text: names.join(' '), kinds: ['fact'], k: ENTITY_FACTS });
  if (hits.length === 0) return [];
  const asked = new Set(request.query.terms);
  const out: Expansion[] = [];
  for (const fact of await deps.store.facts({ ids: hits.map((h) => h.id) })) {
    const name = fact.object.toLowerCase();
    if (fact.namespace !== request.namespace || !RELATION_WORDS_BY_SLOT.has(predicateKind(fact.predicate)) || !names.includes(name)) continue;
    const own = new Set([...analyzeText(fact.object), ...analyzeText(fact.subject), 'user']);
    const words = wordsOf(fact.text).filter((word) => analyzeText(word).some((term) => !own.has(term) && !asked.has(term)));
    if (words.length > 0) out.push({ text: words.join(' '), via: `${fact.object}, as the fact "${fact.text}" calls them` });
  }
  return out;
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
  const hits = await deps.lexical.search({ namespace: request.namespace, text: request.query.text, terms: request.query.terms, kinds: ['fact'], k: EXPANSION_FACTS });
  if (hits.length === 0) return [];
  const asked = new Set(request.query.terms);
  const facts = await deps.store.facts({ ids: hits.map((h) => h.id) });
  return facts.filter((f) => f.namespace === request.namespace && analyzeText(f.predicate).some((term) => asked.has(term))).map((f) => f.object);
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

/**
 * The records of the ids in one namespace, by id. A lexical hit names its kind, so only that
 * table is read for it; an id of unknown kind (a vector match) is looked up in all three.
 */
async function hydrate(deps: MemoryDeps, namespace: string, wanted: readonly { id: string; kind?: LexicalKind }[], skipped: SkippedRecord[] = []): Promise<Map<string, Retrieved>> {
  const ids: Record<LexicalKind, Set<string>> = { turn: new Set(), summary: new Set(), fact: new Set() };
  for (const { id, kind } of wanted) {
    if (kind !== undefined) ids[kind].add(id);
    else for (const set of Object.values(ids)) set.add(id);
  }
  const read = <T>(set: Set<string>, load: (list: string[]) => Promise<T[]>): Promise<T[]> => (set.size === 0 ? Promise.resolve([]) : load([...set]));
  const [messages, summaries, facts] = await Promise.all([
    read(ids.turn, (list) => deps.store.messages({ ids: list })),
    read(ids.summary, (list) => deps.store.summaries({ ids: list })),
    read(ids.fact, (list) => deps.store.facts({ ids: list })),
  ]);
  const out = new Map<string, Retrieved>();
  // the namespace's records that can be read (the others are reported in `skipped`)
  const inNamespace = <R extends StoredMessage | Summary | Fact>(kind: LexicalKind, records: R[]): R[] =>
    readableOnly(
      kind,
      records.filter((r) => r.namespace === namespace),
      skipped,
    );
  for (const m of inNamespace('turn', messages)) out.set(m.id, turnHit(m));
  for (const s of inNamespace('summary', summaries)) {
    out.set(s.id, { kind: 'summary', id: s.id, text: s.text, score: 0, sessionId: s.sessionId, messageIds: s.sourceMessageIds, createdAt: s.createdAt, record: s });
  }
  for (const f of inNamespace('fact', facts)) {
    out.set(f.id, { kind: 'fact', id: f.id, text: f.text, score: 0, sessionId: null, messageIds: f.sourceMessageIds, createdAt: f.validFrom, record: f });
  }
  return out;
}

function turnHit(m: StoredMessage): Retrieved {
  return { kind: 'turn', id: m.id, text: m.content, score: 0, sessionId: m.sessionId, messageIds: [m.id], createdAt: m.createdAt, record: m };
}

/** Strips the hydrated record for the public search result. */
export function toSearchHit(hit: Retrieved): SearchHit {
  const { record: _record, ...rest } = hit;
  return rest;
}

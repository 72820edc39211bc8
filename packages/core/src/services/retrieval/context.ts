// Kept in one file: one pipeline, `buildContext`; the helpers below serve only it.
import { isMemoryMessage, type ContextMessage, type MemoryMessage, type StoredMessage } from '../../domain/message.js';
import type { ManifestItem, PendingJob } from '../../domain/retrieval.js';
import type { Session } from '../../domain/session.js';
import { PROFILE_PREDICATE_KINDS } from '../../lexical/fact-lexical-text.js';
import { analyzeText } from '../../lexical/analyze.js';
import { boundedMemo } from '../../shared/bounded-memo.js';
import { adaptShares } from '../../engine/retrieval/adapt-shares.js';
import { assembleContext, type Assembly } from '../../engine/retrieval/assemble-context.js';
import { MESSAGE_OVERHEAD_TOKENS, type MemoryDeps } from '../deps.js';
import type { ParsedQuery } from '../../engine/retrieval/parsed-query.js';
import { parsedQueryFor, retrieve } from './retrieve.js';
import { readableOnly, type SkippedRecord } from './readable.js';
import { searchOnce } from './search-once.js';
import { loadSessionView, type SessionView } from '../session-view.js';
import { countTurnTokens, turnTokens } from '../turn-tokens.js';
import { loadCurrentTurn } from './current-turn.js';
import { dedupeRecall, isNotSynopsis, pickFacts, withNeighbours } from './context-selection.js';
import { PROFILE_CANDIDATES, lineItem, profileItems, recallLine, recentItem, redundantEntry, sinceOf, tierOf, workingItems, type Rendered } from './context-items.js';

/** People a question names whose profile facts are read for its context (a question naming more asks about a group). */
const NAMED_PROFILES = 3;
/** Best recalled candidates compared with the newest recent turns to decide the budget split. */
const ADAPT_RECALLED = 3;
/** Newest turns compared: the recent share a split leaves holds about this many; analyzing every one cost each getContext 0.2 ms. */
const ADAPT_RECENT = 10;

/** Derivation not yet applied for a session: what the context cannot yet rely on. */
export interface PendingReport {
  jobs: PendingJob[];
  /** Every turn up to this seq is covered by an applied summary. */
  watermarkSeq: number;
  /** Turns kept verbatim because no applied summary covers them yet. */
  uncoveredMessages: number;
  /**
   * Uncovered turns up to this seq are not in the manifest: the newer ones listed hold the
   * whole budget and recent turns stay contiguous, so none of these could have been shown.
   * Search still reaches them (recall). 0 when every uncovered turn is listed.
   */
  unlistedThroughSeq: number;
}

/**
 * Options of `Memory.getContext`: the text to select for, the token budget (default
 * `policy.context.defaultBudgetTokens`), the app's system prompt, and whether the read
 * counts as a topic access.
 */
export interface ContextOptions {
  /** Text the memory selects for; defaults to the newest user turn. */
  query?: string;
  budgetTokens?: number;
  /**
   * The app's own system prompt. It leads the one system message (strata's memory follows it)
   * and counts against the budget, so the model gets exactly one system message.
   */
  systemPrompt?: string;
  /**
   * Whether the turns sent count as accesses to their topics (a cold topic is restored, its
   * decay starts again). `false` for a look that is not a use: an inspector, a debug view.
   * @defaultValue true
   */
  touch?: boolean;
}

/**
 * What `Memory.getContext` returns: the messages for the next model call, within
 * `budgetTokens` unless `overBudget`; the manifest saying why each candidate is in or out;
 * and the derivation not yet applied.
 */
export interface ContextResult {
  /** One system message (the `systemPrompt`, then strata's memory; absent when there is neither), then the turns, oldest first. */
  messages: ContextMessage[];
  manifest: ManifestItem[];
  tokens: number;
  budgetTokens: number;
  /**
   * The system prompt and the current turn (the newest user turn and the tool calls and
   * results after it) alone exceed the budget. They are sent anyway, everything else is cut,
   * `tokens` exceeds `budgetTokens`, and the manifest says so on those turns.
   */
  overBudget: boolean;
  /** The query the memory was selected for. */
  query: string;
  pending: PendingReport;
}

/**
 * Terms of the texts a context compares with its query: the newest turns and the best recalled
 * ones come back call after call, and were analyzed again (lower-cased, normalized, split,
 * stemmed) on every one. Shared arrays: read, never changed.
 */
const termsOf = boundedMemo(4096, analyzeText);

const PREAMBLE = 'Memory of this user and conversation (from strata). Use it when relevant.';
const HEADINGS = { working: 'Conversation so far (summarized):', profile: 'About the people (current):', facts: 'Known facts:', recall: 'Recalled from earlier conversations:' } as const;

/**
 * Assembles the context for the next model call: the working tier, the facts and older
 * extracts that match the query, and the recent turns, within `budgetTokens`.
 */
export async function buildContext(deps: MemoryDeps, session: Session, options: ContextOptions & { budgetTokens: number }): Promise<ContextResult> {
  const { query, budgetTokens, systemPrompt } = options;
  // Only the newest turns a context of this budget could show: a backlog is reached through search.
  const skipped: SkippedRecord[] = [];
  const { context } = deps.policy;
  // the two retrievals search the facts for the same words three times: once is enough
  const searching: MemoryDeps = { ...deps, lexical: searchOnce(deps.lexical) };
  // What does not depend on the session's tiers is read beside them (fewer round trips in a
  // row on a networked store): the query's facts when the query is given, the pending jobs,
  // and the profile (the newest current profile facts: enough for every profile line after
  // the query's own facts are left out).
  const given = query === undefined ? undefined : parsedQueryFor(deps, query);
  const factsOf = (parsed: ParsedQuery) => retrieve(searching, { namespace: session.namespace, query: parsed, k: context.factCandidates, kinds: ['fact'], skipped });
  const givenFacts = given === undefined ? undefined : factsOf(given);
  const profileOf = (subject?: string) =>
    deps.store.facts({ namespace: session.namespace, ...(subject === undefined ? {} : { subject }), predicateKinds: [...PROFILE_PREDICATE_KINDS], last: PROFILE_CANDIDATES + context.factCandidates });
  const beside = Promise.all([
    deps.queue.pending(session.id),
    profileOf(),
    // the profile of each person the question names, which the namespace's newest profile facts may not hold
    Promise.all((given?.names ?? []).slice(0, NAMED_PROFILES).map((name) => profileOf(name))),
  ]);
  // awaited below; until then a failure must not be an unhandled rejection (the tiers' read may fail first)
  for (const early of [givenFacts, beside]) early?.catch(() => undefined);
  const view = readableView(await loadSessionView(deps, session, budgetTokens), skipped);
  const current = await loadCurrentTurn(deps, session, view.uncovered, skipped);
  const currentIds = new Set(current.map((m) => m.id));
  const effectiveQuery = query ?? lastUserText(current.length ? current : view.uncovered);
  const shown = new Set<string>([...view.uncovered.map((m) => m.id), ...currentIds, ...view.summaries.map((s) => s.id), ...(view.synopsis ? [view.synopsis.id] : [])]);
  // analysed once: every channel of both retrievals and the shares below read it
  const parsed = given ?? parsedQueryFor(deps, effectiveQuery);
  const [facts, recalled, [jobs, profile, namedProfiles]] = await Promise.all([
    givenFacts ?? factsOf(parsed),
    retrieve(searching, { namespace: session.namespace, query: parsed, k: context.recallCandidates, kinds: ['turn', 'summary'], exclude: shown, skipped }),
    beside,
  ]);
  const count = (text: string) => deps.tokens.count(text);
  const recall = dedupeRecall(await withNeighbours(deps, recalled.filter(isNotSynopsis), shown));
  const factPick = pickFacts(facts, recall.kept);
  const split = adaptShares(context.shares, {
    queryTerms: parsed.terms,
    // who said it counts, the dates a turn is indexed under do not (and would cost a date parse per turn)
    recentTerms: view.uncovered.slice(-ADAPT_RECENT).map((m) => termsOf(spokenText(m))),
    recallTerms: recall.kept.slice(0, ADAPT_RECALLED).map((hit) => termsOf(hit.kind === 'turn' ? spokenText(hit.record) : hit.text)),
  });
  const assembly = assembleContext({
    budgetTokens,
    shares: split.shares,
    candidates: {
      working: workingItems(deps, view),
      profile: profileItems(deps, readableOnly('fact', profile, skipped), new Set(facts.map((f) => f.id)), readableOnly('fact', namedProfiles.flat(), skipped)),
      facts: factPick.kept.map((hit) => lineItem(deps, hit, 'facts', 'long-term', `- ${hit.text}${sinceOf(hit)}`)),
      recall: recall.kept.map((hit) => lineItem(deps, hit, 'recall', hit.kind === 'turn' ? 'session' : 'working', recallLine(hit))),
      recent: [...view.uncovered]
        .reverse()
        .filter((m) => !currentIds.has(m.id))
        .map((m) => recentItem(deps, m, split.isAdapted)),
    },
    pinned: [...current].reverse().map((m) => ({ ...recentItem(deps, m, false), reason: 'current turn (always sent)' })),
    // the app's prompt opens the one system message: its text and the message overhead are spent first
    ...(systemPrompt ? { fixedTokens: count(systemPrompt) + MESSAGE_OVERHEAD_TOKENS } : {}),
    memoryOverhead: (systemPrompt ? 0 : MESSAGE_OVERHEAD_TOKENS) + count(PREAMBLE) + (systemPrompt ? 2 : 1),
    headingTokens: { working: count(HEADINGS.working) + 2, profile: count(HEADINGS.profile) + 2, facts: count(HEADINGS.facts) + 2, recall: count(HEADINGS.recall) + 2 },
  });
  const { messages, tokens } = fitToBudget(deps, assembly, [...view.uncovered, ...current], { budget: budgetTokens, systemPrompt, pinned: currentIds });
  return {
    messages,
    manifest: [...assembly.manifest, ...[...factPick.redundant, ...recall.redundant].map((r) => redundantEntry(deps, r.hit, r.reason)), ...skipped.map(skippedEntry)],
    tokens,
    budgetTokens,
    overBudget: assembly.overBudget,
    query: effectiveQuery,
    pending: { jobs, watermarkSeq: view.watermark, uncoveredMessages: view.uncoveredCount, unlistedThroughSeq: view.unreadThroughSeq },
  };
}

/** The view without the records that cannot be read (each reported in `skipped`). */
function readableView(view: SessionView, skipped: SkippedRecord[]): SessionView {
  const synopsis = view.synopsis && readableOnly('summary', [view.synopsis], skipped)[0];
  return { ...view, synopsis, summaries: readableOnly('summary', view.summaries, skipped), uncovered: readableOnly('turn', view.uncovered, skipped) };
}

function skippedEntry(record: SkippedRecord): ManifestItem {
  return { kind: record.kind, id: record.id, tier: tierOf(record.kind), tokens: 0, included: false, reason: `skipped: the stored record cannot be read (${record.reason})`, sourceMessageIds: [] };
}

function spokenText(m: StoredMessage): string {
  return m.name ? `${m.name} ${m.content}` : m.content;
}

function lastUserText(messages: readonly StoredMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return m.content;
  }
  return '';
}

/**
 * Renders the plan and counts the real messages. Line-wise costs can differ from the joined
 * text by a token or two; if the real count exceeds the budget, the lowest-priority memory
 * lines are dropped until it fits, and the manifest says so.
 */
function fitToBudget(
  deps: MemoryDeps,
  assembly: Assembly,
  turns: readonly StoredMessage[],
  { budget, systemPrompt, pinned }: { budget: number; systemPrompt: string | undefined; pinned: ReadonlySet<string> },
): { messages: ContextMessage[]; tokens: number } {
  const byId = new Map(turns.map((m) => [m.id, m]));
  for (;;) {
    const { memory, recent } = render(assembly, byId, systemPrompt);
    // recent turns cost what was counted when they were stored (same text, same tool calls): only the composed system message is counted here
    const tokens = (memory ? messageTokens(deps, memory) : 0) + recent.reduce((sum, m) => sum + turnTokens(deps, m), 0);
    const messages: ContextMessage[] = [...(memory ? [memory] : []), ...recent];
    if (tokens <= budget) return { messages, tokens };
    // the current turn is never a victim: it is what the model must answer (the oldest recent turns go first)
    const victim = (['recall', 'working', 'facts', 'profile', 'recent'] as const)
      .map((s) => ({ s, list: assembly.included[s] }))
      .find((e) => (e.s === 'recent' ? !pinned.has(e.list[0]?.id ?? '') && e.list.length > 0 : e.list.length > 0));
    if (!victim) return { messages, tokens };
    const dropped = victim.s === 'recent' ? victim.list.shift() : victim.list.pop();
    const entry = assembly.manifest.find((m) => m.id === dropped?.id);
    if (entry) {
      entry.included = false;
      entry.reason = 'cut: over the token budget once rendered';
    }
  }
}

/** The system message of the memory sections, and the recent turns to send after it. */
function render(assembly: Assembly, byId: Map<string, StoredMessage>, systemPrompt: string | undefined): { memory?: MemoryMessage; recent: StoredMessage[] } {
  const blocks: string[] = [];
  for (const section of ['working', 'profile', 'facts', 'recall'] as const) {
    const items = assembly.included[section] as Rendered[];
    if (items.length) blocks.push([HEADINGS[section], ...items.map((i) => i.text)].join('\n'));
  }
  const recent = assembly.included.recent.map((i) => byId.get(i.id)).filter((m): m is StoredMessage => m !== undefined);
  const memoryText = blocks.length ? `${PREAMBLE}\n\n${blocks.join('\n\n')}` : '';
  const content = [systemPrompt ?? '', memoryText].filter((part) => part !== '').join('\n\n');
  return { ...(content ? { memory: { role: 'system', content, memory: true } } : {}), recent };
}

/** Tokens of a context message as sent, counted afresh: content, tool calls, per-message overhead. */
export function messageTokens(deps: Pick<MemoryDeps, 'tokens'>, message: ContextMessage): number {
  return isMemoryMessage(message) ? deps.tokens.count(message.content) + MESSAGE_OVERHEAD_TOKENS : countTurnTokens(deps, message).count;
}

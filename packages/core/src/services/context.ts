import type { BaseMessage } from '@langchain/core/messages';
import { SystemMessage } from '@langchain/core/messages';
import type { StoredMessage } from '../domain/message.js';
import type { ManifestItem, PendingJob } from '../domain/retrieval.js';
import type { Session } from '../domain/session.js';
import { assembleContext, type Assembly, type ContextItem, type Section } from '../engine/assemble-context.js';
import { MESSAGE_OVERHEAD_TOKENS, type MemoryDeps } from './deps.js';
import { queryDayFor, retrieve, type Retrieved } from './retrieve.js';
import { loadSessionView, type SessionView } from './session-view.js';
import { toLangChainMessage } from './to-langchain.js';
import { turnTokens } from './schedule.js';
import { formatDay, truncateWords } from './text-format.js';

/** Derivation not yet applied for a session: what the context cannot yet rely on. */
export interface PendingReport {
  jobs: PendingJob[];
  /** Every turn up to this seq is covered by an applied summary. */
  watermarkSeq: number;
  /** Turns kept verbatim because no applied summary covers them yet. */
  uncoveredMessages: number;
}

export interface ContextResult {
  messages: BaseMessage[];
  manifest: ManifestItem[];
  tokens: number;
  budgetTokens: number;
  /** The query the memory was selected for. */
  query: string;
  pending: PendingReport;
}

const PREAMBLE = 'Memory of this user and conversation (from strata). Use it when relevant.';
const HEADINGS = { working: 'Conversation so far (summarized):', facts: 'Known facts:', recall: 'Recalled from earlier conversations:' } as const;

/**
 * Assembles the context for the next model call: the working tier, the facts and older
 * extracts that match the query, and the recent turns, within `budgetTokens`.
 */
export async function buildContext(deps: MemoryDeps, session: Session, query: string | undefined, budgetTokens: number): Promise<ContextResult> {
  const view = await loadSessionView(deps, session);
  const effectiveQuery = query ?? lastUserText(view.uncovered);
  const shown = new Set<string>([...view.uncovered.map((m) => m.id), ...view.summaries.map((s) => s.id), ...(view.synopsis ? [view.synopsis.id] : [])]);
  const { context } = deps.policy;
  const day = queryDayFor(deps, effectiveQuery);
  const [facts, recalled, jobs] = await Promise.all([
    retrieve(deps, { namespace: session.namespace, query: effectiveQuery, k: context.factCandidates, kinds: ['fact'], day }),
    retrieve(deps, { namespace: session.namespace, query: effectiveQuery, k: context.recallCandidates, kinds: ['turn', 'summary'], exclude: shown, day }),
    deps.queue.pending(session.id),
  ]);
  const count = (text: string) => deps.tokens.count(text);
  const recall = dedupeRecall(await withNeighbours(deps, recalled.filter(isNotSynopsis), shown));
  const assembly = assembleContext({
    budgetTokens,
    shares: context.shares,
    candidates: {
      working: workingItems(deps, view),
      facts: facts.map((hit) => lineItem(deps, hit, 'facts', 'long-term', `- ${hit.text}${sinceOf(hit)}`)),
      recall: recall.kept.map((hit) => lineItem(deps, hit, 'recall', hit.kind === 'turn' ? 'session' : 'working', recallLine(hit))),
      recent: [...view.uncovered].reverse().map((m) => recentItem(deps, m)),
    },
    memoryOverhead: MESSAGE_OVERHEAD_TOKENS + count(PREAMBLE) + 1,
    headingTokens: { working: count(HEADINGS.working) + 2, facts: count(HEADINGS.facts) + 2, recall: count(HEADINGS.recall) + 2 },
  });
  const { messages, tokens } = fitToBudget(deps, assembly, view, budgetTokens);
  return {
    messages,
    manifest: [...assembly.manifest, ...recall.redundant.map((r) => redundantEntry(deps, r.hit, r.reason))],
    tokens,
    budgetTokens,
    query: effectiveQuery,
    pending: { jobs, watermarkSeq: view.watermark, uncoveredMessages: view.uncovered.length },
  };
}

/** Recalled turns whose other side of the exchange is added (the best ones only). */
const NEIGHBOUR_TURNS = 3;

/**
 * With `policy.context.neighbourTurns`, each of the best recalled turns is followed by the
 * other side of its exchange: a user turn by the reply after it, an assistant turn by the
 * question before it (unless shown already).
 */
async function withNeighbours(deps: MemoryDeps, hits: Retrieved[], shown: ReadonlySet<string>): Promise<Retrieved[]> {
  if (!deps.policy.context.neighbourTurns) return hits;
  const seen = new Set([...shown, ...hits.map((h) => h.id)]);
  const out: Retrieved[] = [];
  let expanded = 0;
  for (const hit of hits) {
    out.push(hit);
    if (hit.kind !== 'turn' || expanded >= NEIGHBOUR_TURNS) continue;
    expanded++;
    const seq = hit.record.role === 'user' ? hit.record.seq + 1 : hit.record.seq - 1;
    const [next] = await deps.store.messages({ sessionId: hit.record.sessionId, fromSeq: seq, toSeq: seq });
    if (next === undefined || seen.has(next.id) || !next.content.trim()) continue;
    seen.add(next.id);
    out.push({ kind: 'turn', id: next.id, text: next.content, score: hit.score, sessionId: next.sessionId, messageIds: [next.id], createdAt: next.createdAt, record: next });
  }
  return out;
}

interface RecallSelection {
  kept: Retrieved[];
  redundant: { hit: Retrieved; reason: string }[];
}

/**
 * Keeps recall candidates in rank order, dropping a turn already inside a better-ranked
 * summary and a summary whose turns are mostly shown already: no line repeats another.
 */
function dedupeRecall(hits: Retrieved[]): RecallSelection {
  const shown = new Map<string, string>();
  const out: RecallSelection = { kept: [], redundant: [] };
  for (const hit of hits) {
    const seen = hit.messageIds.filter((id) => shown.has(id));
    const isRedundant = hit.kind === 'turn' ? seen.length > 0 : seen.length * 2 >= hit.messageIds.length;
    if (isRedundant) {
      out.redundant.push({ hit, reason: `redundant: already shown by ${shown.get(seen[0] ?? '') ?? 'a better match'}` });
      continue;
    }
    out.kept.push(hit);
    for (const id of hit.messageIds) if (!shown.has(id)) shown.set(id, `${hit.kind} ${hit.id}`);
  }
  return out;
}

function redundantEntry(deps: MemoryDeps, hit: Retrieved, reason: string): ManifestItem {
  return { kind: hit.kind, id: hit.id, tier: hit.kind === 'turn' ? 'session' : 'working', score: hit.score, tokens: deps.tokens.count(recallLine(hit)) + 1, included: false, reason, sourceMessageIds: hit.messageIds };
}

/** Another session's synopsis repeats its batch summaries, which are candidates themselves. */
function isNotSynopsis(hit: Retrieved): boolean {
  return !(hit.kind === 'summary' && hit.record.level === 'synopsis');
}

function lastUserText(messages: readonly StoredMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') return m.content;
  }
  return '';
}

function workingItems(deps: MemoryDeps, view: SessionView): ContextItem[] {
  const newestFirst = [...view.summaries].reverse().map((s) => ({
    kind: 'summary' as const,
    id: s.id,
    tier: 'working' as const,
    section: 'working' as const,
    text: `- (turns ${s.fromSeq}-${s.toSeq}, ${formatDay(s.createdAt)}) ${s.text}`,
    order: s.fromSeq,
    sourceMessageIds: s.sourceMessageIds,
    reason: 'working tier: summary of turns no longer verbatim',
  }));
  const synopsis = view.synopsis
    ? [{ kind: 'synopsis' as const, id: view.synopsis.id, tier: 'working' as const, section: 'working' as const, text: `- (turns 1-${view.synopsis.toSeq}) ${view.synopsis.text}`, order: 0, sourceMessageIds: view.synopsis.sourceMessageIds, reason: 'working tier: rolling synopsis' }]
    : [];
  return [...newestFirst, ...synopsis].map((item) => withTokens(deps, item));
}

type Rendered = ContextItem & { text: string };

function withTokens(deps: MemoryDeps, item: Omit<Rendered, 'tokens'>): Rendered {
  return { ...item, tokens: deps.tokens.count(item.text) + 1 };
}

function lineItem(deps: MemoryDeps, hit: Retrieved, section: Section, tier: ContextItem['tier'], text: string): Rendered {
  const kind = hit.kind === 'summary' && hit.record.level === 'synopsis' ? 'synopsis' : hit.kind;
  return withTokens(deps, { kind, id: hit.id, tier, section, score: hit.score, text, order: hit.createdAt, sourceMessageIds: hit.messageIds, reason: `query match (score ${hit.score.toFixed(4)})` });
}

function sinceOf(hit: Retrieved): string {
  return hit.kind === 'fact' ? ` (since ${formatDay(hit.record.validFrom)})` : '';
}

function recallLine(hit: Retrieved): string {
  if (hit.kind === 'turn') {
    const who = hit.record.role === 'user' ? 'User' : hit.record.role === 'assistant' ? 'Assistant' : hit.record.role;
    return `- [${formatDay(hit.createdAt)}] ${who}: ${truncateWords(hit.text, 80)}`;
  }
  return `- [${formatDay(hit.createdAt)}] (summary) ${truncateWords(hit.text, 80)}`;
}

function recentItem(deps: MemoryDeps, m: StoredMessage): ContextItem {
  return { kind: 'turn', id: m.id, tier: 'immediate', section: 'recent', tokens: turnTokens(deps, m), order: m.seq, sourceMessageIds: [m.id], reason: 'recent turn (immediate tier)', isToolResult: m.role === 'tool' };
}

/**
 * Renders the plan and counts the real messages. Line-wise costs can differ from the joined
 * text by a token or two; if the real count exceeds the budget, the lowest-priority memory
 * lines are dropped until it fits, and the manifest says so.
 */
function fitToBudget(deps: MemoryDeps, assembly: Assembly, view: SessionView, budget: number): { messages: BaseMessage[]; tokens: number } {
  const byId = new Map(view.uncovered.map((m) => [m.id, m]));
  for (;;) {
    const messages = render(assembly, byId);
    const tokens = messages.reduce((sum, m) => sum + messageTokens(deps, m), 0);
    if (tokens <= budget) return { messages, tokens };
    const victim = (['recall', 'working', 'facts', 'recent'] as const).map((s) => ({ s, list: assembly.included[s] })).find((e) => e.list.length > 0);
    if (!victim) return { messages, tokens };
    const dropped = victim.s === 'recent' ? victim.list.shift() : victim.list.pop();
    const entry = assembly.manifest.find((m) => m.id === dropped?.id);
    if (entry) {
      entry.included = false;
      entry.reason = 'cut: over the token budget once rendered';
    }
  }
}

function render(assembly: Assembly, byId: Map<string, StoredMessage>): BaseMessage[] {
  const blocks: string[] = [];
  for (const section of ['working', 'facts', 'recall'] as const) {
    const items = assembly.included[section] as Rendered[];
    if (items.length) blocks.push([HEADINGS[section], ...items.map((i) => i.text)].join('\n'));
  }
  const recent = assembly.included.recent.map((i) => byId.get(i.id)).filter((m): m is StoredMessage => m !== undefined);
  const memory = blocks.length ? [new SystemMessage(`${PREAMBLE}\n\n${blocks.join('\n\n')}`)] : [];
  return [...memory, ...recent.map(toLangChainMessage)];
}

/** Tokens of a LangChain message as sent: content, tool calls, per-message overhead. */
export function messageTokens(deps: Pick<MemoryDeps, 'tokens'>, message: BaseMessage): number {
  const content = typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  const calls = 'tool_calls' in message && Array.isArray(message.tool_calls) && message.tool_calls.length
    ? deps.tokens.count(JSON.stringify(message.tool_calls.map((c) => ({ id: c.id, name: c.name, args: c.args }))))
    : 0;
  return deps.tokens.count(content) + calls + MESSAGE_OVERHEAD_TOKENS;
}

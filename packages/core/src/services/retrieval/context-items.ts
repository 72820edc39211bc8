import type { Fact } from '../../domain/derived.js';
import type { StoredMessage } from '../../domain/message.js';
import type { ManifestItem } from '../../domain/retrieval.js';
import type { ContextItem, Section } from '../../engine/retrieval/assemble-context.js';
import type { MemoryDeps } from '../deps.js';
import type { Retrieved } from './retrieve.js';
import type { SessionView } from '../session-view.js';
import { turnTokens } from '../turn-tokens.js';
import { formatDay, truncateWords } from './text-format.js';

/** Context candidates rendered as the lines they would be, with their token cost and the reason they are offered. */

export function workingItems(deps: MemoryDeps, view: SessionView): ContextItem[] {
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
    ? [
        {
          kind: 'synopsis' as const,
          id: view.synopsis.id,
          tier: 'working' as const,
          section: 'working' as const,
          text: `- (turns 1-${view.synopsis.toSeq}) ${view.synopsis.text}`,
          order: 0,
          sourceMessageIds: view.synopsis.sourceMessageIds,
          reason: 'working tier: rolling synopsis',
        },
      ]
    : [];
  return [...newestFirst, ...synopsis].map((item) => withTokens(deps, item));
}

/** Profile facts offered per context, newest first; the share decides how many fit. */
export const PROFILE_CANDIDATES = 30;

/**
 * The current profile facts of the namespace (where they live, their job, ...) not already
 * matched by the query: offered to every context, so that "What do I do for a living?" asked
 * in a new session has them even when no word matches. Those of the people the question names
 * (`named`) come first, newest first, then the namespace's newest.
 */
export function profileItems(deps: MemoryDeps, facts: readonly Fact[], matched: ReadonlySet<string>, named: readonly Fact[] = []): Rendered[] {
  const newestFirst = (list: readonly Fact[]) => [...list].filter((f) => !matched.has(f.id)).sort((a, b) => b.validFrom - a.validFrom);
  const first = newestFirst(named);
  const namedIds = new Set(first.map((f) => f.id));
  const item = (f: Fact, reason: string): Rendered =>
    withTokens(deps, {
      kind: 'fact',
      id: f.id,
      tier: 'long-term',
      section: 'profile',
      text: `- ${f.text} (since ${formatDay(f.validFrom)})`,
      order: f.validFrom,
      sourceMessageIds: f.sourceMessageIds,
      reason,
    });
  return [
    ...first.map((f) => item(f, `profile: a current fact about ${f.subject}, whom the question names`)),
    ...newestFirst(facts)
      .filter((f) => !namedIds.has(f.id))
      .map((f) => item(f, `profile: a current fact about ${f.subject}, offered to every context`)),
  ].slice(0, PROFILE_CANDIDATES);
}

export type Rendered = ContextItem & { text: string };

export function withTokens(deps: MemoryDeps, item: Omit<Rendered, 'tokens'>): Rendered {
  return { ...item, tokens: deps.tokens.count(item.text) + 1 };
}

export function lineItem(deps: MemoryDeps, hit: Retrieved, section: Section, tier: ContextItem['tier'], text: string): Rendered {
  const kind = hit.kind === 'summary' && hit.record.level === 'synopsis' ? 'synopsis' : hit.kind;
  return withTokens(deps, {
    kind,
    id: hit.id,
    tier,
    section,
    score: hit.score,
    text,
    order: hit.createdAt,
    sourceMessageIds: hit.messageIds,
    reason: `query match (score ${hit.score.toFixed(4)}${hit.via === undefined ? '' : `, found through ${hit.via}`})`,
  });
}

export function sinceOf(hit: Retrieved): string {
  return hit.kind === 'fact' ? ` (since ${formatDay(hit.record.validFrom)})` : '';
}

export function recallLine(hit: Retrieved): string {
  if (hit.kind === 'turn') {
    const who = hit.record.name ?? (hit.record.role === 'user' ? 'User' : hit.record.role === 'assistant' ? 'Assistant' : hit.record.role);
    return `- [${formatDay(hit.createdAt)}] ${who}: ${truncateWords(hit.text, 80)}`;
  }
  return `- [${formatDay(hit.createdAt)}] (summary) ${truncateWords(hit.text, 80)}`;
}

export function recentItem(deps: MemoryDeps, m: StoredMessage, isShareAdapted: boolean): ContextItem {
  const reason = isShareAdapted ? 'recent turn (immediate tier; the query matches no recent turn, so recalled material took most of their share)' : 'recent turn (immediate tier)';
  return { kind: 'turn', id: m.id, tier: 'immediate', section: 'recent', tokens: turnTokens(deps, m), order: m.seq, sourceMessageIds: [m.id], reason, isToolResult: m.role === 'tool' };
}

/** The tier a recalled record of this kind comes from. */
export function tierOf(kind: Retrieved['kind']): ManifestItem['tier'] {
  return kind === 'turn' ? 'session' : kind === 'fact' ? 'long-term' : 'working';
}

export function redundantEntry(deps: MemoryDeps, hit: Retrieved, reason: string): ManifestItem {
  const tier = tierOf(hit.kind);
  const line = hit.kind === 'fact' ? `- ${hit.text}${sinceOf(hit)}` : recallLine(hit);
  return { kind: hit.kind, id: hit.id, tier, score: hit.score, tokens: deps.tokens.count(line) + 1, included: false, reason, sourceMessageIds: hit.messageIds };
}

import type { Retrieved } from './retrieve.js';
import type { MemoryDeps } from '../deps.js';
import { unreadableReason } from './readable.js';
import { isProfilePredicate } from '../../lexical/fact-lexical-text.js';

/** What to offer a context from the retrieved candidates: which recalled turns and facts add something. */

/**
 * Observations (facts retelling a turn, not profile slots) whose every source turn is a recall
 * candidate say nothing the verbatim turn (dated, with its speaker) does not: leaving them out frees the facts share for facts about other turns. On
 * the LoCoMo dev file, evidence in a 1,000-token context rose from 80.2 to 82.7 %.
 */
export function pickFacts(facts: readonly Retrieved[], recall: readonly Retrieved[]): { kept: Retrieved[]; redundant: { hit: Retrieved; reason: string }[] } {
  const recalled = new Set(recall.flatMap((hit) => (hit.kind === 'turn' ? [hit.id] : [])));
  const out: { kept: Retrieved[]; redundant: { hit: Retrieved; reason: string }[] } = { kept: [], redundant: [] };
  for (const fact of facts) {
    const isRetelling = fact.kind === 'fact' && !isProfilePredicate(fact.record.predicate);
    if (isRetelling && fact.messageIds.length > 0 && fact.messageIds.every((id) => recalled.has(id))) out.redundant.push({ hit: fact, reason: 'redundant: its source turns are recalled verbatim' });
    else out.kept.push(fact);
  }
  return out;
}

/** Recalled turns whose other side of the exchange is added (the best ones only). */
const NEIGHBOUR_TURNS = 3;

/**
 * With `policy.context.neighbourTurns`, each of the best recalled turns is followed by the
 * other side of its exchange: a user turn by the reply after it, an assistant turn by the
 * question before it (unless shown already).
 */
export async function withNeighbours(deps: MemoryDeps, hits: Retrieved[], shown: ReadonlySet<string>): Promise<Retrieved[]> {
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
    if (next === undefined || seen.has(next.id) || !next.content.trim() || unreadableReason('turn', next) !== undefined) continue;
    seen.add(next.id);
    out.push({ kind: 'turn', id: next.id, text: next.content, score: hit.score, sessionId: next.sessionId, messageIds: [next.id], createdAt: next.createdAt, record: next });
  }
  return out;
}

export interface RecallSelection {
  kept: Retrieved[];
  redundant: { hit: Retrieved; reason: string }[];
}

/**
 * Keeps recall candidates in rank order, dropping a turn already inside a better-ranked
 * summary and a summary whose turns are mostly shown already: no line repeats another.
 */
export function dedupeRecall(hits: Retrieved[]): RecallSelection {
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

/** Another session's synopsis repeats its batch summaries, which are candidates themselves. */
export function isNotSynopsis(hit: Retrieved): boolean {
  return !(hit.kind === 'summary' && hit.record.level === 'synopsis');
}

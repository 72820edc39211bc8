import type { Fact } from '../../domain/derived.js';
import { spliceOutOfHistory } from './splice-history.js';

export interface DegradedRemovalInput {
  /** Degraded facts whose provenance includes some of `messageIds`. */
  degraded: readonly Fact[];
  /** Every fact (current and history) of the slots of the degraded facts. */
  slotFacts: readonly Fact[];
  /** The messages being re-derived. */
  messageIds: ReadonlySet<string>;
}

export interface DegradedRemoval {
  /** Degraded facts with no provenance left outside the re-derived messages. */
  deleted: string[];
  /** Facts changed: degraded facts with a shorter provenance, facts spliced back into history. */
  put: Fact[];
}

/**
 * Plans taking back what a degraded derivation of some messages claimed, before the facts
 * re-derived from them are reconciled: a degraded fact loses those messages from its
 * provenance and is deleted when none remain; a fact it had superseded takes its place in
 * the slot's history (current again if it was current). Non-degraded facts are never
 * deleted. Pure.
 */
export function planDegradedRemoval(input: DegradedRemovalInput): DegradedRemoval {
  const working = new Map(input.slotFacts.map((f) => [f.id, structuredClone(f)]));
  for (const fact of input.degraded) if (!working.has(fact.id)) working.set(fact.id, structuredClone(fact));
  const changed = new Set<string>();
  const deleted = new Set<string>();
  const removable = [...input.degraded].filter((f) => f.degraded).sort((a, b) => a.validFrom - b.validFrom || a.id.localeCompare(b.id));
  for (const original of removable) {
    const fact = working.get(original.id) ?? structuredClone(original);
    const remaining = fact.sourceMessageIds.filter((id) => !input.messageIds.has(id));
    if (remaining.length) {
      if (remaining.length < fact.sourceMessageIds.length) {
        fact.sourceMessageIds = remaining;
        changed.add(fact.id);
      }
      continue;
    }
    deleted.add(fact.id);
    const predecessors = [...working.values()].filter((f) => f.supersededBy === fact.id && !deleted.has(f.id));
    for (const spliced of spliceOutOfHistory(fact, predecessors)) {
      working.set(spliced.id, spliced);
      changed.add(spliced.id);
    }
  }
  const put = [...changed]
    .filter((id) => !deleted.has(id))
    .map((id) => working.get(id))
    .filter((f): f is Fact => f !== undefined);
  return { deleted: [...deleted], put };
}

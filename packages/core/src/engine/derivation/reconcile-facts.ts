import type { Fact } from '../../domain/derived.js';
import type { ExtractedFact } from '../../domain/jobs.js';
import { isNearDuplicate } from '../../lexical/near-duplicate.js';
import { stableId } from '../ids.js';

/** A fact's slot: facts of one slot supersede each other; other slots are never touched. */
export function slotKey(subject: string, predicate: string): string {
  return `${normalizeSlotPart(subject)}|${normalizeSlotPart(predicate)}`;
}

/** Subjects and predicates are stored normalised so that slot lookups are exact. */
export function normalizeSlotPart(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** Exact or near duplicate objects: same words after the lexical rules (Jaccard >= 0.8, as lexical/near-duplicate.ts measures it). */
export function isSameObject(a: string, b: string): boolean {
  return normalizeSlotPart(a) === normalizeSlotPart(b) || isNearDuplicate(a, b);
}

export interface Reconciliation {
  /** Facts to insert or replace (new, merged, superseded). */
  put: Fact[];
  /** Ids of facts newly created, to index. */
  created: string[];
  /** Ids of facts that stopped being current. */
  superseded: string[];
}

export interface ReconcileInput {
  namespace: string;
  /** Stored facts of the slots the incoming facts touch: at least the current ones. */
  existing: readonly Fact[];
  incoming: readonly ExtractedFact[];
  now: number;
  degraded: boolean;
}

/**
 * Merges extracted facts into the stored ones, slot by slot:
 * - same object as the current fact (exact or near duplicate) -> merged (provenance unioned);
 * - a different object stated later -> the new fact is current, the old one gets `validTo`
 *   and `supersededBy` (kept as history);
 * - a different object stated *earlier* than the current fact (results applied out of order)
 *   -> stored as history, already superseded by the current one;
 * - no fact in the slot -> added.
 * A merge into a degraded fact by a non-degraded derivation clears its `degraded` flag.
 * Pure; order-independent for facts with distinct `validFrom`.
 */
export function reconcileFacts(input: ReconcileInput): Reconciliation {
  const bySlot = new Map<string, Fact[]>();
  for (const fact of input.existing) pushTo(bySlot, slotKey(fact.subject, fact.predicate), structuredClone(fact));
  const touched = new Map<string, Fact>();
  const created: string[] = [];
  const superseded: string[] = [];
  const incoming = [...input.incoming].sort((a, b) => a.validFrom - b.validFrom);

  for (const candidate of incoming) {
    const slot = slotKey(candidate.subject, candidate.predicate);
    const facts = bySlot.get(slot) ?? [];
    const duplicate = facts.find((f) => isSameObject(f.object, candidate.object) && isSameEra(f, candidate.validFrom));
    if (duplicate) {
      mergeInto(duplicate, candidate, input.degraded);
      touched.set(duplicate.id, duplicate);
      continue;
    }
    const fact = toFact(input, candidate);
    const current = facts.find((f) => f.validTo === undefined);
    if (current && current.validFrom <= fact.validFrom) {
      current.validTo = fact.validFrom;
      current.supersededBy = fact.id;
      touched.set(current.id, current);
      superseded.push(current.id);
    } else if (current) {
      fact.validTo = current.validFrom;
      fact.supersededBy = current.id;
    }
    pushTo(bySlot, slot, fact);
    touched.set(fact.id, fact);
    created.push(fact.id);
  }
  return { put: [...touched.values()], created, superseded };
}

/** A repeated statement merges with the fact that was current at the time it was made. */
function isSameEra(fact: Fact, at: number): boolean {
  return fact.validTo === undefined || (fact.validFrom <= at && at < fact.validTo);
}

/** A fact confirmed by a non-degraded derivation is no longer degraded. */
function mergeInto(fact: Fact, candidate: ExtractedFact, degraded: boolean): void {
  fact.sourceMessageIds = [...new Set([...fact.sourceMessageIds, ...candidate.sourceMessageIds])];
  fact.confidence = Math.max(fact.confidence, candidate.confidence);
  fact.degraded = fact.degraded && degraded;
}

function toFact(input: ReconcileInput, c: ExtractedFact): Fact {
  const id = stableId('fact', input.namespace, slotKey(c.subject, c.predicate), normalizeSlotPart(c.object), c.validFrom, c.sourceMessageIds.join(','));
  return {
    id,
    namespace: input.namespace,
    subject: normalizeSlotPart(c.subject),
    predicate: normalizeSlotPart(c.predicate),
    object: c.object,
    text: c.text,
    sourceMessageIds: [...c.sourceMessageIds],
    validFrom: c.validFrom,
    confidence: c.confidence,
    createdAt: input.now,
    degraded: input.degraded,
  };
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

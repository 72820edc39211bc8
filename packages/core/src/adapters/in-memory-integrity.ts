import { StrataError } from '../errors/strata-error.js';
import type { StoreOp } from '../ports/session-store.js';
import { selectSummaries } from './in-memory-queries.js';
import { isCurrentFact, type InMemoryTables } from './in-memory-tables.js';

/**
 * The store's integrity rules, checked after a batch and before it commits: a fact slot
 * has at most one current fact; batch summaries of a session never overlap. Only what the
 * batch touched is checked. Throws CONFLICT (the caller's undo log then reverts the batch).
 */
export function assertIntegrity(tables: InMemoryTables, ops: readonly StoreOp[]): void {
  const slots = new Map<string, Set<string>>();
  for (const op of ops) {
    if (op.type === 'putFacts') for (const fact of op.facts) addSlot(slots, fact.namespace, fact.subject, fact.predicate);
    if (op.type === 'putSummaries') for (const summary of op.summaries) if (summary.level === 'batch') assertNoOverlap(tables, summary.sessionId);
  }
  for (const [namespace, touched] of slots) assertOneCurrent(tables, namespace, touched);
}

const slotOf = (subject: string, predicate: string): string => `${subject}\u0000${predicate}`;

function addSlot(slots: Map<string, Set<string>>, namespace: string, subject: string, predicate: string): void {
  let touched = slots.get(namespace);
  if (touched === undefined) slots.set(namespace, (touched = new Set()));
  touched.add(slotOf(subject, predicate));
}

/** One pass over the namespace's current facts for every slot the batch touched (an import writes thousands). */
function assertOneCurrent(tables: InMemoryTables, namespace: string, touched: ReadonlySet<string>): void {
  const bySlot = new Map<string, string[]>();
  for (const fact of tables.namespaceFacts(namespace)) {
    if (!isCurrentFact(fact)) continue;
    const slot = slotOf(fact.subject, fact.predicate);
    if (!touched.has(slot)) continue;
    const ids = bySlot.get(slot) ?? [];
    ids.push(fact.id);
    bySlot.set(slot, ids);
  }
  for (const [slot, ids] of bySlot) {
    if (ids.length <= 1) continue;
    const [subject, predicate] = slot.split('\u0000');
    throw new StrataError('CONFLICT', `fact slot ${namespace} / ${subject} / ${predicate} would have ${ids.length} current facts (${ids.join(', ')})`, {
      hint: 'Another writer changed this slot meanwhile: re-read the slot and reconcile again (the job queue retries this).',
    });
  }
}

function assertNoOverlap(tables: InMemoryTables, sessionId: string): void {
  const batches = selectSummaries(tables, { sessionId, level: 'batch' });
  for (let i = 1; i < batches.length; i++) {
    const previous = batches[i - 1];
    const next = batches[i];
    if (previous && next && next.fromSeq <= previous.toSeq) {
      throw new StrataError('CONFLICT', `summaries ${previous.id} (${previous.fromSeq}-${previous.toSeq}) and ${next.id} (${next.fromSeq}-${next.toSeq}) of session ${sessionId} would overlap`, {
        hint: 'Another writer summarized these turns meanwhile: re-read the session (the job queue retries this).',
      });
    }
  }
}

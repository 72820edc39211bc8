import type { Fact } from '../../domain/derived.js';

/**
 * Takes a removed fact out of its slot's history. `predecessors` are the facts it had
 * superseded (`supersededBy === removed.id`): the newest of them takes the removed fact's
 * place (current again if the removed fact was current, else superseded by what superseded
 * it); the others are superseded by that newest one. So a slot keeps at most one current
 * fact. Returns the changed predecessors; pure.
 */
export function spliceOutOfHistory(removed: Fact, predecessors: readonly Fact[]): Fact[] {
  const sorted = [...predecessors].sort((a, b) => a.validFrom - b.validFrom || a.id.localeCompare(b.id));
  const heir = sorted.pop();
  if (!heir) return [];
  const next: Fact = { ...heir };
  delete next.validTo;
  delete next.supersededBy;
  if (removed.validTo !== undefined) next.validTo = removed.validTo;
  if (removed.validTo !== undefined && removed.supersededBy) next.supersededBy = removed.supersededBy;
  return [...sorted.map((f) => ({ ...f, validTo: heir.validFrom, supersededBy: heir.id })), next];
}

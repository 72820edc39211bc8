import type { ExportBundle } from '@strata/core';

/**
 * Splits a bundle into one bundle per session, so that a large import can report progress.
 * Each fact goes with the last session holding one of its source messages, so that its
 * sources are stored by the time it is (facts whose sources are all elsewhere go with the
 * last session); every fact is imported once.
 */
export function splitBundle(bundle: ExportBundle): ExportBundle[] {
  const parts = bundle.sessions.map((s) => ({ ...bundle, sessions: [s], facts: [] as ExportBundle['facts'] }));
  const owner = new Map<string, number>();
  bundle.sessions.forEach((s, index) => s.messages.forEach((m) => owner.set(m.id, index)));
  for (const fact of bundle.facts) {
    const owners = fact.sourceMessageIds.map((id) => owner.get(id)).filter((i) => i !== undefined);
    const index = owners.length ? Math.max(...owners) : parts.length - 1;
    parts[index]?.facts.push(fact);
  }
  return parts;
}

/** True for the JSON that `strata export --format json` writes. */
export function isBundle(value: unknown): value is ExportBundle {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'strata-bundle' && Array.isArray((value as { sessions?: unknown }).sessions);
}

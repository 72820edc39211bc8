import type { ExportBundle } from '@strata/core';

/**
 * Splits a bundle into one bundle per session, so that a large import can report progress.
 * Each fact goes with the first session holding one of its source messages (facts whose
 * sources are all elsewhere go with the last session), so every fact is imported once.
 */
export function splitBundle(bundle: ExportBundle): ExportBundle[] {
  const parts = bundle.sessions.map((s) => ({ ...bundle, sessions: [s], facts: [] as ExportBundle['facts'] }));
  const owner = new Map<string, number>();
  bundle.sessions.forEach((s, index) => s.messages.forEach((m) => owner.set(m.id, index)));
  for (const fact of bundle.facts) {
    const index = fact.sourceMessageIds.map((id) => owner.get(id)).find((i) => i !== undefined) ?? parts.length - 1;
    parts[index]?.facts.push(fact);
  }
  return parts;
}

/** True for the JSON that `strata export --format json` writes. */
export function isBundle(value: unknown): value is ExportBundle {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'strata-bundle' && Array.isArray((value as { sessions?: unknown }).sessions);
}

import type { ExportBundle } from '@strata/core';

/** One session of a bundle, with the facts imported with it, and where both sit in the file. */
export interface BundlePart {
  bundle: ExportBundle;
  /** Index of the part's session in the file's `sessions`. */
  sessionIndex: number;
  /** Index in the file's `facts` of each of the part's facts, in order. */
  factIndices: number[];
}

/**
 * Splits a bundle into one bundle per session, so that a large import can report progress.
 * Each fact goes with the last session holding one of its source messages, so that its
 * sources are stored by the time it is (facts whose sources are all elsewhere go with the
 * last session); every fact is imported once.
 */
export function splitBundle(bundle: ExportBundle): BundlePart[] {
  const parts: BundlePart[] = bundle.sessions.map((s, sessionIndex) => ({ bundle: { ...bundle, sessions: [s], facts: [] }, sessionIndex, factIndices: [] }));
  const owner = new Map<string, number>();
  bundle.sessions.forEach((s, index) => {
    for (const m of s.messages) owner.set(m.id, index);
  });
  bundle.facts.forEach((fact, factIndex) => {
    const owners = fact.sourceMessageIds.map((id) => owner.get(id)).filter((i) => i !== undefined);
    const part = parts[owners.length ? Math.max(...owners) : parts.length - 1];
    part?.bundle.facts.push(fact);
    part?.factIndices.push(factIndex);
  });
  return parts;
}

/**
 * A message about a part, with its record paths (`sessions[0]`, `facts[2]`) turned into
 * the paths of the same records in the file, so that an import error points at the file.
 */
export function inFileTerms(message: string, part: BundlePart): string {
  return message.replace(/\bsessions\[0\]/g, `sessions[${part.sessionIndex}]`).replace(/\bfacts\[(\d+)\]/g, (whole, index: string) => {
    const inFile = part.factIndices[Number(index)];
    return inFile === undefined ? whole : `facts[${inFile}]`;
  });
}

/** True for the JSON that `strata export --format json` writes. */
export function isBundle(value: unknown): value is ExportBundle {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === 'strata-bundle' && Array.isArray((value as { sessions?: unknown }).sessions);
}

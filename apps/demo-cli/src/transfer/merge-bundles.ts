import type { ExportBundle } from '@strata/core';

/** One bundle holding several sessions; a fact derived from more than one of them is kept once. */
export function mergeBundles(bundles: ExportBundle[], exportedAt: string): ExportBundle {
  const facts = new Map<string, ExportBundle['facts'][number]>();
  for (const bundle of bundles) for (const fact of bundle.facts) facts.set(fact.id, fact);
  // The newest version among the parts: what they hold (e.g. topics in version 2) is read as such.
  const version = bundles.reduce<ExportBundle['version']>((v, b) => Math.max(v, b.version) as ExportBundle['version'], 1);
  return { format: 'strata-bundle', version, exportedAt, sessions: bundles.flatMap((b) => b.sessions), facts: [...facts.values()] };
}

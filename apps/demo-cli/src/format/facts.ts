import type { Fact } from '@strata/core';
import { pc } from './colors.js';
import { formatDay } from './output.js';
import { clip, renderTable } from './table.js';

/** Facts with their validity: current, or superseded and since when. */
export async function renderFacts(facts: Fact[]): Promise<string> {
  // loaded here, not with this module: commands that print no facts (--help, config) start without strata itself
  const { slotName } = await import('@strata/core');
  const rows = facts.map((f) => [
    f.validTo === undefined ? pc.green('current') : pc.yellow('superseded'),
    `${f.subject} · ${slotName(f)}`,
    clip(f.object, 24),
    formatDay(f.validFrom),
    f.validTo === undefined ? '' : formatDay(f.validTo),
  ]);
  return await renderTable(['state', 'slot', 'value', 'from', 'until'], rows);
}

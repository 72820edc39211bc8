import { isMemoryMessage, type ContextResult, type Fact } from '@strata/core';
import { pc } from './colors.js';
import { formatDay } from './output.js';
import { clip, renderTable } from './table.js';

/** The assembled context as the model would read it, one message per block. */
export function renderContextMessages(context: ContextResult): string {
  return context.messages.map((m) => `${pc.cyan(`[${isMemoryMessage(m) ? 'memory' : m.role}]`)} ${m.content.split('\n').join('\n    ')}`).join('\n');
}

/** Every candidate of a context, in or out, with its tier, cost and reason. */
export function renderManifest(context: ContextResult): string {
  const rows = context.manifest.map((m) => [
    m.included ? pc.green('in') : pc.red('out'),
    m.tier,
    m.kind,
    String(m.tokens),
    m.score === undefined ? '' : m.score.toFixed(4),
    clip(m.reason, 60),
  ]);
  return renderTable(['', 'tier', 'kind', 'tokens', 'score', 'reason'], rows);
}

/** Facts with their validity: current, or superseded and since when. */
export function renderFacts(facts: Fact[]): string {
  const rows = facts.map((f) => [
    f.validTo === undefined ? pc.green('current') : pc.yellow('superseded'),
    `${f.subject} · ${f.predicate}`,
    clip(f.object, 24),
    formatDay(f.validFrom),
    f.validTo === undefined ? '' : formatDay(f.validTo),
  ]);
  return renderTable(['state', 'slot', 'value', 'from', 'until'], rows);
}

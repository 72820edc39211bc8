import { isMemoryMessage, type ContextResult } from '@strata/core';
import { pc } from './colors.js';
import { clip, renderTable } from './table.js';

/** The assembled context as the model would read it, one message per block. */
export function renderContextMessages(context: ContextResult): string {
  return context.messages.map((m) => `${pc.cyan(`[${isMemoryMessage(m) ? 'memory' : m.role}]`)} ${m.content.split('\n').join('\n    ')}`).join('\n');
}

/** Every candidate of a context, in or out, with its tier, cost and reason. */
export async function renderManifest(context: ContextResult): Promise<string> {
  const rows = context.manifest.map((m) => [m.included ? pc.green('in') : pc.red('out'), m.tier, m.kind, String(m.tokens), m.score === undefined ? '' : m.score.toFixed(4), clip(m.reason, 60)]);
  return await renderTable(['', 'tier', 'kind', 'tokens', 'score', 'reason'], rows);
}

/** The assembled messages as `--json` prints them: role, a `memory` flag on strata's system message, content. */
export function contextMessagesJson(context: ContextResult): { role: string; memory?: true; content: string }[] {
  return context.messages.map((m) => ({ role: m.role, ...(isMemoryMessage(m) ? { memory: true as const } : {}), content: m.content }));
}

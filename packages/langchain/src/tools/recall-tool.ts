import { tool, type ToolRunnableConfig } from '@langchain/core/tools';
import { z } from 'zod';
import type { SearchHit } from '@strata/core';
import { memoryToolScope, type MemoryToolScope, type MemoryToolsOptions } from './memory-tool-scope.js';

/** Longest text of one hit in the tool's answer; the artifact has it whole. */
const MAX_LINE_CHARS = 400;

const recallSchema = z.object({
  query: z.string().trim().min(1).describe('What to look for, in words likely to appear in it (e.g. "where the user lives").'),
  /** @defaultValue 5 */
  k: z.number().int().min(1).max(50).default(5).describe('How many results to return.'),
});

/**
 * The `recall` tool: `memory.search` over the run's namespace (turns, summaries and facts,
 * best first), answered as one line per hit, `- [<kind> <id> | <date>] <text>`, so the model
 * can name an id to `forget`. Artifact: the hits as `memory.search` returns them.
 * @example
 * const recall = createRecallTool({ memory, namespace: 'user-42' });
 * await recall.invoke({ query: 'where does the user live' }); // '- [fact fact_… | 2026-11-20] User lives in Lisbon.'
 */
export function createRecallTool(options: MemoryToolsOptions) {
  return recallTool(memoryToolScope(options));
}

export function recallTool(scope: MemoryToolScope) {
  return tool(
    async ({ query, k }, config: ToolRunnableConfig): Promise<[string, SearchHit[]]> => {
      const hits = await scope.memory.search({ namespace: scope.namespaceOf(config), query, k });
      return [hits.length ? hits.map(hitLine).join('\n') : 'Nothing in memory matches this query.', hits];
    },
    {
      name: 'recall',
      description: 'Search long-term memory (earlier conversations, notes and facts about the user). Returns one line per result with its kind and id.',
      schema: recallSchema,
      responseFormat: 'content_and_artifact',
    },
  );
}

function hitLine(hit: SearchHit): string {
  const text = hit.text.replace(/\s+/g, ' ').trim();
  const shown = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… (cut)` : text;
  return `- [${hit.kind} ${hit.id} | ${new Date(hit.createdAt).toISOString().slice(0, 10)}] ${shown}`;
}

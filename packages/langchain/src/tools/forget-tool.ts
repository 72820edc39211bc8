import { ToolMessage } from '@langchain/core/messages';
import { tool, type ToolRunnableConfig } from '@langchain/core/tools';
import { z } from 'zod';
import type { ForgetReport, MemoryApi } from '@strata/core';
import { findMessageIn, memoryToolScope, type MemoryToolScope, type MemoryToolsOptions } from './memory-tool-scope.js';

const forgetSchema = z.object({
  id: z.string().trim().min(1).describe('The id of a turn, note or fact, as recall or remember returned it.'),
});

/** What the id named, and the messages forgetting it deletes. */
interface ForgetTarget {
  kind: 'message' | 'fact';
  messageIds: string[];
}

/**
 * The `forget` tool: deletes a stored message (a turn or a note) by its id, or, for a fact
 * id, the messages the fact came from, with everything derived from them
 * (`memory.forget({ messageIds })`). Only ids in the run's namespace are reachable. An unknown
 * id forgets nothing and answers with an error the model can read (a ToolMessage with status
 * 'error' when called with a tool call, else the text). Called with a tool call, it answers
 * with a ToolMessage whose artifact is the ForgetReport.
 * @example
 * const forget = createForgetTool({ memory, namespace: 'user-42' });
 * await forget.invoke({ id: 'fact_…' }); // 'Forgot fact fact_…: 1 message deleted, ...'
 */
export function createForgetTool(options: MemoryToolsOptions) {
  return forgetTool(memoryToolScope(options));
}

export function forgetTool(scope: MemoryToolScope) {
  return tool(
    async ({ id }, config: ToolRunnableConfig) => {
      const namespace = scope.namespaceOf(config);
      const target = await forgetTargetOf(scope.memory, namespace, id);
      if (!target) {
        return answer(
          config,
          `Error: no message or fact with id ${JSON.stringify(id)} in memory; nothing was forgotten. Pass an id that recall or remember returned (summaries go with the turns they summarise).`,
          'error',
        );
      }
      const report = await scope.memory.forget({ messageIds: target.messageIds });
      return answer(config, forgetReportText(id, target, report), 'success', report);
    },
    {
      name: 'forget',
      description:
        'Delete something from long-term memory by its id (from recall or remember): a turn or note, or a fact together with the messages it came from. Use it when the user asks you to forget something or it is wrong.',
      schema: forgetSchema,
    },
  );
}

async function forgetTargetOf(memory: MemoryApi, namespace: string, id: string): Promise<ForgetTarget | undefined> {
  const fact = (await memory.facts.list({ namespace, includeSuperseded: true })).find((f) => f.id === id);
  if (fact) return { kind: 'fact', messageIds: fact.sourceMessageIds };
  const message = await findMessageIn(memory, namespace, id);
  return message ? { kind: 'message', messageIds: [message.id] } : undefined;
}

function forgetReportText(id: string, target: ForgetTarget, report: ForgetReport): string {
  const what = target.kind === 'fact' ? `fact ${id} and the ${plural(report.messages, 'message')} it came from` : `message ${id}`;
  const derived = [`${plural(report.facts, 'fact')} deleted`, `${report.factsTrimmed} kept with other sources`, `${plural(report.summaries, 'summary', 'summaries')} to redo`];
  return `Forgot ${what}. Derived from it: ${derived.join(', ')}.`;
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A ToolMessage with the status when called with a tool call (so an error reads as one), else the text. */
function answer(config: ToolRunnableConfig, content: string, status: 'success' | 'error', artifact?: ForgetReport): ToolMessage | string {
  const call = config.toolCall;
  if (!call?.id) return content;
  return new ToolMessage({ content, status, tool_call_id: call.id, name: 'forget', ...(artifact ? { artifact } : {}) });
}

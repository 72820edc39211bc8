import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { parseWith, type ThreadRequest, type ThreadSelector, type UsageListener } from '@strata/core';
import { invokeStructured, callSettingsOf, llmModelOptionsSchema, type CallSettings } from './structured-call.js';

/**
 * Options of {@link LlmThreadSelector}: `model`, a LangChain chat model, and `method`, how it
 * is asked for structured output (default `functionCalling`). A bad value throws CONFIG_INVALID.
 */
export type LlmThreadSelectorOptions = z.input<typeof llmModelOptionsSchema>;

const choiceSchema = z
  .object({
    // A plain number: integer bounds in JSON Schema trouble some servers' grammar builders.
    choice: z.number().describe('The number of the earlier reply the new message continues, or 0 when it continues the latest reply.'),
  })
  .describe('Chooses which earlier reply a new user message continues.');

const RULES = [
  'A conversation wanders between topics. Given a new user message and numbered earlier assistant replies (each with its topic),',
  'answer with the number of the reply the message continues or answers. Answer 0 when it simply continues the latest reply or starts something new.',
].join(' ');

/**
 * Chooses the parent of each user turn with any LangChain chat model (structured output,
 * validated with zod): one call per turn that has candidates. An answer that is not a
 * candidate's number attaches the turn linearly.
 * @example
 * const memory = await createMemory({ threadSelector: new LlmThreadSelector({ model: new ChatOpenAI({ model: 'gpt-4o-mini' }) }) });
 */
export class LlmThreadSelector implements ThreadSelector {
  private readonly model: BaseChatModel;
  private readonly settings: CallSettings;

  constructor(options: LlmThreadSelectorOptions) {
    const parsed = parseWith(llmModelOptionsSchema, options, 'LlmThreadSelector options', 'Pass { model: <a LangChain chat model>, method?, breaker?, timeoutMs? }.', 'CONFIG_INVALID');
    ({ model: this.model, settings: this.settings } = callSettingsOf(parsed));
  }

  async selectParents(requests: ThreadRequest[], onUsage?: UsageListener): Promise<(string | null)[]> {
    const out: (string | null)[] = [];
    for (const request of requests) out.push(await this.selectOne(request, onUsage));
    return out;
  }

  private async selectOne({ turn, candidates }: ThreadRequest, onUsage: UsageListener | undefined): Promise<string | null> {
    if (candidates.length === 0 || !turn.content.trim()) return null;
    const listed = candidates.map((c, i) => `${i + 1}. [topic: ${oneLine(c.topicTitle)}] ${oneLine(c.text).slice(0, 400)}`).join('\n');
    const { choice } = await invokeStructured({
      model: this.model,
      ...this.settings,
      name: 'thread',
      shape: { schema: choiceSchema },
      messages: [new SystemMessage(RULES), new HumanMessage(`Earlier replies:\n${listed}\n\nNew user message: ${oneLine(turn.content)}`)],
      onUsage,
    });
    return candidates[Math.round(choice) - 1]?.messageId ?? null;
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { parseWith, renderTurns, wordsFor, type ConsolidateInput, type SummarizeInput, type Summarizer } from '@strata/core';
import { invokeStructured, callSettingsOf, llmModelOptionsSchema, type CallSettings } from './structured-call.js';

/**
 * Options of {@link LlmSummarizer}: `model`, a LangChain chat model, and `method`, how it is
 * asked for structured output (default `functionCalling`). A bad value throws CONFIG_INVALID.
 */
export type LlmSummarizerOptions = z.input<typeof llmModelOptionsSchema>;

const summarySchema = z
  .object({
    summary: z.string().trim().min(1).describe('The summary of the new turns: plain third-person prose naming each speaker, with absolute dates.'),
  })
  .describe('Records the summary of the new turns.');
const synopsisSchema = z
  .object({
    synopsis: z.string().trim().min(1).describe('The updated synopsis of the whole conversation so far, naming speakers, with dates.'),
  })
  .describe('Records the updated synopsis.');

const SPEAKERS =
  '- Attribute every statement to its speaker by name ("Ana said ...", "Ben suggested ..."); write "the user" or "the assistant" only for a speaker without a name. Resolve first-person words to the speaker; never write "I" or "you".';

const SUMMARIZE_RULES = (maxTokens: number) =>
  [
    'You keep the working memory of a conversation.',
    'Summarize the NEW turns so that a later reader can answer questions about them: who said or did what, and when.',
    '- Each turn starts with [#seq timestamp] and its speaker: their name with their role in parentheses ("Ana (user)"), or just the role when the speaker has no name.',
    SPEAKERS,
    '- Keep dates: say on which day things were said or happened ("On 2024-03-02, Ana ..."), and resolve relative dates ("yesterday", "next Friday", "last week") to absolute dates (YYYY-MM-DD) from the timestamp of the turn that says them.',
    '- Keep names, numbers, events, decisions, preferences, plans and open questions; drop greetings, thanks and small talk.',
    '- Build on the previous summary: use it to understand references, do not repeat it.',
    `- At most about ${wordsFor(maxTokens)} words.`,
  ].join('\n');

const CONSOLIDATE_RULES = (maxTokens: number) =>
  [
    'You keep the long-running synopsis of a conversation.',
    'Fold the current synopsis and the newer summaries (oldest first) into one updated synopsis of the whole conversation.',
    '- When a later summary contradicts an earlier statement, keep the later one (say what changed if it matters).',
    SPEAKERS,
    '- Keep who said what by name, and the dates of what was said and happened (absolute dates, as the summaries give them); never replace a name with "the user" or drop a date that matters.',
    '- Keep names, decisions, preferences, events and plans; drop what no longer matters.',
    `- At most about ${wordsFor(maxTokens)} words.`,
  ].join('\n');

/**
 * Summarizer backed by any LangChain chat model (an OpenAI-compatible endpoint via
 * `ChatOpenAI`, Ollama, ...), using structured output so that the answer is validated.
 * Batch summaries build on the previous summary; synopses fold summaries progressively. Both
 * are asked to name who said what (the turn's `name`, else its role) and to keep absolute dates.
 * Reports each call's token usage through `onUsage`. Failures are StrataErrors:
 * BACKEND_UNAVAILABLE (retryable) when the endpoint is down, others when it refuses or
 * answers badly; derivation then retries or falls back to the offline summarizer.
 *
 * @example
 * const summarizer = new LlmSummarizer({ model: new ChatOpenAI({ model: 'gpt-4o-mini' }) });
 * const memory = await createMemory({ summarizer });
 */
export class LlmSummarizer implements Summarizer {
  readonly name = 'llm';
  private readonly model: BaseChatModel;
  private readonly settings: CallSettings;

  constructor(options: LlmSummarizerOptions) {
    const parsed = parseWith(llmModelOptionsSchema, options, 'LlmSummarizer options', 'Pass { model: <a LangChain chat model>, method?, breaker?, timeoutMs? }.', 'CONFIG_INVALID');
    ({ model: this.model, settings: this.settings } = callSettingsOf(parsed));
  }

  /** One model call; the summary of `turns` in at most about `maxTokens`. */
  async summarize(input: SummarizeInput): Promise<{ text: string }> {
    const previous = input.previousSummary ? `Previous summary (context only):\n${input.previousSummary}\n\n` : '';
    const { summary } = await invokeStructured({
      model: this.model,
      ...this.settings,
      name: 'summary',
      shape: { schema: summarySchema },
      messages: [new SystemMessage(SUMMARIZE_RULES(input.maxTokens)), new HumanMessage(`${previous}New turns (oldest first):\n${renderTurns(input.turns)}`)],
      onUsage: input.onUsage,
    });
    return { text: summary };
  }

  /** One model call; the synopsis folding `synopsis` and `summaries`. */
  async consolidate(input: ConsolidateInput): Promise<{ text: string }> {
    const current = input.synopsis ? `Current synopsis:\n${input.synopsis}\n\n` : '';
    const summaries = input.summaries.map((s, i) => `${i + 1}. ${s}`).join('\n');
    const { synopsis } = await invokeStructured({
      model: this.model,
      ...this.settings,
      name: 'synopsis',
      shape: { schema: synopsisSchema },
      messages: [new SystemMessage(CONSOLIDATE_RULES(input.maxTokens)), new HumanMessage(`${current}Newer summaries (oldest first):\n${summaries}`)],
      onUsage: input.onUsage,
    });
    return { text: synopsis };
  }
}

import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { parseWith } from '../config/parse.js';
import type { ConsolidateInput, SummarizeInput, Summarizer } from '../ports/models.js';
import { invokeStructured, llmModelOptionsSchema, type StructuredOutputMethod } from './structured-call.js';
import { renderTurns, wordsFor } from './transcript-text.js';

export type LlmSummarizerOptions = z.input<typeof llmModelOptionsSchema>;

const summarySchema = z.object({
  summary: z.string().trim().min(1).describe('The summary of the new turns, plain prose, third person.'),
}).describe('Records the summary of the new turns.');
const synopsisSchema = z.object({
  synopsis: z.string().trim().min(1).describe('The updated synopsis of the whole conversation so far.'),
}).describe('Records the updated synopsis.');

const SUMMARIZE_RULES = (maxTokens: number) => [
  'You keep the working memory of a conversation between a user and an assistant.',
  'Summarize the NEW turns so that a later reader can answer questions about them.',
  '- Attribute every statement to its speaker ("The user said ...", "The assistant suggested ...").',
  '- Keep names, numbers, decisions, preferences, plans and open questions; drop greetings and small talk.',
  '- Each turn starts with [#seq timestamp]. Resolve relative dates ("tomorrow", "next Friday", "last week") to absolute dates (YYYY-MM-DD) from the timestamp of the turn that says them.',
  '- Build on the previous summary: use it to understand references, do not repeat it.',
  `- At most about ${wordsFor(maxTokens)} words.`,
].join('\n');

const CONSOLIDATE_RULES = (maxTokens: number) => [
  'You keep the long-running synopsis of a conversation between a user and an assistant.',
  'Fold the current synopsis and the newer summaries (oldest first) into one updated synopsis of the whole conversation.',
  '- When a later summary contradicts an earlier statement, keep the later one (say what changed if it matters).',
  '- Keep who said what, names, dates, decisions, preferences and plans; drop what no longer matters.',
  `- At most about ${wordsFor(maxTokens)} words.`,
].join('\n');

/**
 * Summarizer backed by any LangChain chat model (an OpenAI-compatible endpoint via
 * `ChatOpenAI`, Ollama, ...), using structured output so that the answer is validated.
 * Batch summaries build on the previous summary; synopses fold summaries progressively.
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
  private readonly method: StructuredOutputMethod;

  constructor(options: LlmSummarizerOptions) {
    const parsed = parseWith(llmModelOptionsSchema, options, 'LlmSummarizer options', 'Pass { model: <a LangChain chat model>, method? }.', 'CONFIG_INVALID');
    this.model = parsed.model;
    this.method = parsed.method;
  }

  /** One model call; the summary of `turns` in at most about `maxTokens`. */
  async summarize(input: SummarizeInput): Promise<{ text: string }> {
    const previous = input.previousSummary ? `Previous summary (context only):\n${input.previousSummary}\n\n` : '';
    const { summary } = await invokeStructured({
      model: this.model,
      method: this.method,
      name: 'summary',
      schema: summarySchema,
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
      method: this.method,
      name: 'synopsis',
      schema: synopsisSchema,
      messages: [new SystemMessage(CONSOLIDATE_RULES(input.maxTokens)), new HumanMessage(`${current}Newer summaries (oldest first):\n${summaries}`)],
      onUsage: input.onUsage,
    });
    return { text: synopsis };
  }
}

import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { toLangChainMessages } from '@strata/langchain';
import type { AssistantTurn, ChatAssistant } from './assistant.js';

/** The assistant when an LLM is configured: the model answers from the assembled context. */
export class ModelAssistant implements ChatAssistant {
  readonly isOffline = false;

  constructor(
    private readonly model: BaseChatModel,
    readonly label: string,
  ) {}

  async reply({ context }: AssistantTurn): Promise<string> {
    const answer = await this.model.invoke(toLangChainMessages(context.messages));
    return textOf(answer.content);
  }

  async *stream({ context }: AssistantTurn): AsyncIterable<string> {
    for await (const chunk of await this.model.stream(toLangChainMessages(context.messages))) {
      const text = textOf(chunk.content);
      if (text) yield text;
    }
  }
}

function textOf(content: string | ({ type: string } & Record<string, unknown>)[]): string {
  return typeof content === 'string' ? content : content.map((part) => ('text' in part ? String(part.text) : '')).join('');
}

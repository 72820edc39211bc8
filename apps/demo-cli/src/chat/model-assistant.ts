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
    return typeof answer.content === 'string' ? answer.content : answer.content.map((part) => ('text' in part ? String(part.text) : '')).join('');
  }
}

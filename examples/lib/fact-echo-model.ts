import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/**
 * A stand-in chat model for running offline: it answers with the facts strata put in its
 * prompt, so the output shows what memory the model would have had.
 */
export class FactEchoModel extends BaseChatModel {
  _llmType(): string {
    return 'fact-echo';
  }

  /** The agent binds its tools; this model never calls any, so it keeps itself. */
  override bindTools(_tools: BindToolsInput[]): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const facts = messages
      .filter((m) => m.type === 'system')
      .flatMap((m) => m.text.split('\n'))
      .filter((line) => line.startsWith('- User '))
      .map((line) => line.slice(2).replace(/ \(since [^)]*\)$/, ''));
    const text = facts.length ? `From memory: ${facts.join(' ')}` : 'Nice to meet you!';
    return { generations: [{ text, message: new AIMessage(text) }] };
  }
}

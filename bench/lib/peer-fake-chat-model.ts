import type { BaseMessage } from '@langchain/core/messages';
import { SimpleChatModel } from '@langchain/core/language_models/chat_models';

/**
 * A deterministic, instant chat model for peers that need one (mem0's extraction): it answers
 * the extraction prompt with one memory per user line of the new messages, as a model that
 * keeps everything the user said would. No network, no tokens; it stands for the offline
 * models strata runs with in the same bench (strata's own extractor is not a chat model).
 */
export class PeerFakeChatModel extends SimpleChatModel {
  _llmType(): string {
    return 'strata-bench-fake';
  }

  /**
   * Answers with a bare `{ content }`: mem0 3.3.1's LangChain adapter reads any answer that has
   * a `tool_calls` array (every AIMessage has one, empty) as a tool call and then fails to
   * parse it, so a real AIMessage would make every extraction store nothing.
   */
  // @ts-expect-error the fake returns the shape mem0 reads, not an AIMessageChunk
  override async invoke(input: BaseMessage[]): Promise<{ content: string }> {
    return { content: await this._call(input) };
  }

  async _call(messages: BaseMessage[]): Promise<string> {
    const prompt = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    const lines = prompt
      .split('\n')
      .filter((line) => line.startsWith('user: '))
      .map((line) => line.slice('user: '.length).trim());
    return JSON.stringify({ memory: lines.filter(Boolean).map((text, i) => ({ id: String(i), text, attributed_to: 'user' })) });
  }
}

import type { BaseMessage } from '@langchain/core/messages';
import { SimpleChatModel } from '@langchain/core/language_models/chat_models';
import { RunnableLambda } from '@langchain/core/runnables';

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

  /** Structured output is the JSON answer parsed (mem0 asks for it; a plain answer would carry an empty tool-call list it misreads). */
  // @ts-expect-error the overloads of withStructuredOutput are narrower than what a fake needs to return
  override withStructuredOutput() {
    return RunnableLambda.from(async (messages: BaseMessage[]) => JSON.parse(await this._call(messages)) as Record<string, unknown>);
  }

  async _call(messages: BaseMessage[]): Promise<string> {
    const prompt = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    const lines = prompt.split('\n').filter((line) => line.startsWith('user: ')).map((line) => line.slice('user: '.length).trim());
    return JSON.stringify({ memory: lines.filter(Boolean).map((text, i) => ({ id: String(i), text, attributed_to: 'user' })) });
  }
}

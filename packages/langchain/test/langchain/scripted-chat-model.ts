import { BaseChatModel, type BindToolsInput } from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

/** One scripted reply: fixed, or computed from the prompt the model got. */
export type ScriptedReply = AIMessage | string | ((prompt: BaseMessage[]) => AIMessage | string);

/**
 * A chat model that replays a script and records every prompt. `bindTools` records the tool
 * names and returns the same model, so agents can bind tools to it and the script still decides
 * when to call them.
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly prompts: BaseMessage[][] = [];
  readonly boundTools: string[][] = [];
  private readonly script: ScriptedReply[];

  constructor(script: ScriptedReply[]) {
    super({});
    this.script = [...script];
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(tools: BindToolsInput[]): this {
    this.boundTools.push(tools.map((t) => ('name' in t && typeof t.name === 'string' ? t.name : '?')));
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.prompts.push(messages);
    const next = this.script.shift();
    if (next === undefined) throw new Error(`ScriptedChatModel: no reply left for prompt #${this.prompts.length}`);
    const reply = typeof next === 'function' ? next(messages) : next;
    const message = typeof reply === 'string' ? new AIMessage(reply) : reply;
    return { generations: [{ text: message.text, message }] };
  }

  /** The text of every message of a prompt, one per line, to search it. */
  static render(prompt: readonly BaseMessage[]): string {
    return prompt.map((m) => `${m.type}: ${m.text}`).join('\n');
  }
}

/** The "Known facts:" block of strata's memory message in a prompt ('' when absent). */
export function knownFacts(prompt: readonly BaseMessage[]): string {
  const memory = prompt.find((m) => m.type === 'system' && m.text.includes('Known facts:'))?.text ?? '';
  const start = memory.indexOf('Known facts:');
  if (start < 0) return '';
  const end = memory.indexOf('\n\n', start);
  return memory.slice(start, end < 0 ? undefined : end);
}

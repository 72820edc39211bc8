import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import type { BaseMessage } from '@langchain/core/messages';
import type { Memory } from '../services/memory.js';
import { toLangChainMessage } from '../services/to-langchain.js';
import { toMessageInputs } from './from-langchain-message.js';
import { ensureSession } from './session-messages.js';

export interface StrataChatMessageHistoryOptions {
  memory: Memory;
  /** The strata session the history reads and writes. */
  sessionId: string;
  /**
   * When given, a session that does not exist yet is created in this namespace on first use
   * (handy with `RunnableWithMessageHistory`, which invents session ids). Without it, an
   * unknown session id fails with StrataError NOT_FOUND.
   */
  namespace?: string;
}

/**
 * A LangChain chat history backed by one strata session: the verbatim turns, tool calls
 * intact. Appending through it feeds strata's tiers (summaries, facts) like `memory.append`.
 * For a prompt that fits a token budget, use `withStrataMemory` or `memory.getContext`
 * instead: this class returns every stored turn, as LangChain's history contract requires.
 * @example
 * const history = new StrataChatMessageHistory({ memory, sessionId: session.id });
 * const chain = new RunnableWithMessageHistory({
 *   runnable: prompt.pipe(model),
 *   getMessageHistory: () => history,
 *   inputMessagesKey: 'input',
 *   historyMessagesKey: 'history',
 * });
 * await chain.invoke({ input: 'I live in Lisbon.' }, { configurable: { sessionId: session.id } });
 */
export class StrataChatMessageHistory extends BaseListChatMessageHistory {
  lc_namespace = ['strata', 'chat_history'];
  private readonly memory: Memory;
  private readonly sessionId: string;
  private readonly namespace: string | undefined;

  constructor(options: StrataChatMessageHistoryOptions) {
    // Nothing to LangChain's serializer: the memory is a live object, not a constructor argument to replay.
    super();
    this.memory = options.memory;
    this.sessionId = options.sessionId;
    this.namespace = options.namespace;
  }

  /** Every stored turn of the session, oldest first. */
  async getMessages(): Promise<BaseMessage[]> {
    await ensureSession(this.memory, this.sessionId, this.namespace);
    return (await this.memory.messages(this.sessionId)).map(toLangChainMessage);
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /** Appends in one batch: the turns get consecutive seqs and one derivation round. */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const inputs = toMessageInputs(messages);
    if (!inputs.length) return;
    await ensureSession(this.memory, this.sessionId, this.namespace);
    await this.memory.append(this.sessionId, inputs);
  }

  /**
   * Forgets the session's messages and everything derived from them (summaries, facts).
   * The session itself stays, so the history can be written to again.
   */
  override async clear(): Promise<void> {
    await ensureSession(this.memory, this.sessionId, this.namespace);
    const messages = await this.memory.messages(this.sessionId);
    if (messages.length) await this.memory.forget({ messageIds: messages.map((m) => m.id) });
  }
}

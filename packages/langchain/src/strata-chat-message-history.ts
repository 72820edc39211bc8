import { BaseListChatMessageHistory } from '@langchain/core/chat_history';
import type { BaseMessage } from '@langchain/core/messages';
import type { MemoryApi, Session } from '@strata/core';
import { toLangChainMessage } from './to-langchain-message.js';
import { toMessageInputs } from './from-langchain-message.js';
import { ensureSession, findSession, type NewSessionSpec } from './ensure-session.js';

/**
 * Options of {@link StrataChatMessageHistory}: the memory, the session it reads and writes, and
 * how to create that session when it does not exist yet (`namespace`, `title`, `metadata`).
 */
export interface StrataChatMessageHistoryOptions {
  memory: MemoryApi;
  /** The strata session the history reads and writes. */
  sessionId: string;
  /**
   * When given, a session that does not exist yet is created in this namespace by the first
   * `addMessages` (handy with `RunnableWithMessageHistory`, which invents session ids), and a
   * session of another namespace is refused (CONFLICT). Without it, adding to an unknown
   * session fails with StrataError NOT_FOUND.
   */
  namespace?: string;
  /** Title of a session the history creates. */
  title?: string;
  /** Metadata of a session the history creates. */
  metadata?: Record<string, unknown>;
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
  private readonly memory: MemoryApi;
  private readonly sessionId: string;
  private readonly newSession: NewSessionSpec;

  constructor(options: StrataChatMessageHistoryOptions) {
    // Nothing to LangChain's serializer: the memory is a live object, not a constructor argument to replay.
    super();
    this.memory = options.memory;
    this.sessionId = options.sessionId;
    const { namespace, title, metadata } = options;
    this.newSession = { ...(namespace === undefined ? {} : { namespace }), ...(title === undefined ? {} : { title }), ...(metadata === undefined ? {} : { metadata }) };
  }

  /**
   * Every stored turn of the session, oldest first; [] for a session that does not exist yet
   * (as LangChain's own histories answer for a new session id).
   */
  async getMessages(): Promise<BaseMessage[]> {
    if (!(await this.existingSession())) return [];
    return (await this.memory.messages(this.sessionId)).map(toLangChainMessage);
  }

  async addMessage(message: BaseMessage): Promise<void> {
    await this.addMessages([message]);
  }

  /**
   * Appends in one batch: the turns get consecutive seqs and one derivation round. Creates the
   * session first when it does not exist and the `namespace` option is set.
   * @throws StrataError NOT_FOUND for an unknown session without `namespace`.
   */
  override async addMessages(messages: BaseMessage[]): Promise<void> {
    const inputs = toMessageInputs(messages);
    if (!inputs.length) return;
    await ensureSession(this.memory, this.sessionId, this.newSession);
    await this.memory.append(this.sessionId, inputs);
  }

  /**
   * Forgets the session's messages and everything derived from them (summaries, facts).
   * The session itself stays, so the history can be written to again. Nothing to do for a
   * session that does not exist.
   */
  override async clear(): Promise<void> {
    if (!(await this.existingSession())) return;
    const messages = await this.memory.messages(this.sessionId);
    if (messages.length) await this.memory.forget({ messageIds: messages.map((m) => m.id) });
  }

  /** The session when it exists (checked against `namespace` when set); null when it does not. */
  private existingSession(): Promise<Session | null> {
    return findSession(this.memory, this.sessionId, this.newSession.namespace);
  }
}

import type { BaseMessage } from '@langchain/core/messages';

/**
 * The messages of a LangGraph messages state that strata has not stored yet, in a graph whose
 * model node calls `withStrataMemory` (which stores each reply itself): those after the newest
 * AI message, i.e. the user's new turn, or the tool results answering the last reply's calls.
 * Checkpointed history before that reply is left out, so a resumed thread stores nothing twice.
 * @example
 * graph.addNode('agent', async (state, config) => ({ messages: [await chat.invoke(selectNewTurns(state.messages), config)] }));
 */
export function selectNewTurns(messages: readonly BaseMessage[]): BaseMessage[] {
  const lastReply = messages.findLastIndex((m) => m.type === 'ai');
  return messages.slice(lastReply + 1);
}

import type { BaseMessage } from '@langchain/core/messages';
import type { MemoryApi } from '@strata/core';
import { toMessageInputs } from './from-langchain-message.js';

/**
 * Appends the graph-state messages that come after the watermark (the key of the newest
 * message appended before) and returns the new watermark: the key of the newest state message.
 * Without a watermark every message is new. A watermark no longer in the state means the
 * history was rewritten (e.g. `RemoveMessage` of all messages, then new ones): what remains
 * is treated as new, since nothing says it was appended.
 */
export async function appendAfterWatermark(memory: MemoryApi, sessionId: string, messages: readonly BaseMessage[], watermark: string | undefined): Promise<string | undefined> {
  const fresh = messages.slice(indexAfter(messages, watermark));
  if (!fresh.length) return watermark;
  const inputs = toMessageInputs(fresh);
  if (inputs.length) await memory.append(sessionId, inputs);
  return keyOf(messages.at(-1), messages.length - 1);
}

function indexAfter(messages: readonly BaseMessage[], watermark: string | undefined): number {
  if (watermark === undefined) return 0;
  // newest first: the watermark is almost always one of the last few messages
  for (let i = messages.length - 1; i >= 0; i--) if (keyOf(messages[i], i) === watermark) return i + 1;
  return 0;
}

/** LangGraph's messages reducer gives every state message an id; the position is a fallback. */
function keyOf(message: BaseMessage | undefined, index: number): string {
  return message?.id ?? `#${index}`;
}

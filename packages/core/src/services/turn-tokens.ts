import type { NewMessage, TurnTokenCount } from '../domain/message.js';
import { mapInSlices } from '../shared/map-in-slices.js';
import { MESSAGE_OVERHEAD_TOKENS, type MemoryDeps } from './deps.js';

/** Counts what a turn costs in a prompt: content, tool calls and per-message overhead. */
export function countTurnTokens(deps: Pick<MemoryDeps, 'tokens'>, message: Pick<NewMessage, 'content' | 'toolCalls'>): TurnTokenCount {
  const calls = message.toolCalls?.length ? deps.tokens.count(JSON.stringify(message.toolCalls)) : 0;
  return { counter: deps.tokens.name, count: deps.tokens.count(message.content) + calls + MESSAGE_OVERHEAD_TOKENS };
}

/**
 * Tokens a stored turn costs in a prompt: the count stored with it when this memory's counter
 * made it (so a long session's recent turns are not recounted on every getContext), else
 * counted now (turns stored before counts were kept, or under another counter).
 */
export function turnTokens(deps: Pick<MemoryDeps, 'tokens'>, message: NewMessage): number {
  return hasOwnCount(deps, message) ? message.tokens.count : countTurnTokens(deps, message).count;
}

/** The message with a count of this memory's counter: its own when it has one (an imported bundle may carry none, another counter's, or junk). */
export function withTurnTokens<M extends NewMessage>(deps: Pick<MemoryDeps, 'tokens'>, message: M): M {
  return hasOwnCount(deps, message) ? message : { ...message, tokens: countTurnTokens(deps, message) };
}

/** Turns counted at once before a large append or import yields the event loop (about a millisecond of counting). */
export const COUNT_SLICE_TURNS = 64;

/** {@link withTurnTokens} of many turns (an import), a slice at a time, yielding the event loop between slices. */
export function withTurnTokensInSlices<M extends NewMessage>(deps: Pick<MemoryDeps, 'tokens'>, messages: readonly M[]): Promise<M[]> {
  return mapInSlices(messages, COUNT_SLICE_TURNS, (slice) => slice.map((message) => withTurnTokens(deps, message)));
}

function hasOwnCount(deps: Pick<MemoryDeps, 'tokens'>, message: NewMessage): message is NewMessage & { tokens: TurnTokenCount } {
  const stored: unknown = message.tokens;
  if (typeof stored !== 'object' || stored === null) return false;
  const { counter, count } = stored as Partial<TurnTokenCount>;
  return counter === deps.tokens.name && typeof count === 'number' && Number.isSafeInteger(count) && count >= 0;
}

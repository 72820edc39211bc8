import type { StoredMessage } from '../domain/message.js';
import { MESSAGE_OVERHEAD_TOKENS, type MemoryDeps } from './deps.js';

/** Tokens a stored turn costs in a prompt: content, tool calls and per-message overhead. */
export function turnTokens(deps: Pick<MemoryDeps, 'tokens'>, message: StoredMessage): number {
  const calls = message.toolCalls?.length ? deps.tokens.count(JSON.stringify(message.toolCalls)) : 0;
  return deps.tokens.count(message.content) + calls + MESSAGE_OVERHEAD_TOKENS;
}

import type { MessageInput, Role } from '@strata/core';
import { StrataError } from '@strata/core/errors';

const ROLES = new Set<Role>(['user', 'assistant', 'system', 'tool']);

/**
 * Reads a JSONL transcript: one OpenAI-style chat message per line (`{ role, content }`, as
 * `strata export --format jsonl` writes), `created_at` kept when present. Blank lines are skipped.
 * @throws StrataError INVALID_INPUT naming the first bad line.
 */
export function readTranscript(text: string, file: string): MessageInput[] {
  const messages: MessageInput[] = [];
  text.split('\n').forEach((line, index) => {
    if (!line.trim()) return;
    const where = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new StrataError('INVALID_INPUT', `${where} is not JSON`, { hint: 'Each line must be a JSON object such as {"role":"user","content":"Hi"}.', cause: error });
    }
    messages.push(toMessage(value, where));
  });
  return messages;
}

function toMessage(value: unknown, where: string): MessageInput {
  const line = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  if (!ROLES.has(line.role as Role) || typeof line.content !== 'string') {
    throw new StrataError('INVALID_INPUT', `${where} is not a chat message (needs role user|assistant|system|tool and a string content)`, {
      hint: 'Each line must be a JSON object such as {"role":"user","content":"Hi"}.',
    });
  }
  const createdAt = typeof line.created_at === 'string' || typeof line.created_at === 'number' ? { createdAt: line.created_at } : {};
  return { role: line.role as Role, content: line.content, ...createdAt };
}

import type { z } from 'zod';
import type { messageInputSchema } from '../config/input-schemas.js';
import type { NewMessage } from '../domain/message.js';
import { newId } from '../engine/ids.js';
import type { Clock } from '../ports/models.js';

/** Resolves ids and times of validated inputs. Turns without a time get the clock's now. */
export function toNewMessages(inputs: z.output<typeof messageInputSchema>[], clock: Clock): NewMessage[] {
  const now = clock.now();
  return inputs.map((m) => ({
    id: m.id ?? newId('msg'),
    role: m.role,
    content: m.content,
    ...(m.name === undefined ? {} : { name: m.name }),
    ...(m.toolCalls === undefined ? {} : { toolCalls: m.toolCalls }),
    ...(m.toolCallId === undefined ? {} : { toolCallId: m.toolCallId }),
    createdAt: m.createdAt === undefined ? now : toEpoch(m.createdAt),
    metadata: m.metadata ?? {},
  }));
}

function toEpoch(value: number | string | Date): number {
  if (typeof value === 'number') return value;
  return (typeof value === 'string' ? new Date(value) : value).getTime();
}

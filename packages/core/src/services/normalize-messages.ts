import type { MessageInputParsed } from './input-schemas.js';
import type { NewMessage } from '../domain/message.js';
import { newId } from '../engine/ids.js';
import { mapInSlices } from '../shared/map-in-slices.js';
import type { MemoryDeps } from './deps.js';
import { COUNT_SLICE_TURNS, countTurnTokens } from './turn-tokens.js';

/**
 * Resolves ids and times of validated inputs, and counts each turn's prompt tokens once, to
 * be stored with it. Turns without a time get the clock's now.
 */
export function toNewMessages(inputs: readonly MessageInputParsed[], deps: Pick<MemoryDeps, 'clock' | 'tokens'>, now = deps.clock.now()): NewMessage[] {
  return inputs.map((m) => ({
    id: m.id ?? newId('msg'),
    role: m.role,
    content: m.content,
    ...(m.name === undefined ? {} : { name: m.name }),
    ...(m.toolCalls === undefined ? {} : { toolCalls: m.toolCalls }),
    ...(m.toolCallId === undefined ? {} : { toolCallId: m.toolCallId }),
    createdAt: m.createdAt === undefined ? now : toEpoch(m.createdAt),
    metadata: m.metadata ?? {},
    tokens: countTurnTokens(deps, m),
  }));
}

/**
 * {@link toNewMessages} for a large append (a history moved in at once): the turns are counted
 * a slice at a time, yielding the event loop between slices, so that counting thousands of
 * turns does not hold it for hundreds of milliseconds. All turns get the same `now`.
 */
export function toNewMessagesInSlices(inputs: MessageInputParsed[], deps: Pick<MemoryDeps, 'clock' | 'tokens'>): Promise<NewMessage[]> {
  const now = deps.clock.now();
  return mapInSlices(inputs, COUNT_SLICE_TURNS, (slice) => toNewMessages(slice, deps, now));
}

function toEpoch(value: number | string | Date): number {
  if (typeof value === 'number') return value;
  return (typeof value === 'string' ? new Date(value) : value).getTime();
}

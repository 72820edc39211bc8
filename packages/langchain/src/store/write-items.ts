import { StrataError, type MemoryApi, type MessageInput } from '@strata/core';
import { searchableText } from './item-text.js';
import { itemTurn, tombstoneTurn, type SessionItems } from './session-items.js';

/** One put of a batch, after the last put of each key won. */
export interface ItemWrite {
  key: string;
  /** null deletes. */
  value: Record<string, unknown> | null;
  /** Index fields of this put: false for none, undefined for the store's. */
  index: false | string[] | undefined;
}

/**
 * Writes the puts of one namespace: one append of the new versions and delete tombstones,
 * then one forget of the turns they replace and of the tombstones. A delete of an absent
 * key writes nothing. The items are updated to what was written.
 * @throws StrataError INVALID_INPUT when strata refuses a value (nothing of this namespace is written).
 */
export async function writeItems(memory: MemoryApi, sessionId: string, items: SessionItems, writes: readonly ItemWrite[], fields: string[] | undefined, labels: readonly string[]): Promise<void> {
  const turns: MessageInput[] = [];
  const replaced: string[] = [];
  for (const write of writes) {
    const live = items.get(write.key);
    if (write.value === null && live === undefined) continue;
    replaced.push(...items.replacedBy(write.key));
    if (write.value === null) turns.push(tombstoneTurn(write.key));
    else turns.push(itemTurn(write.key, write.value, write.index === false ? '' : searchableText(write.value, write.index ?? fields), live?.createdAt));
  }
  if (turns.length === 0) return;
  const stored = await appendTurns(memory, sessionId, turns, labels);
  // our own turns follow what this store had read: it stays complete without reading them back
  if (stored[0]?.seq === items.lastSeq + 1) items.lastSeq = stored.at(-1)?.seq ?? items.lastSeq;
  items.apply(stored);
  const tombstones = stored.filter((m) => m.metadata.deleted === true).map((m) => m.id);
  const gone = [...new Set([...replaced, ...tombstones])];
  if (gone.length === 0) return;
  await forgetTurns(memory, gone);
  items.forgotten(gone);
}

async function appendTurns(memory: MemoryApi, sessionId: string, turns: MessageInput[], labels: readonly string[]) {
  try {
    return await memory.append(sessionId, turns);
  } catch (error) {
    if (!StrataError.is(error, 'INVALID_INPUT')) throw error;
    throw new StrataError('INVALID_INPUT', `a put in namespace ${JSON.stringify(labels)} was refused (strata keeps the value as the metadata.value of a turn): ${error.message}`, {
      hint: 'Store plain JSON values (strings, finite numbers, booleans, null, arrays, plain objects; a Date as an ISO string) of at most policy.limits.metadataBytes as JSON; index fields whose text fits policy.limits.messageBytes.',
      cause: error,
    });
  }
}

/**
 * Forgets turns; one that is gone already (another store replaced the same item at the same
 * moment) is skipped: strata forgets nothing of a list that names an unknown turn.
 */
async function forgetTurns(memory: MemoryApi, messageIds: readonly string[]): Promise<void> {
  try {
    await memory.forget({ messageIds: [...messageIds] });
  } catch (error) {
    if (!StrataError.is(error, 'NOT_FOUND')) throw error;
    for (const id of messageIds) {
      await memory.forget({ messageIds: [id] }).catch((each: unknown) => {
        if (!StrataError.is(each, 'NOT_FOUND')) throw each;
      });
    }
  }
}

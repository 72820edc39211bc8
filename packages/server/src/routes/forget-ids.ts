import { type ForgetReport, type MemoryApi, StrataError } from '@strata/core';
import { idsNotFound, requireScope } from '../http/access.js';
import { type Caller, holds, reaches } from '../http/caller.js';

/** An id no record can have (names refuse control characters): asked for with real ids, the memory is sure to find one missing. */
const ABSENT = '\u0000strata-reach-check';

/**
 * Throws NOT_FOUND unless every id is stored in `namespace`, without forgetting anything: the
 * memory forgets nothing when an id it is asked to forget is missing, and names the missing
 * ones, so asking it to forget the ids and one that cannot exist answers the question.
 */
async function assertStored(memory: MemoryApi, kind: 'message' | 'fact', ids: string[], namespace: string | undefined): Promise<void> {
  const asked = [...ids, ABSENT];
  const where = namespace === undefined ? {} : { namespace };
  try {
    await memory.forget(kind === 'message' ? { messageIds: asked, ...where } : { factIds: asked, ...where });
  } catch (error) {
    if (!StrataError.is(error, 'NOT_FOUND')) throw error;
    const missing = ids.filter((id) => error.message.includes(JSON.stringify(id)));
    if (missing.length) throw idsNotFound(kind, missing);
    return;
  }
  throw new StrataError('INTERNAL', `the memory forgot ${kind}s it was asked to check`, { hint: 'The memory must refuse a forget that names an id it does not hold.' });
}

/**
 * Forgets messages or facts by id within one namespace the caller reaches: `given`, the exact
 * key's own, or any in open mode. A prefix key that names none reaches no id. The reach of the
 * ids is checked before the scope: a key lacking `forget` learns 403 for its own records only.
 */
export async function forgetIds(memory: MemoryApi, caller: Caller, kind: 'message' | 'fact', ids: string[], given: string | undefined): Promise<ForgetReport> {
  if (given !== undefined && !reaches(caller, given)) throw idsNotFound(kind, ids);
  const namespace = given ?? (caller.open ? undefined : caller.match === 'exact' ? caller.namespace : null);
  if (namespace === null) throw idsNotFound(kind, ids);
  if (!holds(caller, 'forget')) {
    await assertStored(memory, kind, ids, namespace);
    requireScope(caller, 'forget');
  }
  const where = namespace === undefined ? {} : { namespace };
  return memory.forget(kind === 'message' ? { messageIds: ids, ...where } : { factIds: ids, ...where });
}

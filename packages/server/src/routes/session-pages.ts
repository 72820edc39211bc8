import { type MemoryApi, type Session, StrataError } from '@strata/core';

/** Where a page of sessions ended: the last session's `updatedAt` and id. */
interface SessionCursor {
  updatedAt: number;
  id: string;
}

/** `sessions.list` reads at most this many at once. */
const MAX_READ = 100_000;

/** The opaque cursor of a page that ended with `session`. */
export function encodeCursor(session: Session): string {
  return Buffer.from(JSON.stringify({ updatedAt: session.updatedAt, id: session.id })).toString('base64url');
}

/** The cursor a previous page gave. @throws StrataError INVALID_INPUT for anything else. */
export function decodeCursor(text: string): SessionCursor {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch (error) {
    value = error;
  }
  const cursor = value as Partial<SessionCursor> | null;
  if (typeof cursor === 'object' && cursor !== null && Number.isFinite(cursor.updatedAt) && typeof cursor.id === 'string') return { updatedAt: cursor.updatedAt as number, id: cursor.id };
  throw new StrataError('INVALID_INPUT', 'cursor is not one this server gave', { hint: 'Pass the nextCursor of the previous page unchanged, or no cursor for the first page.' });
}

/**
 * The sessions after `cursor` in list order (`updatedAt` DESC, id ASC). Sessions updated in the
 * same millisecond as the cursor's are skipped up to the cursor's own, where the store put it;
 * if it moved or went, by comparing ids.
 */
function afterCursor(rows: Session[], cursor: SessionCursor): Session[] {
  const at = rows.findIndex((s) => s.updatedAt === cursor.updatedAt && s.id === cursor.id);
  if (at >= 0) return rows.slice(at + 1);
  return rows.filter((s) => s.updatedAt < cursor.updatedAt || (s.updatedAt === cursor.updatedAt && s.id > cursor.id));
}

/**
 * One page of `limit` sessions after `cursor`. The memory lists by `updatedBefore`, which cannot
 * split sessions updated in the same millisecond: the read grows until the sessions after the
 * cursor fill the page, so that ties at a page boundary are neither repeated nor lost.
 */
export async function sessionPage(memory: MemoryApi, query: { namespace: string | undefined; limit: number; cursor?: SessionCursor }): Promise<{ sessions: Session[]; nextCursor: string | null }> {
  const { namespace, limit, cursor } = query;
  for (let read = limit + 1; ; read = Math.min(MAX_READ, read * 2)) {
    const rows = await memory.sessions.list({ ...(namespace === undefined ? {} : { namespace }), limit: read, ...(cursor ? { updatedBefore: Math.floor(cursor.updatedAt) + 1 } : {}) });
    const after = cursor ? afterCursor(rows, cursor) : rows;
    const exhausted = rows.length < read;
    if (after.length > limit) {
      const sessions = after.slice(0, limit);
      return { sessions, nextCursor: encodeCursor(sessions.at(-1)!) };
    }
    if (exhausted) return { sessions: after, nextCursor: null };
    // more sessions of one millisecond than a read takes: go on after the last one read
    if (read === MAX_READ) return { sessions: after, nextCursor: encodeCursor(rows.at(-1)!) };
  }
}

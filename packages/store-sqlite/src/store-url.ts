import { StrataError } from '@strata/core/errors';
import { createSqliteSessionStore, type SqliteSessionStore } from './sqlite-session-store.js';

/**
 * Opens the SQLite file a `sqlite:PATH` URL names, as `createMemory({ store: url })` does.
 * PATH is relative to the working directory (`sqlite:data/memory.sqlite`) or absolute
 * (`sqlite:/var/lib/app/memory.sqlite`, or `sqlite:///var/lib/app/memory.sqlite`). The file is
 * created if missing. Options a URL cannot carry (an encryption key) need
 * `createSqliteSessionStore`.
 * @throws StrataError CONFIG_INVALID for a URL of another scheme or without a path.
 */
export async function openStoreUrl(url: string): Promise<SqliteSessionStore> {
  const match = /^sqlite:(?:\/\/(?=\/))?(.*)$/i.exec(url);
  const path = match?.[1] ? decodeURIComponent(match[1]) : '';
  if (path === '') {
    throw new StrataError('CONFIG_INVALID', match === null ? 'a SQLite store URL starts with sqlite:' : 'the SQLite store URL names no file', {
      hint: 'Write it as sqlite:PATH, e.g. sqlite:memory.sqlite or sqlite:///var/lib/app/memory.sqlite.',
    });
  }
  return createSqliteSessionStore({ path });
}

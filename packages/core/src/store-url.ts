import { createInMemorySessionStore } from './adapters/in-memory/in-memory-session-store.js';
import { StrataError } from './errors/strata-error.js';
import type { LexicalIndex } from './ports/lexical-index.js';
import type { SessionStore } from './ports/session-store.js';
import type { TopicStore } from './ports/topic-store.js';

/**
 * A session store named by a URL, as an app's config holds it (`STRATA_STORE=postgres://...`):
 * the scheme picks the adapter package, which is loaded only when named, so that core depends
 * on none of them (they are optional peers, installed by the app that uses one).
 *
 * - `memory:` the in-memory reference store (core's own);
 * - `sqlite:PATH` a SQLite file (`@strata/store-sqlite`), PATH relative to the working directory
 *   or absolute (`sqlite:///var/lib/app/memory.sqlite`);
 * - `postgres://user:password@host:port/db?schema=NAME` (or `postgresql://`) PostgreSQL
 *   (`@strata/store-postgres`), tables in schema NAME (default "strata").
 */

/** A store that serves every port a memory needs of it. */
export type FullSessionStore = SessionStore & TopicStore & LexicalIndex;

/** What an adapter package exports to be opened by URL: it parses its own scheme's URL. */
export interface StoreUrlOpener {
  /**
   * Opens the store `url` names (a URL of the package's own scheme).
   * @throws StrataError CONFIG_INVALID for a URL it cannot read; the error must not echo the
   *   URL, which may hold a password.
   */
  openStoreUrl(url: string): Promise<FullSessionStore>;
}

/** URL schemes and the package that opens them. */
const PACKAGES: Readonly<Record<string, string>> = {
  'sqlite:': '@strata/store-sqlite',
  'postgres:': '@strata/store-postgres',
  'postgresql:': '@strata/store-postgres',
};

const FORMS = 'memory:, sqlite:PATH, or postgres://user@host:port/db?schema=NAME';

/**
 * Opens the store a URL names. The URL is never echoed into an error: it may hold a password.
 * @throws StrataError CONFIG_INVALID for a URL of no known scheme, or when the scheme's package
 * is not installed; the adapter's own errors (e.g. BACKEND_UNAVAILABLE) as it throws them.
 */
export async function openStoreUrl(url: string): Promise<FullSessionStore> {
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'memory:' && url.length === scheme.length) return createInMemorySessionStore();
  const name = scheme === undefined ? undefined : PACKAGES[scheme];
  if (name === undefined) {
    throw new StrataError('CONFIG_INVALID', `the store URL has ${scheme === undefined ? 'no scheme' : `the scheme "${scheme}", which no store opens`}`, {
      hint: `Name the store as ${FORMS}; or pass a store object you opened yourself.`,
    });
  }
  const opener = await loadOpener(name);
  return opener.openStoreUrl(url);
}

/**
 * The opener of package `name`, imported at run time.
 * @throws StrataError CONFIG_INVALID when it is missing or exports no `openStoreUrl`.
 */
export async function loadOpener(name: string): Promise<StoreUrlOpener> {
  let loaded: unknown;
  try {
    // a computed name: the package is an optional peer, resolved from the app's node_modules
    loaded = await import(name);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') throw error;
    throw new StrataError('CONFIG_INVALID', `the store URL needs the package ${name}, which is not installed`, { hint: `Run npm install ${name}.`, cause: error });
  }
  if (typeof (loaded as Partial<StoreUrlOpener> | null)?.openStoreUrl !== 'function') {
    throw new StrataError('CONFIG_INVALID', `the package ${name} exports no openStoreUrl`, { hint: `Install a version of ${name} that matches @strata/core.` });
  }
  return loaded as StoreUrlOpener;
}

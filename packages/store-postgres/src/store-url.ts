import { StrataError } from '@strata/core/errors';
import { createPostgresSessionStore, type PostgresSessionStore } from './postgres-session-store.js';

/**
 * Opens the store a `postgres://` (or `postgresql://`) URL names, as `createMemory({ store: url })`
 * does: `postgres://user[:password]@host[:port]/database[?schema=NAME]`. `schema` is strata's
 * (default "strata"); the other parameters go to the driver (e.g. `sslmode`).
 * @throws StrataError CONFIG_INVALID for a URL that does not parse (never echoed: it may hold a password).
 */
export async function openStoreUrl(url: string): Promise<PostgresSessionStore> {
  const { connection, schema } = parseStoreUrl(url);
  return createPostgresSessionStore({ url: connection, ...(schema === undefined ? {} : { schema }) });
}

/**
 * A store URL split into the driver's connection string and strata's schema (undefined when
 * the URL names none), as `openStoreUrl` and `inspectPostgresStore` read it.
 * @throws StrataError CONFIG_INVALID for a URL that does not parse or is not postgres:// (never echoed).
 */
export function parseStoreUrl(url: string): { connection: string; schema: string | undefined } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch (error) {
    throw new StrataError('CONFIG_INVALID', 'the PostgreSQL store URL does not parse', {
      hint: 'Write it as postgres://user[:password]@host[:port]/database[?schema=NAME], percent-encoding special characters in the password.',
      cause: error,
    });
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StrataError('CONFIG_INVALID', `a PostgreSQL store URL starts with postgres:// or postgresql://, not ${parsed.protocol}//`, {
      hint: 'Write it as postgres://user[:password]@host[:port]/database[?schema=NAME].',
    });
  }
  const schema = parsed.searchParams.get('schema') ?? undefined;
  parsed.searchParams.delete('schema');
  return { connection: parsed.toString(), schema };
}

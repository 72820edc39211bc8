import pg from 'pg';
import { schemaNameOf } from './database.js';
import { SCHEMA_VERSION } from './migrations.js';
import { parseStoreUrl } from './store-url.js';
import { toStrataError } from './to-strata-error.js';

/** What {@link inspectPostgresStore} found on the server: it reads, and creates or migrates nothing. */
export interface PostgresStoreReport {
  /** host:port/database (schema NAME), never the user or password. */
  where: string;
  /** The server's version (`SHOW server_version`). */
  serverVersion: string;
  schema: string;
  /** strata's schema version on the server, or 0 when strata has not created its schema there yet. */
  schemaVersion: number;
  /** The version this package writes: an older schema is migrated up to it when a store next opens it, a newer one is refused. */
  currentSchemaVersion: number;
  /** Sessions and messages by the planner's estimate (`pg_class.reltuples`, as of the last ANALYZE; -1 before any). */
  estimatedSessions: number;
  estimatedMessages: number;
  /** Connections to the server now (every database), and how many it allows to users other than superusers. */
  connections: { used: number; max: number };
}

/** How long inspecting waits for the server to accept the connection. */
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * Connects once to the server a `postgres://` store URL names and reports what a store opened
 * on it would meet: the server's version, strata's schema version there, rough sizes and how
 * many connections are left. It writes nothing (no schema is created or migrated), so
 * `strata doctor` can run it against any server.
 * @throws StrataError CONFIG_INVALID for a URL that does not parse or a refused login;
 *   BACKEND_UNAVAILABLE when the server cannot be reached within a few seconds.
 */
export async function inspectPostgresStore(url: string): Promise<PostgresStoreReport> {
  const { connection, schema, where } = placeOf(url);
  const client = new pg.Client({ connectionString: connection, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => {});
  try {
    await client.connect();
    const one = async <R>(sql: string, params: unknown[] = []): Promise<R> => (await client.query(sql, params)).rows[0] as R;
    const server = await one<{ server_version: string }>('SHOW server_version');
    const hasSchema = (await one<{ exists: boolean }>('SELECT to_regclass($1) IS NOT NULL AS exists', [`${schema}.schema_migrations`])).exists;
    const version = hasSchema ? ((await one<{ version: number | null }>(`SELECT max(version) AS version FROM ${schema}.schema_migrations`)).version ?? 0) : 0;
    const estimate = async (table: string): Promise<number> =>
      hasSchema ? Number((await one<{ rows: number | null }>('SELECT reltuples AS rows FROM pg_class WHERE oid = to_regclass($1)', [`${schema}.${table}`]))?.rows ?? -1) : 0;
    const limits = await one<{ used: string; max: string; reserved: string }>(
      "SELECT (SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend') AS used, current_setting('max_connections') AS max, current_setting('superuser_reserved_connections') AS reserved",
    );
    return {
      where,
      serverVersion: server.server_version,
      schema,
      schemaVersion: version,
      currentSchemaVersion: SCHEMA_VERSION,
      estimatedSessions: await estimate('sessions'),
      estimatedMessages: await estimate('messages'),
      connections: { used: Number(limits.used), max: Number(limits.max) - Number(limits.reserved) },
    };
  } catch (error) {
    throw toStrataError(error, where);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The driver's connection string, strata's schema (checked, as a store checks it) and a printable name of a store URL. */
function placeOf(url: string): { connection: string; schema: string; where: string } {
  const parsed = parseStoreUrl(url);
  const schema = schemaNameOf(parsed.schema);
  const { host, pathname } = new URL(parsed.connection);
  return { connection: parsed.connection, schema, where: `PostgreSQL ${host}${pathname} (schema ${schema})` };
}

import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { StrataError } from '@strata/core';
import { toStrataError } from './to-strata-error.js';

/** Where the store's tables live and how many connections it may hold. */
export interface PostgresConnectionOptions {
  /** `postgres://user[:password]@host[:port]/database`. */
  url: string;
  /**
   * The PostgreSQL schema that holds strata's tables (created on first open). Several
   * memories can share one database under different schemas.
   * @defaultValue 'strata'
   */
  schema?: string;
  /** Connections held at most by this store (each app process has its own pool). @defaultValue 10 */
  poolSize?: number;
  /**
   * How long a call waits for a free connection when all are busy before it fails with
   * BACKEND_UNAVAILABLE (never waits forever). @defaultValue 5000
   */
  poolTimeoutMs?: number;
  /** What the server shows for this store's connections (`pg_stat_activity.application_name`). @defaultValue 'strata' */
  applicationName?: string;
}

/** One connection inside a transaction, or the pool outside one. */
export interface Queryable {
  /**
   * Runs one statement. With `name`, the statement is prepared once per connection under that
   * name and its plan reused (a hot statement's planning can cost more than running it); a
   * name must always go with the same SQL.
   */
  query<R>(sql: string, params?: readonly unknown[], name?: string): Promise<R[]>;
}

/** One connection inside a transaction: statements, and COPY streams of rows. */
export interface Transaction extends Queryable {
  /**
   * Writes rows into `table` with `COPY ... FROM STDIN`: one stream of rows, where an INSERT of
   * unnested arrays sends every value as a parameter and has the server unnest them again (an
   * import's 100,000 postings went in 1.5x faster). `values` holds one array per column, all
   * of one length, in the order of `columns`; a null or undefined value is SQL NULL. `table`
   * and `columns` are SQL names written by strata, never input.
   */
  copy(table: string, columns: readonly string[], values: readonly (readonly unknown[])[]): Promise<void>;
}

/** COPY's text format: these characters of a value are written as backslash escapes. */
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
/** Rows per chunk of a COPY stream. */
const COPY_CHUNK_ROWS = 512;

function copyField(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value === 'string') return value.replace(/[\\\t\n\r]/g, (ch) => COPY_ESCAPES[ch] as string);
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? 't' : 'f';
  throw new StrataError('INTERNAL', `a ${typeof value} cannot be written by COPY`, { hint: 'Pass strings, numbers, booleans or null.' });
}

/** The rows of column arrays as COPY text lines, a chunk at a time. */
function* copyLines(values: readonly (readonly unknown[])[], rows: number): Generator<string> {
  for (let start = 0; start < rows; start += COPY_CHUNK_ROWS) {
    let chunk = '';
    for (let row = start; row < Math.min(rows, start + COPY_CHUNK_ROWS); row++) {
      chunk += values.map((column) => copyField(column[row])).join('\t');
      chunk += '\n';
    }
    yield chunk;
  }
}

async function copyInto(client: pg.ClientBase, table: string, columns: readonly string[], values: readonly (readonly unknown[])[]): Promise<void> {
  const rows = values[0]?.length ?? 0;
  if (rows === 0) return;
  await pipeline(Readable.from(copyLines(values, rows)), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
}

/** The schema names strata accepts (they are written into SQL, so nothing else gets through). */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * The schema name (default "strata"), checked as every entry point checks it.
 * @throws StrataError CONFIG_INVALID for a name strata does not accept.
 */
export function schemaNameOf(schema: string | undefined): string {
  const name = schema ?? 'strata';
  if (SCHEMA_NAME.test(name)) return name;
  throw new StrataError('CONFIG_INVALID', `PostgreSQL schema name "${name}" is not allowed.`, {
    hint: 'Use lowercase letters, digits and underscores, starting with a letter or underscore, at most 63 characters (e.g. "strata" or "strata_tenant_1").',
  });
}

/** BIGINT (int8) columns hold epoch milliseconds and counts: numbers, not the driver's strings. */
const INT8_OID = 20;
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format))) as typeof pg.types.getTypeParser,
};

/**
 * A pool of connections to one database, every connection on strata's schema, and the one
 * place where driver errors leave the store (as StrataErrors). Transactions run on one
 * connection and roll back on any throw.
 */
export class Database implements Queryable {
  readonly schema: string;
  /** The server and schema, for messages (no password). */
  readonly where: string;
  private readonly pool: pg.Pool;
  private readonly poolSize: number;
  private readonly poolTimeoutMs: number;

  constructor(options: PostgresConnectionOptions) {
    this.schema = schemaNameOf(options.schema);
    const url = parseUrl(options.url);
    this.where = `PostgreSQL ${url.host}${url.pathname} (schema ${this.schema})`;
    this.poolSize = positive('poolSize', options.poolSize ?? 10);
    this.poolTimeoutMs = positive('poolTimeoutMs', options.poolTimeoutMs ?? 5000);
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: this.poolSize,
      connectionTimeoutMillis: this.poolTimeoutMs,
      // every connection resolves strata's tables in its schema
      options: `-c search_path=${this.schema}`,
      application_name: options.applicationName ?? 'strata',
      types: TYPES,
    });
    // an idle connection the server dropped (restart) is replaced on next use; do not crash the app
    this.pool.on('error', () => {});
  }

  async query<R>(sql: string, params: readonly unknown[] = [], name?: string): Promise<R[]> {
    try {
      const values = params as unknown[];
      return (await (name === undefined ? this.pool.query(sql, values) : this.pool.query({ name, text: sql, values }))).rows as R[];
    } catch (error) {
      throw this.toError(error);
    }
  }

  /** Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws. */
  async transaction<T>(body: (tx: Transaction) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw this.toError(error);
    }
    const tx: Transaction = {
      query: async <R>(sql: string, params: readonly unknown[] = [], name?: string) =>
        (await (name === undefined ? client.query(sql, params as unknown[]) : client.query({ name, text: sql, values: params as unknown[] }))).rows as R[],
      copy: (table, columns, values) => copyInto(client, table, columns, values),
    };
    let isBroken = false;
    // a connection the server drops mid-transaction (a restart) also emits 'error' on the client:
    // without a listener that would end the process; the pending query rejects on its own
    const onLost = (): void => {
      isBroken = true;
    };
    client.on('error', onLost);
    try {
      await client.query('BEGIN');
      const result = await body(tx);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
      } catch {
        // the connection is gone; the server rolls back what it held
        isBroken = true;
      }
      throw this.toError(error);
    } finally {
      client.off('error', onLost);
      client.release(isBroken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private toError(error: unknown): StrataError {
    if (error instanceof Error && /timeout exceeded when trying to connect/i.test(error.message) && this.pool.totalCount >= this.poolSize) {
      return new StrataError('BACKEND_UNAVAILABLE', `${this.where}: all ${this.poolSize} connections of the pool stayed busy for ${this.poolTimeoutMs} ms`, {
        hint: "Raise poolSize (and the server's max_connections to match), or poolTimeoutMs; calls that hold connections long (big imports) can starve the others.",
        cause: error,
        retryable: true,
      });
    }
    return toStrataError(error, this.where);
  }
}

function parseUrl(url: string): URL {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed === undefined || (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')) {
    // the URL itself is not repeated: it may hold a password
    throw new StrataError('CONFIG_INVALID', `url is not a PostgreSQL URL (it starts "${url.slice(0, url.indexOf(':') + 1 || 12)}").`, {
      hint: 'Pass url as postgres://user[:password]@host[:port]/database, e.g. postgres://postgres@127.0.0.1:5432/postgres.',
    });
  }
  return parsed;
}

function positive(name: string, value: number): number {
  if (Number.isSafeInteger(value) && value > 0) return value;
  throw new StrataError('CONFIG_INVALID', `${name} must be a positive whole number (got ${String(value)}).`, { hint: `Pass ${name} as an integer above 0, or leave it out for the default.` });
}

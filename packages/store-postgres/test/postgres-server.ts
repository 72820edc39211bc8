import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { requireService } from '@strata/testkit';
import { createPostgresSessionStore, type PostgresSessionStore } from '../src/index.js';

/** The server the integration tests use (scripts/services.sh up starts or reuses it). */
export const POSTGRES_URL = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** Null when PostgreSQL answers; else why the suites are skipped (they fail under STRATA_REQUIRE_SERVICES=1). */
export function postgresUnavailable(): Promise<string | null> {
  return requireService('PostgreSQL', async () => {
    const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
    } finally {
      await client.end().catch(() => {});
    }
  });
}

/** A schema name no other test (or test run) uses. */
export function uniqueSchema(): string {
  return `strata_test_${randomBytes(6).toString('hex')}`;
}

/** Drops test schemas with everything in them. */
export async function dropSchemas(schemas: readonly string[]): Promise<void> {
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

/**
 * Contract-suite options: each test gets a store on its own new schema, dropped after it.
 */
export function schemaStores(): { create: () => Promise<PostgresSessionStore>; destroy: (store: PostgresSessionStore) => Promise<void> } {
  const schemas = new Map<PostgresSessionStore, string>();
  return {
    create: async () => {
      const schema = uniqueSchema();
      const store = await createPostgresSessionStore({ url: POSTGRES_URL, schema, poolSize: 4 });
      schemas.set(store, schema);
      return store;
    },
    destroy: async (store) => {
      const schema = schemas.get(store);
      schemas.delete(store);
      if (schema !== undefined) await dropSchemas([schema]);
    },
  };
}

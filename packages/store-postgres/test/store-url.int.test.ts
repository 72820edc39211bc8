import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createMemory, StrataError, type StoreUrlOpener } from '@strata/core';
import { openStoreUrl } from '../src/index.js';
import { dropSchemas, POSTGRES_URL, postgresUnavailable, uniqueSchema } from './postgres-server.js';

const unavailable = await postgresUnavailable();

// what core's createMemory loads by the schemes postgres: and postgresql:
({ openStoreUrl }) satisfies StoreUrlOpener;

/** The server's URL with `schema` (and any other parameters) added. */
function urlWith(params: Record<string, string>, base = POSTGRES_URL): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

describe.skipIf(unavailable !== null)(`createMemory({ store: "postgres://..." }) (${unavailable ?? POSTGRES_URL})`, () => {
  it('opens the schema named in the URL, shared by a second memory at once', async () => {
    const schema = uniqueSchema();
    const url = urlWith({ schema });
    try {
      const app = await createMemory({ store: url });
      // postgresql:// is the same server and schema
      const other = await createMemory({ store: url.replace(/^postgres:/, 'postgresql:') });
      try {
        const session = await app.sessions.create({ namespace: 'u1' });
        await app.append(session.id, { role: 'user', content: 'I started a pottery class on Tuesdays.' });
        const { messages } = await other.getContext(session.id, { budgetTokens: 500 });
        expect(messages.map((m) => m.content)).toEqual(['I started a pottery class on Tuesdays.']);
      } finally {
        await app.close();
        await other.close();
      }
      // the rows are in that schema's tables, not in the default schema's
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${schema}.messages`);
        expect(rows[0]?.n).toBe('1');
      } finally {
        await client.end();
      }
    } finally {
      await dropSchemas([schema]);
    }
  });

  it('refuses a bad schema name in the URL with CONFIG_INVALID', async () => {
    const error = await createMemory({ store: urlWith({ schema: 'Bad-Name' }) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrataError);
    expect((error as StrataError).code).toBe('CONFIG_INVALID');
  });

  it('gives BACKEND_UNAVAILABLE for a server that does not answer, without echoing the password', async () => {
    const error = await createMemory({ store: 'postgres://strata:hunter2@127.0.0.1:1/postgres?schema=strata_test_none' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrataError);
    expect((error as StrataError).code).toBe('BACKEND_UNAVAILABLE');
    expect(`${(error as StrataError).message} ${(error as StrataError).hint}`).not.toContain('hunter2');
  });
});

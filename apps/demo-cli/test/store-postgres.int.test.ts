import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresSessionStore } from '@strata/store-postgres';
import { requireService } from '@strata/testkit';
import { createSandbox, runCli } from './support/cli.js';

const postgresUrl = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const chromaUrl = process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';
const schema = `strata_cli_${randomBytes(5).toString('hex')}`;
const storeUrl = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}schema=${schema}`;

const skipReason =
  (await requireService('PostgreSQL', async () => {
    const store = await createPostgresSessionStore({ url: postgresUrl, schema, poolTimeoutMs: 3000 });
    await store.close();
  })) ??
  (await requireService('Chroma', async () => {
    const response = await fetch(`${chromaUrl}/api/v2/heartbeat`);
    if (!response.ok) throw new Error(`heartbeat answered ${response.status}`);
  }));
const sandbox = createSandbox('postgres');
afterAll(async () => {
  sandbox.dispose();
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.end();
});

describe.skipIf(skipReason !== null)(`strata --store postgres://...${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  const env = (): NodeJS.ProcessEnv => ({ ...sandbox.env, STRATA_STORE: storeUrl, STRATA_CHROMA_URL: chromaUrl, STRATA_NAMESPACE: `pg-${schema}` });

  it('keeps a chat on PostgreSQL: a second process finds the fact, lists the session, and no SQLite file is made', async () => {
    const first = await runCli(['chat'], { env: env(), input: 'I live in Tromsø.\n' });
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(['chat', '--continue'], { env: env(), input: 'Where do I live?\n' });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/User lives in Tromsø/);
    const listed = await runCli(['sessions'], { env: env() });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/ses_/);
    expect(existsSync(join(sandbox.dataDir, 'memory.sqlite'))).toBe(false);
    const store = await createPostgresSessionStore({ url: postgresUrl, schema });
    try {
      const turns = await store.messages({ namespace: `pg-${schema}` });
      expect(turns.map((m) => m.content)).toContain('I live in Tromsø.');
    } finally {
      await store.close();
    }
  }, 120_000);

  it('refuses a PostgreSQL store without Chroma, saying how to fix it, and shows the store in `strata config` without its password', async () => {
    const { STRATA_CHROMA_URL: _chroma, ...withoutChroma } = env();
    const refused = await runCli(['search', 'anything'], { env: withoutChroma });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/keeps sessions on PostgreSQL, but the knowledge base has no shared home/);
    expect(refused.stderr).toMatch(/hint: Add --chroma-url/);
    const shown = await runCli(['--store', 'postgres://app:s3cret@127.0.0.1:5432/postgres', 'config'], { env: sandbox.env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/store/);
    expect(shown.stdout).not.toContain('s3cret');
    const bad = await runCli(['--store', 'mysql://127.0.0.1/x', 'sessions'], { env: sandbox.env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--store: must be a PostgreSQL URL/);
  }, 60_000);

  it('strata doctor checks the PostgreSQL store: schema not created yet, then its version and size, a newer schema, a server that does not answer, a refused database; the password never shown', async () => {
    interface Check {
      check: string;
      status: string;
      detail: string;
      hint?: string;
    }
    const doctor = async (store: string): Promise<{ code: number | null; checks: Record<string, Check>; stdout: string }> => {
      const result = await runCli(['--store', store, 'doctor', '--json'], { env: sandbox.env });
      const report = JSON.parse(result.stdout) as { checks: Check[] };
      return { code: result.code, checks: Object.fromEntries(report.checks.map((c) => [c.check, c])), stdout: result.stdout };
    };
    const fresh = `${schema}_doctor`;
    const freshUrl = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}schema=${fresh}`;
    const none = await doctor(freshUrl);
    // sessions on PostgreSQL need Chroma for the knowledge base: the one fail here
    expect(none.code).toBe(1);
    expect(none.checks.chroma).toMatchObject({ status: 'fail', hint: expect.stringMatching(/--chroma-url/) });
    expect(none.checks['postgres store']).toMatchObject({ status: 'ok', detail: expect.stringMatching(/schema not created yet .* connections in use/) });
    expect(none.checks['sqlite file']?.status).toBe('skip');
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      // doctor reads only: the schema it looked at is still not there
      expect((await client.query('SELECT to_regnamespace($1) AS oid', [fresh])).rows[0]?.oid).toBeNull();
      const used = await doctor(storeUrl);
      expect(used.checks['postgres store']).toMatchObject({ status: 'ok', detail: expect.stringMatching(new RegExp(`schema ${schema}.*schema version \\d+, about \\d+ sessions and \\d+ messages`)) });
      await client.query(`INSERT INTO ${schema}.schema_migrations (version, description, applied_at) VALUES (999, 'from a newer strata', 0)`);
      const newer = await doctor(storeUrl);
      expect(newer.code).toBe(1);
      expect(newer.checks['postgres store']).toMatchObject({ status: 'fail', detail: expect.stringMatching(/schema version 999 is newer/), hint: expect.stringMatching(/upgrade strata/) });
      await client.query(`DELETE FROM ${schema}.schema_migrations WHERE version = 999`);
    } finally {
      await client.end();
    }
    const down = await doctor('postgres://postgres:s3cret@127.0.0.1:1/postgres');
    expect(down.code).toBe(1);
    expect(down.checks['postgres store']).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(/127\.0\.0\.1:1\/postgres .*cannot be reached/),
      hint: expect.stringMatching(/Start PostgreSQL/),
    });
    expect(down.stdout).not.toContain('s3cret');
    const target = new URL(postgresUrl);
    target.pathname = `/no_such_db_${schema}`;
    const refused = await doctor(target.toString());
    expect(refused.checks['postgres store']).toMatchObject({ status: 'fail', hint: expect.stringMatching(/user, password and database/) });
  }, 60_000);

  it('exits 2 (backend unavailable) when the server does not answer', async () => {
    const down = await runCli(['--store', 'postgres://postgres@127.0.0.1:1/postgres', '--chroma-url', chromaUrl, 'sessions'], { env: sandbox.env });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/PostgreSQL 127\.0\.0\.1:1\/postgres \(schema strata\) cannot be reached/);
  }, 60_000);
});

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

  it('exits 2 (backend unavailable) when the server does not answer', async () => {
    const down = await runCli(['--store', 'postgres://postgres@127.0.0.1:1/postgres', '--chroma-url', chromaUrl, 'sessions'], { env: sandbox.env });
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/PostgreSQL 127\.0\.0\.1:1\/postgres \(schema strata\) cannot be reached/);
  }, 60_000);
});

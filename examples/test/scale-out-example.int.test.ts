import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createPostgresSessionStore } from '@strata/store-postgres';
import { requireService } from '@strata/testkit';
import { deleteRedisKeys } from '@strata/testkit/redis';
import { topologyFromEnv } from '../scale-out/topology.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const name = `strata_example_${randomBytes(5).toString('hex')}`;
const topology = topologyFromEnv(name);
const unavailable =
  (await requireService('PostgreSQL', async () => (await createPostgresSessionStore({ url: topology.postgresUrl, schema: name, poolTimeoutMs: 3000 })).close())) ??
  (await requireService('Chroma', async () => {
    const response = await fetch(`${topology.chromaUrl}/api/v2/heartbeat`);
    if (!response.ok) throw new Error(`heartbeat answered ${response.status}`);
  }));

afterAll(async () => {
  await deleteRedisKeys(topology.redisUrl, topology.redisPrefix);
  const client = new pg.Client({ connectionString: topology.postgresUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  await client.end();
});

describe.skipIf(unavailable !== null)(`examples/scale-out/run.ts${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  it('holds one conversation across two app processes while two workers derive it', async () => {
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@strata/source', 'examples/scale-out/run.ts'], { cwd: repoRoot, env: { ...process.env, STRATA_SCALE_OUT_NAME: name } });
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('error', reject);
      child.on('close', (exit) => resolve({ code: exit, stdout: out, stderr: err }));
    });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/app A appended seq 1 \(user\): I moved to Trondheim/);
    expect(stdout).toMatch(/app B appended seq 2 \(assistant\)/);
    expect(stdout).toMatch(/app A appended seq 3 \(user\)/);
    // app B's context holds what app A said, and facts the worker processes derived from it
    const context = stdout.slice(stdout.indexOf("app B's context"));
    expect(context).toMatch(/\(([1-9]\d*) facts, derived by the workers/);
    expect(context).toMatch(/harbour/);
    expect(context).toMatch(/Ingrid/);
    expect(stdout).toMatch(/forgot namespace scale-out-example/);
  }, 180_000);
});

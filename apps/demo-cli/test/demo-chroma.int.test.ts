import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { requireService } from '@strata/testkit';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));
const chromaUrl = process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';
const skipReason = await requireService('Chroma', async () => {
  const response = await fetch(`${chromaUrl}/api/v2/heartbeat`);
  if (!response.ok) throw new Error(`heartbeat answered ${response.status}`);
});
const dataDir = mkdtempSync(join(tmpdir(), 'strata-demo-chroma-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe.skipIf(skipReason !== null)(`strata demo with STRATA_CHROMA_URL${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('keeps the knowledge base on Chroma and still answers from memory', async () => {
    const { stdout } = await run(tsx, ['--conditions=@strata/source', 'apps/demo-cli/src/bin.ts', 'demo'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', STRATA_DATA_DIR: dataDir, STRATA_CHROMA_URL: chromaUrl },
      timeout: 60_000,
    });
    expect(stdout).toContain(`+ Chroma at ${chromaUrl} (knowledge base)`);
    expect(stdout).toMatch(/Known facts:[\s\S]*User lives in Porto/);
    expect(stdout).toMatch(/coastal trail in Sintra/);
  }, 90_000);
});

describe('strata with an unreachable Chroma', () => {
  it('exits 2 (backend unavailable) naming the URL, with a hint', async () => {
    const error = await run(tsx, ['--conditions=@strata/source', 'apps/demo-cli/src/bin.ts', '--chroma-url', 'http://127.0.0.1:1', 'demo'], {
      cwd: root,
      env: { ...process.env, STRATA_DATA_DIR: dataDir },
    }).then(() => null, (e: { code: number; stderr: string }) => e);
    expect(error?.code).toBe(2);
    expect(error?.stderr).toMatch(/Chroma at http:\/\/127\.0\.0\.1:1 is unreachable/);
    expect(error?.stderr).toMatch(/hint: Start Chroma/);
  }, 60_000);
});

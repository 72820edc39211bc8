import { afterAll, describe, expect, it } from 'vitest';
import { requireService } from '@strata/testkit';
import { createSandbox, readDb, runCli } from './support/cli.js';

const chromaUrl = process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';
const skipReason = await requireService('Chroma', async () => {
  const response = await fetch(`${chromaUrl}/api/v2/heartbeat`);
  if (!response.ok) throw new Error(`heartbeat answered ${response.status}`);
});
const sandbox = createSandbox('chroma');
afterAll(() => sandbox.dispose());

describe.skipIf(skipReason !== null)(`strata demo with STRATA_CHROMA_URL${skipReason ? ` (skipped: ${skipReason})` : ''}`, () => {
  it('keeps the knowledge base on Chroma and still answers from memory', async () => {
    const { code, stdout } = await runCli(['demo'], { env: { ...sandbox.env, STRATA_CHROMA_URL: chromaUrl } });
    expect(code).toBe(0);
    expect(stdout).toContain(`+ Chroma at ${chromaUrl} (knowledge base)`);
    expect(stdout).toMatch(/Known facts:[\s\S]*Maya lives in Porto/);
    expect(stdout).toMatch(/coastal trail in Sintra/);
  }, 90_000);

  it("keeps a chat's knowledge base on Chroma: a second process still finds the fact", async () => {
    const env = { ...sandbox.env, STRATA_CHROMA_URL: chromaUrl, STRATA_NAMESPACE: `chroma-${Date.now()}` };
    expect((await runCli(['chat'], { env, input: 'I live in Trondheim.\n' })).code).toBe(0);
    const second = await runCli(['chat', '--continue'], { env, input: 'Where do I live?\n' });
    expect(second.stdout).toMatch(/User lives in Trondheim/);
    readDb(sandbox.dataDir, (db) => expect(db.prepare("SELECT COUNT(*) FROM facts WHERE object = 'Trondheim'").pluck().get()).toBe(1));
  }, 90_000);

  it("says when switching to Chroma leaves the file's facts unindexed there, until reindex", async () => {
    const env = { ...sandbox.env, STRATA_NAMESPACE: `switch-${Date.now()}` };
    expect((await runCli(['chat'], { env, input: 'I live in Bodø.\n' })).code).toBe(0);
    const switched = await runCli(['--chroma-url', chromaUrl, 'search', 'Bodø'], { env });
    expect(switched.code).toBe(0);
    expect(switched.stderr).toMatch(
      new RegExp(
        `note: the knowledge base on Chroma at ${chromaUrl.replace(/[.:/]/g, '\\$&')} holds none of the 1 current fact of namespace "switch-\\d+" in this file: search and contexts miss them\\. Index them with: strata --chroma-url \\S+ reindex`,
      ),
    );
    expect((await runCli(['--chroma-url', chromaUrl, 'reindex'], { env })).code).toBe(0);
    const indexed = await runCli(['--chroma-url', chromaUrl, 'search', 'Bodø', '--kind', 'fact'], { env });
    expect(indexed.stderr).not.toMatch(/holds none/);
    expect(indexed.stdout).toMatch(/User lives in Bodø/);
  }, 90_000);
});

describe('strata with an unreachable Chroma', () => {
  it('exits 2 (backend unavailable) naming the URL, with a hint', async () => {
    for (const args of [
      ['--chroma-url', 'http://127.0.0.1:1', 'demo'],
      ['--chroma-url', 'http://127.0.0.1:1', 'search', 'anything'],
    ]) {
      const { code, stderr } = await runCli(args, { env: sandbox.env });
      expect(code).toBe(2);
      expect(stderr).toMatch(/Chroma at http:\/\/127\.0\.0\.1:1 is unreachable/);
      expect(stderr).toMatch(/hint: Start Chroma/);
    }
  }, 60_000);

  it('still lists sessions: the listing reads the SQLite file only', async () => {
    const { code, stdout, stderr } = await runCli(['--chroma-url', 'http://127.0.0.1:1', 'sessions'], { env: sandbox.env });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/No sessions yet|namespace/);
  });
});

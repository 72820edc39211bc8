import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

const dataDir = mkdtempSync(join(tmpdir(), 'strata-demo-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('strata demo (spawned as a user runs it)', () => {
  it('shows tiers filling, promotion, a superseded fact and a query-aware context with its manifest', async () => {
    const { stdout, stderr } = await run(tsx, ['--conditions=@strata/source', 'apps/demo-cli/src/bin.ts', 'demo'], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', STRATA_DATA_DIR: dataDir },
      timeout: 60_000,
    });
    expect(stderr).toBe('');
    // tiers fill and the immediate tier stays bounded once promotion starts
    expect(stdout).toMatch(/after {2}4 turns: immediate 4 verbatim \| working 0 summaries/);
    expect(stdout).toMatch(/after 16 turns: immediate \d verbatim \| working \d summaries \+ synopsis \| long-term \d+ facts \| watermark seq 1[0-9]/);
    // one fact superseded, the new one current
    expect(stdout).toMatch(/superseded\s+user · lives_in\s+Lisbon\s+2026-10-05\s+2026-10-26/);
    expect(stdout).toMatch(/current\s+user · lives_in\s+Porto/);
    // the context answers the question from memory and respects the budget
    const [, budget, used] = /budget (\d+) tokens, used (\d+)/.exec(stdout)!.map(Number) as [number, number, number];
    expect(used).toBeLessThanOrEqual(budget);
    expect(stdout).toMatch(/Known facts:[\s\S]*User lives in Porto/);
    expect(stdout).toMatch(/coastal trail in Sintra/);
    expect(stdout).toMatch(/Manifest[\s\S]*in\s+immediate\s+turn/);
    const file = join(dataDir, 'demo.sqlite');
    expect(stdout).toContain(`Where the data lives: ${file}`);

    // the database holds what the demo printed
    expect(existsSync(file)).toBe(true);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) FROM messages').pluck().get()).toBe(21);
      const livesIn = db.prepare("SELECT object, valid_to IS NULL AS current FROM facts WHERE predicate = 'lives_in' ORDER BY valid_from").all();
      expect(livesIn).toEqual([{ object: 'Lisbon', current: 0 }, { object: 'Porto', current: 1 }]);
      expect(db.prepare("SELECT COUNT(*) FROM summaries WHERE level = 'synopsis'").pluck().get()).toBe(1);
    } finally {
      db.close();
    }
  }, 90_000);

  it('starts afresh on every run (the demo file is recreated)', async () => {
    await run(tsx, ['--conditions=@strata/source', 'apps/demo-cli/src/bin.ts', 'demo'], { cwd: root, env: { ...process.env, STRATA_DATA_DIR: dataDir } });
    const db = new Database(join(dataDir, 'demo.sqlite'), { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(2);
    } finally {
      db.close();
    }
  }, 90_000);

  it('exits 1 with usage on an unknown command', async () => {
    const error = await run(tsx, ['--conditions=@strata/source', 'apps/demo-cli/src/bin.ts', 'nope'], { cwd: root }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(error?.code).toBe(1);
    expect(error?.stderr).toMatch(/unknown command 'nope'/);
  }, 60_000);
});

import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, json, readDb, runCli } from './support/cli.js';

const sandbox = createSandbox('demo');
afterAll(() => sandbox.dispose());

describe('strata demo (the built CLI, spawned as a user runs it)', () => {
  it('shows tiers filling, promotion, a superseded fact and a query-aware context with its manifest', async () => {
    const { code, stdout, stderr } = await runCli(['demo'], { env: sandbox.env });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // tiers fill and the immediate tier stays bounded once promotion starts
    expect(stdout).toMatch(/after {2}4 turns: immediate 4 verbatim \| working 0 summaries/);
    expect(stdout).toMatch(/after 16 turns: immediate \d verbatim \| working \d summar(y|ies) \+ synopsis \| long-term \d+ facts \| watermark seq 1[0-9]/);
    // promotion and consolidation are named as they land
    expect(stdout).toMatch(/after {2}8 turns: .*\n {6}promoted turns 1-4 into a working-tier summary/);
    expect(stdout).toMatch(/consolidated turns 1-\d+ into the rolling synopsis/);
    expect(stdout).toMatch(/new facts: Maya lives in Porto \(supersedes Lisbon\)/);
    // one fact superseded, the new one current
    expect(stdout).toMatch(/superseded\s+user · lives_in\s+Lisbon\s+2026-10-05\s+2026-10-26/);
    expect(stdout).toMatch(/current\s+user · lives_in\s+Porto/);
    // the context answers the question from memory and respects the budget
    const [, budget, used] = /budget (\d+) tokens, used (\d+)/.exec(stdout)!.map(Number) as [number, number, number];
    expect(used).toBeLessThanOrEqual(budget);
    expect(stdout).toMatch(/Known facts:[\s\S]*Maya lives in Porto/);
    expect(stdout).toMatch(/coastal trail in Sintra/);
    expect(stdout).toMatch(/Manifest[\s\S]*in\s+immediate\s+turn/);
    const file = join(sandbox.dataDir, 'demo.sqlite');
    expect(stdout).toContain(`Where the data lives: ${file}`);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checks that no ESC-led ANSI sequence reaches piped output
    expect(stdout).not.toMatch(/\u001b\[/); // no colour when piped (NO_COLOR is not set here)

    // the database holds what the demo printed
    expect(existsSync(file)).toBe(true);
    // the data directory and the database are private to the user
    expect((statSync(sandbox.dataDir).mode & 0o777).toString(8)).toBe('700');
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    readDb(
      sandbox.dataDir,
      (db) => {
        expect(db.prepare('SELECT COUNT(*) FROM messages').pluck().get()).toBe(21);
        const livesIn = db.prepare("SELECT object, valid_to IS NULL AS current FROM facts WHERE predicate = 'lives_in' ORDER BY valid_from").all();
        expect(livesIn).toEqual([
          { object: 'Lisbon', current: 0 },
          { object: 'Porto', current: 1 },
        ]);
        expect(db.prepare("SELECT COUNT(*) FROM summaries WHERE level = 'synopsis'").pluck().get()).toBe(1);
      },
      'demo.sqlite',
    );
  });

  it('starts afresh on every run (the demo file is recreated) and leaves the user memory alone', async () => {
    expect((await runCli(['demo'], { env: sandbox.env })).code).toBe(0);
    readDb(sandbox.dataDir, (db) => expect(db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(2), 'demo.sqlite');
    expect(existsSync(join(sandbox.dataDir, 'memory.sqlite'))).toBe(false);
  });

  it('its file opens with --db in every other command, and it says so; the demo itself takes no --db', async () => {
    const file = join(sandbox.dataDir, 'demo.sqlite');
    const { stdout } = await runCli(['demo'], { env: sandbox.env });
    expect(stdout).toContain(`strata --db ${file} sessions`);
    const listed = json<{ sessions: { title: string; messages: number }[] }>(await runCli(['--db', file, 'sessions', '--json'], { env: sandbox.env }));
    expect(listed.sessions.map((s) => [s.title, s.messages])).toEqual([
      ['Three weeks later', 5],
      ['First chat', 16],
    ]);
    const search = await runCli(['--db', file, '-n', 'maya', 'search', 'Porto'], { env: sandbox.env });
    expect(search.code).toBe(0);
    expect(search.stdout).toMatch(/Porto/);
    const refused = await runCli(['--db', file, 'demo'], { env: sandbox.env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^error: the demo writes its own file[^\n]*\nhint: Drop --db/);
  });

  it('stays offline even when an LLM and Redis are configured', async () => {
    const env = { ...sandbox.env, STRATA_LLM_BASE_URL: 'http://127.0.0.1:1/v1', STRATA_LLM_MODEL: 'none', STRATA_REDIS_URL: 'redis://127.0.0.1:1' };
    const { code, stdout } = await runCli(['demo'], { env });
    expect(code).toBe(0);
    expect(stdout).toMatch(/current\s+user · lives_in\s+Porto/);
  });

  it('exits 1 with usage on an unknown command', async () => {
    const { code, stderr } = await runCli(['nope'], { env: sandbox.env });
    expect(code).toBe(1);
    expect(stderr).toMatch(/unknown command 'nope'/);
  });
});

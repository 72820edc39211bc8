import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import { createSandbox, json, runCli } from './support/cli.js';

const sandbox = createSandbox('sessions');
afterAll(() => sandbox.dispose());
const env = sandbox.env;

interface SessionRow {
  id: string;
  title?: string;
  messages: number;
}
interface SessionList {
  sessions: SessionRow[];
  total: number;
  more: number;
}
const list = async (...args: string[]): Promise<SessionList> => json<SessionList>(await runCli(['sessions', ...args, '--json'], { env }));
/** The JSON error a command wrote on stderr under --json. */
const jsonError = (stderr: string): { code: string; message: string; hint: string; stack?: string } =>
  (JSON.parse(stderr) as { error: { code: string; message: string; hint: string; stack?: string } }).error;

/** A session stored without messages, as older versions of strata left them. */
async function storeEmptySession(title: string): Promise<string> {
  const path = join(sandbox.dataDir, 'memory.sqlite');
  const memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
  try {
    return (await memory.sessions.create({ namespace: 'default', title })).id;
  } finally {
    await memory.close();
  }
}

describe('sessions: no empty ones, --continue, paging, prune --empty', () => {
  it('a chat opened and quit stores nothing; /clear and /forget leave no empty session behind', async () => {
    const quit = await runCli(['chat'], { env, input: '/exit\n' });
    expect(quit.code).toBe(0);
    expect(quit.stdout).toMatch(/new session ses_\w+ .*\(stored with its first message\)/);
    expect(quit.stdout).toMatch(/nothing was stored: no message was sent/);
    expect((await list()).total).toBe(0);
    const chat = await runCli(['chat'], { env, input: 'I keep bees on the roof.\n/clear yes\n/forget\n/history\n/exit\n' });
    expect(chat.code).toBe(0);
    expect(chat.stdout).toMatch(/nothing to forget: this session is stored with its first message/);
    const after = await list();
    expect(after.sessions.map((s) => s.messages)).toEqual([1]);
  });

  it('--continue picks the latest session that holds messages, not a newer empty one', async () => {
    const [withMessages] = (await list()).sessions;
    const emptyId = await storeEmptySession('left empty');
    expect((await list()).sessions[0]?.title).toBe('left empty'); // the newest
    // a session without messages reads as one, without a stack trace
    for (const args of [
      ['inspect', emptyId],
      ['export', emptyId, '--format', 'md'],
      ['show', emptyId],
      ['show', emptyId, '--mermaid'],
    ]) {
      const read = await runCli(args, { env });
      expect(read.code, args.join(' ')).toBe(0);
      expect(read.stderr, args.join(' ')).not.toMatch(/\n\s+at /);
    }
    const resumed = await runCli(['chat', '--continue'], { env, input: 'Where are the bees?\n' });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain(`continuing ${withMessages!.id}`);
  });

  it('sessions prune --empty asks first, lists with --dry-run, and forgets only the empty ones with --yes', async () => {
    const unasked = await runCli(['sessions', 'prune', '--empty'], { env });
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toMatch(/needs confirmation, and stdin is not a terminal\nhint: Add --yes/);
    const dry = json<{ dryRun: boolean; sessions: string[] }>(await runCli(['sessions', 'prune', '--empty', '--dry-run', '--json'], { env }));
    expect(dry.sessions).toHaveLength(1);
    expect((await list()).total).toBe(2);
    const pruned = await runCli(['sessions', 'prune', '--empty', '--yes'], { env });
    expect(pruned.stdout).toContain(`forgot 1 empty session: ${dry.sessions[0]}`);
    expect((await list()).sessions.map((s) => s.messages)).toEqual([2]);
  });

  it('sessions list pages and says how many more there are', async () => {
    for (const text of ['First.', 'Second.']) expect((await runCli(['chat'], { env, input: `${text}\n` })).code).toBe(0);
    const page = await list('--limit', '2');
    expect([page.sessions.length, page.total, page.more]).toEqual([2, 3, 1]);
    expect((await list('--all')).sessions).toHaveLength(3);
    const table = await runCli(['sessions', 'list', '--limit', '2'], { env });
    expect(table.stdout).toMatch(/1 more session \(3 in all\): --limit 3 or --all shows more/);
  });
});

describe('errors: one message with a CLI hint, JSON under --json, the stack only under --debug', () => {
  it('--json errors are one JSON object on stderr, usage errors included', async () => {
    const missing = await runCli(['forget', '--session', 'ses_nope', '--yes', '--json'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(jsonError(missing.stderr)).toEqual({ code: 'NOT_FOUND', message: 'no session with id "ses_nope"', hint: expect.stringMatching(/strata sessions/) });
    const usage = await runCli(['sessions', '--bogus', '--json'], { env });
    expect(usage.code).toBe(1);
    expect(jsonError(usage.stderr)).toEqual({ code: 'USAGE', message: "unknown option '--bogus'", hint: '`strata sessions --help` shows what it takes.' });
  });

  it('speaks of CLI commands, not of the library API', async () => {
    const unknown = await runCli(['forget', '--message', 'msg_nope', '--yes'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: no message with id "msg_nope"; nothing was forgotten\nhint: `strata sessions` lists the sessions, `strata show ID --ids`/);
    expect(unknown.stderr).not.toMatch(/memory\.\w/);
  });

  it('a file error is a message and a hint (exit 1), with the stack only under --debug', async () => {
    const target = join(sandbox.dir, 'no-such-folder', 'out.json');
    const plain = await runCli(['export', '--all', '-o', target], { env });
    expect(plain.code).toBe(1);
    expect(plain.stderr).toBe(`error: cannot open ${target}: no such file or directory (ENOENT)\nhint: Check the path; a file is written only into a folder that exists (create it first).\n`);
    const debug = await runCli(['--debug', 'export', '--all', '-o', target], { env });
    expect(debug.stderr).toMatch(/^error: cannot open[^\n]*\nhint: [^\n]*\nError: ENOENT[^\n]*\n\s+at /);
  });

  it('a data dir that is a file says so', async () => {
    const file = join(sandbox.dir, 'plain-file');
    writeFileSync(file, '');
    const result = await runCli(['sessions'], { env: { ...env, STRATA_DATA_DIR: file } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^error: the data dir \S+plain-file is a file, not a directory\nhint: Pass --data-dir DIR/);
  });

  it('an import error names the bundle version, or the record and field in the file', async () => {
    const bundleFile = join(sandbox.dir, 'all.json');
    expect((await runCli(['export', '--all', '-o', bundleFile], { env })).code).toBe(0);
    const bundle = JSON.parse(readFileSync(bundleFile, 'utf8')) as { version: number; sessions: { messages: { content: unknown }[] }[] };
    const other = { ...env, STRATA_DATA_DIR: join(sandbox.dir, 'other') };
    writeFileSync(join(sandbox.dir, 'v99.json'), JSON.stringify({ ...bundle, version: 99 }));
    const v99 = await runCli(['import', join(sandbox.dir, 'v99.json')], { env: other });
    expect(v99.code).toBe(1);
    expect(v99.stderr).toMatch(/version 99 is not one this strata reads \(1 or 2\)/);
    expect(v99.stderr).not.toMatch(/\n\s+at /);
    bundle.sessions[2]!.messages[0]!.content = 5;
    writeFileSync(join(sandbox.dir, 'bad.json'), JSON.stringify(bundle));
    const bad = await runCli(['import', join(sandbox.dir, 'bad.json'), '--json'], { env: other });
    expect(jsonError(bad.stderr).message).toMatch(/expected string, received number\n\s+→ at sessions\[2\]\.messages\[0\]\.content; nothing from this file was kept/);
    expect((await runCli(['sessions', '--json'], { env: other })).stdout).toMatch(/"total": 0/);
  });
});

describe('reads are reads', () => {
  it('inspect, search and export leave access counts and decay as they were; --touch counts a use', async () => {
    const box = createSandbox('reads');
    try {
      const chat = await runCli(['chat'], { env: box.env, input: 'My kayak is red.\nThe kayak club meets on Fridays.\nI also bake sourdough bread.\n' });
      expect(chat.code).toBe(0);
      const [session] = json<SessionList>(await runCli(['sessions', '--json'], { env: box.env })).sessions;
      type Topic = { id: string; accessCount: number; halfLifeMs: number; lastAccessedAt?: number };
      const topics = async (): Promise<Topic[]> =>
        json<{ topics: Topic[] }>(await runCli(['inspect', session!.id, '--json', '-q', 'kayak'], { env: box.env })).topics.map(({ id, accessCount, halfLifeMs, lastAccessedAt }) => ({
          id,
          accessCount,
          halfLifeMs,
          ...(lastAccessedAt === undefined ? {} : { lastAccessedAt }),
        }));
      const before = await topics();
      expect(before.length).toBeGreaterThan(0);
      for (const args of [
        ['search', 'kayak'],
        ['inspect', session!.id, '-q', 'kayak club'],
        ['export', session!.id, '-o', join(box.dir, 'out.json')],
      ]) {
        expect((await runCli(args, { env: box.env })).code).toBe(0);
      }
      expect(await topics()).toEqual(before);
      expect((await runCli(['search', 'kayak', '--touch'], { env: box.env })).code).toBe(0);
      const after = await topics();
      expect(after.reduce((n, t) => n + t.accessCount, 0)).toBeGreaterThan(before.reduce((n, t) => n + t.accessCount, 0));
    } finally {
      box.dispose();
    }
  });
});

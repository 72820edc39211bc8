import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, json, readDb, runCli, startCli } from './support/cli.js';

const sandbox = createSandbox('chat');
afterAll(() => sandbox.dispose());
const env = { ...sandbox.env, STRATA_NAMESPACE: 'tom' };

interface SessionRow {
  id: string;
  namespace: string;
  messages: number;
}

describe('strata chat, driven through stdin (offline assistant)', () => {
  let firstId = '';

  it('stores every user turn, answers from memory and says it is offline', async () => {
    const input = ['Hi, my name is Tom.', 'I live in Oslo and I work as a nurse at Ullevaal.', 'I love skiing in the winter.', 'Where do I live?', ''].join('\n');
    const { code, stdout, stderr } = await runCli(['chat'], { env, input });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/strata chat · new session ses_\S+ .* namespace tom/);
    expect(stdout).toContain('assistant: offline (no LLM configured)');
    // the answer to "Where do I live?" comes from the extracted fact
    expect(stdout).toMatch(/strata> I'm offline \(no LLM configured\)\. Here is what I remember that relates to this:\n {2}- Tom lives in Oslo\./);
    const [, id] = /saved session (ses_\S+) \(4 messages\)/.exec(stdout) ?? [];
    expect(id).toBeDefined();
    firstId = id!;
    readDb(sandbox.dataDir, (db) => {
      expect(db.prepare('SELECT role, content FROM messages WHERE session_id = ? ORDER BY seq').all(firstId)).toEqual([
        { role: 'user', content: 'Hi, my name is Tom.' },
        { role: 'user', content: 'I live in Oslo and I work as a nurse at Ullevaal.' },
        { role: 'user', content: 'I love skiing in the winter.' },
        { role: 'user', content: 'Where do I live?' },
      ]);
      expect(db.prepare("SELECT object FROM facts WHERE namespace = 'tom' AND valid_to IS NULL ORDER BY object").pluck().all()).toEqual(expect.arrayContaining(['Oslo', 'Tom', 'nurse', 'Ullevaal']));
    });
  });

  it('is continued in a second process, which still remembers (and supersedes a fact)', async () => {
    const input = ['I moved to Bergen last week.', 'Where do I live now?', '/history 2', ''].join('\n');
    const { code, stdout } = await runCli(['chat', '--continue'], { env, input });
    expect(code).toBe(0);
    expect(stdout).toContain(`continuing ${firstId}`);
    expect(stdout).toMatch(/#4 .* user: Where do I live\?/); // the banner shows where we left off
    expect(stdout).toMatch(/- Tom lives in Bergen\./);
    expect(stdout).not.toMatch(/- Tom lives in Oslo\./); // superseded facts are not offered
    expect(stdout).toMatch(/#5 .* user: I moved to Bergen last week\.\n#6 .* user: Where do I live now\?/);
    readDb(sandbox.dataDir, (db) => {
      expect(db.prepare('SELECT COUNT(*) FROM messages WHERE session_id = ?').pluck().get(firstId)).toBe(6);
      expect(db.prepare("SELECT object, valid_to IS NULL AS current FROM facts WHERE predicate = 'lives_in' ORDER BY valid_from, object").all()).toEqual([
        { object: 'Oslo', current: 0 },
        { object: 'Bergen', current: 1 },
      ]);
    });
  });

  it('runs every command, with ! as an alias, and keeps going after a bad one', async () => {
    const exportFile = join(sandbox.dir, 'chat.md');
    const input = ['/help', '!memory', '/search skiing', '/sessions', `/export md ${exportFile}`, '/bogus', '/load ses_missing', '/save', '/exit', 'never read'].join('\n');
    const { code, stdout } = await runCli(['chat', '--session', firstId], { env, input });
    expect(code).toBe(0);
    expect(stdout).toMatch(/\/forget \[yes\]\s+delete this session/); // help lists the commands
    expect(stdout).toMatch(/immediate\s+6 turns verbatim/);
    expect(stdout).toMatch(/long-term\s+\d+ current facts, 1 superseded/);
    expect(stdout).toMatch(/pending\s+nothing/);
    expect(stdout).toMatch(/superseded\s+user · lives_in\s+Oslo/);
    expect(stdout).toMatch(/turn\s+\d{4}-\d\d-\d\d\s+I love skiing in the winter\./);
    expect(stdout).toMatch(new RegExp(`\\*\\s+${firstId}`)); // the current session is marked
    expect(readFileSync(exportFile, 'utf8')).toContain('I moved to Bergen last week.');
    expect(stdout).toMatch(/error: unknown command \/bogus\nhint: Type \/help/);
    expect(stdout).toMatch(/error: no session with id "ses_missing"/);
    expect(stdout).toMatch(new RegExp(`saved: session ${firstId} \\(6 messages\\)`));
    readDb(sandbox.dataDir, (db) => expect(db.prepare("SELECT COUNT(*) FROM messages WHERE content = 'never read'").pluck().get()).toBe(0));
  });

  it('/clear starts a fresh session and keeps what is stored; /new and /load switch sessions', async () => {
    const input = ['/clear', 'y', 'I have a cat called Miso.', '/new Trip planning', 'I am planning a trip to Rome.', `/load ${firstId}`, 'Where do I live?', ''].join('\n');
    const { code, stdout } = await runCli(['chat'], { env, input });
    expect(code).toBe(0);
    expect(stdout).toMatch(/fresh start: Chat /);
    expect(stdout).toMatch(/new session Trip planning/);
    expect(stdout).toMatch(/- Tom lives in Bergen\./); // facts of the namespace inform every session
    const sessions = json<{ sessions: SessionRow[] }>(await runCli(['sessions', '--json'], { env })).sessions;
    expect(sessions.map((s) => s.messages).sort()).toEqual([1, 1, 7]); // the chat's own new session got no message, so it was never stored
    expect(sessions.find((s) => s.id === firstId)?.messages).toBe(7); // the loaded session got the last turn
  });

  it('/forget asks first; confirmed, it deletes this session and what was derived from it, then starts a new one', async () => {
    const before = json<{ sessions: SessionRow[] }>(await runCli(['sessions', '--json'], { env })).sessions;
    const trip = before.find((s) => s.messages === 1 && s.id !== firstId)!;
    const { code, stdout } = await runCli(['chat', '--session', trip.id], { env, input: '/forget\nno\n/forget\nyes\nStill here.\n' });
    expect(code).toBe(0);
    expect(stdout).toMatch(new RegExp(`Forget session ${trip.id} \\(1 message\\) and everything derived from it, for good\\? \\[y/N\\]\nnot confirmed: nothing changed\n`));
    expect(stdout).toMatch(new RegExp(`forgot session ${trip.id}: 1 message,`));
    readDb(sandbox.dataDir, (db) => {
      expect(db.prepare('SELECT COUNT(*) FROM sessions WHERE id = ?').pluck().get(trip.id)).toBe(0);
      expect(db.prepare('SELECT COUNT(*) FROM messages WHERE session_id = ?').pluck().get(trip.id)).toBe(0);
      expect(db.prepare("SELECT COUNT(*) FROM messages WHERE content = 'Still here.'").pluck().get()).toBe(1);
    });
  });

  it('answers "what do you remember about me" offline with the profile facts and the topics of recent sessions', async () => {
    const profileEnv = { ...env, STRATA_NAMESPACE: 'profile' };
    const empty = await runCli(['chat'], { env: profileEnv, input: 'What do you remember about me?\n' });
    expect(empty.stdout).toMatch(/I don't know anything about you yet/);
    expect((await runCli(['chat'], { env: profileEnv, input: 'I live in Tromsø.\nI work as a ferry pilot.\nMy favourite hobby is ice fishing.\n' })).code).toBe(0);
    const { code, stdout } = await runCli(['chat'], { env: profileEnv, input: 'What do you remember about me?\n' });
    expect(code).toBe(0);
    expect(stdout).toMatch(/Here is what I remember about you:\n(\s+- .*\n)*\s+- User lives in Tromsø\./);
    expect(stdout).toMatch(/- User works as a ferry pilot\./);
    expect(stdout).toMatch(/We last talked about:\n\s+- Chat [\d-]+ [\d:]+: /);
  });

  it('keeps namespaces apart', async () => {
    const { stdout } = await runCli(['chat', '--namespace', 'ana'], { env, input: 'Where do I live?\n' });
    expect(stdout).toContain("I don't remember anything related to that yet");
    expect(stdout).toMatch(/namespace ana/);
  });

  it('exits 1 with a hint for an unknown --session, and for --session with --continue', async () => {
    const unknown = await runCli(['chat', '--session', 'ses_nope'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/error: no session with id "ses_nope"\nhint: List the sessions with `strata sessions`/);
    const both = await runCli(['chat', '--session', firstId, '--continue'], { env });
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/hint: /);
    expect(existsSync(join(sandbox.dataDir, 'memory.sqlite'))).toBe(true);
  });

  it('SIGTERM and SIGINT mid-session save and exit 0 (stdin still open)', async () => {
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const cli = startCli(['chat', '--namespace', 'signals'], env);
      cli.child.stdin.write(`My favourite colour is green (${signal}).\n`);
      await cli.waitFor(/strata> /);
      cli.child.kill(signal);
      expect(await cli.exited).toBe(0);
      expect(cli.output()).toMatch(/saved session ses_\S+ \(1 message\)/);
    }
    readDb(sandbox.dataDir, (db) => expect(db.prepare("SELECT COUNT(*) FROM messages WHERE namespace = 'signals'").pluck().get()).toBe(2));
  });
});

describe('strata chat and import on input that is not UTF-8', () => {
  const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

  it('reports a line that is not UTF-8 and does not store it; the other lines are read', async () => {
    const utf8Env = { ...sandbox.env, STRATA_NAMESPACE: 'bytes' };
    const input = Buffer.concat([latin1('My friend Jos\u00e9 lives in M\u00e1laga.\n'), Buffer.from('I live in Lisbon.\n', 'utf8'), Buffer.from('Caf\u00e9 ol\u00e9 in UTF-8 is fine.\n', 'utf8')]);
    const { code, stdout } = await runCli(['chat'], { env: utf8Env, input });
    expect(code).toBe(0);
    expect(stdout).toMatch(/error: line 1 of the input is not valid UTF-8 \(\d+ bytes\); it was not read\n.*hint: strata reads UTF-8 only/);
    const [, id] = /saved session (ses_\S+) \(2 messages\)/.exec(stdout) ?? [];
    expect(id).toBeDefined();
    readDb(sandbox.dataDir, (db) => {
      expect(db.prepare('SELECT content FROM messages WHERE session_id = ? ORDER BY seq').pluck().all(id)).toEqual(['I live in Lisbon.', 'Café olé in UTF-8 is fine.']);
      expect(db.prepare("SELECT COUNT(*) FROM facts WHERE text LIKE '%' || char(65533) || '%'").pluck().get()).toBe(0);
    });
  });

  it('rejects a file to import that is not UTF-8, importing nothing', async () => {
    const file = join(sandbox.dir, 'latin1.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from('{"role":"user","content":"', 'utf8'), latin1('Jos\u00e9'), Buffer.from('"}\n', 'utf8')]));
    const before = readDb(sandbox.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM sessions').pluck().get());
    const { code, stderr } = await runCli(['import', file], { env });
    expect(code).toBe(1);
    expect(stderr).toMatch(/is not valid UTF-8; nothing was imported[\s\S]*hint: strata reads UTF-8 only/);
    expect(readDb(sandbox.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM sessions').pluck().get())).toBe(before);
  });
});

describe('strata with STRATA_ENCRYPTION_KEY (encrypted data dir)', () => {
  it('stores the chat encrypted, reopens it with the key, refuses it without, and never prints the key', async () => {
    const sealedBox = createSandbox('sealed');
    try {
      const key = 'Kestrel-Quartz-Lantern-88';
      const sealedEnv = { ...sealedBox.env, STRATA_ENCRYPTION_KEY: key, STRATA_NAMESPACE: 'sealed' };
      const chat = await runCli(['chat'], { env: sealedEnv, input: 'My locker code is Quokka7319.\nI moved to Trondheim.\n' });
      expect(chat.code).toBe(0);
      const file = join(sealedBox.dataDir, 'memory.sqlite');
      for (const path of [file, `${file}-wal`, `${file}-shm`].filter((p) => existsSync(p))) {
        const bytes = readFileSync(path);
        expect(bytes.includes('Quokka7319'), path).toBe(false);
        expect(bytes.includes('Trondheim'), path).toBe(false);
      }
      const listed = await runCli(['sessions', '--json'], { env: sealedEnv });
      expect(listed.code).toBe(0);
      expect(json<{ sessions: { namespace: string }[] }>(listed).sessions.map((s) => s.namespace)).toEqual(['sealed']);
      const without = await runCli(['sessions'], { env: { ...sealedEnv, STRATA_ENCRYPTION_KEY: '' } });
      expect(without.code).toBe(1);
      expect(without.stderr).toMatch(/not a SQLite database or is corrupt[\s\S]*hint: .*encryptionKey \(STRATA_ENCRYPTION_KEY/);
      const wrong = await runCli(['sessions'], { env: { ...sealedEnv, STRATA_ENCRYPTION_KEY: 'Osprey-Basalt-Candle-12' } });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/cannot be opened with this encryption key/);
      const config = await runCli(['config'], { env: sealedEnv });
      for (const output of [chat.stdout, chat.stderr, without.stderr, wrong.stderr, config.stdout]) expect(output).not.toContain('Lantern');
      expect(config.stdout).toMatch(/encryptionKey\s+\*\*\*\* \(set\)\s+env/);
    } finally {
      sealedBox.dispose();
    }
  });
});

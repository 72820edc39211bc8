import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fact, SearchHit, UsageReport } from '@strata/core';
import Database from 'better-sqlite3';
import { createSandbox, json, readDb, runCli } from './support/cli.js';

const sandbox = createSandbox('ops');
const env = { ...sandbox.env, STRATA_NAMESPACE: 'maya' };
let sessionId = '';

interface SessionRow {
  id: string;
  namespace: string;
  title?: string;
  messages: number;
}

beforeAll(async () => {
  const input = ['My name is Maya.', 'I live in Lisbon and I work as a data engineer at Nimbus.', 'I love hiking on the coastal trail in Sintra.', 'I moved to Porto last week.', ''].join('\n');
  const { stdout } = await runCli(['chat'], { env, input });
  sessionId = /saved session (ses_\S+)/.exec(stdout)![1]!;
  await runCli(['chat', '--namespace', 'other'], { env, input: 'I live in Madrid.\n' });
});
afterAll(() => sandbox.dispose());

describe('strata read commands: tables for people, --json for scripts', () => {
  it('sessions lists every namespace unless one is chosen', async () => {
    const all = json<{ sessions: SessionRow[] }>(await runCli(['sessions', '--json'], { env: sandbox.env })).sessions;
    expect(all.map((s) => s.namespace).sort()).toEqual(['maya', 'other']);
    const mine = json<{ sessions: SessionRow[] }>(await runCli(['sessions', '--json'], { env })).sessions;
    expect(mine).toEqual([expect.objectContaining({ id: sessionId, namespace: 'maya', messages: 4 })]);
    const table = await runCli(['sessions'], { env });
    expect(table.stdout).toMatch(new RegExp(`^id\\s+namespace\\s+title\\s+messages\\s+updated\\n-+[ -]+\\n${sessionId}\\s+maya\\s+Chat .*\\s+4\\s+\\d{4}-`, 'm'));
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checks that no ESC-led ANSI sequence reaches piped output
    expect(table.stdout).not.toMatch(/\u001b\[/);
  });

  it('show prints the turns verbatim', async () => {
    const { stdout } = await runCli(['show', sessionId, '--last', '2'], { env });
    expect(stdout).toMatch(/#3 .* user: I love hiking on the coastal trail in Sintra\.\n#4 .* user: I moved to Porto last week\./);
    const data = json<{ messages: { id: string; seq: number }[] }>(await runCli(['show', sessionId, '--json'], { env }));
    expect(data.messages.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    const withIds = await runCli(['show', sessionId, '--ids'], { env });
    expect(withIds.stdout).toContain(`${data.messages[3]!.id} #4 `);
  });

  it('facts shows current facts, and with --all the superseded one', async () => {
    const current = json<Fact[]>(await runCli(['facts', '--json'], { env }));
    expect(current.find((f) => f.predicate === 'lives_in')?.object).toBe('Porto');
    expect(current.every((f) => f.namespace === 'maya' && f.validTo === undefined)).toBe(true);
    const { stdout } = await runCli(['facts', '--all'], { env });
    expect(stdout).toMatch(/superseded\s+user · lives_in\s+Lisbon/);
    expect(stdout).toMatch(/current\s+user · lives_in\s+Porto/);
  });

  it('search finds turns and facts of the namespace only', async () => {
    const hits = json<SearchHit[]>(await runCli(['search', 'where does Maya live', '--json'], { env }));
    expect(hits.some((h) => h.kind === 'fact' && h.text.includes('Porto'))).toBe(true);
    expect(hits.some((h) => h.text.includes('Madrid'))).toBe(false);
    const onlyTurns = json<SearchHit[]>(await runCli(['search', 'hiking', '--kind', 'turn', '--json'], { env }));
    // the matching turn first; the turns of its exchange may follow (neighbours share its score)
    expect([...new Set(onlyTurns.map((h) => h.kind))]).toEqual(['turn']);
    expect(onlyTurns[0]?.text).toMatch(/hiking/i);
    const bad = await runCli(['search', 'x', '--kind', 'note'], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/unknown kind "note"\nhint: Pass --kind with one or more of turn, summary, fact/);
  });

  it('inspect shows tiers, budget use and the manifest for a query', async () => {
    const { stdout } = await runCli(['inspect', sessionId, '--query', 'Which trail do I like?', '--budget', '500'], { env });
    expect(stdout).toMatch(/immediate\s+4 turns verbatim/);
    expect(stdout).toMatch(/long-term\s+\d+ current facts, 1 superseded/);
    expect(stdout).toMatch(/Context for: "Which trail do I like\?"/);
    expect(stdout).toMatch(/total\s+\d+ of 500 \(\d+%\)/);
    expect(stdout).toMatch(/Manifest[\s\S]*in\s+immediate\s+turn/);
    // offline models report no usage: one line, no table, no namespace total repeating it
    expect(stdout).toMatch(/Model usage [^\n]*\nno model calls: derivation ran on the offline models\n\nContext for:/);
    const data = json<{ context: { tokens: number; budgetTokens: number; manifest: { tier: string }[] }; usage: { session: UsageReport; namespace: UsageReport } }>(
      await runCli(['inspect', sessionId, '--json', '--budget', '500'], { env }),
    );
    expect(data.context.budgetTokens).toBe(500);
    expect(data.context.tokens).toBeLessThanOrEqual(500);
    expect(data.context.manifest.length).toBeGreaterThan(0);
    expect(data.usage.session).toMatchObject({ namespace: 'maya', sessionId, jobsWithUsage: 0, total: { inputTokens: 0, outputTokens: 0, calls: 0 }, byModel: {} });
    expect(data.usage.session.jobs).toBeGreaterThan(0);
    expect(data.usage.namespace).toMatchObject({ namespace: 'maya', jobsWithUsage: 0 });
  });

  it('config shows where each value comes from', async () => {
    const data = json<{ settings: { key: string; value: string | null; source: string }[] }>(await runCli(['config', '--json'], { env }));
    expect(data.settings.find((s) => s.key === 'namespace')).toMatchObject({ value: 'maya', source: 'env' });
  });
});

describe('strata export and import', () => {
  it('exports every format; json imports losslessly into another data dir', async () => {
    const md = await runCli(['export', sessionId, '--format', 'md'], { env });
    expect(md.stdout).toMatch(/^# Chat /);
    expect(md.stdout).toContain('I moved to Porto last week.');
    const txt = await runCli(['export', sessionId, '--format', 'txt'], { env });
    expect(txt.stdout.trim().split('\n')).toHaveLength(4);
    const jsonl = await runCli(['export', sessionId, '--format', 'jsonl'], { env });
    expect(JSON.parse(jsonl.stdout.split('\n')[0]!)).toMatchObject({ role: 'user', content: 'My name is Maya.' });
    const file = join(sandbox.dir, 'bundle.json');
    const exported = await runCli(['export', sessionId, '--format', 'json', '--output', file], { env });
    expect(exported.stderr).toMatch(/wrote .*bundle\.json \(json, \d+ bytes\)/);

    const otherDir = join(sandbox.dir, 'restored');
    const imported = json<{ sessions: number; messages: number; facts: number }>(await runCli(['import', file, '--json'], { env: { ...env, STRATA_DATA_DIR: otherDir } }));
    expect(imported).toMatchObject({ sessions: 1, messages: 4 });
    const [original, restored] = [sandbox.dataDir, otherDir].map((dir) =>
      readDb(dir, (db) => ({
        messages: db.prepare('SELECT id, seq, content, created_at FROM messages ORDER BY seq').all(),
        facts: db.prepare("SELECT id, object, valid_to FROM facts WHERE namespace = 'maya' ORDER BY id").all(),
      })),
    );
    expect(restored!.messages).toEqual(readDb(sandbox.dataDir, (db) => db.prepare('SELECT id, seq, content, created_at FROM messages WHERE session_id = ? ORDER BY seq').all(sessionId)));
    expect(restored!.facts).toEqual(original!.facts);
  });

  it('refuses to import over an existing session (exit 1, nothing written)', async () => {
    const file = join(sandbox.dir, 'bundle.json');
    const { code, stderr } = await runCli(['import', file], { env });
    expect(code).toBe(1);
    expect(stderr).toMatch(new RegExp(`session ${sessionId} already exists; nothing was imported\\nhint: Pass --merge to skip what exists`));
    const merged = await runCli(['import', file, '--merge'], { env });
    expect(merged.code).toBe(0);
    expect(merged.stdout).toMatch(/imported 0 sessions, 0 messages[\s\S]*skipped \(exist already\): 1 session/);
  });

  it('imports a large JSONL transcript as a new session, then derives facts from it', async () => {
    const lines = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: i === 600 ? 'I live in Faro.' : `Turn ${i} about the weather.` }));
    const file = join(sandbox.dir, 'transcript.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const report = json<{ sessionId: string; messages: number; summaries: number; facts: number }>(await runCli(['import', file, '--json', '--namespace', 'bulk'], { env }));
    expect(report.messages).toBe(1200);
    expect(report.summaries).toBeGreaterThan(0);
    readDb(sandbox.dataDir, (db) => {
      expect(db.prepare('SELECT COUNT(*) FROM messages WHERE session_id = ?').pluck().get(report.sessionId)).toBe(1200);
      expect(db.prepare('SELECT title FROM sessions WHERE id = ?').pluck().get(report.sessionId)).toBe('transcript.jsonl');
      expect(db.prepare("SELECT object FROM facts WHERE namespace = 'bulk' AND predicate = 'lives_in'").pluck().all()).toEqual(['Faro']);
    });
  });

  it('export --all is a backup of every session that import restores into an empty data dir', async () => {
    const file = join(sandbox.dir, 'backup.json');
    expect((await runCli(['export', '--all', '--output', file], { env: sandbox.env })).code).toBe(0);
    const restoredDir = join(sandbox.dir, 'restored-all');
    const report = json<{ sessions: number; messages: number; facts: number }>(await runCli(['import', file, '--json'], { env: { ...env, STRATA_DATA_DIR: restoredDir } }));
    const snapshot = (dir: string) =>
      readDb(dir, (db) => ({
        sessions: db.prepare('SELECT id, namespace, title FROM sessions ORDER BY id').all(),
        messages: db.prepare('SELECT COUNT(*) FROM messages').pluck().get(),
        facts: db.prepare('SELECT id, namespace, object, valid_to, superseded_by FROM facts ORDER BY id').all(),
        summaries: db.prepare('SELECT COUNT(*) FROM summaries').pluck().get(),
        topics: db.prepare('SELECT COUNT(*) FROM topics').pluck().get(),
        links: db.prepare('SELECT COUNT(*) FROM turn_links').pluck().get(),
      }));
    const original = snapshot(sandbox.dataDir);
    expect(snapshot(restoredDir)).toEqual(original);
    expect(report).toMatchObject({ sessions: original.sessions.length, messages: original.messages, facts: original.facts.length });
    const usage = await runCli(['export'], { env });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/export needs a session id or --all/);
  });

  it('names the bad line of a broken transcript (exit 1)', async () => {
    const file = join(sandbox.dir, 'broken.jsonl');
    writeFileSync(file, '{"role":"user","content":"hi"}\n{"role":"robot","content":"x"}\n');
    const { code, stderr } = await runCli(['import', file], { env });
    expect(code).toBe(1);
    expect(stderr).toMatch(/broken\.jsonl:2 is not a chat message/);
    expect(readFileSync(file, 'utf8')).toContain('robot');
  });

  it('a transcript that fails part way keeps nothing: the batches already stored are undone (exit 1)', async () => {
    // 250 good turns, then one whose date core rejects: the first batch of 200 is stored before the failure.
    const lines = Array.from({ length: 250 }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Half-way turn ${i}.` }));
    lines.push(JSON.stringify({ role: 'user', content: 'late', created_at: 'the day after tomorrow-ish' }));
    const file = join(sandbox.dir, 'half.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const before = readDb(sandbox.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM messages').pluck().get());
    const { code, stderr } = await runCli(['import', file, '--namespace', 'half'], { env });
    expect(code).toBe(1);
    expect(stderr).toMatch(/createdAt must be [\s\S]*; nothing from this file was kept\nhint: /);
    readDb(sandbox.dataDir, (db) => {
      expect(db.prepare("SELECT COUNT(*) FROM sessions WHERE namespace = 'half'").pluck().get()).toBe(0);
      expect(db.prepare('SELECT COUNT(*) FROM messages').pluck().get()).toBe(before);
      expect(db.prepare("SELECT COUNT(*) FROM messages WHERE content LIKE 'Half-way turn%'").pluck().get()).toBe(0);
    });
  });
});

describe('strata forget, prune, reindex', () => {
  it('reindex rebuilds the vector index from the store: summaries and facts; turns only with vector ranking on', async () => {
    const report = json<{ turns: number; turnVectors: boolean; summaries: number; facts: number }>(await runCli(['reindex', '--json'], { env }));
    const facts = readDb(sandbox.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM facts').pluck().get());
    expect(report).toMatchObject({ turns: 0, turnVectors: false, facts });
    expect(readDb(sandbox.dataDir, (db) => db.prepare("SELECT COUNT(*) FROM knowledge WHERE kind = 'turn'").pluck().get())).toBe(0);
    expect(readDb(sandbox.dataDir, (db) => db.prepare("SELECT COUNT(*) FROM knowledge WHERE kind = 'fact'").pluck().get())).toBe(facts);
    const text = await runCli(['reindex'], { env });
    expect(text.stdout).toMatch(/reindexed no turns \(vector ranking is off/);
  });

  it('prune --dry-run changes nothing; prune forgets only stale sessions', async () => {
    const dry = json<{ sessions: string[] }>(await runCli(['prune', '--days', '1', '--dry-run', '--json'], { env }));
    expect(dry.sessions).toEqual([]);
    const unconfirmed = await runCli(['prune', '--days', '1'], { env });
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/stdin is not a terminal[\s\S]*hint: Add --yes/);
    const real = json<{ sessions: string[] }>(await runCli(['prune', '--days', '30', '--yes', '--json'], { env }));
    expect(real.sessions).toEqual([]);
    expect(readDb(sandbox.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM sessions WHERE id = ?').pluck().get(sessionId))).toBe(1);
  });

  it('forget --message deletes a turn and what was derived from it', async () => {
    const moved = readDb(sandbox.dataDir, (db) => db.prepare("SELECT id FROM messages WHERE content = 'I moved to Porto last week.'").pluck().get()) as string;
    const unknown = await runCli(['forget', '--message', 'msg_missing', '--yes'], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no message with id "msg_missing"; nothing was forgotten/);
    const report = json<{ messages: number; facts: number; factsRestored: number }>(await runCli(['forget', '--message', moved, '--yes', '--json'], { env }));
    expect(report).toMatchObject({ messages: 1, facts: 1, factsRestored: 1 });
    const current = json<Fact[]>(await runCli(['facts', '--json'], { env }));
    expect(current.find((f) => f.predicate === 'lives_in')?.object).toBe('Lisbon'); // the superseded fact is current again
  });

  it('forget asks for confirmation (--yes without a terminal); --session deletes one session', async () => {
    const unconfirmed = await runCli(['forget', '--all-of-namespace', 'other'], { env });
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toMatch(/hint: Add --yes to confirm/);
    expect(json<{ sessions: number }>(await runCli(['forget', '--all-of-namespace', 'other', '--yes', '--json'], { env })).sessions).toBe(1);
    expect((await runCli(['forget', '--session', sessionId], { env })).code).toBe(1);
    expect(readDb(sandbox.dataDir, (db) => db.prepare('SELECT COUNT(*) FROM sessions WHERE id = ?').pluck().get(sessionId))).toBe(1);
    expect(json<{ sessions: number }>(await runCli(['forget', '--session', sessionId, '--yes', '--json'], { env })).sessions).toBe(1);
    readDb(sandbox.dataDir, (db) => {
      expect(db.prepare("SELECT COUNT(*) FROM sessions WHERE namespace IN ('maya', 'other')").pluck().get()).toBe(0);
      expect(db.prepare("SELECT COUNT(*) FROM facts WHERE namespace IN ('maya', 'other')").pluck().get()).toBe(0);
    });
  });
});

describe('exit codes', () => {
  it('1 with a hint for bad input, usage errors and unknown ids', async () => {
    const cases = [
      ['show', 'ses_missing'],
      ['inspect', 'ses_missing'],
      ['export', 'ses_missing'],
      ['forget', '--session', 'ses_missing'],
      ['prune', '--days', 'soon'],
      ['export', 'x', '--format', 'pdf'],
      ['import', join(sandbox.dir, 'missing.json')],
      ['forget'],
    ];
    const results = await Promise.all(cases.map((args) => runCli(args, { env })));
    results.forEach(({ code, stderr }, i) => {
      expect({ args: cases[i], code }).toEqual({ args: cases[i], code: 1 });
      expect(stderr).toMatch(/error: /);
    });
    expect(results[0]!.stderr).toMatch(/hint: List the sessions with `strata sessions`/);
  });

  it('2 when a backend is unavailable (unwritable data dir; unreachable Chroma)', async () => {
    const file = join(sandbox.dir, 'not-a-dir');
    writeFileSync(file, '');
    const noDir = await runCli(['sessions'], { env: { ...env, STRATA_DATA_DIR: join(file, 'data') } });
    expect(noDir.code).toBe(2);
    expect(noDir.stderr).toMatch(/hint: /);
    const chroma = await runCli(['--chroma-url', 'http://127.0.0.1:1', 'facts'], { env });
    expect(chroma.code).toBe(2);
    expect(chroma.stderr).toMatch(/Chroma at http:\/\/127\.0\.0\.1:1 is unreachable[^\n]*\nhint: /);
  });
});

describe('namespaces stored before names had to be exact', () => {
  it('every command names them on stderr, with how to rename one, and still reads them', async () => {
    const box = createSandbox('legacy-names');
    try {
      const env = { ...box.env, STRATA_NAMESPACE: 'fine' };
      expect((await runCli(['sessions'], { env })).code).toBe(0);
      // what migrating an older file records (schema 8), written here as that migration would
      const db = new Database(join(box.dataDir, 'memory.sqlite'));
      db.prepare("INSERT INTO sessions (id, namespace, metadata, created_at, updated_at, last_seq) VALUES ('ses_old', 'alice\u00A0', '{}', 1, 1, 0)").run();
      db.prepare("INSERT INTO namespace_problems (namespace, problem, found_at) VALUES ('alice\u00A0', 'holds an invisible or control character (U+00A0) at index 5', 1)").run();
      db.close();
      const listed = await runCli(['sessions', '--json'], { env: { ...env, STRATA_NAMESPACE: 'alice\u00A0' } });
      expect(listed.code).toBe(0);
      expect(listed.stderr).toMatch(/note: 1 namespace in this file would be rejected today \("alice\\u00a0" holds an invisible or control character[\s\S]*strata import F -n NEW/i);
      expect(json<{ sessions: { id: string }[] }>(listed).sessions.map((s) => s.id)).toEqual(['ses_old']);
    } finally {
      box.dispose();
    }
  });
});

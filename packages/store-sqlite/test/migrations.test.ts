import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { analyzeText, compressText, StrataError } from '@strata/core';
import { migrate, SCHEMA_VERSION } from '../src/migrations.js';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

const TABLES = ['facts', 'jobs', 'knowledge', 'knowledge_meta', 'messages', 'provenance', 'sessions', 'summaries', 'topics', 'turn_links'];

describe('migrations', () => {
  let directory: string;
  let path: string;

  /** Reads the file with a raw connection, closed before the test goes on. */
  const inspect = <T>(read: (db: Database.Database) => T): T => {
    const db = new Database(path, { fileMustExist: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  };
  const userVersion = (): unknown => inspect((db) => db.pragma('user_version', { simple: true }));
  /** A digest of the file's bytes (comparing large Buffers element by element is slow). */
  const digest = async (): Promise<string> =>
    createHash('sha256')
      .update(await readFile(path))
      .digest('hex');

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'strata-migrations-'));
    path = join(directory, 'strata.db');
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('creates every table in an empty file and records SCHEMA_VERSION', async () => {
    const store = await createSqliteSessionStore({ path });
    await store.close();
    expect(SCHEMA_VERSION).toBe(9);
    expect(userVersion()).toBe(SCHEMA_VERSION);
    const names = inspect((db) => db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all());
    expect(names).toEqual(expect.arrayContaining(TABLES));
    expect(names.filter((name) => String(name).includes('_fts'))).toEqual([]);
    expect(inspect((db) => db.pragma('journal_mode', { simple: true }))).toBe('wal');
  });

  it('reports the namespaces of a version 7 file that names must now not be, and changes none of them', async () => {
    const v7 = new Database(path);
    v7.function('strata_terms', { deterministic: true }, (text: unknown) => analyzeText(String(text ?? '')).join(' '));
    migrate(v7, path, 7);
    const bad = ['alice\u00A0', ' bob', 'cafe\u0301', 'zero\u200Bwidth'];
    const insert = v7.prepare("INSERT INTO sessions (id, namespace, metadata, created_at, updated_at, last_seq) VALUES (?, ?, '{}', 1, 1, 0)");
    ['fine', 'two words', ...bad].forEach((namespace, i) => {
      insert.run(`s${i}`, namespace);
    });
    v7.exec("INSERT INTO facts (id, namespace, subject, predicate, object, text, valid_from, confidence, created_at) VALUES ('f1', 'tab\tfacts', 'user', 'likes', 'tea', 'User likes tea', 1, 0.9, 1)");
    v7.close();

    const store = await createSqliteSessionStore({ path });
    try {
      const problems = store.namespaceProblems();
      expect(problems.map((p) => p.namespace).sort()).toEqual([...bad, 'tab\tfacts'].sort());
      expect(problems.find((p) => p.namespace === ' bob')?.problem).toMatch(/whitespace/);
      expect(problems.find((p) => p.namespace === 'cafe\u0301')?.problem).toMatch(/NFC/);
      // nothing renamed: each stays reachable by its exact name
      expect((await store.sessions({ namespace: 'alice\u00A0' })).map((x) => x.id)).toEqual(['s2']);
      expect(await store.sessions({ namespace: 'alice' })).toEqual([]);
    } finally {
      await store.close();
    }
    expect(userVersion()).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 8 file to version 9: its job records read back without usage, new ones keep theirs', async () => {
    const v8 = new Database(path);
    v8.function('strata_terms', { deterministic: true }, (text: unknown) => analyzeText(String(text ?? '')).join(' '));
    migrate(v8, path, 8);
    v8.exec(`
      INSERT INTO sessions (id, namespace, metadata, created_at, updated_at, last_seq) VALUES ('s1', 'ns', '{}', 1, 2, 2);
      INSERT INTO jobs (key, type, session_id, from_seq, to_seq, applied_at)
        VALUES ('ingest:s1:1-2', 'ingest', 's1', 1, 2, 3), ('summarize:s1:1-2', 'summarize', 's1', 1, 2, 4);
    `);
    v8.close();

    const store = await createSqliteSessionStore({ path });
    try {
      expect(userVersion()).toBe(SCHEMA_VERSION);
      const old = await store.jobs({ sessionId: 's1' });
      expect(old).toStrictEqual([
        { key: 'ingest:s1:1-2', type: 'ingest', sessionId: 's1', fromSeq: 1, toSeq: 2, appliedAt: 3 },
        { key: 'summarize:s1:1-2', type: 'summarize', sessionId: 's1', fromSeq: 1, toSeq: 2, appliedAt: 4 },
      ]);
      expect(old.map((job) => 'usage' in job)).toEqual([false, false]);
      const usage = { inputTokens: 120, outputTokens: 30, calls: 2, byModel: { 'gpt-4o-mini': { inputTokens: 120, outputTokens: 30, calls: 2 } } };
      const job = { key: 'consolidate:s1:1-2', type: 'consolidate' as const, sessionId: 's1', fromSeq: 1, toSeq: 2, appliedAt: 5, usage };
      await store.write({ ops: [{ type: 'recordJobs', jobs: [job] }] });
      expect(await store.jobs({ sessionId: 's1', type: 'consolidate' })).toStrictEqual([job]);
    } finally {
      await store.close();
    }
    expect(inspect((db) => db.prepare('SELECT key, usage FROM jobs ORDER BY key').raw().all())).toEqual([
      ['consolidate:s1:1-2', '{"inputTokens":120,"outputTokens":30,"calls":2,"byModel":{"gpt-4o-mini":{"inputTokens":120,"outputTokens":30,"calls":2}}}'],
      ['ingest:s1:1-2', null],
      ['summarize:s1:1-2', null],
    ]);
  });

  it('migrates a version 1 file with data to the current version and indexes the old rows for search', async () => {
    const v1 = new Database(path);
    v1.function('strata_terms', { deterministic: true }, (text: unknown) => analyzeText(String(text ?? '')).join(' '));
    migrate(v1, path, 1);
    expect(v1.pragma('user_version', { simple: true })).toBe(1);
    v1.exec(`
      INSERT INTO sessions (id, namespace, metadata, created_at, updated_at, last_seq) VALUES ('s1', 'ns', '{}', 1, 2, 2);
      INSERT INTO messages (id, session_id, namespace, seq, role, content, metadata, created_at)
        VALUES ('m1', 's1', 'ns', 1, 'user', 'I moved to Berlin last spring', '{}', 1),
               ('m2', 's1', 'ns', 2, 'assistant', 'How is the weather there?', '{}', 2);
      INSERT INTO facts (id, namespace, subject, predicate, object, text, valid_from, confidence, created_at)
        VALUES ('f1', 'ns', 'user', 'lives_in', 'Berlin', 'The user lives in Berlin', 1, 0.9, 1);
    `);
    v1.close();

    const store = await createSqliteSessionStore({ path });
    try {
      const hits = await store.search({ namespace: 'ns', text: 'moving to berlin', kinds: ['turn', 'fact'], k: 5 });
      expect(hits.map((hit) => `${hit.kind}:${hit.id}`).sort()).toEqual(['fact:f1', 'turn:m1']);
      expect((await store.search({ namespace: 'ns', text: 'weather', kinds: ['turn'], k: 5 })).map((hit) => hit.id)).toEqual(['m2']);
      expect((await store.messages({ sessionId: 's1' })).map((m) => [m.id, m.seq])).toEqual([
        ['m1', 1],
        ['m2', 2],
      ]);
      const appended = await store.write({
        ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm3', role: 'user', content: 'sunny', createdAt: 3, metadata: {} }] }],
      });
      expect(appended.messages[0]?.seq).toBe(3);
    } finally {
      await store.close();
    }
    expect(userVersion()).toBe(SCHEMA_VERSION);
  });

  it('migrates a version 2 file with data through version 3: turns get topics, links and cold storage, and stay searchable', async () => {
    const v2 = new Database(path);
    v2.function('strata_terms', { deterministic: true }, (text: unknown) => analyzeText(String(text ?? '')).join(' '));
    migrate(v2, path, 2);
    v2.exec(`
      INSERT INTO sessions (id, namespace, metadata, created_at, updated_at, last_seq) VALUES ('s1', 'ns', '{}', 1, 2, 2);
      INSERT INTO messages (id, session_id, namespace, seq, role, content, metadata, created_at)
        VALUES ('m1', 's1', 'ns', 1, 'user', 'Which lasagna recipe uses spinach and ricotta?', '{}', 1),
               ('m2', 's1', 'ns', 2, 'assistant', 'Layer pasta with spinach, ricotta and tomato sauce.', '{}', 2);
      INSERT INTO messages_fts (rowid, terms) SELECT rowid, strata_terms(content) FROM messages;
    `);
    v2.close();

    const store = await createSqliteSessionStore({ path });
    try {
      expect(userVersion()).toBe(SCHEMA_VERSION);
      const topic = { id: 't1', sessionId: 's1', namespace: 'ns', title: 'lasagna', importance: 0.5, accessCount: 0, lastActiveAt: 2, createdAt: 1, centroid: [0.6, 0.8], vectorCount: 2 };
      await store.writeTopics([
        { type: 'putTopics', topics: [topic] },
        { type: 'putLinks', links: [{ messageId: 'm1', sessionId: 's1', namespace: 'ns', seq: 1, role: 'user', parentId: null, topicId: 't1' }] },
        { type: 'compress', messageIds: ['m1'] },
      ]);
      expect(await store.topics({ sessionId: 's1' })).toEqual([topic]);
      expect(inspect((db) => db.prepare("SELECT content, content_z IS NOT NULL AS cold FROM messages WHERE id = 'm1'").get())).toEqual({ content: '', cold: 1 });
      expect((await store.messages({ ids: ['m1'] }))[0]?.content).toBe('Which lasagna recipe uses spinach and ricotta?');
      expect((await store.search({ namespace: 'ns', text: 'lasagna', kinds: ['turn'], k: 5 })).map((hit) => hit.id)).toEqual(['m1']);
    } finally {
      await store.close();
    }
  });

  it('migrates a version 3 file with data to version 4: FTS5 tables dropped, every row kept, search still finds turns (cold too), summaries and facts', async () => {
    const v3 = new Database(path);
    v3.function('strata_terms', { deterministic: true }, (text: unknown) => analyzeText(String(text ?? '')).join(' '));
    migrate(v3, path, 3);
    v3.pragma('journal_mode = WAL');
    v3.exec("INSERT INTO sessions (id, namespace, metadata, created_at, updated_at, last_seq) VALUES ('s1', 'ns', '{}', 1, 3, 3)");
    const insertMessage = v3.prepare(`INSERT INTO messages (id, session_id, namespace, seq, role, content, metadata, created_at, content_z, text_bytes)
      VALUES (?, 's1', 'ns', ?, 'user', ?, '{}', ?, ?, ?)`);
    const cold = 'The ferry to Santorini leaves at dawn';
    insertMessage.run('m1', 1, 'I adopted a greyhound called Pixel', 1, null, null);
    insertMessage.run('m2', 2, '', 2, Buffer.from(compressText(cold)), Buffer.byteLength(cold));
    insertMessage.run('m3', 3, 'Pixel loves long walks on the beach', 3, null, null);
    v3.exec(`
      INSERT INTO summaries (id, session_id, namespace, level, from_seq, to_seq, text, created_at) VALUES ('sum1', 's1', 'ns', 'batch', 1, 2, 'The user has a dog and plans an island trip', 4);
      INSERT INTO facts (id, namespace, subject, predicate, object, text, valid_from, confidence, created_at)
        VALUES ('f1', 'ns', 'user', 'has_pet', 'greyhound', 'The user owns a greyhound', 1, 0.9, 4);
      INSERT INTO provenance (item_kind, item_id, message_id, position) VALUES ('summary', 'sum1', 'm1', 0), ('summary', 'sum1', 'm2', 1), ('fact', 'f1', 'm1', 0);
      INSERT INTO jobs (key, type, session_id, from_seq, to_seq, applied_at) VALUES ('summarize:s1:1-2', 'summarize', 's1', 1, 2, 4);
      INSERT INTO topics (id, session_id, namespace, title, importance, access_count, last_active_at, created_at, centroid, vector_count)
        VALUES ('t1', 's1', 'ns', 'dog', 0.5, 0, 3, 1, x'0000803f', 1);
      INSERT INTO turn_links (message_id, session_id, namespace, seq, role, parent_id, topic_id) VALUES ('m1', 's1', 'ns', 1, 'user', NULL, 't1');
      INSERT INTO knowledge_meta (key, value) VALUES ('lexical_epoch', '7');
      -- what the version 3 store wrote beside each row
      INSERT INTO messages_fts (rowid, terms) SELECT rowid, strata_terms(content) FROM messages WHERE content_z IS NULL;
      INSERT INTO messages_fts (rowid, terms) SELECT rowid, strata_terms('${cold}') FROM messages WHERE content_z IS NOT NULL;
      INSERT INTO summaries_fts (rowid, terms) SELECT rowid, strata_terms(text) FROM summaries;
      INSERT INTO facts_fts (rowid, terms) SELECT rowid, strata_terms(text) FROM facts;
    `);
    const dump = (db: Database.Database): Record<string, unknown[]> => Object.fromEntries(TABLES.map((table) => [table, db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).raw().all()]));
    const before = dump(v3);
    expect(v3.prepare('SELECT count(*) FROM messages_fts').pluck().get()).toBe(3);
    v3.close();

    const store = await createSqliteSessionStore({ path });
    try {
      expect(userVersion()).toBe(SCHEMA_VERSION);
      const after = inspect((db) => ({
        rows: dump(db),
        fts: db.prepare("SELECT name FROM sqlite_schema WHERE name LIKE '%_fts%'").pluck().all(),
        integrity: db.pragma('integrity_check', { simple: true }),
      }));
      // version 7 adds two columns to messages (a turn's token count and its counter), version 9 one
      // to jobs (a job's token usage), null on every older row
      const messages = (after.rows.messages ?? []) as unknown[][];
      const jobs = (after.rows.jobs ?? []) as unknown[][];
      expect(messages.map((row) => row.slice(-2))).toEqual(messages.map(() => [null, null]));
      expect(jobs.map((row) => row.slice(-1))).toEqual([[null]]);
      expect({ ...after.rows, messages: messages.map((row) => row.slice(0, -2)), jobs: jobs.map((row) => row.slice(0, -1)) }).toEqual(before);
      expect(after.fts).toEqual([]);
      expect(after.integrity).toBe('ok');
      const search = async (text: string, kinds: ('turn' | 'summary' | 'fact')[]): Promise<string[]> =>
        (await store.search({ namespace: 'ns', text, kinds, k: 10 })).map((hit) => `${hit.kind}:${hit.id}`).sort();
      expect(await search('greyhound', ['turn', 'summary', 'fact'])).toEqual(['fact:f1', 'turn:m1']);
      expect(await search('santorini ferry', ['turn'])).toEqual(['turn:m2']);
      expect(await search('island trip', ['summary'])).toEqual(['summary:sum1']);
      expect((await store.messages({ ids: ['m2'] }))[0]?.content).toBe(cold);
      const appended = await store.write({
        ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm4', role: 'user', content: 'Pixel chased a seagull', createdAt: 5, metadata: {} }] }],
      });
      expect(appended.messages[0]?.seq).toBe(4);
      expect(await search('pixel', ['turn'])).toEqual(['turn:m1', 'turn:m3', 'turn:m4']);
      await store.write({ ops: [{ type: 'delete', messages: ['m1'], facts: ['f1'] }] });
      expect(await search('greyhound pixel', ['turn', 'fact'])).toEqual(['turn:m3', 'turn:m4']);
    } finally {
      await store.close();
    }
  });

  it('refuses a file from a newer strata with CONFIG_INVALID naming it, and leaves it unchanged', async () => {
    const newer = new Database(path);
    newer.exec('CREATE TABLE sessions (id TEXT PRIMARY KEY, shape TEXT)');
    newer.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    newer.close();
    const before = await digest();

    const error = await createSqliteSessionStore({ path }).catch((caught: unknown) => caught);
    expect(StrataError.is(error, 'CONFIG_INVALID')).toBe(true);
    expect((error as StrataError).message).toContain(path);
    expect((error as StrataError).message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect((error as StrataError).hint).toMatch(/upgrade/i);
    expect(await digest()).toBe(before);
    expect(existsSync(`${path}-wal`)).toBe(false);
  });

  it('reopening an up-to-date file keeps its data and changes nothing', async () => {
    const first = await createSqliteSessionStore({ path });
    const session = { id: 's1', namespace: 'ns', metadata: { a: 1 }, createdAt: 1, updatedAt: 1, lastSeq: 0 };
    await first.write({ ops: [{ type: 'putSession', session }] });
    await first.close();
    const schema = (): unknown => inspect((db) => db.prepare('SELECT type, name, sql FROM sqlite_schema ORDER BY name').all());
    const before = { schema: schema(), bytes: await digest() };

    const second = await createSqliteSessionStore({ path });
    expect(await second.sessions({})).toEqual([session]);
    await second.close();
    expect(userVersion()).toBe(SCHEMA_VERSION);
    expect(schema()).toEqual(before.schema);
    expect(await digest()).toBe(before.bytes);
  });
});

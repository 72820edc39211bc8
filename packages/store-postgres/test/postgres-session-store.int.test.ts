import { afterAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { StrataError } from '@strata/core';
import type { Fact, Session, StoreOp, StrataErrorCode } from '@strata/core';
import { createPostgresSessionStore, SCHEMA_VERSION, type PostgresSessionStore } from '../src/index.js';
import { MIGRATIONS } from '../src/migrations.js';
import { dropSchemas, POSTGRES_URL, postgresUnavailable, uniqueSchema } from './postgres-server.js';
import { appendsWhile } from './retrying-appends.js';

const unavailable = await postgresUnavailable();
const T0 = Date.UTC(2024, 0, 1);
const session = (id: string): Session => ({ id, namespace: 'ns', metadata: {}, createdAt: T0, updatedAt: T0, lastSeq: 0 });
const fact = (id: string, object: string, validFrom: number): Fact => ({
  id,
  namespace: 'ns',
  subject: 'user',
  predicate: 'lives_in',
  object,
  text: `The user lives in ${object}`,
  sourceMessageIds: [],
  validFrom,
  confidence: 0.9,
  createdAt: validFrom,
  degraded: false,
});

async function expectCode(promise: Promise<unknown>, code: StrataErrorCode, pattern?: RegExp): Promise<StrataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(StrataError.is(error, code), `expected ${code}, got ${String(error)}`).toBe(true);
  if (pattern) expect((error as StrataError).message).toMatch(pattern);
  return error as StrataError;
}

async function sql(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** The SQL text (and, in `values`, the parameters) of every statement any pg client sends (COPY included) until `stop()`; the statements still run. */
function recordStatements(): { sent: string[]; values: unknown[][]; stop: () => void } {
  const sent: string[] = [];
  const values: unknown[][] = [];
  const real = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] };
    sent.push(typeof first === 'string' ? first : (first.text ?? ''));
    values.push((typeof first === 'string' ? args[1] : first.values) as unknown[]);
    return Reflect.apply(real, this, args) as never;
  });
  return { sent, values, stop: () => spy.mockRestore() };
}

describe.skipIf(unavailable !== null)(`PostgresSessionStore on a real server (${POSTGRES_URL})`, () => {
  const schemas: string[] = [];
  const stores: PostgresSessionStore[] = [];
  /** A store on a new schema (or on `schema`), closed and dropped after the suite. */
  const open = async (schema = uniqueSchema(), options: { poolSize?: number; poolTimeoutMs?: number } = {}): Promise<PostgresSessionStore> => {
    if (!schemas.includes(schema)) schemas.push(schema);
    const store = await createPostgresSessionStore({ url: POSTGRES_URL, schema, ...options });
    stores.push(store);
    return store;
  };
  afterAll(async () => {
    for (const store of stores) await store.close();
    await dropSchemas(schemas);
  });

  it('migrates a new schema once when many stores open it at the same moment', async () => {
    const schema = uniqueSchema();
    const opened = await Promise.all(Array.from({ length: 6 }, () => open(schema, { poolSize: 2 })));
    expect(opened).toHaveLength(6);
    const rows = (await sql(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`)).rows as { version: number }[];
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
  });

  it('refuses a schema of a newer strata and one holding other tables, and changes neither', async () => {
    const newer = uniqueSchema();
    await (await open(newer)).close();
    await sql(`INSERT INTO ${newer}.schema_migrations VALUES (${SCHEMA_VERSION + 1}, 'from the future', 0)`);
    await expectCode(open(newer), 'CONFIG_INVALID', /newer than this strata/);
    const foreign = uniqueSchema();
    schemas.push(foreign);
    await sql(`CREATE SCHEMA ${foreign}; CREATE TABLE ${foreign}.orders (id int)`);
    await expectCode(open(foreign), 'CONFIG_INVALID', /not a strata schema.*orders/);
    expect((await sql(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = '${foreign}'`)).rows[0]).toEqual({ n: 1 });
  });

  it('migrates a version 1 schema to version 2: its job records read back without usage, new ones keep theirs', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    await sql(`
      CREATE SCHEMA ${schema};
      SET search_path TO ${schema};
      ${MIGRATIONS[0]?.sql ?? ''};
      CREATE TABLE schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at bigint NOT NULL);
      INSERT INTO schema_migrations VALUES (1, 'version 1', 0);
      INSERT INTO jobs (key, type, session_id, from_seq, to_seq, applied_at) VALUES ('ingest:s1:1-2', 'ingest', 's1', 1, 2, 3), ('summarize:s1:1-2', 'summarize', 's1', 1, 2, 4);
    `);
    const store = await open(schema);
    const versions = (await sql(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`)).rows as { version: number }[];
    expect(versions.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
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
    const stored = (await sql(`SELECT usage->'byModel'->'gpt-4o-mini'->>'calls' AS calls FROM ${schema}.jobs WHERE usage IS NOT NULL`)).rows;
    expect(stored).toEqual([{ calls: '2' }]);
  });

  it('migrates a version 3 schema with postings to version 4: the same search results, each term read from the key index alone', async () => {
    const schema = uniqueSchema();
    schemas.push(schema);
    await sql(`
      CREATE SCHEMA ${schema};
      SET search_path TO ${schema};
      ${MIGRATIONS.filter((m) => m.version <= 3)
        .map((m) => m.sql)
        .join(';\n')};
      CREATE TABLE schema_migrations (version integer PRIMARY KEY, description text NOT NULL, applied_at bigint NOT NULL);
      INSERT INTO schema_migrations VALUES (1, 'version 1', 0), (2, 'version 2', 0), (3, 'version 3', 0);
    `);
    // postings written by a version 3 store, read back by a version 4 one
    const before = (await sql(`SELECT pg_get_indexdef('${schema}.lexical_terms_pkey'::regclass) AS def`)).rows[0]?.def as string;
    expect(before).not.toContain('INCLUDE');
    const writer = await open(schema);
    await writer.write({
      ops: [
        { type: 'putSession', session: session('s1') },
        {
          type: 'appendMessages',
          sessionId: 's1',
          messages: Array.from({ length: 300 }, (_, i) => ({
            id: `m${i}`,
            role: 'user' as const,
            content: `gardening note ${i} about ${i % 3 ? 'tomatoes' : 'basil and tomatoes'}`,
            createdAt: T0 + i,
            metadata: {},
          })),
        },
      ],
    });
    const query = { namespace: 'ns', text: 'basil tomatoes', kinds: ['turn' as const], k: 10 };
    const found = await writer.search(query);
    expect(found).toHaveLength(10);
    // back to version 3 (as an older strata left it), then opened by this one
    await sql(`
      SET search_path TO ${schema};
      ALTER TABLE lexical_terms DROP CONSTRAINT lexical_terms_pkey, ADD CONSTRAINT lexical_terms_pkey PRIMARY KEY (namespace, kind, term, doc);
      DROP TABLE lexical_removals;
      DROP INDEX lexical_docs_by_tx, lexical_docs_by_namespace;
      ALTER TABLE lexical_docs DROP COLUMN tx;
      DELETE FROM schema_migrations WHERE version >= 4;
    `);
    const store = await open(schema);
    const versions = (await sql(`SELECT version FROM ${schema}.schema_migrations ORDER BY version`)).rows as { version: number }[];
    expect(versions.map((r) => r.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    expect((await sql(`SELECT pg_get_indexdef('${schema}.lexical_terms_pkey'::regclass) AS def`)).rows[0]?.def).toContain('INCLUDE (tf, length, session_id)');
    expect(await store.search(query)).toEqual(found);
    // a term's postings, with what a search reads of them, come from the index without a heap page
    type ScanPlan = { 'Node Type': string; 'Heap Fetches'?: number };
    const scan = async (): Promise<ScanPlan> => {
      await sql(`VACUUM ANALYZE ${schema}.lexical_terms`);
      // (the planner's choice for a table this small is forced; at size it makes it itself)
      const results = (await sql(`
        SET search_path TO ${schema};
        SET enable_seqscan = off;
        SET enable_bitmapscan = off;
        EXPLAIN (ANALYZE, FORMAT JSON) SELECT kind, doc, tf, length FROM lexical_terms WHERE namespace = 'ns' AND kind = 'turn' AND term = 'basil' AND (NULL::text IS NULL OR session_id = NULL::text);
      `)) as unknown as pg.QueryResult[];
      return ((results.at(-1) as pg.QueryResult).rows[0] as { 'QUERY PLAN': [{ Plan: ScanPlan }] })['QUERY PLAN'][0].Plan;
    };
    // VACUUM marks pages all-visible only past every open snapshot: a transaction of another
    // test on this server can hold that back for a moment, so it is tried again a few times
    let plan = await scan();
    for (let attempt = 0; attempt < 20 && plan['Heap Fetches'] !== 0; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      plan = await scan();
    }
    const holders = plan['Heap Fetches'] === 0 ? [] : (await sql(`SELECT pid, state, backend_xmin, left(query, 80) AS query FROM pg_stat_activity WHERE backend_xmin IS NOT NULL`)).rows;
    expect(plan, `heap pages not all-visible after VACUUM; snapshots open on the server: ${JSON.stringify(holders)}`).toMatchObject({ 'Node Type': 'Index Only Scan', 'Heap Fetches': 0 });
  });

  it('rejects a bad URL or schema name with CONFIG_INVALID, and an unreachable server with a retryable BACKEND_UNAVAILABLE', async () => {
    await expectCode(createPostgresSessionStore({ url: 'mysql://localhost/x' }), 'CONFIG_INVALID', /not a PostgreSQL URL/);
    await expectCode(createPostgresSessionStore({ url: POSTGRES_URL, schema: 'Robert"; DROP TABLE x' }), 'CONFIG_INVALID', /schema name/);
    const down = await expectCode(createPostgresSessionStore({ url: 'postgres://postgres@127.0.0.1:1/postgres', poolTimeoutMs: 2000 }), 'BACKEND_UNAVAILABLE');
    expect(down.retryable).toBe(true);
  });

  it('fails a call with BACKEND_UNAVAILABLE after poolTimeoutMs when every connection stays busy, and serves it once one is free', async () => {
    const store = await open(uniqueSchema(), { poolSize: 1, poolTimeoutMs: 300 });
    await store.write({ ops: [{ type: 'putSession', session: session('s1') }] });
    // the one connection is held by a write whose transaction waits on a lock held elsewhere
    const schema = schemas[schemas.length - 1] as string;
    const blocker = new pg.Client({ connectionString: POSTGRES_URL });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query(`SELECT 1 FROM ${schema}.sessions WHERE id = 's1' FOR UPDATE`);
    const held = store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm1', role: 'user', content: 'hello', createdAt: T0, metadata: {} }] }] });
    const started = Date.now();
    const error = await expectCode(store.sessions({}), 'BACKEND_UNAVAILABLE', /all 1 connections of the pool stayed busy for 300 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(error.hint).toMatch(/poolSize/);
    await blocker.query('COMMIT');
    await blocker.end();
    expect((await held).messages.map((m) => m.seq)).toEqual([1]);
    expect((await store.sessions({})).map((s) => s.lastSeq)).toEqual([1]);
  });

  it('keeps seqs gap-free and unique when stores with their own pools append to one session at once', async () => {
    const schema = uniqueSchema();
    const writers = await Promise.all(Array.from({ length: 4 }, () => open(schema, { poolSize: 3 })));
    await (writers[0] as PostgresSessionStore).write({ ops: [{ type: 'putSession', session: session('shared') }] });
    const appends = writers.flatMap((store, w) =>
      Array.from({ length: 25 }, (_, i) =>
        store.write({
          ops: [
            {
              type: 'appendMessages',
              sessionId: 'shared',
              messages: [
                { id: `w${w}-${i}-a`, role: 'user', content: `from ${w}`, createdAt: T0 + i, metadata: {} },
                { id: `w${w}-${i}-b`, role: 'assistant', content: 'ok', createdAt: T0 + i, metadata: {} },
              ],
            },
          ],
        }),
      ),
    );
    const receipts = await Promise.all(appends);
    const seqs = receipts.flatMap((r) => r.messages.map((m) => m.seq)).sort((a, b) => a - b);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    // a batch's messages are consecutive
    for (const receipt of receipts) expect((receipt.messages[1]?.seq ?? 0) - (receipt.messages[0]?.seq ?? 0)).toBe(1);
    const reader = writers[3] as PostgresSessionStore;
    expect((await reader.messages({ sessionId: 'shared' })).map((m) => m.seq)).toEqual(seqs);
    expect((await reader.sessions({ ids: ['shared'] }))[0]?.lastSeq).toBe(200);
  });

  it('applies a job once when several stores apply its result at the same moment', async () => {
    const schema = uniqueSchema();
    const writers = await Promise.all(Array.from({ length: 4 }, () => open(schema, { poolSize: 2 })));
    await (writers[0] as PostgresSessionStore).write({ ops: [{ type: 'putSession', session: session('s1') }] });
    const job = { key: 'ingest:s1:1-2', type: 'ingest' as const, sessionId: 's1', fromSeq: 1, toSeq: 2, appliedAt: T0 };
    const receipts = await Promise.all(
      writers.map((store, w) =>
        store.write({
          unlessJobApplied: job.key,
          ops: [
            { type: 'putFacts', facts: [fact(`f-${w}`, `City ${w}`, T0 + w)] },
            { type: 'recordJobs', jobs: [job] },
          ],
        }),
      ),
    );
    expect(receipts.filter((r) => r.applied)).toHaveLength(1);
    const facts = await (writers[1] as PostgresSessionStore).facts({ namespace: 'ns', includeSuperseded: true });
    expect(facts).toHaveLength(1);
    expect(await (writers[2] as PostgresSessionStore).jobs({ sessionId: 's1' })).toEqual([job]);
  });

  it('keeps one current fact per slot when stores write the slot at once: all but one fail with CONFLICT and write nothing', async () => {
    const schema = uniqueSchema();
    const writers = await Promise.all(Array.from({ length: 6 }, () => open(schema, { poolSize: 2 })));
    for (let round = 0; round < 5; round++) {
      const slot = (id: string, object: string, at: number): Fact => ({ ...fact(id, object, at), predicate: `lives_in_${round}` });
      const results = await Promise.allSettled(writers.map((store, w) => store.write({ ops: [{ type: 'putFacts', facts: [slot(`f${round}-${w}`, `City ${w}`, T0 + w)] }] })));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) if (result.status === 'rejected') expect(StrataError.is(result.reason, 'CONFLICT')).toBe(true);
      expect(await (writers[0] as PostgresSessionStore).facts({ namespace: 'ns', predicate: `lives_in_${round}`, includeSuperseded: true })).toHaveLength(1);
    }
  });

  it('vacuums and analyzes the tables an import grew, so that reads are planned on the index and count postings from it at once', async () => {
    const schema = uniqueSchema();
    const store = await open(schema);
    const sessions = Array.from({ length: 40 }, (_, i) => ({ ...session(`s${i}`), lastSeq: 50 }));
    const messages = sessions.flatMap((s) =>
      Array.from({ length: 50 }, (_, j) => ({
        id: `${s.id}-m${j + 1}`,
        sessionId: s.id,
        namespace: 'ns',
        seq: j + 1,
        role: 'user' as const,
        content: `turn ${j} of ${s.id} about the garden`,
        createdAt: T0 + j,
        metadata: {},
      })),
    );
    await store.write({ ops: [...sessions.map((s) => ({ type: 'putSession' as const, session: s })), { type: 'insertMessages', messages }] });
    // a manual VACUUM (ANALYZE), not autovacuum's (which waits for its next round)
    const analyzed = await sql(`SELECT relname FROM pg_stat_user_tables WHERE schemaname = '${schema}' AND last_analyze IS NOT NULL AND last_vacuum IS NOT NULL ORDER BY relname`);
    expect(analyzed.rows.map((r: { relname: string }) => r.relname)).toEqual(['lexical_docs', 'lexical_terms', 'messages', 'sessions']);

    const ranges = [
      { sessionId: 's3', fromSeq: 4, toSeq: 8 },
      { sessionId: 's3', fromSeq: 7, toSeq: 10 },
      { sessionId: 's17', fromSeq: 49, toSeq: 60 },
    ];
    const found = await store.messages({ seqRanges: ranges, namespace: 'ns' });
    expect(found.map((m) => m.id)).toEqual(['s17-m49', 's17-m50', ...[4, 5, 6, 7, 8, 9, 10].map((n) => `s3-m${n}`)]);
  });

  it('reads the newest facts of a few kinds by one index scan per kind, never through the observations that crowd the namespace', async () => {
    const schema = uniqueSchema();
    const store = await open(schema);
    const observations = Array.from({ length: 400 }, (_, i): Fact => ({ ...fact(`o${i}`, `note ${i}`, T0 + 10 * i), predicate: `observation:note ${i}`, text: `The user noted thing ${i}` }));
    const profile: Fact[] = [
      { ...fact('p1', 'Lisbon', T0 + 1), validTo: T0 + 5, supersededBy: 'p2' },
      fact('p2', 'Porto', T0 + 5),
      { ...fact('p3', 'a cat', T0 + 7), predicate: 'pet:cat' },
      { ...fact('p4', 'a dog', T0 + 9_000), predicate: 'pet:dog' },
      { ...fact('p5', 'Ana', T0 + 9_001), predicate: 'partner' },
    ];
    await store.write({ ops: [{ type: 'putFacts', facts: [...observations, ...profile] }] });
    const filter = { namespace: 'ns', predicateKinds: ['lives_in', 'pet', 'lives_in'], last: 2 };
    // the newest two current facts of those kinds, oldest first; a superseded one and other kinds are left out
    expect((await store.facts(filter)).map((f) => f.id)).toEqual(['p3', 'p4']);
    expect((await store.facts({ ...filter, last: undefined })).map((f) => f.id)).toEqual(['p2', 'p3', 'p4']);
    expect((await store.facts({ ...filter, includeSuperseded: true })).map((f) => f.id)).toEqual(['p3', 'p4']);
    expect((await store.facts({ ...filter, includeSuperseded: true, last: 10 })).map((f) => f.id)).toEqual(['p1', 'p2', 'p3', 'p4']);

    // what the server reads for it, on fresh statistics and on none: the rows of those kinds, not the 400 observations
    const recorded = recordStatements();
    await store.facts(filter);
    recorded.stop();
    const at = recorded.sent.findIndex((text) => text.includes('FROM facts'));
    const statement = { text: recorded.sent[at] as string, values: recorded.values[at] as unknown[] };
    const factRowsRead = async (settings = ''): Promise<number> => {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`SET search_path TO ${schema}; ${settings}`);
        const explained = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${statement.text}`, statement.values);
        type PlanNode = { 'Relation Name'?: string; 'Actual Rows': number; 'Actual Loops': number; 'Rows Removed by Filter'?: number; Plans?: PlanNode[] };
        const read = (node: PlanNode): number =>
          (node['Relation Name'] === 'facts' ? (node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0)) * node['Actual Loops'] : 0) +
          (node.Plans ?? []).reduce((sum, child) => sum + read(child), 0);
        return read((explained.rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'][0].Plan);
      } finally {
        await client.end();
      }
    };
    expect(await factRowsRead()).toBeLessThan(20);
    await sql(`VACUUM ANALYZE ${schema}.facts`);
    // (a table this small is best read whole once its statistics say so: at size the planner makes the choice itself)
    expect(await factRowsRead('SET enable_seqscan = off;')).toBeLessThan(20);
  });

  it('removes the postings of what it forgets with it (postings have no foreign key since schema 3): turns, a session, a fact', async () => {
    const schema = uniqueSchema();
    const store = await open(schema);
    const fact = {
      id: 'f1',
      namespace: 'ns',
      subject: 'user',
      predicate: 'owns',
      object: 'a kayak',
      text: 'User owns a kayak named Zephyrine.',
      sourceMessageIds: ['m1'],
      validFrom: T0,
      confidence: 1,
      createdAt: T0,
      degraded: false,
    };
    await store.write({
      ops: [
        { type: 'putSession', session: session('s1') },
        { type: 'putSession', session: session('s2') },
      ],
    });
    // a lone append (one statement) and one inside a batch (the transaction) index alike
    await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm1', role: 'user', content: 'My kayak is called Zephyrine', createdAt: T0, metadata: {} }] }] });
    await store.write({
      ops: [
        { type: 'appendMessages', sessionId: 's2', messages: [{ id: 'm2', role: 'user', content: 'Quillwort grows by the pond', createdAt: T0, metadata: {} }] },
        { type: 'putFacts', facts: [fact] },
      ],
    });
    const postings = async (term: string): Promise<number> => Number((await sql(`SELECT count(*)::int AS n FROM ${schema}.lexical_terms WHERE term = '${term}'`)).rows[0]?.n);
    const orphans = async (): Promise<number> =>
      Number((await sql(`SELECT count(*)::int AS n FROM ${schema}.lexical_terms t WHERE NOT EXISTS (SELECT 1 FROM ${schema}.lexical_docs d WHERE d.doc = t.doc)`)).rows[0]?.n);
    expect([await postings('zephyrin'), await postings('quillwort')]).toEqual([2, 1]);
    await store.write({ ops: [{ type: 'delete', messages: ['m1'] }] });
    expect(await postings('zephyrin')).toBe(1);
    await store.write({ ops: [{ type: 'putFacts', facts: [{ ...fact, validTo: T0 + 1 }] }] });
    expect(await postings('zephyrin')).toBe(0);
    await store.write({ ops: [{ type: 'delete', sessions: ['s2'] }] });
    expect(await postings('quillwort')).toBe(0);
    expect(await orphans()).toBe(0);
    expect(await store.search({ namespace: 'ns', text: 'zephyrine quillwort', kinds: ['turn', 'fact'], k: 5 })).toEqual([]);
  });

  it('sends a lone append as one statement (one round trip), and a batch as one transaction', async () => {
    const store = await open();
    await store.write({ ops: [{ type: 'putSession', session: session('s1') }] });
    const { sent, stop } = recordStatements();
    try {
      sent.length = 0;
      const [stored] = (await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm1', role: 'user', content: 'one trip', createdAt: T0, metadata: {} }] }] })).messages;
      expect(stored?.seq).toBe(1);
      expect(sent).toHaveLength(1);
      sent.length = 0;
      await store.write({
        ops: [
          { type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm2', role: 'user', content: 'in a batch', createdAt: T0, metadata: {} }] },
          { type: 'recordJobs', jobs: [] },
        ],
      });
      expect(sent[0]).toBe('BEGIN');
      expect(sent.at(-1)).toBe('COMMIT');
    } finally {
      stop();
    }
    expect((await store.messages({ sessionId: 's1' })).map((m) => [m.id, m.seq])).toEqual([
      ['m1', 1],
      ['m2', 2],
    ]);
  });

  it('imports turns and their postings with COPY: tabs, line breaks, backslashes, NUL and any script come back exactly, and are found', async () => {
    const store = await open();
    await store.write({ ops: [{ type: 'putSession', session: session('s1') }] });
    const odd = ['col\tumns\tsplit', 'two\nlines\r\nand a carriage', 'C:\\path\\to\\N and \\N itself', 'nul \u0000 inside', 'ünïcödé 日本語 emoji 🎒', ''];
    const messages = Array.from({ length: 150 }, (_, i) => ({
      id: `imp${i}`,
      sessionId: 's1',
      namespace: 'ns',
      seq: i + 1,
      role: 'user' as const,
      content: `${odd[i % odd.length]} turn${i} alpha${i % 7} beta${i % 11} gamma${i % 13} delta epsilon zeta eta theta`,
      ...(i % 5 === 0 ? { name: `name\twith\\tab${i}` } : {}),
      createdAt: T0 + i,
      metadata: i % 3 === 0 ? { note: 'a\tb\nc\\d' } : {},
    }));
    const { sent, stop } = recordStatements();
    try {
      await store.write({ ops: [{ type: 'insertMessages', messages }] });
    } finally {
      stop();
    }
    expect(sent.filter((text) => text.startsWith('COPY')).map((text) => text.split(' ')[1])).toEqual(['lexical_terms', 'messages']);
    const stored = await store.messages({ sessionId: 's1' });
    expect(stored.map((m) => ({ id: m.id, content: m.content, name: m.name, metadata: m.metadata }))).toEqual(
      messages.map((m) => ({ id: m.id, content: m.content, name: m.name, metadata: m.metadata })),
    );
    expect((await store.search({ namespace: 'ns', text: 'turn42', kinds: ['turn'], k: 5 })).map((h) => h.id)).toEqual(['imp42']);
    const split = await store.search({ namespace: 'ns', text: 'columns split', kinds: ['turn'], k: 200 });
    expect(new Set(split.map((h) => h.id))).toEqual(new Set(messages.filter((_, i) => i % 6 === 0).map((m) => m.id)));
  });

  it("writes an import's sessions, turns and job records in the same number of statements for 3 sessions as for 40", async () => {
    const store = await open();
    const importOps = (prefix: string, sessions: number): StoreOp[] => {
      const ids = Array.from({ length: sessions }, (_, i) => `${prefix}${i}`);
      return [
        ...ids.map((id) => ({ type: 'putSession' as const, session: { ...session(id), title: `title ${id}`, lastSeq: 20 } })),
        {
          type: 'insertMessages',
          messages: ids.flatMap((id) =>
            Array.from({ length: 20 }, (_, i) => ({
              id: `${id}m${i}`,
              sessionId: id,
              namespace: 'ns',
              seq: i + 1,
              role: 'user' as const,
              content: `turn ${i} of ${id}`,
              createdAt: T0 + i,
              metadata: {},
            })),
          ),
        },
        { type: 'recordJobs', jobs: ids.map((id) => ({ key: `ingest:${id}:1-20`, type: 'ingest' as const, sessionId: id, fromSeq: 1, toSeq: 20, appliedAt: T0 })) },
      ];
    };
    const sentFor = async (ops: StoreOp[]): Promise<string[]> => {
      const { sent, stop } = recordStatements();
      try {
        await store.write({ ops });
      } finally {
        stop();
      }
      return sent;
    };
    const few = await sentFor(importOps('few', 3));
    const many = await sentFor(importOps('many', 40));
    // the postings go by INSERT or by COPY depending on their number: one statement either way
    expect(many).toHaveLength(few.length);
    const stored = await store.sessions({ ids: ['many0', 'many39'] });
    expect(stored.map((s) => [s.id, s.title, s.lastSeq])).toEqual([
      ['many0', 'title many0', 20],
      ['many39', 'title many39', 20],
    ]);
    expect(await store.messages({ sessionId: 'many39' })).toHaveLength(20);
    expect((await store.jobs({ sessionId: 'many39' })).map((j) => j.key)).toEqual(['ingest:many39:1-20']);
    // a session put twice in a row: each step in order, as the port says (the later one wins, lastSeq never goes down)
    await store.write({
      ops: [
        { type: 'putSession', session: { ...session('twice'), title: 'first', lastSeq: 5 } },
        { type: 'putSession', session: { ...session('twice'), title: 'second', lastSeq: 2 } },
        { type: 'putSession', session: session('after') },
      ],
    });
    expect((await store.sessions({ ids: ['twice', 'after'] })).map((s) => [s.id, s.title, s.lastSeq])).toEqual([
      ['after', undefined, 0],
      ['twice', 'second', 5],
    ]);
  });

  it('sees a write of another store at once: search and reads share one index', async () => {
    const schema = uniqueSchema();
    const [writer, reader] = await Promise.all([open(schema), open(schema)]);
    await (writer as PostgresSessionStore).write({
      ops: [
        { type: 'putSession', session: session('s1') },
        { type: 'appendMessages', sessionId: 's1', messages: [{ id: 'm1', role: 'user', content: 'We adopted a golden retriever', createdAt: T0, metadata: {} }] },
      ],
    });
    expect((await (reader as PostgresSessionStore).search({ namespace: 'ns', text: 'retrievers', kinds: ['turn'], k: 5 })).map((h) => h.id)).toEqual(['m1']);
    await (reader as PostgresSessionStore).write({ ops: [{ type: 'delete', messages: ['m1'] }] });
    expect(await (writer as PostgresSessionStore).search({ namespace: 'ns', text: 'retriever', kinds: ['turn'], k: 5 })).toEqual([]);
    expect(await (writer as PostgresSessionStore).messages({ sessionId: 's1' })).toEqual([]);
  });
});

if (unavailable !== null) {
  describe.skip(`store-postgres: ${unavailable}`, () => {
    it('PostgreSQL-specific behaviour', () => {});
  });
}

describe.skipIf(unavailable !== null)('PostgresSessionStore when the server drops its connections (what a restart does to clients)', () => {
  it('fails the writes caught in flight with a retryable BACKEND_UNAVAILABLE, loses no acknowledged append, and recovers by itself', async () => {
    const schema = uniqueSchema();
    const applicationName = `strata_test_${schema}`;
    const store = await createPostgresSessionStore({ url: POSTGRES_URL, schema, poolSize: 4, applicationName });
    try {
      await store.write({ ops: [{ type: 'putSession', session: session('s1') }] });
      let dropped = 0;
      // each round drops the connections once the writers got on again: appends go through between the drops
      const { acknowledged, failures } = await appendsWhile(store, 's1', 3, async (progress) => {
        for (let round = 0; round < 5; round++) {
          await progress.acknowledged(10);
          const result = await sql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${applicationName}'`);
          dropped += result.rowCount ?? 0;
        }
        await progress.acknowledged(10);
      });
      expect(dropped).toBeGreaterThan(0);
      expect(failures.length).toBeGreaterThan(0);
      for (const failure of failures) {
        expect(failure.code).toBe('BACKEND_UNAVAILABLE');
        expect(failure.retryable).toBe(true);
      }
      // recovered: the pool replaced the dropped connections, and every acknowledged append is stored once, gap-free
      const stored = await store.messages({ sessionId: 's1' });
      expect(new Set(stored.map((m) => m.id))).toEqual(new Set(acknowledged));
      expect(stored.map((m) => m.seq)).toEqual(stored.map((_, i) => i + 1));
    } finally {
      await store.close();
      await dropSchemas([schema]);
    }
  });
});

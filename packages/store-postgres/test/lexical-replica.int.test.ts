import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import type { Fact, LexicalHit, LexicalQuery, Session } from '@strata/core';
import { createPostgresSessionStore, type PostgresSessionStore } from '../src/index.js';
import { dropSchemas, POSTGRES_URL, postgresUnavailable, uniqueSchema } from './postgres-server.js';

const unavailable = await postgresUnavailable();
const T0 = Date.UTC(2024, 0, 1);
const WORDS = ['kayak', 'garden', 'tomato', 'basil', 'river', 'mountain', 'violin', 'recipe', 'marathon', 'library', 'sister', 'birthday'];
const session = (id: string, namespace = 'ns'): Session => ({ id, namespace, metadata: {}, createdAt: T0, updatedAt: T0, lastSeq: 0 });
const turn = (id: string, i: number) => ({
  id,
  role: 'user' as const,
  // a few words of the list, some repeated, so that scores differ by tf, length and rarity
  content: `${WORDS[i % WORDS.length]} and ${WORDS[(i * 7) % WORDS.length]} ${i % 5 === 0 ? `${WORDS[(i * 3) % WORDS.length]} again` : ''} note ${i}`,
  createdAt: T0 + i,
  metadata: {},
});
const fact = (id: string, object: string, extra: Partial<Fact> = {}): Fact => ({
  id,
  namespace: 'ns',
  subject: 'user',
  predicate: `likes:${id}`,
  object,
  text: `User likes ${object}`,
  sourceMessageIds: [],
  validFrom: T0,
  confidence: 0.9,
  createdAt: T0,
  degraded: false,
  ...extra,
});

const QUERIES: LexicalQuery[] = [
  { namespace: 'ns', text: 'kayak river', kinds: ['turn', 'summary', 'fact'], k: 10 },
  { namespace: 'ns', text: 'basil tomato garden recipe', kinds: ['turn'], k: 5 },
  { namespace: 'ns', text: 'violin', kinds: ['fact'], k: 10 },
  { namespace: 'ns', text: 'marathon library sister birthday mountain kayak violin note', kinds: ['turn', 'fact'], k: 20 },
  { namespace: 'ns', text: 'kayak garden', kinds: ['turn', 'summary', 'fact'], k: 10, sessionId: 's1' },
];

/**
 * The same scores, position by position (to float rounding: SQL and the replica sum a
 * document's terms in different orders), and the same hits among those of one score. Hits
 * whose scores tie only to rounding may come in either order; of a tie cut by k (the last
 * group), either side may keep other members.
 */
function expectSameHits(actual: LexicalHit[], expected: LexicalHit[]): void {
  expect(actual.map((hit) => hit.score.toFixed(9))).toEqual(expected.map((hit) => hit.score.toFixed(9)));
  const groups = (hits: LexicalHit[]): string[][] => {
    const out: string[][] = [];
    hits.forEach((hit, i) => {
      const same = i > 0 && Math.abs(hit.score - (hits[i - 1] as LexicalHit).score) < 1e-9;
      if (same) (out[out.length - 1] as string[]).push(`${hit.kind}:${hit.id}`);
      else out.push([`${hit.kind}:${hit.id}`]);
    });
    return out.map((group) => group.sort());
  };
  expect(groups(actual).slice(0, -1)).toEqual(groups(expected).slice(0, -1));
}

async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface ReaderAnswer {
  ids?: string[];
  error?: string;
  stats?: { held: { namespace: string; documents: number }[]; searchesByReplica: number; searchesBySql: number };
}

/** Another app process on the same schema (fixtures/replica-reader.ts), asked one command at a time. */
async function startReader(schema: string): Promise<{ ask: (command: object) => Promise<ReaderAnswer>; stop: () => Promise<void> }> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const script = new URL('./fixtures/replica-reader.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, ['--import', tsx, '--conditions=@strata/source', script, POSTGRES_URL, schema, 'ns'], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async (): Promise<ReaderAnswer & { ready?: boolean }> => {
    const line = await lines.next();
    if (line.done) throw new Error(`the reader exited: ${stderr}`);
    return JSON.parse(line.value) as ReaderAnswer;
  };
  expect(await next()).toEqual({ ready: true });
  return {
    ask: async (command) => {
      child.stdin.write(`${JSON.stringify(command)}\n`);
      return next();
    },
    stop: async () => {
      const exited = new Promise((resolve) => child.once('close', resolve));
      child.stdin.end();
      await exited;
    },
  };
}

describe.skipIf(unavailable !== null)(`the lexical replica of PostgresSessionStore (${POSTGRES_URL})`, () => {
  const schemas: string[] = [];
  const stores: PostgresSessionStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await dropSchemas(schemas);
  });
  async function open(schema: string, options: { lexicalReplicaDocuments?: number } = {}): Promise<PostgresSessionStore> {
    if (!schemas.includes(schema)) schemas.push(schema);
    const store = await createPostgresSessionStore({ url: POSTGRES_URL, schema, poolSize: 3, ...options });
    stores.push(store);
    return store;
  }

  it('answers the searches of one context assembly from one catch-up, which saw every write acknowledged before the assembly began', async () => {
    const schema = uniqueSchema();
    const writer = await open(schema, { lexicalReplicaDocuments: 0 });
    const reader = await open(schema);
    const query: LexicalQuery = { namespace: 'ns', text: 'kayak note', kinds: ['turn'], k: 50 };
    await writer.write({
      ops: [
        { type: 'putSession', session: session('s1') },
        { type: 'appendMessages', sessionId: 's1', messages: [turn('m1', 0)] },
      ],
    });
    expect((await reader.search(query)).map((hit) => hit.id)).toEqual(['m1']);
    let catchUps = 0;
    const real = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
      if ((args[0] as { name?: string }).name === 'strata_replica_changes') catchUps++;
      return Reflect.apply(real, this, args) as never;
    });
    try {
      // acknowledged before the assembly begins: its first search must see it
      await writer.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('m2', 12)] }] });
      const began = performance.now();
      const first = (await reader.search({ ...query, freshAsOf: began })).map((hit) => hit.id).sort();
      expect(first).toEqual(['m1', 'm2']);
      expect(catchUps).toBe(1);
      // acknowledged after it began: the assembly's later searches may leave it out, and need no round trip of their own
      await writer.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('m3', 24)] }] });
      expect((await reader.search({ ...query, freshAsOf: began })).map((hit) => hit.id).sort()).toEqual(first);
      expect(catchUps).toBe(1);
      // a search of its own (a later assembly, or none) catches up again and sees it
      expect((await reader.search(query)).map((hit) => hit.id).sort()).toEqual(['m1', 'm2', 'm3']);
      expect((await reader.search({ ...query, freshAsOf: performance.now() })).map((hit) => hit.id)).toHaveLength(3);
      expect(catchUps).toBe(3);
    } finally {
      spy.mockRestore();
    }
  });

  it('answers every search as BM25 in SQL does, through appends, imports, summaries, superseded facts and forgets', async () => {
    const schema = uniqueSchema();
    const replica = await open(schema);
    const bySql = await open(schema, { lexicalReplicaDocuments: 0 });
    const compare = async (): Promise<void> => {
      for (const query of QUERIES) expectSameHits(await replica.search(query), await bySql.search(query));
    };
    await replica.write({
      ops: [
        { type: 'putSession', session: session('s1') },
        { type: 'putSession', session: session('s2') },
      ],
    });
    await replica.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: Array.from({ length: 40 }, (_, i) => turn(`a${i}`, i)) }] });
    await compare();
    // what another process writes after the replica loaded, as one statement, a transaction and an import
    await bySql.write({ ops: [{ type: 'appendMessages', sessionId: 's2', messages: [turn('b0', 3)] }] });
    await bySql.write({
      ops: [
        { type: 'appendMessages', sessionId: 's2', messages: [turn('b1', 4)] },
        { type: 'putFacts', facts: [fact('f1', 'violin lessons'), fact('f2', 'kayak trips')] },
      ],
    });
    await bySql.write({
      ops: [
        { type: 'insertMessages', messages: Array.from({ length: 30 }, (_, i) => ({ ...turn(`c${i}`, i + 100), sessionId: 's2', namespace: 'ns', seq: 10 + i })) },
        {
          type: 'putSummaries',
          summaries: [
            {
              id: 'sum1',
              sessionId: 's1',
              namespace: 'ns',
              level: 'batch',
              fromSeq: 1,
              toSeq: 10,
              text: 'They talked about the kayak and the river',
              sourceMessageIds: ['a1'],
              createdAt: T0,
              degraded: false,
            },
          ],
        },
      ],
    });
    await compare();
    await bySql.write({ ops: [{ type: 'putFacts', facts: [fact('f1', 'violin lessons', { validTo: T0 + 5 }), fact('f3', 'violin concerts')] }] });
    await compare();
    await bySql.write({ ops: [{ type: 'delete', messages: ['a1', 'a13', 'c4'], facts: ['f2'] }] });
    await compare();
    await bySql.write({ ops: [{ type: 'delete', sessions: ['s2'] }] });
    await compare();
    // and what it writes itself
    await replica.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('a40', 1), turn('a41', 2)] }] });
    await replica.write({ ops: [{ type: 'delete', messages: ['a0'] }] });
    await compare();
    const stats = replica.lexicalReplicaStats();
    expect(stats?.searchesBySql).toBe(0);
    expect(stats?.searchesByReplica).toBe(QUERIES.length * 6);
    // 39 turns (40, 2 forgotten by the other store, 2 added, 1 forgotten here), the summary, the current fact
    expect(stats?.held).toEqual([{ namespace: 'ns', documents: 41 }]);
    expect(bySql.lexicalReplicaStats()).toBeUndefined();
  });

  it('answers by SQL while a large namespace loads in the background, then by the replica, with the same hits', async () => {
    const schema = uniqueSchema();
    const writer = await open(schema, { lexicalReplicaDocuments: 0 });
    await writer.write({ ops: [{ type: 'putSession', session: session('s1') }] });
    await writer.write({ ops: [{ type: 'insertMessages', messages: Array.from({ length: 4_500 }, (_, i) => ({ ...turn(`m${i}`, i), sessionId: 's1', namespace: 'ns', seq: i + 1 })) }] });
    const reader = await open(schema);
    const query = QUERIES[0] as LexicalQuery;
    const expected = await writer.search(query);
    expectSameHits(await reader.search(query), expected);
    expect(reader.lexicalReplicaStats()).toMatchObject({ searchesBySql: 1, searchesByReplica: 0 });
    // written while it loads, or after: the catch-up from the snapshot taken before its first page brings it
    await writer.write({ ops: [{ type: 'delete', messages: ['m0', 'm4499'] }] });
    await writer.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [turn('late', 0)] }] });
    await until(() => reader.lexicalReplicaStats()?.held.length === 1, 'the load');
    expectSameHits(await reader.search(query), await writer.search(query));
    expect(reader.lexicalReplicaStats()).toMatchObject({ held: [{ namespace: 'ns', documents: 4_499 }], searchesByReplica: 1 });
  });

  it('holds namespaces under its cap, least recently searched dropped first, the one searched always held', async () => {
    const schema = uniqueSchema();
    const store = await open(schema, { lexicalReplicaDocuments: 100 });
    for (const namespace of ['n1', 'n2', 'n3']) {
      await store.write({
        ops: [
          { type: 'putSession', session: session(`s-${namespace}`, namespace) },
          { type: 'appendMessages', sessionId: `s-${namespace}`, messages: Array.from({ length: namespace === 'n3' ? 150 : 40 }, (_, i) => turn(`${namespace}-${i}`, i)) },
        ],
      });
    }
    const search = (namespace: string) => store.search({ namespace, text: 'kayak', kinds: ['turn'], k: 3 });
    await search('n1');
    await search('n2');
    expect(store.lexicalReplicaStats()?.held).toEqual([
      { namespace: 'n1', documents: 40 },
      { namespace: 'n2', documents: 40 },
    ]);
    await search('n1');
    await search('n3');
    expect(store.lexicalReplicaStats()?.held).toEqual([{ namespace: 'n3', documents: 150 }]);
    expect((await search('n2')).map((hit) => hit.id)).toEqual(['n2-0', 'n2-12', 'n2-24']);
    expect(store.lexicalReplicaStats()?.held).toEqual([{ namespace: 'n2', documents: 40 }]);
  });

  it('logs what it removes for replicas as kind and id only, and drops log rows older than a day with the next removal', async () => {
    const schema = uniqueSchema();
    const store = await open(schema);
    await store.write({
      ops: [
        { type: 'putSession', session: session('s1') },
        { type: 'appendMessages', sessionId: 's1', messages: [turn('m1', 1), turn('m2', 2)] },
      ],
    });
    await sql(`INSERT INTO ${schema}.lexical_removals (namespace, kind, id, at) VALUES ('ns', 'turn', 'old', now() - interval '25 hours'), ('ns', 'turn', 'recent', now() - interval '23 hours')`);
    await store.write({ ops: [{ type: 'delete', messages: ['m1'] }] });
    const rows = (await sql(`SELECT * FROM ${schema}.lexical_removals ORDER BY at`)).rows as Record<string, unknown>[];
    expect(rows.map((row) => row.id)).toEqual(['recent', 'm1']);
    expect(Object.keys(rows[1] ?? {}).sort()).toEqual(['at', 'id', 'kind', 'namespace', 'tx']);
  });

  it('another process never serves a turn or fact forgotten here, including after it lost its connections', async () => {
    const schema = uniqueSchema();
    const store = await open(schema);
    await store.write({
      ops: [
        { type: 'putSession', session: session('s1') },
        { type: 'appendMessages', sessionId: 's1', messages: Array.from({ length: 30 }, (_, i) => ({ ...turn(`m${i}`, i), content: `kayak trip number ${i}` })) },
        { type: 'putFacts', facts: [fact('f1', 'the red kayak')] },
      ],
    });
    const reader = await startReader(schema);
    try {
      const first = await reader.ask({ search: 'kayak' });
      expect(first.ids).toHaveLength(31);
      expect(first.stats).toMatchObject({ held: [{ namespace: 'ns', documents: 31 }], searchesByReplica: 1 });
      const forgotten: string[] = [];
      // each forget acknowledged here, then a search there: never served afterwards
      for (let i = 0; i < 10; i++) {
        await store.write({ ops: [{ type: 'delete', messages: [`m${i}`] }] });
        forgotten.push(`m${i}`);
        const answer = await reader.ask({ search: 'kayak trip' });
        expect(answer.ids?.filter((id) => forgotten.includes(id))).toEqual([]);
        expect(answer.ids).toHaveLength(30 - forgotten.length + 1);
      }
      // the reader's connections are cut; meanwhile a fact is superseded and turns are forgotten and added
      await sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'strata-replica-reader'");
      await store.write({ ops: [{ type: 'putFacts', facts: [fact('f1', 'the red kayak', { validTo: T0 + 1 })] }] });
      await store.write({ ops: [{ type: 'delete', messages: ['m10', 'm11'] }] });
      await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [{ ...turn('new', 0), content: 'a kayak bought after the cut' }] }] });
      let answer = await reader.ask({ search: 'kayak' });
      // a connection that was cut may fail the next statement once (BACKEND_UNAVAILABLE); an app retries
      for (let tries = 0; answer.error !== undefined && tries < 5; tries++) answer = await reader.ask({ search: 'kayak' });
      expect(answer.error).toBeUndefined();
      expect(answer.ids).toContain('new');
      for (const gone of [...forgotten, 'm10', 'm11', 'f1']) expect(answer.ids).not.toContain(gone);
      expect(answer.ids).toHaveLength(30 - 12 + 1);
      // answered by the replica it kept, caught up, not by SQL or a new load
      expect(answer.stats?.searchesBySql).toBe(0);
      expect(answer.stats?.held).toEqual([{ namespace: 'ns', documents: 30 - 12 + 1 }]);
    } finally {
      await reader.stop();
    }
  });
});

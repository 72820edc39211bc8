/**
 * `npm run bench -- postgres-search`: BM25 search on the PostgreSQL store at the size users reach
 * (1M turns in a namespace; --quick: 100k), answered two ways over the same postings: by the
 * process's lexical replica (core's BM25 index, caught up from the server before each search)
 * and by BM25 computed in SQL (the store with `lexicalReplicaDocuments: 0`). A second store on
 * the same schema, standing for another app process, appends a turn before every search, so
 * each replica search first reads that write. Same data, same queries, alternating rounds.
 * Both paths must return the same scores for every query, or the scenario fails. Needs
 * PostgreSQL (STRATA_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres): run only
 * when named.
 */
import { randomBytes } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import pg from 'pg';
import type { LexicalQuery } from '@strata/core';
import { createPostgresSessionStore, type PostgresSessionStore } from '@strata/store-postgres';
import type { BenchTable, Figure, LatencyMetric } from '../lib/bench-result.js';
import { messagesBundle } from '../lib/bulk-corpus.js';
import { ConversationGenerator } from '../lib/conversation-generator.js';
import { summarize } from '../lib/stats.js';

const POSTGRES_URL = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAMESPACE = 'ns';
const SESSION_TURNS = 50;
const SESSIONS_PER_WRITE = 100;
/** What getContext asks of the index for its main ranking (retrieve's depth for a 10-item context). */
const K = 30;

/** A full garbage collection, so heap figures compare live objects (V8's gc exposed for this process). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const PATHS = ['replica in process', 'BM25 in SQL'] as const;
type Path = (typeof PATHS)[number];

interface Plan {
  turns: number;
  queries: number;
  rounds: number;
}
const FULL: Plan = { turns: 1_000_000, queries: 200, rounds: 2 };
const QUICK: Plan = { turns: 100_000, queries: 100, rounds: 1 };

/** Each query once, timed, after the other process's append; each answer's scores as text, to compare the paths. */
async function searchAll(store: PostgresSessionStore, writer: { append: () => Promise<void> }, queries: readonly LexicalQuery[]): Promise<{ samples: number[]; answers: string[] }> {
  const samples: number[] = [];
  const answers: string[] = [];
  for (const query of queries) {
    await writer.append();
    const started = process.hrtime.bigint();
    const hits = await store.search(query);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    answers.push(hits.map((h) => h.score.toFixed(6)).join(' '));
  }
  return { samples, answers };
}

export async function runPostgresSearchBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; tables: BenchTable[]; notes: string[] }> {
  const plan = options.quick ? QUICK : FULL;
  const schema = `strata_bench_search_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  const writerStore = await createPostgresSessionStore({ url: POSTGRES_URL, schema, lexicalReplicaDocuments: 0 });
  const stores: Partial<Record<Path, PostgresSessionStore>> = {};
  try {
    const chat = new ConversationGenerator(5);
    const loadStarted = performance.now();
    for (let first = 0; first < plan.turns / SESSION_TURNS; first += SESSIONS_PER_WRITE) {
      const bundle = messagesBundle(chat, NAMESPACE, first, SESSIONS_PER_WRITE, SESSION_TURNS);
      await writerStore.write({
        ops: [...bundle.sessions.map((s) => ({ type: 'putSession' as const, session: s.session })), { type: 'insertMessages', messages: bundle.sessions.flatMap((s) => s.messages) }],
      });
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const sizes = (
      await admin.query<{ heap: string; key: string }>(
        `SELECT pg_size_pretty(pg_relation_size('${schema}.lexical_terms')) AS heap, pg_size_pretty(pg_relation_size('${schema}.lexical_terms_pkey')) AS key`,
      )
    ).rows[0];
    // the other app process: a turn a search, in a session of its own
    const live = { id: 'live', namespace: NAMESPACE, metadata: {}, createdAt: 0, updatedAt: 0, lastSeq: 0 };
    await writerStore.write({ ops: [{ type: 'putSession', session: live }] });
    let appended = 0;
    const writer = {
      append: async () => {
        appended++;
        await writerStore.write({ ops: [{ type: 'appendMessages', sessionId: 'live', messages: [{ ...chat.next(), id: `live-${appended}`, createdAt: appended, metadata: {} }] }] });
      },
    };
    collectGarbage();
    const heapBefore = process.memoryUsage();
    stores['replica in process'] = await createPostgresSessionStore({ url: POSTGRES_URL, schema });
    stores['BM25 in SQL'] = await createPostgresSessionStore({ url: POSTGRES_URL, schema, lexicalReplicaDocuments: 0 });
    const asker = new ConversationGenerator(99);
    const queries: LexicalQuery[] = Array.from({ length: plan.queries }, () => ({ namespace: NAMESPACE, text: asker.query(), kinds: ['turn', 'summary'], k: K }));
    // the replica's first search starts its load (answered by SQL meanwhile); timed until it is held
    const replica = stores['replica in process'];
    const loadWatch = performance.now();
    await replica.search(queries[0] as LexicalQuery);
    while ((replica.lexicalReplicaStats()?.held.length ?? 0) === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    const replicaLoadMs = performance.now() - loadWatch;
    collectGarbage();
    const heapAfter = process.memoryUsage();
    // both paths on the same data (no write in between): the same scores, hit by hit
    const idle = { append: async () => undefined };
    const [byReplica, bySql] = await Promise.all(PATHS.map(async (path) => (await searchAll(stores[path] as PostgresSessionStore, idle, queries)).answers));
    const differing = (byReplica ?? []).findIndex((answer, i) => answer !== bySql?.[i]);
    if (differing >= 0) throw new Error(`postgres-search: the paths answered "${queries[differing]?.text}" differently: ${byReplica?.[differing]} against ${bySql?.[differing]}`);
    const samples = new Map<Path, number[]>();
    for (let round = 0; round < plan.rounds; round++) {
      for (const path of PATHS) {
        const store = stores[path] as PostgresSessionStore;
        // an untimed pass first: the first reads warm the caches
        await searchAll(store, writer, queries.slice(0, 10));
        const { samples: timed } = await searchAll(store, writer, queries);
        samples.set(path, [...(samples.get(path) ?? []), ...timed]);
      }
    }
    const stats = replica.lexicalReplicaStats();
    const latencies = PATHS.map((path) => ({
      metric: `search, ${plan.turns.toLocaleString('en-US')} turns in the namespace, k ${K}, another process appending a turn before each: ${path}`,
      summary: summarize(samples.get(path) ?? []),
    }));
    const [fast, slow] = latencies.map((l) => l.summary);
    const ratio = (a: number | undefined, b: number | undefined): string => (a && b ? `${(a / b).toFixed(1)}x` : '-');
    const mb = (bytes: number): number => Math.round(bytes / 2 ** 20);
    return {
      latencies,
      figures: [
        { name: `load: ${plan.turns.toLocaleString('en-US')} turns written through the store`, value: Math.round(loadSeconds), unit: 's' },
        { name: 'replica: first load of the namespace (in the background; SQL answers meanwhile)', value: Math.round(replicaLoadMs), unit: 'ms' },
        { name: 'replica: documents held after the rounds', value: stats?.held[0]?.documents ?? 0, unit: '' },
        {
          name: 'replica: heap held by the replica (after a full GC, before and after its load)',
          value: mb(heapAfter.heapUsed + heapAfter.arrayBuffers - heapBefore.heapUsed - heapBefore.arrayBuffers),
          unit: 'MB',
        },
        { name: 'replica: process RSS after the load', value: mb(heapAfter.rss), unit: 'MB' },
      ],
      tables: [
        {
          title: 'replica beside BM25 in SQL (same data, same queries, alternating rounds)',
          header: ['', 'p50 ms', 'p99 ms'],
          rows: [
            ...latencies.map((l) => [l.metric.split(': ').at(-1) ?? l.metric, l.summary.p50.toFixed(1), l.summary.p99.toFixed(1)]),
            ['SQL / replica', ratio(slow?.p50, fast?.p50), ratio(slow?.p99, fast?.p99)],
          ],
        },
      ],
      notes: [
        `${plan.turns.toLocaleString('en-US')} generated turns (${SESSION_TURNS} a session) in one namespace, written with store.write (putSession + insertMessages, ${SESSIONS_PER_WRITE} sessions a write); postings table ${sizes?.heap}, its key index ${sizes?.key}.`,
        `${plan.queries} generated questions, store.search over turns and summaries, k ${K}, one at a time; before each, a second store on the schema (another app process) appends one turn, so every replica search reads and applies a write first. ${plan.rounds} round(s) per path, alternating; before the rounds, with no write in between, both paths returned the same scores for every query.`,
        'PostgreSQL at its defaults here (shared_buffers 128 MB): at 1M turns the postings outgrow the buffer cache.',
      ],
    };
  } finally {
    for (const store of Object.values(stores)) await store?.close();
    await writerStore.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
  }
}

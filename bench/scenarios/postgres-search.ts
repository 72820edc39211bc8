/**
 * `npm run bench -- postgres-search`: BM25 search on the PostgreSQL store at the size users reach
 * (1M turns in a namespace; --quick: 100k), with the postings' key index in the two forms the
 * schema has had: key columns only (schema 3: each posting's tf, length and session read from a
 * heap page) and with those as INCLUDE columns (schema 4: read from the index alone). Same data,
 * same queries, same run: the turns are written once through the store, then the index is
 * rebuilt in the other form between rounds, alternating, with VACUUM ANALYZE after each rebuild.
 * Every round must return the same hits for every query, or the scenario fails. Needs PostgreSQL
 * (STRATA_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres): run only when named.
 */
import { randomBytes } from 'node:crypto';
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

const FORMS = {
  'schema 3 (key columns only)': 'PRIMARY KEY (namespace, kind, term, doc)',
  'schema 4 (tf, length, session INCLUDEd)': 'PRIMARY KEY (namespace, kind, term, doc) INCLUDE (tf, length, session_id)',
} as const;
type Form = keyof typeof FORMS;

interface Plan {
  turns: number;
  queries: number;
  rounds: number;
}
const FULL: Plan = { turns: 1_000_000, queries: 200, rounds: 2 };
const QUICK: Plan = { turns: 100_000, queries: 100, rounds: 1 };

async function rebuildKey(admin: pg.Client, schema: string, form: Form): Promise<number> {
  const started = performance.now();
  await admin.query(`ALTER TABLE ${schema}.lexical_terms DROP CONSTRAINT lexical_terms_pkey, ADD CONSTRAINT lexical_terms_pkey ${FORMS[form]}`);
  const ms = performance.now() - started;
  await admin.query(`VACUUM ANALYZE ${schema}.lexical_terms`);
  return ms;
}

/** Each query once, timed; the hits as text, to compare rounds. */
async function searchAll(store: PostgresSessionStore, queries: readonly LexicalQuery[]): Promise<{ samples: number[]; answers: string[] }> {
  const samples: number[] = [];
  const answers: string[] = [];
  for (const query of queries) {
    const started = process.hrtime.bigint();
    const hits = await store.search(query);
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
    answers.push(hits.map((h) => `${h.kind}:${h.id}`).join(' '));
  }
  return { samples, answers };
}

export async function runPostgresSearchBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; tables: BenchTable[]; notes: string[] }> {
  const plan = options.quick ? QUICK : FULL;
  const schema = `strata_bench_search_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  const store = await createPostgresSessionStore({ url: POSTGRES_URL, schema });
  try {
    const chat = new ConversationGenerator(5);
    const loadStarted = performance.now();
    for (let first = 0; first < plan.turns / SESSION_TURNS; first += SESSIONS_PER_WRITE) {
      const bundle = messagesBundle(chat, NAMESPACE, first, SESSIONS_PER_WRITE, SESSION_TURNS);
      await store.write({
        ops: [...bundle.sessions.map((s) => ({ type: 'putSession' as const, session: s.session })), { type: 'insertMessages', messages: bundle.sessions.flatMap((s) => s.messages) }],
      });
    }
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const sizes = (
      await admin.query<{ heap: string; key: string }>(
        `SELECT pg_size_pretty(pg_relation_size('${schema}.lexical_terms')) AS heap, pg_size_pretty(pg_relation_size('${schema}.lexical_terms_pkey')) AS key`,
      )
    ).rows[0];
    const asker = new ConversationGenerator(99);
    const queries: LexicalQuery[] = Array.from({ length: plan.queries }, () => ({ namespace: NAMESPACE, text: asker.query(), kinds: ['turn', 'summary'], k: K }));
    const samples = new Map<Form, number[]>();
    const rebuildMs = new Map<Form, number>();
    let reference: string[] | undefined;
    for (let round = 0; round < plan.rounds; round++) {
      for (const form of Object.keys(FORMS) as Form[]) {
        rebuildMs.set(form, await rebuildKey(admin, schema, form));
        // an untimed pass first: the first reads of a form warm the caches
        await searchAll(store, queries.slice(0, 10));
        const { samples: timed, answers } = await searchAll(store, queries);
        reference ??= answers;
        const differing = answers.findIndex((answer, i) => answer !== reference?.[i]);
        if (differing >= 0) throw new Error(`postgres-search: ${form} answered "${queries[differing]?.text}" differently`);
        samples.set(form, [...(samples.get(form) ?? []), ...timed]);
      }
    }
    const latencies = (Object.keys(FORMS) as Form[]).map((form) => ({
      metric: `search, ${plan.turns.toLocaleString('en-US')} turns in the namespace, k ${K}: ${form}`,
      summary: summarize(samples.get(form) ?? []),
    }));
    const [before, after] = latencies.map((l) => l.summary);
    const ratio = (a: number | undefined, b: number | undefined): string => (a && b ? `${(a / b).toFixed(1)}x` : '-');
    return {
      latencies,
      figures: [
        { name: `load: ${plan.turns.toLocaleString('en-US')} turns written through the store`, value: Math.round(loadSeconds), unit: 's' },
        ...(Object.keys(FORMS) as Form[]).map((form) => ({ name: `rebuild of the postings' key index as ${form} (last round)`, value: Math.round(rebuildMs.get(form) ?? 0), unit: 'ms' })),
      ],
      tables: [
        {
          title: 'schema 3 beside schema 4 (same data, same queries, alternating rounds)',
          header: ['', 'p50 ms', 'p99 ms'],
          rows: [
            ...latencies.map((l) => [l.metric.split(': ')[1] ?? l.metric, l.summary.p50.toFixed(1), l.summary.p99.toFixed(1)]),
            ['schema 3 / schema 4', ratio(before?.p50, after?.p50), ratio(before?.p99, after?.p99)],
          ],
        },
      ],
      notes: [
        `${plan.turns.toLocaleString('en-US')} generated turns (${SESSION_TURNS} a session) in one namespace, written with store.write (putSession + insertMessages, ${SESSIONS_PER_WRITE} sessions a write); postings table ${sizes?.heap}, its key index ${sizes?.key} (schema 4 form, after the load).`,
        `${plan.queries} generated questions, store.search over turns and summaries, k ${K}, one at a time; ${plan.rounds} round(s) per form, alternating, each after the index was rebuilt and VACUUM ANALYZE ran; every round returned the same hits for every query.`,
        'PostgreSQL at its defaults here (shared_buffers 128 MB): at 1M turns the postings outgrow the buffer cache.',
      ],
    };
  } finally {
    await store.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
  }
}

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { createMemory, type Memory, type PolicyInput } from '@strata/core';
import { createPostgresSessionStore } from '@strata/store-postgres';
import { createSqliteKnowledgeBase } from '@strata/store-sqlite';
import type { BenchTable, Figure } from '../lib/bench-result.js';
import { DEFAULT_LOCOMO_PATH, loadLocomo } from '../lib/locomo-data.js';
import { locomoTables, overall, runStrata } from './locomo.js';

/**
 * `npm run bench -- locomo-postgres`: lexical ranking on PostgreSQL (BM25 computed by the
 * server, @strata/store-postgres) next to the in-process BM25 of the embedded default, on the
 * same LoCoMo conversations in one run. Only the session store differs: both memories keep
 * their vectors in a SQLite knowledge base file and use the offline models.
 */

const POSTGRES_URL = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function runLocomoPostgresBench(options: { quick: boolean; path?: string }): Promise<{ latencies: []; figures: Figure[]; tables: BenchTable[]; notes: string[] } | null> {
  const path = options.path ?? process.env.STRATA_LOCOMO_PATH ?? DEFAULT_LOCOMO_PATH;
  const conversations = loadLocomo(path);
  if (conversations === null) {
    process.stdout.write(`bench: locomo-postgres skipped: no LoCoMo file at ${path} (set STRATA_LOCOMO_PATH; see ../shared/evals/README.md)\n`);
    return null;
  }
  const chosen = options.quick ? conversations.slice(0, 1) : conversations;
  const schemas = [`strata_bench_locomo_${randomBytes(4).toString('hex')}`, `strata_bench_locomo_${randomBytes(4).toString('hex')}`] as const;
  /** A memory on PostgreSQL: searches answered by the process's lexical replica (the default), or by BM25 in SQL (`lexicalReplicaDocuments: 0`). */
  const openOnPostgres =
    (schema: string, lexicalReplicaDocuments?: number) =>
    async (dir: string, clock: { now(): number }, policy: PolicyInput | undefined): Promise<Memory> =>
      createMemory({
        store: await createPostgresSessionStore({ url: POSTGRES_URL, schema, ...(lexicalReplicaDocuments === undefined ? {} : { lexicalReplicaDocuments }) }),
        knowledge: await createSqliteKnowledgeBase({ path: join(dir, 'knowledge.sqlite') }),
        clock,
        ...(policy === undefined ? {} : { policy }),
      });
  const sqlite = await runStrata(chosen, { name: 'strata, SQLite store (in-process BM25)' });
  let replica: typeof sqlite;
  let inSql: typeof sqlite;
  try {
    replica = await runStrata(chosen, { name: 'strata, PostgreSQL store (lexical replica in process)', open: openOnPostgres(schemas[0]) });
    inSql = await runStrata(chosen, { name: 'strata, PostgreSQL store (BM25 in SQL)', open: openOnPostgres(schemas[1], 0) });
  } finally {
    for (const schema of schemas) await dropSchema(schema);
  }
  const recall = (run: typeof sqlite): number => overall(run, (q) => q.recall[10] ?? NaN) * 100;
  const evidence = (run: typeof sqlite): number => overall(run, (q) => q.context[1000] ?? NaN) * 100;
  const within = (a: number, b: number): string => (Math.abs(a - b) <= 0.5 ? 'within 0.5 points' : 'more than 0.5 points apart');
  const paths = [
    { label: 'lexical replica', run: replica },
    { label: 'BM25 in SQL', run: inSql },
  ];
  return {
    latencies: [],
    figures: [
      { name: 'conversations', value: chosen.length, unit: '' },
      { name: 'questions (categories 1-4)', value: sqlite.questions.length, unit: '' },
      { name: 'turn recall@10, SQLite store (in-process BM25)', value: recall(sqlite), unit: '%' },
      ...paths.flatMap(({ label, run }) => [
        { name: `turn recall@10, PostgreSQL store (${label})`, value: recall(run), unit: '%' },
        { name: `turn recall@10, PostgreSQL (${label}) minus SQLite (${within(recall(run), recall(sqlite))})`, value: recall(run) - recall(sqlite), unit: 'points' },
      ]),
      { name: 'evidence in a 1,000-token getContext, SQLite store', value: evidence(sqlite), unit: '%' },
      ...paths.flatMap(({ label, run }) => [
        { name: `evidence in a 1,000-token getContext, PostgreSQL store (${label})`, value: evidence(run), unit: '%' },
        { name: `evidence at 1,000 tokens, PostgreSQL (${label}) minus SQLite (${within(evidence(run), evidence(sqlite))})`, value: evidence(run) - evidence(sqlite), unit: 'points' },
      ]),
      { name: 'ingest (append) time, SQLite store', value: sqlite.ingestMs, unit: 'ms' },
      ...paths.map(({ label, run }) => ({ name: `ingest (append) time, PostgreSQL store (${label})`, value: run.ingestMs, unit: 'ms' })),
      { name: 'derive time (flush), SQLite store', value: sqlite.deriveMs, unit: 'ms' },
      ...paths.map(({ label, run }) => ({ name: `derive time (flush), PostgreSQL store (${label})`, value: run.deriveMs, unit: 'ms' })),
    ],
    tables: locomoTables([sqlite, replica, inSql]),
    notes: [
      `Data: ${path}, ${chosen.length} conversation(s)${options.quick ? ' (--quick: the first only)' : ''}, ingested and asked as in the locomo scenario. PostgreSQL: ${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}, a schema of its own per path, dropped after the run.`,
      "Every store ranks with Okapi BM25 (k1 1.2, b 0.75) over the terms of core's analyzeText. The PostgreSQL store answers a search from its process's lexical replica of the namespace (core's BM25 index over the postings written with each record, caught up from the server before each search), or, with lexicalReplicaDocuments 0, computes BM25 in SQL over those postings. Results can differ only where scores tie (ties by kind, then indexing order) or by floating-point rounding.",
    ],
  };
}

async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

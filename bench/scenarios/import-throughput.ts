/**
 * `npm run bench -- import-throughput`: memory.import on the PostgreSQL store beside the
 * embedded SQLite store, in one run: turns only (a history migrated from elsewhere, in bundles
 * of 5,000), then a bundle as `export` writes it (turns with their summaries, job ledger,
 * facts, topics and links). Each store gets a memory of its own, with createMemory's in-process
 * queue, so what the imported turns derive runs in the background while the next bundle is
 * imported, as in scale-out's import rows. The vectors are in a SQLite knowledge base file for
 * both (as scale-out). Needs PostgreSQL (STRATA_POSTGRES_URL, default
 * postgres://postgres@127.0.0.1:5432/postgres): run only when named.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createMemory, type ExportBundle, type Memory } from '@strata/core';
import { createPostgresSessionStore } from '@strata/store-postgres';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import type { BenchTable, Figure, LatencyMetric } from '../lib/bench-result.js';
import { importMessages } from '../lib/bulk-corpus.js';

const POSTGRES_URL = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const NAMESPACE = 'import';
const PER_BUNDLE = 5_000;
const SESSION_TURNS = 50;
const SEED = 41;

type StoreKind = 'postgres' | 'sqlite';
const STORE_NAME: Record<StoreKind, string> = { postgres: 'PostgreSQL', sqlite: 'SQLite' };

interface Plan {
  /** Turns imported in bundles of PER_BUNDLE, turns only. */
  turns: number;
  /** Turns of the derived bundle (exported after its derivation settled). */
  derivedTurns: number;
}
const FULL: Plan = { turns: 40_000, derivedTurns: 5_000 };
const QUICK: Plan = { turns: 10_000, derivedTurns: 1_000 };

/** Schemas and directories of the run, removed whatever happened. */
class RunPlaces {
  private readonly id = randomBytes(4).toString('hex');
  private readonly schemas: string[] = [];
  private readonly dirs: string[] = [];

  schema(part: string): string {
    const name = `strata_bench_import_${this.id}_${part}`;
    this.schemas.push(name);
    return name;
  }

  dir(): string {
    const dir = mkdtempSync(join(tmpdir(), 'strata-bench-import-'));
    this.dirs.push(dir);
    return dir;
  }

  async release(): Promise<void> {
    if (this.schemas.length > 0) {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      try {
        await client.connect();
        for (const schema of this.schemas) await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end().catch(() => undefined);
      }
    }
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }
}

async function openMemory(kind: StoreKind, places: RunPlaces, part: string): Promise<Memory> {
  const dir = places.dir();
  const store = kind === 'postgres' ? await createPostgresSessionStore({ url: POSTGRES_URL, schema: places.schema(part) }) : await createSqliteSessionStore({ path: join(dir, 'memory.sqlite') });
  return createMemory({ store, knowledge: await createSqliteKnowledgeBase({ path: join(dir, kind === 'postgres' ? 'knowledge.sqlite' : 'memory.sqlite') }) });
}

/** A bundle as export writes it: `turns` generated turns, imported into an embedded memory, derived to the end, exported session by session and put together. */
async function derivedBundle(places: RunPlaces, turns: number): Promise<{ bundle: ExportBundle; counts: Record<string, number> }> {
  const source = await openMemory('sqlite', places, 'source');
  try {
    const { sessionIds } = await importMessages(source, { namespace: NAMESPACE, seed: SEED, messages: turns, turns: SESSION_TURNS, perBundle: PER_BUNDLE });
    await source.flush();
    const parts: ExportBundle[] = [];
    for (const id of sessionIds) parts.push(JSON.parse(await source.export(id, { format: 'json' })) as ExportBundle);
    const facts = [...new Map(parts.flatMap((p) => p.facts).map((f) => [f.id, f])).values()];
    const bundle = { ...(parts[0] as ExportBundle), sessions: parts.flatMap((p) => p.sessions), facts };
    const counts = {
      turns: bundle.sessions.reduce((n, s) => n + s.messages.length, 0),
      summaries: bundle.sessions.reduce((n, s) => n + s.summaries.length, 0),
      jobs: bundle.sessions.reduce((n, s) => n + s.jobs.length, 0),
      topics: bundle.sessions.reduce((n, s) => n + (s.topics?.length ?? 0), 0),
      facts: facts.length,
    };
    return { bundle, counts };
  } finally {
    await source.close();
  }
}

interface StoreRun {
  /** Turns-only import: messages per second over every bundle. */
  turnsRate: number;
  /** The derived bundle's import: wall time, and its turns per second. */
  derivedMs: number;
  derivedRate: number;
}

async function measure(kind: StoreKind, places: RunPlaces, plan: Plan, derived: ExportBundle, derivedTurns: number): Promise<StoreRun> {
  const turnsOnly = await openMemory(kind, places, 'turns');
  let turnsMs: number;
  try {
    turnsMs = (await importMessages(turnsOnly, { namespace: NAMESPACE, seed: SEED + 1, messages: plan.turns, turns: SESSION_TURNS, perBundle: PER_BUNDLE })).ms;
  } finally {
    await turnsOnly.close();
  }
  const target = await openMemory(kind, places, 'derived');
  try {
    const started = process.hrtime.bigint();
    await target.import(derived);
    const derivedMs = Number(process.hrtime.bigint() - started) / 1e6;
    return { turnsRate: plan.turns / (turnsMs / 1000), derivedMs, derivedRate: derivedTurns / (derivedMs / 1000) };
  } finally {
    await target.close();
  }
}

export async function runImportThroughputBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; tables: BenchTable[]; notes: string[] }> {
  const plan = options.quick ? QUICK : FULL;
  const places = new RunPlaces();
  try {
    const { bundle, counts } = await derivedBundle(places, plan.derivedTurns);
    const runs = {} as Record<StoreKind, StoreRun>;
    for (const kind of ['sqlite', 'postgres'] as const) runs[kind] = await measure(kind, places, plan, bundle, counts.turns ?? plan.derivedTurns);
    const figures: Figure[] = [];
    for (const kind of ['postgres', 'sqlite'] as const) {
      figures.push({
        name: `${STORE_NAME[kind]}: import of turns only, ${plan.turns.toLocaleString('en-US')} turns in bundles of ${PER_BUNDLE.toLocaleString('en-US')}`,
        value: Math.round(runs[kind].turnsRate),
        unit: 'messages/s',
      });
      figures.push({
        name: `${STORE_NAME[kind]}: import of an exported bundle (${plan.derivedTurns.toLocaleString('en-US')} turns with their derived records)`,
        value: Math.round(runs[kind].derivedMs),
        unit: 'ms',
      });
    }
    const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
    const table: BenchTable = {
      title: 'PostgreSQL beside SQLite (one run)',
      header: ['import', 'PostgreSQL', 'SQLite', 'PostgreSQL / SQLite'],
      rows: [
        ['turns only: messages/s', String(Math.round(runs.postgres.turnsRate)), String(Math.round(runs.sqlite.turnsRate)), ratio(runs.postgres.turnsRate, runs.sqlite.turnsRate)],
        ['exported bundle: ms', String(Math.round(runs.postgres.derivedMs)), String(Math.round(runs.sqlite.derivedMs)), ratio(runs.postgres.derivedMs, runs.sqlite.derivedMs)],
        ['exported bundle: turns/s', String(Math.round(runs.postgres.derivedRate)), String(Math.round(runs.sqlite.derivedRate)), ratio(runs.postgres.derivedRate, runs.sqlite.derivedRate)],
      ],
    };
    return {
      latencies: [],
      figures,
      tables: [table],
      notes: [
        `Turns only: generated conversations of ${SESSION_TURNS} turns a session, ${PER_BUNDLE.toLocaleString('en-US')} turns a bundle, one memory.import per bundle into a new memory per store; the rate is the turns over the summed import calls. What they derive runs in the background on createMemory's in-process queue meanwhile.`,
        `Exported bundle: ${Object.entries(counts)
          .map(([what, n]) => `${n.toLocaleString('en-US')} ${what}`)
          .join(
            ', ',
          )}: an embedded memory imported the generated turns, derived them to the end, and exported each session; the sessions and facts were put in one bundle, imported in one call into a new memory per store.`,
        'The PostgreSQL memory keeps its vectors in a SQLite knowledge base file, as the SQLite memory does in its own file. Target (issue: scale without cliffs): import on PostgreSQL at least 20,000 messages/s.',
      ],
    };
  } finally {
    await places.release();
  }
}

// Kept in one file: one scenario comparing two drivers case by case, each case beside its twin.
/**
 * The two maintained PostgreSQL drivers for Node side by side, `pg` (node-postgres, with its Pool)
 * and `postgres` (postgres.js), on what a session store does: append one message, read one by
 * its key, append in a transaction that takes the session's next sequence number, import in bulk,
 * read a whole session, serve concurrent callers; and what each does when its pool is exhausted
 * (the store must then fail with a typed error, never hang). Both pools hold at most 4
 * connections and run the same SQL, in a schema made for the run and dropped after it, even on
 * failure. The drivers take turns over rounds, in alternating order, so that machine noise falls
 * on both.
 * Needs PostgreSQL (STRATA_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import postgres from 'postgres';
import type { BenchTable, Figure, LatencyMetric } from '../lib/bench-result.js';
import { nsToMs, summarize, timeEach, timeOnce } from '../lib/stats.js';

const POSTGRES_URL = process.env.STRATA_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const POOL_MAX = 4;
/** The wait limit configured on the exhausted pools: how long a query may wait for a connection. */
const WAIT_LIMIT_MS = 1_000;

type DriverName = 'pg' | 'postgres';

interface Plan {
  /** Rounds per driver, in alternating order; the latencies pool every round's samples. */
  rounds: number;
  /** Timed calls per round of the single-row INSERT and of the primary-key SELECT. */
  singleRowCalls: number;
  /** Timed calls per round of the 3-statement transaction. */
  transactionCalls: number;
  /** Rows of the one-statement bulk INSERT, once per round. */
  bulkRows: number;
  /** Rows of the session read in one SELECT. */
  readRows: number;
  /** Reads of that session per round; the round's figure is their median. */
  readsPerRound: number;
  concurrentCallers: number;
  /** Transactions the concurrent callers run between them, per round. */
  concurrentTransactions: number;
  /** How long the exhaustion probe waits for the second query before it gives up (the bench never hangs). */
  exhaustionCapMs: number;
}

const FULL: Plan = {
  rounds: 3,
  singleRowCalls: 2_000,
  transactionCalls: 300,
  bulkRows: 5_000,
  readRows: 10_000,
  readsPerRound: 5,
  concurrentCallers: 8,
  concurrentTransactions: 1_000,
  exhaustionCapMs: 5_000,
};
const QUICK: Plan = { ...FULL, singleRowCalls: 200, transactionCalls: 50, readsPerRound: 2, concurrentTransactions: 200, exhaustionCapMs: 2_500 };
/** Before the first timed round each driver runs this (untimed): its pool opens all connections and its statements are prepared. */
const WARM_UP: Plan = { ...QUICK, readsPerRound: 1, concurrentTransactions: 100 };

/** The session every driver reads whole; seeded once at setup. */
const READ_SESSION = 'read-whole';
const FILLER = 'We talked about the trip to Kyoto, which temples open early, and whether a rail pass pays off for two weeks. ';

/** One message row, as the store keeps it. */
interface MessageRow {
  sessionId: string;
  seq: number;
  role: string;
  content: string;
}

/** A message row as PostgreSQL returns it. */
interface MessageRecord {
  session_id: string;
  seq: number;
  role: string;
  content: string;
}

/** The columns of many messages, for one `unnest` INSERT. */
interface MessageColumns {
  sessionIds: string[];
  seqs: number[];
  roles: string[];
  contents: string[];
}

/** The statements both drivers send; postgres.js builds the same text from its tagged templates. */
const SQL = {
  createSession: 'INSERT INTO sessions (id, next_seq) VALUES ($1, 0)',
  insertMessage: 'INSERT INTO messages (session_id, seq, role, content) VALUES ($1, $2, $3, $4)',
  selectMessage: 'SELECT session_id, seq, role, content FROM messages WHERE session_id = $1 AND seq = $2',
  lockSession: 'SELECT next_seq FROM sessions WHERE id = $1 FOR UPDATE',
  advanceSession: 'UPDATE sessions SET next_seq = $2, updated_at = now() WHERE id = $1',
  insertMany: 'INSERT INTO messages (session_id, seq, role, content) SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[])',
  readSession: 'SELECT session_id, seq, role, content FROM messages WHERE session_id = $1 ORDER BY seq',
} as const;

/** The store's operations on one driver, so that both run the same plan. */
interface Driver {
  readonly name: DriverName;
  createSession(id: string): Promise<void>;
  insertMessage(row: MessageRow): Promise<void>;
  selectMessage(sessionId: string, seq: number): Promise<MessageRow | undefined>;
  /** BEGIN; SELECT ... FOR UPDATE; INSERT; UPDATE; COMMIT: an append that takes the session's next sequence number, which it returns. */
  appendInTransaction(sessionId: string, role: string, content: string): Promise<number>;
  insertMany(columns: MessageColumns): Promise<void>;
  /** Reads every message of a session in one SELECT; returns how many. */
  readSession(sessionId: string): Promise<number>;
  close(): Promise<void>;
}

function toMessage(record: MessageRecord): MessageRow {
  return { sessionId: record.session_id, seq: record.seq, role: record.role, content: record.content };
}

function messageContent(i: number): string {
  return `Message ${i}. ${FILLER}${FILLER}`;
}

function messageColumns(sessionId: string, count: number): MessageColumns {
  const seqs = Array.from({ length: count }, (_, i) => i);
  return { sessionIds: seqs.map(() => sessionId), seqs, roles: seqs.map((i) => (i % 2 ? 'assistant' : 'user')), contents: seqs.map(messageContent) };
}

/** The libpq `options` startup parameter that makes every connection of a `pg` pool work in `schema`. */
function pgSearchPath(schema: string): string {
  return `-c search_path=${schema}`;
}

/** Runs `work` in a transaction on a connection of `pool`; rolls back and rethrows on failure. */
async function inPgTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** node-postgres: a `Pool` of {@link POOL_MAX} connections, text queries with `$n` parameters. */
function pgDriver(url: string, schema: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: POOL_MAX, options: pgSearchPath(schema) });
  return {
    name: 'pg',
    createSession: async (id) => void (await pool.query(SQL.createSession, [id])),
    insertMessage: async ({ sessionId, seq, role, content }) => void (await pool.query(SQL.insertMessage, [sessionId, seq, role, content])),
    selectMessage: async (sessionId, seq) => {
      const { rows } = await pool.query<MessageRecord>(SQL.selectMessage, [sessionId, seq]);
      return rows[0] && toMessage(rows[0]);
    },
    appendInTransaction: (sessionId, role, content) =>
      inPgTransaction(pool, async (client) => {
        const { rows } = await client.query<{ next_seq: number }>(SQL.lockSession, [sessionId]);
        const seq = rows[0]?.next_seq ?? 0;
        await client.query(SQL.insertMessage, [sessionId, seq, role, content]);
        await client.query(SQL.advanceSession, [sessionId, seq + 1]);
        return seq;
      }),
    insertMany: async ({ sessionIds, seqs, roles, contents }) => void (await pool.query(SQL.insertMany, [sessionIds, seqs, roles, contents])),
    readSession: async (sessionId) => (await pool.query<MessageRecord>(SQL.readSession, [sessionId])).rows.length,
    close: () => pool.end(),
  };
}

/** postgres.js options both of its pools share: the run's schema on every connection, notices not printed. */
function postgresOptions(schema: string): { connection: { search_path: string }; onnotice: () => void } {
  return { connection: { search_path: schema }, onnotice: () => undefined };
}

/** postgres.js: its own pool of {@link POOL_MAX} connections, tagged templates (prepared statements, its default). */
function postgresDriver(url: string, schema: string): Driver {
  const sql = postgres(url, { ...postgresOptions(schema), max: POOL_MAX });
  return {
    name: 'postgres',
    createSession: async (id) => void (await sql`INSERT INTO sessions (id, next_seq) VALUES (${id}, 0)`),
    insertMessage: async ({ sessionId, seq, role, content }) => void (await sql`INSERT INTO messages (session_id, seq, role, content) VALUES (${sessionId}, ${seq}, ${role}, ${content})`),
    selectMessage: async (sessionId, seq) => {
      const [record] = await sql<MessageRecord[]>`SELECT session_id, seq, role, content FROM messages WHERE session_id = ${sessionId} AND seq = ${seq}`;
      return record && toMessage(record);
    },
    appendInTransaction: (sessionId, role, content) =>
      sql.begin(async (tx) => {
        const [session] = await tx<{ next_seq: number }[]>`SELECT next_seq FROM sessions WHERE id = ${sessionId} FOR UPDATE`;
        const seq = session?.next_seq ?? 0;
        await tx`INSERT INTO messages (session_id, seq, role, content) VALUES (${sessionId}, ${seq}, ${role}, ${content})`;
        await tx`UPDATE sessions SET next_seq = ${seq + 1}, updated_at = now() WHERE id = ${sessionId}`;
        return seq;
      }),
    insertMany: async ({ sessionIds, seqs, roles, contents }) =>
      void (await sql`INSERT INTO messages (session_id, seq, role, content) SELECT * FROM unnest(${sessionIds}::text[], ${seqs}::int[], ${roles}::text[], ${contents}::text[])`),
    readSession: async (sessionId) => (await sql<MessageRecord[]>`SELECT session_id, seq, role, content FROM messages WHERE session_id = ${sessionId} ORDER BY seq`).length,
    close: () => sql.end({ timeout: 5 }),
  };
}

/** What one driver measured in one round. */
interface RoundResult {
  driver: DriverName;
  round: number;
  insertMs: number[];
  selectMs: number[];
  transactionMs: number[];
  bulkMs: number;
  /** Median of the round's reads of the whole session. */
  readMs: number;
  transactionsPerSecond: number;
}

const median = (values: readonly number[]): number => summarize(values).p50;

/** `callers` callers, each appending to its own session, run `total` transactions between them; returns transactions/s. */
async function concurrentAppends(driver: Driver, key: string, callers: number, total: number): Promise<number> {
  const sessions = Array.from({ length: callers }, (_, c) => `${key}-caller${c}`);
  for (const session of sessions) await driver.createSession(session);
  let taken = 0;
  const caller = async (session: string): Promise<void> => {
    while (taken < total) {
      taken += 1;
      await driver.appendInTransaction(session, 'user', messageContent(taken));
    }
  };
  const started = process.hrtime.bigint();
  await Promise.all(sessions.map(caller));
  return total / (nsToMs(process.hrtime.bigint() - started) / 1000);
}

/** Every operation once over, on keys of its own (`key`), as a round or as the warm-up. */
async function measureRound(driver: Driver, key: string, plan: Plan): Promise<Omit<RoundResult, 'driver' | 'round'>> {
  const singles = `${key}-single`;
  const insertMs = await timeEach(plan.singleRowCalls, (i) => driver.insertMessage({ sessionId: singles, seq: i, role: i % 2 ? 'assistant' : 'user', content: messageContent(i) }));
  // A spread of keys that exist (7919 is prime, so i * 7919 mod n visits every row once).
  const selectMs = await timeEach(plan.singleRowCalls, async (i) => {
    const row = await driver.selectMessage(singles, (i * 7919) % plan.singleRowCalls);
    if (row === undefined) throw new Error(`${driver.name}: message ${i} of ${singles} not found`);
  });
  const appends = `${key}-append`;
  await driver.createSession(appends);
  const transactionMs = await timeEach(plan.transactionCalls, (i) => driver.appendInTransaction(appends, 'user', messageContent(i)));
  const bulk = messageColumns(`${key}-bulk`, plan.bulkRows);
  const bulkMs = await timeOnce(() => driver.insertMany(bulk));
  const readMs = median(
    await timeEach(plan.readsPerRound, async () => {
      const count = await driver.readSession(READ_SESSION);
      if (count !== plan.readRows) throw new Error(`${driver.name}: read ${count} rows of ${READ_SESSION}, expected ${plan.readRows}`);
    }),
  );
  const transactionsPerSecond = await concurrentAppends(driver, `${key}-concurrent`, plan.concurrentCallers, plan.concurrentTransactions);
  return { insertMs, selectMs, transactionMs, bulkMs, readMs, transactionsPerSecond };
}

/**
 * Warms both drivers up, then runs the rounds in alternating order (pg first in round 1,
 * postgres first in round 2, ...), so that neither always meets the other's leftovers (a grown
 * table, a busy WAL, autovacuum).
 */
async function runRounds(drivers: readonly Driver[], plan: Plan): Promise<RoundResult[]> {
  for (const driver of drivers) await measureRound(driver, `${driver.name}-warmup`, WARM_UP);
  const results: RoundResult[] = [];
  for (let round = 0; round < plan.rounds; round++) {
    const order = round % 2 === 0 ? drivers : [...drivers].reverse();
    for (const driver of order) {
      const measured = await measureRound(driver, `${driver.name}-r${round}`, plan);
      results.push({ driver: driver.name, round, ...measured });
    }
  }
  return results;
}

/** How a query that needs a connection of an exhausted pool ended (or that it had not by the cap). */
interface Settlement {
  ok: boolean;
  /** From the query's start. */
  afterMs: number;
  /** `<class>, code <code>: <message>` of the rejection. */
  error?: string;
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = 'code' in error && error.code !== undefined ? String(error.code) : 'none';
  return `${error.constructor.name}, code ${code}: "${error.message}"`;
}

function settle(query: PromiseLike<unknown>): Promise<Settlement> {
  const started = performance.now();
  return Promise.resolve(query).then(
    () => ({ ok: true, afterMs: performance.now() - started }),
    (error: unknown) => ({ ok: false, afterMs: performance.now() - started, error: describeError(error) }),
  );
}

/** A pool of one connection, which the probe holds in an open transaction. */
interface ExhaustedPool {
  readonly driver: DriverName;
  /** How the pool's wait limit is configured, as the report names it. */
  readonly waitLimit: string;
  /** Starts a query that needs the held connection; `cancel` is the driver's own way to give up on it, if it has one. */
  startQuery(): { settled: Promise<Settlement>; cancel?: () => void };
  /** Ends the open transaction, so that its connection goes back to the pool; once is enough. */
  release(): Promise<void>;
  close(): Promise<void>;
}

/** A resolvable promise: the probe's hold on postgres.js's transaction. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** pg: `connectionTimeoutMillis` bounds both opening a connection and waiting for one of a full pool. */
async function exhaustPg(url: string, schema: string): Promise<ExhaustedPool> {
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: WAIT_LIMIT_MS, options: pgSearchPath(schema) });
  const held = await pool.connect();
  await held.query('BEGIN');
  let isReleased = false;
  return {
    driver: 'pg',
    waitLimit: `connectionTimeoutMillis: ${WAIT_LIMIT_MS}`,
    startQuery: () => ({ settled: settle(pool.query('SELECT 1')) }),
    release: async () => {
      if (isReleased) return;
      isReleased = true;
      await held.query('COMMIT');
      held.release();
    },
    close: () => pool.end(),
  };
}

/**
 * postgres.js: `connect_timeout` (seconds) is its only connection wait limit; its README and
 * source apply it to opening a connection (startup and auth), and nothing times a query queued
 * for a busy pool. A queued query can be withdrawn with `query.cancel()`.
 */
async function exhaustPostgres(url: string, schema: string): Promise<ExhaustedPool> {
  const sql = postgres(url, { ...postgresOptions(schema), max: 1, connect_timeout: WAIT_LIMIT_MS / 1000 });
  const opened = deferred();
  const hold = deferred();
  const transaction = sql.begin(async (tx) => {
    await tx`SELECT 1`;
    opened.resolve();
    await hold.promise;
  });
  await opened.promise;
  return {
    driver: 'postgres',
    waitLimit: `connect_timeout: ${WAIT_LIMIT_MS / 1000}`,
    startQuery: () => {
      const query = sql`SELECT 1`;
      return { settled: settle(query), cancel: () => void query.cancel() };
    },
    release: async () => {
      hold.resolve();
      await transaction;
    },
    close: () => sql.end({ timeout: 1 }),
  };
}

/** What the probe saw. */
interface ExhaustionOutcome {
  driver: DriverName;
  waitLimit: string;
  /** Set when the probe withdrew the query itself after this long (the driver's cancel). */
  cancelledAtMs?: number;
  /** What the waiting query did while the connection was held (up to the cap). */
  whileHeld: Settlement | 'still waiting';
  /** For a query still waiting at the cap: when the connection was released, from the query's start. */
  releasedAtMs?: number;
  /** For a query still waiting at the cap: how it ended once the connection was released. */
  afterRelease?: Settlement;
}

/**
 * Holds the pool's only connection in an open transaction and starts a second query; waits for
 * it up to `capMs` (own timer, so the bench never hangs), cancelling it at `cancelAfterMs` if
 * given; then releases the connection and, if it was still waiting, sees how it ends.
 */
async function probeExhaustion(pool: ExhaustedPool, capMs: number, cancelAfterMs?: number): Promise<ExhaustionOutcome> {
  const base = { driver: pool.driver, waitLimit: pool.waitLimit, ...(cancelAfterMs === undefined ? {} : { cancelledAtMs: cancelAfterMs }) };
  try {
    const started = performance.now();
    const { settled, cancel } = pool.startQuery();
    if (cancelAfterMs !== undefined) {
      if (cancel === undefined) throw new Error(`${pool.driver} has no way to cancel a query`);
      void sleep(cancelAfterMs, undefined, { ref: false }).then(cancel);
    }
    const whileHeld = await Promise.race([settled, sleep(capMs, 'still waiting' as const, { ref: false })]);
    if (whileHeld !== 'still waiting') return { ...base, whileHeld };
    const releasedAtMs = performance.now() - started;
    await pool.release();
    const afterRelease = await Promise.race([settled, sleep(capMs, undefined, { ref: false })]);
    return { ...base, whileHeld, releasedAtMs, ...(afterRelease === undefined ? {} : { afterRelease }) };
  } finally {
    await pool.release();
    await pool.close();
  }
}

/** pg with its wait limit; postgres.js with its connect_timeout; postgres.js again, the caller cancelling at the wait limit. */
async function probePools(url: string, schema: string, capMs: number): Promise<ExhaustionOutcome[]> {
  return [
    await probeExhaustion(await exhaustPg(url, schema), capMs),
    await probeExhaustion(await exhaustPostgres(url, schema), capMs),
    await probeExhaustion(await exhaustPostgres(url, schema), capMs, WAIT_LIMIT_MS),
  ];
}

/** The run's schema: sessions and messages, and the session every driver reads whole. */
async function createSchema(admin: pg.Client, schema: string, plan: Plan): Promise<void> {
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.query(`SET search_path = ${schema}`);
  await admin.query('CREATE TABLE sessions (id text PRIMARY KEY, next_seq integer NOT NULL, updated_at timestamptz NOT NULL DEFAULT now())');
  await admin.query('CREATE TABLE messages (session_id text NOT NULL, seq integer NOT NULL, role text NOT NULL, content text NOT NULL, PRIMARY KEY (session_id, seq))');
  const { sessionIds, seqs, roles, contents } = messageColumns(READ_SESSION, plan.readRows);
  await admin.query(SQL.insertMany, [sessionIds, seqs, roles, contents]);
  await admin.query('ANALYZE messages');
}

/** Runs the rounds on both drivers and closes them, whatever happens. */
async function measureDrivers(url: string, schema: string, plan: Plan): Promise<RoundResult[]> {
  const drivers = [pgDriver(url, schema), postgresDriver(url, schema)];
  try {
    return await runRounds(drivers, plan);
  } finally {
    await Promise.all(drivers.map((driver) => driver.close()));
  }
}

const DRIVERS: readonly DriverName[] = ['pg', 'postgres'];

function roundsOf(rounds: readonly RoundResult[], driver: DriverName): RoundResult[] {
  return rounds.filter((round) => round.driver === driver);
}

/** The latency operations, each with how its samples are read off a round. */
const LATENCY_OPERATIONS: { label: string; samples: (round: RoundResult) => number[] }[] = [
  { label: 'INSERT one message (4 parameters)', samples: (round) => round.insertMs },
  { label: 'SELECT one message by primary key', samples: (round) => round.selectMs },
  { label: 'append transaction (BEGIN; SELECT ... FOR UPDATE; INSERT; UPDATE; COMMIT)', samples: (round) => round.transactionMs },
];

function latencies(rounds: readonly RoundResult[], plan: Plan): LatencyMetric[] {
  return LATENCY_OPERATIONS.flatMap(({ label, samples }) =>
    DRIVERS.map((driver) => ({
      metric: `${driver}: ${label}, ${plan.rounds} rounds pooled`,
      summary: summarize(roundsOf(rounds, driver).flatMap(samples)),
    })),
  );
}

/** The per-round figures, each as its median over the rounds. */
const ROUND_FIGURES: { label: (plan: Plan) => string; unit: string; value: (round: RoundResult) => number }[] = [
  { label: (plan) => `bulk INSERT of ${plan.bulkRows.toLocaleString('en')} rows in one statement (unnest)`, unit: 'ms', value: (round) => round.bulkMs },
  { label: (plan) => `read ${plan.readRows.toLocaleString('en')} rows in one SELECT`, unit: 'ms', value: (round) => round.readMs },
  {
    label: (plan) => `append transactions/s, ${plan.concurrentCallers} concurrent callers, ${plan.concurrentTransactions.toLocaleString('en')} transactions`,
    unit: 'tx/s',
    value: (round) => round.transactionsPerSecond,
  },
];

function roundFigures(rounds: readonly RoundResult[], plan: Plan): Figure[] {
  return ROUND_FIGURES.flatMap(({ label, unit, value }) =>
    DRIVERS.map((driver) => ({ name: `${driver}: ${label(plan)}, median of ${plan.rounds} rounds`, value: median(roundsOf(rounds, driver).map(value)), unit })),
  );
}

function exhaustionLabel(outcome: ExhaustionOutcome): string {
  return outcome.cancelledAtMs === undefined ? outcome.driver : `${outcome.driver} + query.cancel() at ${outcome.cancelledAtMs} ms`;
}

/** How long the second query waited on the exhausted pool, and how that wait ended while the connection was held. */
function exhaustionFigures(outcomes: readonly ExhaustionOutcome[], plan: Plan): Figure[] {
  return outcomes.map((outcome) => {
    const { whileHeld } = outcome;
    const ending = whileHeld === 'still waiting' ? 'still waiting at the probe cap' : whileHeld.ok ? 'ran' : 'rejected';
    const value = whileHeld === 'still waiting' ? plan.exhaustionCapMs : Math.round(whileHeld.afterMs);
    return { name: `${exhaustionLabel(outcome)}: pool exhaustion (${outcome.waitLimit}), second query ${ending} after`, value, unit: 'ms' };
  });
}

function describeSettlement(settlement: Settlement): string {
  return settlement.ok ? `ran after ${Math.round(settlement.afterMs)} ms` : `rejected after ${Math.round(settlement.afterMs)} ms: ${settlement.error ?? ''}`;
}

/** For a query still waiting at the cap: how it ended once the connection was released, and how soon after. */
function describeAfterRelease(outcome: ExhaustionOutcome, plan: Plan): string {
  if (outcome.whileHeld !== 'still waiting') return '-';
  if (outcome.afterRelease === undefined || outcome.releasedAtMs === undefined) return `still waiting ${plan.exhaustionCapMs} ms after the release`;
  const sinceRelease = Math.round(outcome.afterRelease.afterMs - outcome.releasedAtMs);
  return `${describeSettlement(outcome.afterRelease)} from its start, ${sinceRelease} ms after the release`;
}

function exhaustionTable(outcomes: readonly ExhaustionOutcome[], plan: Plan): BenchTable {
  return {
    title: `Pool exhaustion: pool of max 1, its connection held in an open transaction, a second query started (probe waits at most ${plan.exhaustionCapMs} ms, then releases the connection)`,
    header: ['driver', 'wait limit set', 'while the connection is held', 'after the release'],
    rows: outcomes.map((outcome) => [
      exhaustionLabel(outcome),
      outcome.waitLimit,
      outcome.whileHeld === 'still waiting' ? `still waiting at ${plan.exhaustionCapMs} ms` : describeSettlement(outcome.whileHeld),
      describeAfterRelease(outcome, plan),
    ]),
  };
}

/** One row a driver per operation: medians (p50 pooled over the rounds for latencies), and which is faster by how much. */
function comparisonTable(rounds: readonly RoundResult[], plan: Plan): BenchTable {
  const row = (label: string, value: (driver: DriverName) => number, higherIsBetter: boolean, digits: number): string[] => {
    const [pgValue, postgresValue] = DRIVERS.map(value) as [number, number];
    const pgWins = higherIsBetter ? pgValue > postgresValue : pgValue < postgresValue;
    const ratio = pgWins === higherIsBetter ? pgValue / postgresValue : postgresValue / pgValue;
    return [label, pgValue.toFixed(digits), postgresValue.toFixed(digits), `${pgWins ? 'pg' : 'postgres'} ${ratio.toFixed(2)}x`];
  };
  return {
    title: 'Side by side',
    header: ['operation', 'pg', 'postgres', 'better'],
    rows: [
      ...LATENCY_OPERATIONS.flatMap(({ label, samples }) => [
        row(`${label}, p50 ms`, (driver) => summarize(roundsOf(rounds, driver).flatMap(samples)).p50, false, 3),
        row(`${label}, p99 ms`, (driver) => summarize(roundsOf(rounds, driver).flatMap(samples)).p99, false, 3),
      ]),
      ...ROUND_FIGURES.map(({ label, unit, value }) => row(`${label(plan)}, ${unit}`, (driver) => median(roundsOf(rounds, driver).map(value)), unit === 'tx/s', 1)),
    ],
  };
}

/** Every round of every driver, in the order they ran, so that the spread behind the medians shows. */
function roundsTable(rounds: readonly RoundResult[]): BenchTable {
  return {
    title: 'Every round, in the order run',
    header: ['round', 'driver', 'INSERT p50 ms', 'SELECT p50 ms', 'transaction p50 ms', 'bulk INSERT ms', 'read ms', 'tx/s concurrent'],
    rows: rounds.map((round) => [
      String(round.round + 1),
      round.driver,
      summarize(round.insertMs).p50.toFixed(3),
      summarize(round.selectMs).p50.toFixed(3),
      summarize(round.transactionMs).p50.toFixed(3),
      round.bulkMs.toFixed(1),
      round.readMs.toFixed(1),
      round.transactionsPerSecond.toFixed(0),
    ]),
  };
}

async function connectAdmin(url: string): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: url });
  admin.on('notice', () => undefined);
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`postgres-driver needs PostgreSQL at ${url} (STRATA_POSTGRES_URL)`, { cause: error });
  }
  return admin;
}

export async function runPostgresDriverBench(options: { quick: boolean }): Promise<{ latencies: LatencyMetric[]; figures: Figure[]; tables: BenchTable[]; notes: string[] }> {
  const plan = options.quick ? QUICK : FULL;
  const schema = `strata_bench_drv_${randomBytes(6).toString('hex')}`;
  const admin = await connectAdmin(POSTGRES_URL);
  try {
    await createSchema(admin, schema, plan);
    const rounds = await measureDrivers(POSTGRES_URL, schema, plan);
    const outcomes = await probePools(POSTGRES_URL, schema, plan.exhaustionCapMs);
    const version = (await admin.query<{ server_version: string }>('SHOW server_version')).rows[0]?.server_version ?? 'unknown';
    return {
      latencies: latencies(rounds, plan),
      figures: [...roundFigures(rounds, plan), ...exhaustionFigures(outcomes, plan)],
      tables: [comparisonTable(rounds, plan), roundsTable(rounds), exhaustionTable(outcomes, plan)],
      notes: [
        `PostgreSQL ${version} on this machine (${POSTGRES_URL.replace(/\/\/[^@]*@/, '//')}), pg ${driverVersion('pg')} with its Pool, postgres ${driverVersion('postgres')}; each pool at most ${POOL_MAX} connections, all in one schema made for the run and dropped after it.`,
        `Each driver is warmed up (every operation, untimed), then ${plan.rounds} rounds run in alternating order (pg first in round 1, postgres first in round 2, ...). Latencies pool the samples of all rounds (${plan.singleRowCalls} INSERTs and SELECTs, ${plan.transactionCalls} transactions per round); the other figures are the median of the rounds, all of which are in "Every round"; the read figure of a round is the median of its ${plan.readsPerRound} reads.`,
        'Same SQL text for both. pg sends each query unnamed (parse, bind, execute in one round trip every call); postgres.js prepares each statement once per connection (its default, prepare: true) and then only binds and executes. A transaction is 5 round trips with either.',
        `Append transaction: SELECT next_seq ... FOR UPDATE, INSERT the message at that seq, UPDATE next_seq. Concurrent: each caller appends to its own session (no lock waits between callers); ${plan.concurrentCallers} callers share the ${POOL_MAX} connections, so the rest wait on the pool.`,
        `Pool exhaustion: pg's connectionTimeoutMillis also limits the wait for a connection of a full pool. postgres.js has no such limit: connect_timeout (seconds) covers opening a connection only, and a query queued for a busy pool waits until a connection is free, however long; the caller can withdraw it with query.cancel() on its own timer (third row), which rejects it with a plain Error of code 57014, the code PostgreSQL gives a statement cancelled on the server, so the store has to wrap it in its own error to say "pool exhausted". The probe never waits more than ${plan.exhaustionCapMs} ms.`,
      ],
    };
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}

/** The installed version of a driver, from its package.json (postgres does not export that file, so it is looked up where Node would look). */
function driverVersion(name: DriverName): string {
  const directory = createRequire(import.meta.url)
    .resolve.paths(name)
    ?.find((path) => existsSync(join(path, name, 'package.json')));
  if (directory === undefined) return 'unknown';
  const { version } = JSON.parse(readFileSync(join(directory, name, 'package.json'), 'utf8')) as { version?: unknown };
  return typeof version === 'string' ? version : 'unknown';
}

import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { CliConfig, Endpoint } from '../config.js';
import { pc } from '../format/colors.js';
import { print, printJson } from '../format/output.js';
import { renderTable } from '../format/table.js';
import { configOf } from '../run-command.js';
import { checkStructuredOutput } from './doctor-structured-output.js';

type Status = 'ok' | 'warn' | 'fail' | 'skip';

export interface DoctorCheck {
  check: string;
  status: Status;
  detail: string;
  /** How to fix it, for warn and fail. */
  hint?: string;
}

const SERVER_TIMEOUT_MS = 3_000;
const MIN_NODE = [20, 12] as const;
/** A WAL this large means checkpoints cannot finish (a reader holds the file open). */
const LARGE_WAL_BYTES = 64 * 2 ** 20;

/** `strata doctor`: checks what strata needs, each with a fix; reads only, changes nothing. */
export function registerDoctorCommand(program: Command): void {
  program
    .command('doctor')
    .description(
      'check Node, the data dir, the SQLite file (quick_check, schema, WAL) or the PostgreSQL store (reachable, schema version, connections left), the configured Redis, Chroma and model endpoints, and which structured-output method the model endpoint supports (one real call); each problem with a fix',
    )
    .option('--json', 'print JSON: { ok, checks }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { config } = await configOf(command);
      const checks = [
        checkNode(),
        checkDataDir(config),
        config.store === undefined ? await checkSqliteFile(config) : { check: 'sqlite file', status: 'skip' as const, detail: 'not used (--store keeps sessions on PostgreSQL)' },
        await checkPostgres(config),
        await checkRedis(config),
        await checkChroma(config),
        await checkEndpoint('llm endpoint', config.llm),
        await checkEndpoint('embeddings endpoint', config.embeddings),
      ];
      // a structured call only when the endpoint answers (its own check says why not)
      if (config.llm && checks.find((c) => c.check === 'llm endpoint')?.status === 'ok') checks.push(await checkStructuredOutput(config.llm));
      const ok = checks.every((c) => c.status !== 'fail');
      if (options.json) printJson({ ok, checks });
      else {
        const mark: Record<Status, string> = { ok: pc.green('ok'), warn: pc.yellow('warn'), fail: pc.red('fail'), skip: pc.dim('skip') };
        print(
          await renderTable(
            ['check', 'status', 'detail'],
            checks.map((c) => [c.check, mark[c.status], c.detail]),
          ),
        );
        for (const c of checks.filter((c) => c.hint)) print(`${c.status === 'fail' ? pc.red('fix') : pc.yellow('fix')} ${c.check}: ${c.hint}`);
        print(ok ? pc.green('\nstrata is ready.') : pc.red('\nstrata cannot run as configured: fix the checks marked fail.'));
      }
      if (!ok) process.exitCode = 1;
    });
}

function checkNode(): DoctorCheck {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const isSupported = major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
  return isSupported
    ? { check: 'node', status: 'ok', detail: `v${process.versions.node}` }
    : { check: 'node', status: 'fail', detail: `v${process.versions.node}, older than ${MIN_NODE.join('.')}`, hint: `Install Node ${MIN_NODE.join('.')} or newer (e.g. with nvm: nvm install 20).` };
}

function checkDataDir(config: CliConfig): DoctorCheck {
  const dir = config.dataDir;
  if (!existsSync(dir)) return { check: 'data dir', status: 'ok', detail: `${dir} (not created yet: the first command that writes creates it)` };
  const stats = statSync(dir);
  if (!stats.isDirectory()) return { check: 'data dir', status: 'fail', detail: `${dir} is a file, not a directory`, hint: 'Pass --data-dir DIR or set STRATA_DATA_DIR to a directory.' };
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return { check: 'data dir', status: 'fail', detail: `${dir} is not writable`, hint: `Make it writable (chmod u+w ${dir}) or choose another with --data-dir.` };
  }
  if ((stats.mode & 0o077) !== 0)
    return { check: 'data dir', status: 'warn', detail: `${dir} is readable by other users (mode ${(stats.mode & 0o777).toString(8)})`, hint: `It holds every conversation: chmod 700 ${dir}` };
  return { check: 'data dir', status: 'ok', detail: dir };
}

async function checkSqliteFile(config: CliConfig): Promise<DoctorCheck> {
  const path = config.db ?? join(config.dataDir, 'memory.sqlite');
  if (!existsSync(path)) return { check: 'sqlite file', status: 'ok', detail: `${path} (not created yet: the first message creates it)` };
  const { inspectSqliteFile } = await import('@strata/store-sqlite');
  const { StrataError } = await import('@strata/core/errors');
  try {
    const r = inspectSqliteFile({ path, ...(config.encryptionKey === undefined ? {} : { encryptionKey: config.encryptionKey }) });
    const size = `${r.sessions} sessions, ${r.messages} messages, ${mb(r.sizeBytes)} + WAL ${mb(r.walBytes)}, schema ${r.schemaVersion}`;
    if (r.quickCheck[0] !== 'ok')
      return {
        check: 'sqlite file',
        status: 'fail',
        detail: `${path}: quick_check found damage: ${r.quickCheck.slice(0, 3).join('; ')}`,
        hint: 'Restore the file from a backup, or rescue what reads: strata export --all -o rescue.json with a copy of the file, then import it into a new data dir.',
      };
    if (r.schemaVersion > r.currentSchemaVersion)
      return {
        check: 'sqlite file',
        status: 'fail',
        detail: `${path}: schema ${r.schemaVersion} is newer than this strata's (${r.currentSchemaVersion})`,
        hint: 'A newer strata wrote it: upgrade strata to open it.',
      };
    if (r.walBytes > LARGE_WAL_BYTES)
      return {
        check: 'sqlite file',
        status: 'warn',
        detail: `${path}: ${size}`,
        hint: 'The WAL is large: a process (strata, or a SQLite client) keeps a read open; close it and the next write checkpoints the WAL.',
      };
    const older = r.schemaVersion < r.currentSchemaVersion ? ` (migrated to ${r.currentSchemaVersion} when next opened)` : '';
    return { check: 'sqlite file', status: 'ok', detail: `${path}: quick_check ok, ${size}${older}` };
  } catch (error) {
    if (!StrataError.is(error)) throw error;
    return { check: 'sqlite file', status: 'fail', detail: `${path}: ${error.message}`, hint: error.hint };
  }
}

/** Connections one strata process holds at most on PostgreSQL (the store's default pool). */
const POSTGRES_POOL = 10;

/** The PostgreSQL store `--store` names: reachable, login accepted, strata's schema version, and room for another process's pool. Reads only. */
async function checkPostgres(config: CliConfig): Promise<DoctorCheck> {
  const check = 'postgres store';
  if (config.store === undefined) return { check, status: 'skip', detail: 'not configured (sessions live in the SQLite file)' };
  const { inspectPostgresStore } = await import('@strata/store-postgres');
  const { StrataError } = await import('@strata/core/errors');
  try {
    const r = await inspectPostgresStore(config.store);
    const server = `${r.where}, PostgreSQL ${r.serverVersion}`;
    if (r.schemaVersion > r.currentSchemaVersion)
      return {
        check,
        status: 'fail',
        detail: `${server}: schema version ${r.schemaVersion} is newer than this strata's (${r.currentSchemaVersion})`,
        hint: 'A newer strata wrote it: upgrade strata in every process that opens it, or use another schema (?schema=NAME).',
      };
    const left = r.connections.max - r.connections.used;
    const connections = `${r.connections.used} of ${r.connections.max} connections in use`;
    if (left < POSTGRES_POOL)
      return {
        check,
        status: 'warn',
        detail: `${server}: ${connections}`,
        hint: `Each strata process holds up to ${POSTGRES_POOL} connections: raise max_connections on the server, or run fewer processes (or put PgBouncer in front).`,
      };
    const contents =
      r.schemaVersion === 0
        ? 'schema not created yet (the first command that writes creates it)'
        : `schema version ${r.schemaVersion}${r.schemaVersion < r.currentSchemaVersion ? ` (migrated to ${r.currentSchemaVersion} when next opened)` : ''}, about ${Math.max(0, r.estimatedSessions)} sessions and ${Math.max(0, r.estimatedMessages)} messages`;
    return { check, status: 'ok', detail: `${server}: ${contents}, ${connections}` };
  } catch (error) {
    if (!StrataError.is(error)) throw error;
    const hint = error.code === 'BACKEND_UNAVAILABLE' ? 'Start PostgreSQL (bash scripts/services.sh up in the repository), or fix the host and port in --store / STRATA_STORE.' : error.hint;
    return { check, status: 'fail', detail: error.message, ...(hint === undefined ? {} : { hint }) };
  }
}

async function checkRedis(config: CliConfig): Promise<DoctorCheck> {
  if (!config.redisUrl) return { check: 'redis', status: 'skip', detail: 'not configured (derivation runs in-process)' };
  const url = config.redisUrl;
  try {
    const { readQueueStats } = await import('@strata/worker');
    const stats = await withTimeout(readQueueStats({ url, prefix: config.redisPrefix }), `no answer from ${url} within ${SERVER_TIMEOUT_MS} ms`);
    const waiting = Object.values(stats.queues).reduce((n, q) => n + q.waiting, 0);
    return { check: 'redis', status: 'ok', detail: `${url} (prefix "${config.redisPrefix}"), ${waiting} jobs waiting` };
  } catch (error) {
    return {
      check: 'redis',
      status: 'fail',
      detail: `${url}: ${messageOf(error)}`,
      hint: 'Start Redis (redis-server, or bash scripts/services.sh up in the repository), or fix --redis-url / STRATA_REDIS_URL.',
    };
  }
}

async function checkChroma(config: CliConfig): Promise<DoctorCheck> {
  if (!config.chromaUrl && config.store !== undefined)
    return {
      check: 'chroma',
      status: 'fail',
      detail: 'not configured, but --store keeps sessions on PostgreSQL: the knowledge base has no shared home',
      hint: 'Add --chroma-url (or STRATA_CHROMA_URL) so that every process shares one vector store, e.g. --chroma-url http://127.0.0.1:8765 (scripts/services.sh up starts one).',
    };
  if (!config.chromaUrl) return { check: 'chroma', status: 'skip', detail: 'not configured (vectors live in the SQLite file)' };
  const url = config.chromaUrl.replace(/\/$/, '');
  try {
    const response = await fetch(`${url}/api/v2/heartbeat`, { signal: AbortSignal.timeout(SERVER_TIMEOUT_MS) });
    if (!response.ok) throw new Error(`GET /api/v2/heartbeat answered ${response.status}`);
    return { check: 'chroma', status: 'ok', detail: `${url} answers` };
  } catch (error) {
    return { check: 'chroma', status: 'fail', detail: `${url}: ${messageOf(error)}`, hint: 'Start Chroma (bash scripts/services.sh up in the repository), or fix --chroma-url / STRATA_CHROMA_URL.' };
  }
}

/** An OpenAI-compatible endpoint: reachable, the key accepted, the model listed by GET /models. */
async function checkEndpoint(check: string, endpoint: Endpoint | undefined): Promise<DoctorCheck> {
  if (!endpoint) return { check, status: 'skip', detail: 'not configured (offline models)' };
  const base = endpoint.baseUrl.replace(/\/$/, '');
  try {
    const response = await fetch(`${base}/models`, { headers: endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}, signal: AbortSignal.timeout(SERVER_TIMEOUT_MS) });
    if (response.status === 401 || response.status === 403)
      return { check, status: 'fail', detail: `${base}: the API key was refused (${response.status})`, hint: 'Set the key the endpoint expects (OPENAI_API_KEY, or the config file).' };
    if (!response.ok)
      return {
        check,
        status: 'warn',
        detail: `${base} answers, but GET /models gave ${response.status}: the model ${endpoint.model} is not confirmed`,
        hint: 'Check the base URL (it usually ends in /v1).',
      };
    const listed = ((await response.json()) as { data?: { id?: string }[] }).data?.map((m) => m.id) ?? [];
    if (!listed.includes(endpoint.model))
      return {
        check,
        status: 'warn',
        detail: `${base} answers, but does not list the model ${endpoint.model}`,
        hint: `Pick one it lists${listed.length ? ` (${listed.slice(0, 5).join(', ')})` : ''}.`,
      };
    return { check, status: 'ok', detail: `${base}, model ${endpoint.model}` };
  } catch (error) {
    return { check, status: 'fail', detail: `${base}: ${messageOf(error)}`, hint: 'Start the endpoint, or fix its base URL (strata config shows where it comes from).' };
  }
}

function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

function messageOf(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error instanceof Error ? error.message : String(error)}${cause}`;
}

async function withTimeout<T>(work: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), SERVER_TIMEOUT_MS)));
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

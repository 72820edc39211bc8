import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openStoreUrl, type LexicalIndex, type SessionStore, type TopicStore } from '@strata/core';
import { StrataError } from '@strata/core/errors';
import { createSqliteSessionStore } from '@strata/store-sqlite';
import type { CliConfig } from './config.js';
import { count, note } from './format/output.js';

/**
 * The session store of a command (the SQLite file, or PostgreSQL with `--store`), apart from
 * the rest of the wiring: `strata sessions` reads sessions and messages only, and opens the
 * store without loading the models, the knowledge base or the queue (about 80 ms of a start-up).
 */

/** What a command's memory needs of its session store. */
export type CliSessionStore = SessionStore & LexicalIndex & TopicStore;

/** The SQLite file: --db (or STRATA_DB), else FILE (memory.sqlite) in the data dir. */
export function memoryFile(config: CliConfig, file?: string): string {
  return file === undefined && config.db !== undefined ? requireFolderOf(config.db) : join(ensureDir(config.dataDir), file ?? 'memory.sqlite');
}

/**
 * The session store: PostgreSQL when `--store` names a server (opened as `createMemory` opens a
 * store URL: its package and driver loaded only then), else the SQLite file on PATH (the config's file by default), whose namespace problems found
 * at migration are said once per command.
 */
export async function openSessionStore(config: CliConfig, path?: string): Promise<CliSessionStore> {
  if (config.store !== undefined) {
    refuseFileSettings(config.store, config);
    return openStoreUrl(config.store);
  }
  const store = await createSqliteSessionStore({ path: path ?? memoryFile(config), ...sealed(config) });
  reportNamespaceProblems(store.namespaceProblems());
  return store;
}

/**
 * Settings only a SQLite file takes, refused beside `--store` instead of ignored: a `--db` that
 * is not used, or an encryption key that seals nothing (strata does not encrypt PostgreSQL rows).
 */
export function refuseFileSettings(store: string, config: CliConfig): void {
  const shown = shownStore(store);
  if (config.db !== undefined) {
    throw new StrataError('CONFIG_INVALID', `--db ${config.db} names a SQLite file, but --store ${shown} keeps sessions on PostgreSQL`, {
      hint: 'Use one of them: --store for the memory every process shares, or --db for a local file. `strata config` shows where each one is set.',
    });
  }
  if (config.encryptionKey !== undefined) {
    throw new StrataError('CONFIG_INVALID', `an encryption key is set, but --store ${shown} keeps sessions on PostgreSQL, where strata encrypts nothing`, {
      hint: "Unset STRATA_ENCRYPTION_KEY (or the config file's encryptionKey) to use --store, and encrypt at rest on the server instead (e.g. an encrypted volume). `strata config` shows where it is set.",
    });
  }
}

/** A PostgreSQL URL as it can be shown: without its password. */
export function shownStore(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '****';
  return parsed.toString();
}

/** The data dir, created if missing. */
function ensureDir(dir: string): string {
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new StrataError('CONFIG_INVALID', `the data dir ${dir} is a file, not a directory`, {
      hint: 'Pass --data-dir DIR (or set STRATA_DATA_DIR) with a directory: it is created if missing. `strata config` shows where the current value comes from.',
    });
  }
  try {
    // owner only: it holds every conversation (directories that exist keep their mode)
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new StrataError('BACKEND_UNAVAILABLE', `cannot create the data directory ${dir}`, {
      hint: 'Pass --data-dir or set STRATA_DATA_DIR to a writable directory.',
      cause: error,
    });
  }
  return dir;
}

/** A `--db` file: created if missing, but only in a folder that exists (a typo should not make folders). */
function requireFolderOf(file: string): string {
  if (existsSync(file) && statSync(file).isDirectory()) {
    throw new StrataError('CONFIG_INVALID', `--db ${file} is a directory, not a SQLite file`, {
      hint: 'Pass the path of a SQLite file (e.g. --db ~/notes/memory.sqlite), or --data-dir for a directory.',
    });
  }
  if (!existsSync(dirname(file))) {
    throw new StrataError('CONFIG_INVALID', `the folder of --db ${file} does not exist`, { hint: `Create ${dirname(file)} first, or check the path.` });
  }
  return file;
}

/** The file's encryption key, when one is configured (STRATA_ENCRYPTION_KEY or the config file). */
export function sealed(config: CliConfig): { encryptionKey?: string } {
  return config.encryptionKey === undefined ? {} : { encryptionKey: config.encryptionKey };
}

/** Namespaces the file held before names had to be exact (found when it was migrated): said on every command, changed never. */
function reportNamespaceProblems(problems: { namespace: string; problem: string }[]): void {
  if (problems.length === 0) return;
  // the characters at fault are invisible: show them escaped
  const visible = (name: string): string => JSON.stringify(name).replace(/[\p{Cc}\p{Cf}\p{Z}]/gu, (c) => (c === ' ' ? c : `\\u${(c.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`));
  const listed = problems
    .slice(0, 5)
    .map((p) => `${visible(p.namespace)} ${p.problem}`)
    .join('; ');
  note(
    `note: ${count(problems.length, 'namespace')} in this file would be rejected today (${listed}${problems.length > 5 ? '; ...' : ''}). They stay readable by their exact name; to rename one: strata export --all -n NAME -o F, strata forget --all-of-namespace NAME, strata import F -n NEW.`,
  );
}

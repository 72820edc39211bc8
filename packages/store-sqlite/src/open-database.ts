import { closeSync, existsSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import CipherDatabase from 'better-sqlite3-multiple-ciphers';
import { analyzeText, StrataError } from '@strata/core';
import { migrate } from './migrations.js';
import { rememberConnection } from './checkpoint-thread.js';
import { toStrataError } from './to-strata-error.js';
import { configureWalCheckpoints } from './wal-checkpointer.js';

/**
 * How to open a strata SQLite file, for the session store and the knowledge base alike: its
 * path, durability, lock wait and encryption key.
 */
export interface SqliteOpenOptions {
  /** Path of the database file; ':memory:' for a private in-memory database. */
  path: string;
  /** `NORMAL` (default) survives process crashes; `FULL` also power loss, at a write cost. */
  synchronous?: 'NORMAL' | 'FULL';
  /** How long a writer waits for another process's lock before failing. @defaultValue 5000 */
  busyTimeoutMs?: number;
  /** Test hook: cap the file size (pages of 4 KiB) to exercise "disk full". */
  maxPageCount?: number;
  /**
   * Encrypts the file at rest (SQLCipher 4 format, through better-sqlite3-multiple-ciphers):
   * pages, WAL and journal hold no plaintext. Every connection to the file (the session store
   * and the knowledge base) needs the same key; a wrong or missing key is CONFIG_INVALID.
   * The key is never logged nor put in an error.
   */
  encryptionKey?: string;
}

/**
 * Opens (creating if needed) and migrates a strata database: WAL journal (checkpoints kept out
 * of commits, see WalCheckpointer), busy timeout,
 * foreign keys, and the `strata_terms` SQL function (core's lexical rules), which migration 2
 * needs when it brings a version 1 file up to date.
 * @throws StrataError naming the file: CONFIG_INVALID for a corrupt, foreign or newer file,
 *   BACKEND_UNAVAILABLE when it cannot be opened or written.
 */
export function openDatabase(options: SqliteOpenOptions): Database.Database {
  const file = options.path;
  let db: Database.Database | undefined;
  try {
    assertDirectoryExists(file);
    createPrivately(file);
    db = options.encryptionKey === undefined ? new Database(file, { timeout: options.busyTimeoutMs ?? 5000 }) : openEncrypted(file, options.encryptionKey, options.busyTimeoutMs ?? 5000);
    db.pragma(`synchronous = ${options.synchronous ?? 'NORMAL'}`);
    db.pragma('foreign_keys = ON');
    // deleted content is overwritten with zeros, so forgotten text does not linger in free space
    db.pragma('secure_delete = ON');
    // a new file gives freed pages back (PRAGMA incremental_vacuum after a forget); set before its first table
    if ((db.pragma('page_count', { simple: true }) as number) === 0) db.pragma('auto_vacuum = INCREMENTAL');
    if (options.maxPageCount !== undefined) db.pragma(`max_page_count = ${options.maxPageCount}`);
    db.function('strata_terms', { deterministic: true }, (text: unknown) => analyzeText(String(text ?? '')).join(' '));
    migrate(db, file);
    // WAL is a persistent property of the file: switch only once migrate() has accepted it,
    // so a foreign or newer file that is refused is left exactly as it was.
    if (switchToWal(db, options.busyTimeoutMs ?? 5000) === 'wal') {
      configureWalCheckpoints(db);
      const encrypted = options.encryptionKey !== undefined;
      rememberConnection(db, { file: db.name, driver: encrypted ? 'better-sqlite3-multiple-ciphers' : 'better-sqlite3', encryptionKey: options.encryptionKey });
    }
    return db;
  } catch (error) {
    db?.close();
    throw toStrataError(error, file);
  }
}

/**
 * `PRAGMA journal_mode = WAL`, retried while another connection holds the file busy, up to
 * `timeoutMs`. Turning a new file to WAL needs an exclusive lock, and SQLite answers
 * SQLITE_BUSY at once, without its busy handler, when another process opening the same new
 * file holds a read lock at that moment (two processes creating one file together).
 */
function switchToWal(db: Database.Database, timeoutMs: number): string {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      return db.pragma('journal_mode = WAL', { simple: true }) as string;
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= deadline) throw error;
      // a few milliseconds, growing, with jitter: the other opener's migration is short
      Atomics.wait(pause, 0, 0, Math.min(50, 2 ** attempt) + Math.random() * 5);
    }
  }
}

/**
 * Opens the file with SQLCipher and the key, and proves the key by reading the schema: a
 * wrong key (or a plain file) reads as "not a database". `readonly` opens an existing file
 * without changing it (a check, not a use).
 */
export function openEncrypted(file: string, key: string, timeout: number, readonly = false): Database.Database {
  if (key.length === 0)
    throw new StrataError('CONFIG_INVALID', `SQLite database ${file}: the encryption key is empty`, { hint: 'Pass a non-empty encryptionKey (the CLI reads STRATA_ENCRYPTION_KEY).' });
  const db = new CipherDatabase(file, { timeout, readonly, fileMustExist: readonly }) as unknown as Database.Database;
  try {
    db.pragma("cipher = 'sqlcipher'");
    db.pragma('legacy = 4');
    db.pragma(`key = '${key.replaceAll("'", "''")}'`);
    db.prepare('SELECT count(*) FROM sqlite_master').get();
    return db;
  } catch (error) {
    db.close();
    const code = (error as { code?: unknown }).code;
    if (code === 'SQLITE_NOTADB') {
      throw new StrataError('CONFIG_INVALID', `SQLite database ${file} cannot be opened with this encryption key (wrong key, or a file that is not encrypted)`, {
        hint: 'Pass the key the file was created with; a file created without one is opened without encryptionKey.',
      });
    }
    throw error;
  }
}

/**
 * Creates a new database file readable by its owner only (0600) before SQLite opens it: SQLite
 * creates the WAL and shared-memory files with the database file's permissions.
 */
function createPrivately(file: string): void {
  if (file === '' || file === ':memory:' || file.startsWith('file:') || existsSync(file)) return;
  try {
    closeSync(openSync(file, 'wx', 0o600));
  } catch (error) {
    // another process created it in between: it is theirs to have set up
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * better-sqlite3 reports a missing directory with a plain TypeError before SQLite sees the
 * path; say so as a strata error. (':memory:', '' and 'file:' URIs have no directory to check.)
 */
function assertDirectoryExists(file: string): void {
  if (file === '' || file === ':memory:' || file.startsWith('file:')) return;
  const directory = dirname(file);
  if (existsSync(directory)) return;
  throw new StrataError('BACKEND_UNAVAILABLE', `SQLite database ${file} cannot be created: its directory ${directory} does not exist`, {
    hint: 'Create the directory first (mkdir -p), or point path at a file in an existing, writable directory.',
  });
}

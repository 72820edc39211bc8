import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { StrataError } from '@strata/core';
import { SCHEMA_VERSION } from './migrations.js';
import { openEncrypted } from './open-database.js';
import { toStrataError } from './to-strata-error.js';

/** What `inspectSqliteFile` found, for a health check such as `strata doctor`. */
export interface SqliteFileReport {
  path: string;
  sizeBytes: number;
  /** Size of the write-ahead log beside it (0 when there is none). */
  walBytes: number;
  /** The schema version the file is at (`PRAGMA user_version`). */
  schemaVersion: number;
  /** The schema version this strata writes; a lower file is migrated when a store opens it. */
  currentSchemaVersion: number;
  /** `['ok']`, or the first problems `PRAGMA quick_check` reports. */
  quickCheck: string[];
  sessions: number;
  messages: number;
}

/**
 * Reads a strata SQLite file without changing it (read-only: no migration, no WAL switch, no
 * access recorded) and reports its schema version, what `PRAGMA quick_check` finds (the
 * b-trees and their pages; the O(N) check without index cross-checks), its size and its
 * WAL's, and how many sessions and messages it holds.
 * @throws StrataError NOT_FOUND when there is no such file; CONFIG_INVALID for a file that is
 *   not a database, or is encrypted with another key.
 */
export function inspectSqliteFile(options: { path: string; encryptionKey?: string }): SqliteFileReport {
  const file = options.path;
  if (!existsSync(file)) throw new StrataError('NOT_FOUND', `no SQLite file at ${file}`, { hint: 'It is created by the first write (e.g. the first chat message); check the path.' });
  let db: Database.Database | undefined;
  try {
    db = options.encryptionKey === undefined ? new Database(file, { readonly: true, fileMustExist: true }) : openEncrypted(file, options.encryptionKey, 5000, true);
    const schemaVersion = db.pragma('user_version', { simple: true }) as number;
    const quickCheck = (db.pragma('quick_check(10)') as { quick_check: string }[]).map((row) => row.quick_check);
    const hasTable = (name: string): boolean => db?.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
    const rows = (table: string): number => (hasTable(table) ? Number(db?.prepare(`SELECT count(*) FROM ${table}`).pluck().get()) : 0);
    const wal = `${file}-wal`;
    return {
      path: file,
      sizeBytes: statSync(file).size,
      walBytes: existsSync(wal) ? statSync(wal).size : 0,
      schemaVersion,
      currentSchemaVersion: SCHEMA_VERSION,
      quickCheck,
      sessions: rows('sessions'),
      messages: rows('messages'),
    };
  } catch (error) {
    throw toStrataError(error, file);
  } finally {
    db?.close();
  }
}

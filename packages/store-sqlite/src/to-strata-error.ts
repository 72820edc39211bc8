import { StrataError } from '@strata/core';

interface SqliteLikeError {
  code?: unknown;
  message?: unknown;
}

/** Node's file-system errors that mean the file cannot be created or opened there. */
const FILE_ERRORS = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOENT', 'ENOTDIR', 'EISDIR', 'EIO']);

/**
 * The one place where SQLite's errors become strata's. `file` names the database in every
 * message, since "database is locked" alone does not say which one.
 */
export function toStrataError(error: unknown, file: string): StrataError {
  if (StrataError.is(error)) return error;
  const code = typeof (error as SqliteLikeError)?.code === 'string' ? ((error as SqliteLikeError).code as string) : '';
  const detail = error instanceof Error ? error.message : String(error);
  const where = `SQLite database ${file}`;
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return new StrataError('BACKEND_UNAVAILABLE', `${where} is busy (${detail})`, {
      hint: 'Another process holds a write lock for longer than busyTimeoutMs; retry, or raise busyTimeoutMs.',
      cause: error,
      retryable: true,
    });
  }
  if (code.startsWith('SQLITE_CONSTRAINT')) {
    return new StrataError('CONFLICT', `${where}: ${detail}`, { hint: 'An id or seq is already taken; use a fresh id.', cause: error });
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new StrataError('BACKEND_UNAVAILABLE', `${where}: the disk (or the database's size limit) is full`, {
      hint: 'Free disk space, or prune old sessions (strata prune --days N), then retry. Nothing of the failed write was stored.',
      cause: error,
      retryable: true,
    });
  }
  if (code.startsWith('SQLITE_NOTADB') || code.startsWith('SQLITE_CORRUPT')) {
    return new StrataError('CONFIG_INVALID', `${where} is not a SQLite database or is corrupt (${detail})`, {
      hint: 'Point path at a strata database or a new file; if the file is encrypted, pass its encryptionKey (STRATA_ENCRYPTION_KEY for the CLI); restore it from a backup if it held data.',
      cause: error,
    });
  }
  // the E* codes: creating the file (owner-only) before SQLite opens it
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_PERM') || code.startsWith('SQLITE_IOERR') || FILE_ERRORS.has(code)) {
    return new StrataError('BACKEND_UNAVAILABLE', `${where} cannot be opened or written (${detail})`, {
      hint: 'Check that the file and its directory exist and are writable by this process (SQLite also writes -wal and -shm files beside it).',
      cause: error,
    });
  }
  return new StrataError('INTERNAL', `${where}: ${detail}`, { hint: 'This is unexpected; please report it with the message above.', cause: error });
}

import { StrataError, type StrataErrorCode } from '@strata/core/errors';

/** What the CLI says about a failure: on stderr as two lines, or as JSON under `--json`. */
export interface ErrorReport {
  /** A StrataError code, or USAGE for a command line commander rejected. */
  code: StrataErrorCode | 'USAGE';
  message: string;
  hint: string;
  /** 1 the user's mistake (with a hint), 2 a backend (disk, server) is unavailable. */
  exitCode: 1 | 2;
}

/**
 * Hints a CLI user can follow, by error code, for errors whose hint speaks of the library's
 * API (`memory.export`, `createMemory({ ... })`): the library addresses app developers.
 */
const CLI_HINTS: Record<StrataErrorCode, string> = {
  INVALID_INPUT: 'Check the arguments: `strata COMMAND --help` shows what each command takes.',
  CONFIG_INVALID: '`strata config` shows the effective config and where each value comes from.',
  NOT_FOUND: '`strata sessions` lists the sessions, `strata show ID --ids` the ids of their messages.',
  CONFLICT: 'Something changed it at the same time: run the command again.',
  BACKEND_UNAVAILABLE: '`strata doctor` checks the data dir, the SQLite file, Redis, Chroma and the LLM endpoint.',
  CLOSED: 'Run the command again.',
  INTERNAL: 'Run the command again with --debug to see the stack, and report it with the command you ran.',
  UNAUTHORIZED: '`strata keys list` shows the keys; `strata keys create` makes one.',
  FORBIDDEN: '`strata keys list` shows what each key may do; create a key with the scope needed.',
  RATE_LIMITED: 'Wait a moment and run the command again.',
};
const LIBRARY_HINT = /\bmemory\.[a-z]|\bcreateMemory\b|\b[a-z]+\(\{|\bnew [A-Z][A-Za-z]+\(/;

/** Node's file-system errors: what went wrong, whose fault, and what to do. */
const FILE_ERRORS: Record<string, { reason: string; hint: string; exitCode: 1 | 2 }> = {
  ENOENT: { reason: 'no such file or directory', hint: 'Check the path; a file is written only into a folder that exists (create it first).', exitCode: 1 },
  ENOTDIR: { reason: 'a part of the path is a file, not a folder', hint: 'Check the path: every part before the file name must be a folder.', exitCode: 1 },
  EISDIR: { reason: 'it is a folder', hint: 'Pass the path of a file, not of a folder.', exitCode: 1 },
  EEXIST: { reason: 'it exists already', hint: 'Pass another path, or remove the existing one first.', exitCode: 1 },
  EACCES: { reason: 'permission denied', hint: 'Choose a path you may write to, or change its permissions.', exitCode: 2 },
  EPERM: { reason: 'operation not permitted', hint: 'Choose a path you may write to, or change its permissions.', exitCode: 2 },
  EROFS: { reason: 'the file system is read-only', hint: 'Choose a path on a writable disk.', exitCode: 2 },
  ENOSPC: { reason: 'no space left on the disk', hint: 'Free some space, or choose a path on another disk.', exitCode: 2 },
};
const VERBS: Record<string, string> = { open: 'open', read: 'read', write: 'write', mkdir: 'create', scandir: 'list', stat: 'read', rename: 'move', unlink: 'remove', rmdir: 'remove' };

interface SystemError extends Error {
  code: string;
  syscall?: string;
  path?: string;
}

function isSystemError(error: unknown): error is SystemError {
  const code: unknown = error instanceof Error ? (error as Partial<SystemError>).code : undefined;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}

/** Any failure as the CLI reports it. */
export function describeError(error: unknown): ErrorReport {
  if (StrataError.is(error)) {
    return { code: error.code, message: error.message, hint: LIBRARY_HINT.test(error.hint) ? CLI_HINTS[error.code] : error.hint, exitCode: error.code === 'BACKEND_UNAVAILABLE' ? 2 : 1 };
  }
  if (isSystemError(error)) {
    const known = FILE_ERRORS[error.code];
    const verb = VERBS[error.syscall ?? ''] ?? 'use';
    const what = error.path === undefined ? '' : ` ${error.path}`;
    if (known)
      return { code: known.exitCode === 2 ? 'BACKEND_UNAVAILABLE' : 'INVALID_INPUT', message: `cannot ${verb}${what}: ${known.reason} (${error.code})`, hint: known.hint, exitCode: known.exitCode };
    return { code: 'BACKEND_UNAVAILABLE', message: `cannot ${verb}${what}: ${error.message}`, hint: CLI_HINTS.BACKEND_UNAVAILABLE, exitCode: 2 };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { code: 'INTERNAL', message: `unexpected error: ${message}`, hint: CLI_HINTS.INTERNAL, exitCode: 1 };
}

/** The error and its causes, stacks included, for `--debug`. */
export function debugTrace(error: unknown): string {
  const lines: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth++) {
    lines.push(`${depth ? 'caused by: ' : ''}${current instanceof Error ? (current.stack ?? current.message) : String(current)}`);
    current = current instanceof Error ? current.cause : undefined;
  }
  return lines.join('\n');
}

/** Writes the report on stderr (JSON under `--json`), the stack too under `--debug`; returns the exit code. */
export function reportError(error: unknown, { json, debug }: { json: boolean; debug: boolean }): number {
  const report = describeError(error);
  if (json) {
    process.stderr.write(`${JSON.stringify({ error: { code: report.code, message: report.message, hint: report.hint, ...(debug ? { stack: debugTrace(error) } : {}) } })}\n`);
  } else {
    process.stderr.write(`error: ${report.message}\nhint: ${report.hint}\n${debug ? `${debugTrace(error)}\n` : ''}`);
  }
  return report.exitCode;
}

/** A usage error commander rejected (unknown option, missing argument), as a report. */
export function usageReport(message: string, commandName: string): ErrorReport {
  return { code: 'USAGE', message: message.replace(/^error: /, '').trim(), hint: `\`strata ${commandName ? `${commandName} ` : ''}--help\` shows what it takes.`, exitCode: 1 };
}

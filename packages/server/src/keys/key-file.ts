import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { StrataError } from '@strata/core';
import { z } from 'zod';
import type { ApiKey } from './api-key.js';

/*
 * The keys file: `{ "version": 1, "keys": [ApiKey & { hash }] }`, owner-only (0600), replaced
 * as a whole (written to a temporary file beside it, then renamed over it) so that a reader
 * sees the old file or the new one, never half of one.
 */

/** A key as the file holds it: the key and the sha256 of its secret. */
export type StoredKey = ApiKey & { hash: string };

/** The keys of a file and the stamp of the version they were read from. */
export interface KeyFileSnapshot {
  /** Changes with every replacement of the file (inode, size, times), 'missing' without a file. */
  stamp: string;
  keys: StoredKey[];
}

const storedKeySchema = z.object({
  id: z.string().regex(/^[0-9a-f]{16}$/),
  namespace: z.string().min(1),
  match: z.enum(['exact', 'prefix']),
  scopes: z.array(z.enum(['read', 'write', 'forget', 'admin'])).min(1),
  name: z.string().optional(),
  createdAt: z.number().int(),
  revokedAt: z.number().int().optional(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
const fileSchema = z.object({ version: z.literal(1), keys: z.array(storedKeySchema) });

/**
 * The stamp of the file now, without reading it: compared with a snapshot's to know whether to
 * read again. Every request asks, so this is one synchronous stat (a few microseconds on a
 * local file), not a round trip through libuv's thread pool, which added its queueing to each
 * request's latency under load.
 */
export async function keyFileStamp(path: string): Promise<string> {
  try {
    return stampOf(statSync(path, { bigint: true }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw keyFileError(path, 'read', error);
  }
}

/** Reads the file (no file: no keys). A file that is not a keys file is CONFIG_INVALID: no key verifies until it is fixed. */
export async function readKeyFile(path: string): Promise<KeyFileSnapshot> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { stamp: 'missing', keys: [] };
    throw keyFileError(path, 'read', error);
  }
  try {
    // stat and content of the same open file: a replacement in between cannot pair one with the other
    const stamp = stampOf(await handle.stat({ bigint: true }));
    return { stamp, keys: parseKeyFile(path, await handle.readFile('utf8')) };
  } catch (error) {
    throw keyFileError(path, 'read', error);
  } finally {
    await handle.close();
  }
}

/** Replaces the file with `keys`, atomically, readable and writable by its owner only. */
export async function writeKeyFile(path: string, keys: StoredKey[]): Promise<void> {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify({ version: 1, keys }, null, 2)}\n`);
      // on disk before the rename makes it the keys file: a crash leaves the old file or the new one
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw keyFileError(path, 'write', error);
  }
}

function parseKeyFile(path: string, text: string): StoredKey[] {
  let parsed: z.ZodSafeParseResult<z.infer<typeof fileSchema>>;
  try {
    parsed = fileSchema.safeParse(JSON.parse(text));
  } catch (error) {
    throw invalidFile(path, `is not JSON (${(error as Error).message})`, error);
  }
  if (!parsed.success) throw invalidFile(path, `is not a keys file: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`, parsed.error);
  const ids = parsed.data.keys.map((key) => key.id);
  const twice = ids.find((id, index) => ids.indexOf(id) !== index);
  if (twice) throw invalidFile(path, `holds key ${twice} twice`);
  return parsed.data.keys.map(({ name, revokedAt, ...key }) => ({ ...key, ...(name === undefined ? {} : { name }), ...(revokedAt === undefined ? {} : { revokedAt }) }));
}

function stampOf(stats: { ino: bigint; size: bigint; mtimeNs: bigint; ctimeNs: bigint }): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeNs}:${stats.ctimeNs}`;
}

function invalidFile(path: string, problem: string, cause?: unknown): StrataError {
  return new StrataError('CONFIG_INVALID', `the keys file ${path} ${problem}`, {
    hint: 'Restore it from a backup, or move it away and create keys again (strata keys create); it is written by strata only.',
    ...(cause === undefined ? {} : { cause }),
  });
}

/** A file-system failure on the keys file: a missing folder is the caller's to fix, the rest is the disk's. */
export function keyFileError(path: string, action: 'read' | 'write', error: unknown): StrataError {
  if (StrataError.is(error)) return error;
  const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') {
    return new StrataError('CONFIG_INVALID', `cannot ${action} the keys file ${path} (${code})`, {
      hint: 'Pass the path of a file in a folder that exists (create the folder first).',
      cause: error,
    });
  }
  return new StrataError('BACKEND_UNAVAILABLE', `cannot ${action} the keys file ${path} (${code})`, {
    hint: 'Check that this user may read and write the keys file and its folder, and that the disk has space.',
    cause: error,
  });
}

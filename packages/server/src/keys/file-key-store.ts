import { nameProblem, StrataError } from '@strata/core';
import { z } from 'zod';
import { type ApiKey, type KeyStore, type NewApiKey, SCOPES, type Scope } from './api-key.js';
import { withFileLock } from './file-lock.js';
import { type KeyFileSnapshot, keyFileStamp, readKeyFile, type StoredKey, writeKeyFile } from './key-file.js';
import { formatKeySecret, hashSecret, newKeyId, newSecretPart, parseKeySecret, secretMatches, UNKNOWN_KEY_HASH } from './key-secret.js';

/** Options of {@link FileKeyStore}. */
export interface FileKeyStoreOptions {
  /** The keys file (JSON, 0600); created by the first `create`. No file: no keys. */
  path: string;
}

const NAME_HINT = 'Names are compared exactly: no surrounding whitespace, control or invisible characters, Unicode NFC.';

/** A name (namespace, label) by core's naming rule, so that a key names a namespace exactly as the memory stores it. */
const exactName = (what: string, max: number) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, `${what} must be a non-empty string`)
    .max(max, `${what} must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      const problem = nameProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `${what} ${problem}` });
    });

const newKeySchema = z.object({
  namespace: exactName('namespace', 256),
  match: z.enum(['exact', 'prefix'], { error: 'match must be "exact" or "prefix"' }).default('exact'),
  scopes: z
    .array(z.enum(SCOPES as [Scope, ...Scope[]], { error: `each scope must be one of ${SCOPES.join(', ')}` }), { error: 'scopes must be an array' })
    .min(1, `scopes must name at least one of ${SCOPES.join(', ')}`)
    // one order, no repeats, whatever the caller passed
    .transform((scopes) => SCOPES.filter((scope) => scopes.includes(scope))),
  name: exactName('name', 200).optional(),
});

const keyIdSchema = z.string().regex(/^[0-9a-f]{16}$/);

/**
 * API keys in a JSON file. The file holds the sha256 of each secret, never a secret; it is
 * replaced atomically under a lock file by every change, and re-read by `verify` whenever it
 * was replaced since the last read, so that a key revoked by another process (`strata keys
 * revoke`) stops verifying at a running server's next request.
 */
export class FileKeyStore implements KeyStore {
  readonly path: string;
  #snapshot: { stamp: string; keys: Map<string, StoredKey> } | undefined;
  /** Ids this store saw revoked: they stay refused even if an older copy of the file comes back. */
  readonly #revoked = new Set<string>();

  constructor(options: FileKeyStoreOptions) {
    this.path = options.path;
  }

  async verify(presented: string): Promise<ApiKey | null> {
    const parts = typeof presented === 'string' ? parseKeySecret(presented) : null;
    if (!parts) return null;
    const stored = (await this.#current()).get(parts.id);
    // an unknown id is compared too, against a hash no secret has: it costs what a known one costs
    const matches = secretMatches(parts.secret, stored?.hash ?? UNKNOWN_KEY_HASH);
    if (!stored || !matches) return null;
    if (stored.revokedAt !== undefined) this.#revoked.add(stored.id);
    return this.#revoked.has(stored.id) ? null : toApiKey(stored);
  }

  async create(input: NewApiKey): Promise<{ key: ApiKey; secret: string }> {
    const parsed = parseInput(newKeySchema, input, "Pass { namespace, scopes } with scopes from read, write, forget, admin (and match 'exact' or 'prefix').");
    const secret = newSecretPart();
    const stored: StoredKey = {
      id: newKeyId(),
      namespace: parsed.namespace,
      match: parsed.match,
      scopes: parsed.scopes,
      ...(parsed.name === undefined ? {} : { name: parsed.name }),
      createdAt: Date.now(),
      hash: hashSecret(secret),
    };
    await this.#change((keys) => {
      // 64 random bits: a clash is next to impossible, but must not replace another key
      if (keys.some((key) => key.id === stored.id)) throw new StrataError('CONFLICT', `key id ${stored.id} exists already`, { hint: 'Create the key again.' });
      return [[...keys, stored], undefined];
    });
    return { key: toApiKey(stored), secret: formatKeySecret(stored.id, secret) };
  }

  async list(): Promise<ApiKey[]> {
    return [...(await this.#current()).values()].sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id)).map(toApiKey);
  }

  async revoke(id: string): Promise<ApiKey> {
    parseInput(keyIdSchema, id, 'Pass the id of a key (16 hex characters, as `strata keys list` shows it), not its secret.');
    const revoked = await this.#change((keys) => {
      const found = keys.find((key) => key.id === id);
      if (!found || found.revokedAt !== undefined) return [keys, found];
      const now: StoredKey = { ...found, revokedAt: Date.now() };
      return [keys.map((key) => (key === found ? now : key)), now];
    });
    if (!revoked) throw new StrataError('NOT_FOUND', `no key with id ${JSON.stringify(id)} in ${this.path}`, { hint: 'List the keys and their ids with `strata keys list` (same --keys file).' });
    this.#revoked.add(id);
    return toApiKey(revoked);
  }

  /** The keys as the file holds them now: read again only when the file was replaced since. */
  async #current(): Promise<Map<string, StoredKey>> {
    const stamp = await keyFileStamp(this.path);
    if (this.#snapshot?.stamp === stamp) return this.#snapshot.keys;
    return this.#remember(await readKeyFile(this.path));
  }

  #remember(snapshot: KeyFileSnapshot): Map<string, StoredKey> {
    const keys = new Map(snapshot.keys.map((key) => [key.id, key]));
    this.#snapshot = { stamp: snapshot.stamp, keys };
    return keys;
  }

  /** Reads the file afresh under the lock, applies `change`, and replaces the file when the keys changed. */
  async #change<T>(change: (keys: StoredKey[]) => [StoredKey[], T]): Promise<T> {
    return withFileLock(this.path, async () => {
      const { keys } = await readKeyFile(this.path);
      const [next, result] = change(keys);
      if (next !== keys) {
        await writeKeyFile(this.path, next);
        this.#snapshot = undefined;
      }
      return result;
    });
  }
}

/**
 * A {@link FileKeyStore} on `path`, with the file read once: a keys file that cannot be read
 * or is not a keys file fails here (CONFIG_INVALID / BACKEND_UNAVAILABLE), not at a request.
 *
 * @example
 * ```ts
 * const keys = await createFileKeyStore({ path: '/var/lib/strata/keys.json' });
 * const { secret } = await keys.create({ namespace: 'acme', scopes: ['read', 'write'] });
 * const app = createStrataServer({ memory, auth: { keys } });
 * ```
 */
export async function createFileKeyStore(options: FileKeyStoreOptions): Promise<FileKeyStore> {
  const path = parseInput(z.string().min(1, 'path must be a non-empty string'), options?.path, 'Pass { path } with the keys file, e.g. <data dir>/keys.json.');
  const store = new FileKeyStore({ path });
  await store.list();
  return store;
}

/** The key without its hash, as callers get it (a copy: changing it changes nothing stored). */
function toApiKey(stored: StoredKey): ApiKey {
  const { id, namespace, match, scopes, name, createdAt, revokedAt } = stored;
  return { id, namespace, match, scopes: [...scopes], ...(name === undefined ? {} : { name }), createdAt, ...(revokedAt === undefined ? {} : { revokedAt }) };
}

function parseInput<S extends z.ZodType>(schema: S, value: unknown, hint: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => (issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message));
  const shown = JSON.stringify(value) ?? String(value);
  const isName = parsed.error.issues.some((issue) => issue.path[0] === 'namespace' || issue.path[0] === 'name');
  return fail(`${problems.join('; ')} (got ${shown.length > 300 ? `${shown.slice(0, 300)}…` : shown})`, isName ? `${hint} ${NAME_HINT}` : hint);
}

function fail(message: string, hint: string): never {
  throw new StrataError('INVALID_INPUT', message, { hint });
}

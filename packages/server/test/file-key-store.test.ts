import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StrataError } from '@strata/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileKeyStore, FileKeyStore } from '../src/keys/file-key-store.js';
import { withFileLock } from '../src/keys/file-lock.js';

let dir: string;
let path: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-keys-'));
  path = join(dir, 'keys.json');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The random part of a secret (after `sk_strata_<id>_`). */
const secretPart = (secret: string) => secret.slice('sk_strata_'.length + 17);

async function expectStrataError(promise: Promise<unknown>, code: string, message: RegExp): Promise<StrataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(StrataError.is(error), String(error)).toBe(true);
  const strata = error as StrataError;
  expect(strata.code).toBe(code);
  expect(strata.message).toMatch(message);
  expect(strata.hint.length).toBeGreaterThan(10);
  return strata;
}

describe('FileKeyStore: create and verify', () => {
  it('verifies a new key by its secret and returns the key without secret or hash', async () => {
    const store = await createFileKeyStore({ path });
    const { key, secret } = await store.create({ namespace: 'acme', scopes: ['write', 'read', 'read'], name: 'ci deploys' });
    expect(secret).toMatch(/^sk_strata_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    expect(secret).toContain(`_${key.id}_`);
    expect(key).toEqual({ id: key.id, namespace: 'acme', match: 'exact', scopes: ['read', 'write'], name: 'ci deploys', createdAt: key.createdAt });
    expect(await store.verify(secret)).toEqual(key);
    // a second store on the same file (another process) verifies it too
    expect(await new FileKeyStore({ path }).verify(secret)).toEqual(key);
  });

  it('keeps a prefix key as a prefix key', async () => {
    const store = await createFileKeyStore({ path });
    const { secret } = await store.create({ namespace: 'team/', match: 'prefix', scopes: ['admin'] });
    expect(await store.verify(secret)).toMatchObject({ namespace: 'team/', match: 'prefix', scopes: ['admin'] });
  });

  it('refuses a wrong secret, a malformed one, and one key id with another key secret', async () => {
    const store = await createFileKeyStore({ path });
    const a = await store.create({ namespace: 'acme', scopes: ['read'] });
    const b = await store.create({ namespace: 'globex', scopes: ['read'] });
    const flipped = secretPart(a.secret).startsWith('A') ? `B${secretPart(a.secret).slice(1)}` : `A${secretPart(a.secret).slice(1)}`;
    const candidates = [
      `sk_strata_${a.key.id}_${flipped}`,
      `sk_strata_${a.key.id}_${secretPart(b.secret)}`,
      `sk_strata_${b.key.id}_${secretPart(a.secret)}`,
      `sk_strata_${'0'.repeat(16)}_${secretPart(a.secret)}`,
      '',
      'sk_strata_',
      a.secret.slice(0, -1),
      `${a.secret}x`,
      ` ${a.secret}`,
      a.secret.toUpperCase(),
      a.secret.replace('sk_strata_', 'sk_other_'),
      `sk_strata_${a.key.id}`,
      secretPart(a.secret),
    ];
    for (const candidate of candidates) expect(await store.verify(candidate), candidate).toBeNull();
    expect(await store.verify(undefined as unknown as string)).toBeNull();
    expect(await store.verify(a.secret)).not.toBeNull();
  });

  it('validates what a key is made of, with hints', async () => {
    const store = await createFileKeyStore({ path });
    await expectStrataError(store.create({ namespace: '', scopes: ['read'] }), 'INVALID_INPUT', /namespace must be a non-empty string/);
    await expectStrataError(store.create({ namespace: 'acme ', scopes: ['read'] }), 'INVALID_INPUT', /namespace starts or ends with whitespace/);
    await expectStrataError(store.create({ namespace: 'ac\u200bme', scopes: ['read'] }), 'INVALID_INPUT', /invisible/);
    await expectStrataError(store.create({ namespace: 'acme', scopes: [] }), 'INVALID_INPUT', /scopes must name at least one/);
    await expectStrataError(store.create({ namespace: 'acme', scopes: ['root' as 'read'] }), 'INVALID_INPUT', /scope must be one of read, write, forget, admin/);
    await expectStrataError(store.create({ namespace: 'acme', match: 'glob' as 'prefix', scopes: ['read'] }), 'INVALID_INPUT', /match must be "exact" or "prefix"/);
    await expectStrataError(store.create({ namespace: 'acme', scopes: ['read'], name: '' }), 'INVALID_INPUT', /name must be a non-empty string/);
    expect(await store.list()).toEqual([]);
  });
});

describe('FileKeyStore: revoke', () => {
  it('refuses a revoked key from then on, and keeps the first revocation time', async () => {
    const store = await createFileKeyStore({ path });
    const { key, secret } = await store.create({ namespace: 'acme', scopes: ['read'] });
    const revoked = await store.revoke(key.id);
    expect(revoked.revokedAt).toBeGreaterThanOrEqual(key.createdAt);
    expect(await store.verify(secret)).toBeNull();
    expect((await store.revoke(key.id)).revokedAt).toBe(revoked.revokedAt);
    expect(await store.list()).toEqual([revoked]);
  });

  it('applies a revoke made through another store on the same file at the next verify', async () => {
    const server = await createFileKeyStore({ path });
    const { key, secret } = await server.create({ namespace: 'acme', scopes: ['read'] });
    const other = await server.create({ namespace: 'acme', scopes: ['write'] });
    expect(await server.verify(secret)).not.toBeNull();
    const cli = await createFileKeyStore({ path });
    await cli.revoke(key.id);
    expect(await server.verify(secret)).toBeNull();
    expect(await server.verify(other.secret)).not.toBeNull();
  });

  it('keeps refusing a key it saw revoked even when an older copy of the file comes back', async () => {
    const store = await createFileKeyStore({ path });
    const { key, secret } = await store.create({ namespace: 'acme', scopes: ['read'] });
    copyFileSync(path, join(dir, 'backup.json'));
    await store.revoke(key.id);
    copyFileSync(join(dir, 'backup.json'), path);
    expect((await store.list())[0]?.revokedAt).toBeUndefined();
    expect(await store.verify(secret)).toBeNull();
  });

  it('says NOT_FOUND for an unknown id and INVALID_INPUT for something that is not an id', async () => {
    const store = await createFileKeyStore({ path });
    const { secret } = await store.create({ namespace: 'acme', scopes: ['read'] });
    await expectStrataError(store.revoke('0123456789abcdef'), 'NOT_FOUND', /no key with id "0123456789abcdef"/);
    const error = await expectStrataError(store.revoke(secret), 'INVALID_INPUT', /got/);
    expect(error.hint).toMatch(/not its secret/);
  });
});

describe('FileKeyStore: the file', () => {
  it('is readable by its owner only and holds hashes, never a secret', async () => {
    const store = await createFileKeyStore({ path });
    const made = [await store.create({ namespace: 'acme', scopes: ['read'] }), await store.create({ namespace: 'globex', scopes: ['admin'] })];
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const text = readFileSync(path, 'utf8');
    for (const { key, secret } of made) {
      expect(text).toContain(key.id);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secretPart(secret));
    }
    expect(text.match(/"hash": "[0-9a-f]{64}"/g)).toHaveLength(2);
    for (const key of await store.list()) expect(Object.keys(key).sort()).toEqual(['createdAt', 'id', 'match', 'namespace', 'scopes']);
  });

  it('loses no key when two stores on one file create keys at the same time', async () => {
    const one = await createFileKeyStore({ path });
    const two = await createFileKeyStore({ path });
    const made = await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? one : two).create({ namespace: `ns-${i}`, scopes: ['read'] })));
    const listed = await new FileKeyStore({ path }).list();
    expect(listed.map((key) => key.id).sort()).toEqual(made.map(({ key }) => key.id).sort());
    for (const { secret } of made) expect(await one.verify(secret)).not.toBeNull();
  });

  it('takes over a lock left by a writer that died, and waits for a live one', async () => {
    writeFileSync(`${path}.lock`, '999999\n');
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, old, old);
    const store = await createFileKeyStore({ path });
    await store.create({ namespace: 'acme', scopes: ['read'] });
    expect(await store.list()).toHaveLength(1);
    writeFileSync(`${path}.lock`, '999999\n');
    await expectStrataError(
      withFileLock(path, async () => 'never', { waitMs: 50 }),
      'BACKEND_UNAVAILABLE',
      /locked by another writer/,
    );
  });

  it('reports a file that is not a keys file when the store is created', async () => {
    writeFileSync(path, '{"version": 1, "keys": [{"id": "nope"}]}');
    await expectStrataError(createFileKeyStore({ path }), 'CONFIG_INVALID', /is not a keys file/);
    writeFileSync(path, 'not json');
    await expectStrataError(createFileKeyStore({ path }), 'CONFIG_INVALID', /is not JSON/);
  });

  it('has no keys without a file, and says what to do when its folder is missing', async () => {
    expect(await (await createFileKeyStore({ path })).list()).toEqual([]);
    const lost = await createFileKeyStore({ path: join(dir, 'missing', 'keys.json') });
    await expectStrataError(lost.create({ namespace: 'acme', scopes: ['read'] }), 'CONFIG_INVALID', /cannot lock the keys file/);
  });
});

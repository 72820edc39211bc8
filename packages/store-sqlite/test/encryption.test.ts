import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StrataError, createMemory, type Memory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '../src/index.js';

const KEY = "correct horse 'battery' staple";
const TURNS = ['My locker code is Quokka7319.', 'I moved to Trondheim in March.', 'My sister Ingeborg is a veterinarian.', 'We adopted a ferret called Pistachio.'];
/** Words only the stored turns hold, as typed and lowercased (the lexical snapshot keeps analyzed terms). */
const WORDS = ['Quokka7319', 'Trondheim', 'Ingeborg', 'veterinarian', 'Pistachio'].flatMap((w) => [w, w.toLowerCase()]);

function plaintextIn(path: string): string[] {
  const found: string[] = [];
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    if (bytes.subarray(0, 15).toString('latin1') === 'SQLite format 3') found.push(`${file}: plain SQLite header`);
    for (const word of WORDS) if (bytes.includes(word)) found.push(`${file}: ${word}`);
  }
  return found;
}

describe('SQLite encrypted at rest (encryptionKey)', () => {
  let dir = '';
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  async function open(path: string, encryptionKey?: string): Promise<Memory> {
    const options = { path, ...(encryptionKey === undefined ? {} : { encryptionKey }) };
    return createMemory({ store: await createSqliteSessionStore(options), knowledge: await createSqliteKnowledgeBase(options) });
  }

  it('holds no plaintext of any stored message in the file, WAL or shm, and reads back with the key', async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-encrypted-'));
    const path = join(dir, 'memory.sqlite');
    const memory = await open(path, KEY);
    const session = await memory.sessions.create({ namespace: 'sealed' });
    await memory.append(
      session.id,
      TURNS.map((content) => ({ role: 'user' as const, content })),
    );
    await memory.flush();
    await memory.getContext(session.id, { query: 'where did I move' });
    expect(plaintextIn(path)).toEqual([]);
    await memory.close();
    expect(plaintextIn(path)).toEqual([]);

    const again = await open(path, KEY);
    expect((await again.messages(session.id)).map((m) => m.content)).toEqual(TURNS);
    expect((await again.search({ namespace: 'sealed', query: 'ferret', k: 1 }))[0]?.text).toContain('Pistachio');
    await again.close();
  });

  it('a wrong or missing key is CONFIG_INVALID with a hint, and the key is never in the error', async () => {
    dir = await mkdtemp(join(tmpdir(), 'strata-encrypted-'));
    const path = join(dir, 'memory.sqlite');
    await (await open(path, KEY)).close();
    for (const attempt of [
      () => createSqliteSessionStore({ path, encryptionKey: 'Tr0ub4dor&3' }),
      () => createSqliteKnowledgeBase({ path, encryptionKey: 'Tr0ub4dor&3' }),
      () => createSqliteSessionStore({ path }),
    ]) {
      const error = await attempt().then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(StrataError.is(error, 'CONFIG_INVALID'), String(error)).toBe(true);
      expect((error as StrataError).hint).toMatch(/key/i);
      expect(`${(error as StrataError).message} ${(error as StrataError).hint}`).not.toContain('Tr0ub4dor');
      expect(`${(error as StrataError).message} ${(error as StrataError).hint}`).not.toContain('battery');
    }
    const empty = await createSqliteSessionStore({ path, encryptionKey: '' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(StrataError.is(empty, 'CONFIG_INVALID')).toBe(true);
  });
});

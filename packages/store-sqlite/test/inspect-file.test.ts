import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemory, StrataError } from '@strata/core';
import { createSqliteKnowledgeBase } from '../src/sqlite-knowledge-base.js';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';
import { inspectSqliteFile } from '../src/inspect-file.js';
import { SCHEMA_VERSION } from '../src/migrations.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-inspect-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

/** A file with `count` messages in one session, closed (checkpointed). */
async function fileWith(count: number, encryptionKey?: string): Promise<string> {
  const path = join(dir, 'memory.sqlite');
  const key = encryptionKey === undefined ? {} : { encryptionKey };
  const memory = await createMemory({ store: await createSqliteSessionStore({ path, ...key }), knowledge: await createSqliteKnowledgeBase({ path, ...key }) });
  const session = await memory.sessions.create({ namespace: 'n' });
  await memory.append(
    session.id,
    Array.from({ length: count }, (_, i) => ({ role: 'user' as const, content: `Message number ${i} about ${randomBytes(24).toString('hex')}` })),
  );
  await memory.close();
  return path;
}

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (error) {
    return StrataError.is(error) ? error.code : 'not a StrataError';
  }
};

describe('inspectSqliteFile (strata doctor)', () => {
  it('reports schema version, quick_check, sizes and counts, and leaves the file as it was', async () => {
    const path = await fileWith(30);
    const before = createHash('sha256')
      .update(await readFile(path))
      .digest('hex');
    const report = inspectSqliteFile({ path });
    expect(report).toMatchObject({ path, schemaVersion: SCHEMA_VERSION, currentSchemaVersion: SCHEMA_VERSION, quickCheck: ['ok'], sessions: 1, messages: 30 });
    expect(report.sizeBytes).toBeGreaterThan(0);
    expect(
      createHash('sha256')
        .update(await readFile(path))
        .digest('hex'),
    ).toBe(before);
  });

  it('finds damaged pages, or refuses a file that is not a database', async () => {
    const path = await fileWith(400);
    const size = (await readFile(path)).length;
    const handle = await open(path, 'r+');
    // overwrite a page past the schema: b-tree pages of the tables
    await handle.write(randomBytes(4096), 0, 4096, Math.floor(size / 2 / 4096) * 4096);
    await handle.close();
    let damaged: string[] | undefined;
    const code = codeOf(() => (damaged = inspectSqliteFile({ path }).quickCheck));
    if (code === undefined) expect(damaged).not.toEqual(['ok']);
    else expect(code).toBe('CONFIG_INVALID');
    const junk = join(dir, 'junk.sqlite');
    await writeFile(junk, randomBytes(8192));
    expect(codeOf(() => inspectSqliteFile({ path: junk }))).toBe('CONFIG_INVALID');
    expect(codeOf(() => inspectSqliteFile({ path: join(dir, 'missing.sqlite') }))).toBe('NOT_FOUND');
  });

  it('opens an encrypted file with its key, and says CONFIG_INVALID without it', async () => {
    const path = await fileWith(3, 'Correct-Horse-9');
    expect(inspectSqliteFile({ path, encryptionKey: 'Correct-Horse-9' })).toMatchObject({ messages: 3, quickCheck: ['ok'] });
    expect(codeOf(() => inspectSqliteFile({ path }))).toBe('CONFIG_INVALID');
    expect(codeOf(() => inspectSqliteFile({ path, encryptionKey: 'wrong' }))).toBe('CONFIG_INVALID');
  });
});

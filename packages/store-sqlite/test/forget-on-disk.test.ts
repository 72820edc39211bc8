import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '../src/index.js';

const SECRET = 'Quokka7319';

/** Occurrences of the secret (as typed, and lowercased as the lexical index keeps it) in the database file, its WAL and its shared memory. */
function onDisk(path: string, secret: string): number {
  let count = 0;
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    for (const needle of new Set([secret, secret.toLowerCase()])) {
      for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) count++;
    }
  }
  return count;
}

describe('forgotten text on disk (SQLite)', () => {
  let dir = '';
  let memory: Memory | undefined;

  afterEach(async () => {
    await memory?.close();
    memory = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /** The memory's clock: real time, plus what a test moves it on by. */
  let skewMs = 0;

  async function open(): Promise<{ memory: Memory; path: string }> {
    dir = await mkdtemp(join(tmpdir(), 'strata-forget-'));
    const path = join(dir, 'memory.sqlite');
    skewMs = 0;
    memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }), clock: { now: () => Date.now() + skewMs } });
    return { memory, path };
  }

  /** A conversation whose middle turn holds the secret, derived and searched (so summaries, facts and a lexical snapshot hold it too). */
  async function talk(m: Memory, namespace: string, secret: string): Promise<{ sessionId: string; secretId: string }> {
    const session = await m.sessions.create({ namespace });
    const before = Array.from({ length: 14 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `We talked about the garden, day ${i}, and the tomatoes.` }));
    await m.append(session.id, before);
    const [secretTurn] = await m.append(session.id, { role: 'user', content: `My locker code is ${secret}, please remember it.` });
    await m.append(
      session.id,
      Array.from({ length: 14 }, (_, i) => ({ role: i % 2 ? ('user' as const) : ('assistant' as const), content: `Then we planned the trip, step ${i}.` })),
    );
    await m.flush();
    await m.getContext(session.id, { query: `what is my locker code ${secret}` });
    return { sessionId: session.id, secretId: secretTurn?.id ?? '' };
  }

  it('after forget, neither the file nor the WAL holds the text, while the memory stays open and after it closes', async () => {
    const { memory: m, path } = await open();
    const { secretId } = await talk(m, 'disk', SECRET);
    expect(onDisk(path, SECRET)).toBeGreaterThan(0);
    await m.forget({ messageIds: [secretId] });
    expect(onDisk(path, SECRET)).toBe(0);
    // re-derivation of the summaries that lost the turn, and a new lexical snapshot, bring nothing back
    await m.flush();
    await m.getContext((await m.sessions.list())[0]?.id ?? '', { query: 'locker code' });
    expect(onDisk(path, SECRET)).toBe(0);
    await m.close();
    memory = undefined;
    expect(onDisk(path, SECRET)).toBe(0);
  });

  it('after prune and after forgetting a namespace, the text is gone too', async () => {
    const { memory: m, path } = await open();
    await talk(m, 'old', 'Wombat5527');
    await talk(m, 'tenant', 'Numbat8830');
    await talk(m, 'kept', 'Bilby4412');
    // prune by age: every session is older than 0.00001 days (0.9 s) once the clock moved on by 2 s
    skewMs = 2_000;
    expect((await m.sessions.prune({ olderThanDays: 1e-5, namespace: 'old' })).sessions).toHaveLength(1);
    expect(onDisk(path, 'Wombat5527')).toBe(0);
    await m.forget({ namespace: 'tenant' });
    expect(onDisk(path, 'Numbat8830')).toBe(0);
    expect(onDisk(path, 'Bilby4412')).toBeGreaterThan(0);
  });

  it('creates the database, its WAL and shared memory readable by the owner only', async () => {
    const { memory: m, path } = await open();
    await talk(m, 'modes', SECRET);
    for (const file of [path, `${path}-wal`, `${path}-shm`]) {
      expect(existsSync(file), file).toBe(true);
      expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
    }
  });
});

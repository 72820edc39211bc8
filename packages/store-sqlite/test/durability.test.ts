import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '../src/index.js';
import { inspectFile } from './fixtures/inspect-file.js';
import { spawnWorker } from './fixtures/spawn-worker.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function newFileWithSession(): Promise<{ path: string; sessionId: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-durability-'));
  dirs.push(dir);
  const path = join(dir, 'memory.sqlite');
  const memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
  const session = await memory.sessions.create({ namespace: 'n', id: 'shared' });
  await memory.close();
  return { path, sessionId: session.id };
}

/** Every committed append is whole: its batch is entirely present or entirely absent. */
function expectWholeBatches(ids: string[], label: string, batchSize: number): number {
  const batches = new Map<string, number>();
  for (const id of ids.filter((x) => x.startsWith(`${label}-`))) {
    const batch = id.split('-')[1] ?? '';
    batches.set(batch, (batches.get(batch) ?? 0) + 1);
  }
  for (const [batch, n] of batches) expect(n, `batch ${batch} of ${label}`).toBe(batchSize);
  return batches.size;
}

describe('SQLite durability and concurrency (real processes)', () => {
  it('a process killed with SIGKILL mid-appends loses at most the append in flight; the file stays consistent and usable', async () => {
    const { path, sessionId } = await newFileWithSession();
    const run = spawnWorker({ path, sessionId, label: 'k', appends: 100_000, batchSize: 5 });
    await run.waitForAcks(40);
    run.child.kill('SIGKILL');
    const { signal } = await run.exited;
    expect(signal).toBe('SIGKILL');
    const acked = run.acks();

    const file = inspectFile(path);
    expect(file.integrity).toBe('ok');
    const committed = expectWholeBatches(
      file.messages.map((m) => m.id),
      'k',
      5,
    );
    expect(committed).toBeGreaterThanOrEqual(acked); // nothing acknowledged is lost
    expect(committed).toBeLessThanOrEqual(acked + 1); // at most the append in flight beyond the acks
    expect(file.messages.map((m) => m.seq)).toEqual(file.messages.map((_, i) => i + 1));
    expect(file.currentFactsPerSlot).toEqual([]);
    expect(file.overlappingSummaries).toEqual([]);

    // the file opens and derivation catches up where the killed process stopped
    const memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
    await memory.append(sessionId, { role: 'user', content: 'back after the crash' });
    await memory.flush();
    const context = await memory.getContext(sessionId, { budgetTokens: 500 });
    expect(context.pending.jobs.filter((j) => j.state !== 'failed')).toEqual([]);
    expect((await memory.search({ namespace: 'n', query: 'crash', k: 3 }))[0]?.text).toBe('back after the crash');
    await memory.close();
    expect(inspectFile(path).integrity).toBe('ok');
  }, 120_000);

  it('two processes appending to one session concurrently both succeed: no SQLITE_BUSY, no lost or duplicate seq, integrity kept', async () => {
    const { path, sessionId } = await newFileWithSession();
    const runs = [spawnWorker({ path, sessionId, label: 'a', appends: 60, batchSize: 5 }), spawnWorker({ path, sessionId, label: 'b', appends: 60, batchSize: 5 })];
    const exits = await Promise.all(runs.map((r) => r.exited));
    for (const [i, run] of runs.entries()) {
      expect(run.stderr()).not.toMatch(/SQLITE_BUSY|database is locked|StrataError|Unhandled/);
      expect(exits[i]?.code).toBe(0);
      expect(run.stdout()).toMatch(/^done /m);
    }
    const file = inspectFile(path);
    expect(file.integrity).toBe('ok');
    expect(file.messages).toHaveLength(600);
    expect(file.messages.map((m) => m.seq)).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
    expect(
      expectWholeBatches(
        file.messages.map((m) => m.id),
        'a',
        5,
      ),
    ).toBe(60);
    expect(
      expectWholeBatches(
        file.messages.map((m) => m.id),
        'b',
        5,
      ),
    ).toBe(60);
    expect(file.currentFactsPerSlot).toEqual([]);
    expect(file.overlappingSummaries).toEqual([]);
  }, 180_000);
});

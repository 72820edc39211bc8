import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const writer = fileURLToPath(new URL('./fixtures/wal-writer.ts', import.meta.url));
/** SQLite's auto-checkpoint, the backstop, runs at 2,000 frames of 4 KiB pages. */
const BACKSTOP_BYTES = 2000 * (4096 + 24);
/**
 * Past the backstop a checkpoint waits for the other process, and retries at each commit while
 * that process holds the checkpoint lock. On a loaded machine the holder can be descheduled
 * for a while, so the WAL may pass the backstop by a few MB (11.4 MB seen with four times more
 * runnable processes than cores); with no checkpoints that could finish it would reach ~165 MB.
 */
const WAL_BOUND_BYTES = 2 * BACKSTOP_BYTES;

function runWriter(path: string, label: string, appends: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@strata/source', writer, path, label, String(appends)], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('WAL checkpoints with several processes writing one file', () => {
  it('two processes appending with checkpoints between their writes: no SQLITE_BUSY, every turn kept in order, the WAL bounded, the file intact', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'strata-wal-processes-'));
    dirs.push(dir);
    const path = join(dir, 'strata.db');
    await (await createSqliteSessionStore({ path })).close();
    const appends = 2500;
    const runs = await Promise.all([runWriter(path, 'a', appends), runWriter(path, 'b', appends)]);
    for (const run of runs) {
      expect(run.stderr).not.toMatch(/SQLITE_BUSY|database is locked|StrataError|Error/);
      expect(run.code).toBe(0);
      const largest = Number(/^done \w+ (\d+)$/m.exec(run.stdout)?.[1]);
      expect(largest).toBeLessThan(WAL_BOUND_BYTES);
    }
    const raw = new Database(path, { readonly: true });
    try {
      expect(raw.pragma('integrity_check', { simple: true })).toBe('ok');
      for (const label of ['a', 'b']) {
        const seqs = raw.prepare('SELECT seq FROM messages WHERE session_id = ? ORDER BY seq').pluck().all(label);
        expect(seqs).toEqual(Array.from({ length: appends }, (_, i) => i + 1));
      }
    } finally {
      raw.close();
    }
  }, 180_000);
});

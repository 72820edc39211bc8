import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import type { MemoryTarget } from './memory-latency.js';

/** Every default: in-memory store and KB, in-process queue, offline models. */
export const inMemoryTarget: MemoryTarget = { name: 'in-memory', open: () => createMemory() };

/** The embedded default of the CLI: one SQLite file (WAL) for the store and the KB. */
export function sqliteTarget(): MemoryTarget {
  let dir = '';
  return {
    name: 'sqlite',
    open: async () => {
      dir = mkdtempSync(join(tmpdir(), 'strata-bench-'));
      const path = join(dir, 'memory.sqlite');
      return createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
    },
    // the main file plus its WAL: what the data really takes before a checkpoint
    bytesOnDisk: () => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

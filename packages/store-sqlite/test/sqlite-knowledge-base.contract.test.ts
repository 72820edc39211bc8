import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KnowledgeBase } from '@strata/core';
import { describeKnowledgeBaseContract } from '@strata/testkit';
import { createSqliteKnowledgeBase } from '../src/sqlite-knowledge-base.js';

// Each knowledge base gets its own directory: the file, its -wal and -shm go with it.
const directories = new Map<KnowledgeBase, string>();

describeKnowledgeBaseContract('SqliteKnowledgeBase (temp file)', {
  create: async ({ dimensions }) => {
    const directory = await mkdtemp(join(tmpdir(), 'strata-kb-'));
    const kb = await createSqliteKnowledgeBase({ path: join(directory, 'strata.db'), dimensions });
    directories.set(kb, directory);
    return kb;
  },
  destroy: async (kb) => {
    const directory = directories.get(kb);
    directories.delete(kb);
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  },
});

describeKnowledgeBaseContract('SqliteKnowledgeBase (:memory:)', {
  create: ({ dimensions }) => createSqliteKnowledgeBase({ path: ':memory:', dimensions }),
});

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '@strata/core';
import { describeTopicStoreContract } from '@strata/testkit';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

/** Temp directories by store, so that destroy() removes the one its store was created in. */
const directories = new WeakMap<SessionStore, string>();

describeTopicStoreContract('SqliteSessionStore (temp file)', {
  create: async () => {
    const directory = await mkdtemp(join(tmpdir(), 'strata-topics-'));
    const store = await createSqliteSessionStore({ path: join(directory, 'strata.db') });
    directories.set(store, directory);
    return store;
  },
  destroy: async (store) => {
    const directory = directories.get(store);
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  },
});

describeTopicStoreContract('SqliteSessionStore (:memory:)', {
  create: () => createSqliteSessionStore({ path: ':memory:' }),
});

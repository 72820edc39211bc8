import type { SessionStore } from '@strata/core';
import { describeAdversarialContract } from '@strata/testkit';
import { tempFileStores } from './fixtures/temp-file-stores.js';

const stores = tempFileStores('strata-fuzz-');
describeAdversarialContract('SQLite store (temp file)', {
  createStore: stores.create,
  destroy: stores.destroy,
  filesOf: (store: SessionStore) => {
    const path = stores.pathOf(store);
    return path === undefined ? [] : [path, `${path}-wal`, `${path}-shm`];
  },
});

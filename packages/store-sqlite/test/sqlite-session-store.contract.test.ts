import { describeSessionStoreContract } from '@strata/testkit';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';
import { tempFileStores } from './fixtures/temp-file-stores.js';

describeSessionStoreContract('SqliteSessionStore (temp file)', tempFileStores('strata-session-'));

describeSessionStoreContract('SqliteSessionStore (:memory:)', {
  create: () => createSqliteSessionStore({ path: ':memory:' }),
});

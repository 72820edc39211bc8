import { describeTopicStoreContract } from '@strata/testkit';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';
import { tempFileStores } from './fixtures/temp-file-stores.js';

describeTopicStoreContract('SqliteSessionStore (temp file)', tempFileStores('strata-topics-'));

describeTopicStoreContract('SqliteSessionStore (:memory:)', {
  create: () => createSqliteSessionStore({ path: ':memory:' }),
});

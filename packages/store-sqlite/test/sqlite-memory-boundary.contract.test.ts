import { describeMemoryBoundaryContract } from '@strata/testkit';
import { tempFileStores } from './fixtures/temp-file-stores.js';

const stores = tempFileStores('strata-boundary-');
describeMemoryBoundaryContract('SQLite store (temp file)', { createStore: stores.create, destroy: stores.destroy });

const sealed = tempFileStores('strata-boundary-sealed-', { encryptionKey: 'boundary key' });
describeMemoryBoundaryContract('SQLite store (encrypted)', { createStore: sealed.create, destroy: sealed.destroy });

import { createInMemorySessionStore } from '@strata/core';
import { describeSessionStoreContract } from '../src/session-store-contract.js';

describeSessionStoreContract('InMemorySessionStore', { create: createInMemorySessionStore });

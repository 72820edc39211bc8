import { createInMemorySessionStore } from '@strata/core';
import { describeTopicStoreContract } from '../src/topic-store-contract.js';

describeTopicStoreContract('InMemorySessionStore', { create: () => createInMemorySessionStore() });

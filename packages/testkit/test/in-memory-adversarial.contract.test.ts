import { createInMemorySessionStore } from '@strata/core';
import { describeAdversarialContract } from '../src/adversarial-contract.js';

describeAdversarialContract('in-memory store', { createStore: async () => createInMemorySessionStore() });

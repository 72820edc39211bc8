import { createInMemorySessionStore } from '@strata/core';
import { describeMemoryBoundaryContract } from '../src/memory-boundary-contract.js';

describeMemoryBoundaryContract('in-memory store', { createStore: async () => createInMemorySessionStore() });

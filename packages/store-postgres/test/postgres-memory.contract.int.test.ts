import { describe, it } from 'vitest';
import type { SessionStore } from '@strata/core';
import { describeAdversarialContract, describeMemoryBoundaryContract } from '@strata/testkit';
import type { PostgresSessionStore } from '../src/index.js';
import { POSTGRES_URL, postgresUnavailable, schemaStores } from './postgres-server.js';

const unavailable = await postgresUnavailable();

if (unavailable === null) {
  const boundary = schemaStores();
  describeMemoryBoundaryContract(`PostgreSQL store (${POSTGRES_URL})`, { createStore: boundary.create, destroy: (store) => boundary.destroy(store as PostgresSessionStore) });
  const fuzz = schemaStores();
  // fewer runs than the SQLite suite: each run opens a store on a new schema (a migration), about 40 ms
  describeAdversarialContract(`PostgreSQL store (${POSTGRES_URL})`, { createStore: fuzz.create, destroy: (store: SessionStore) => fuzz.destroy(store as PostgresSessionStore), runs: 60 });
} else {
  describe.skip(`store-postgres: ${unavailable}`, () => {
    it('memory boundary and adversarial contracts', () => {});
  });
}

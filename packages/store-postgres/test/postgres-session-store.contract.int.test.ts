import { describe, it } from 'vitest';
import { describeSessionStoreContract, describeTopicStoreContract } from '@strata/testkit';
import { POSTGRES_URL, postgresUnavailable, schemaStores } from './postgres-server.js';

const unavailable = await postgresUnavailable();

if (unavailable === null) {
  describeSessionStoreContract(`PostgresSessionStore (${POSTGRES_URL})`, schemaStores());
  describeTopicStoreContract(`PostgresSessionStore (${POSTGRES_URL})`, schemaStores());
} else {
  describe.skip(`store-postgres: ${unavailable}`, () => {
    it('SessionStore and TopicStore contracts', () => {});
  });
}

// @strata/store-postgres public surface.
export { createPostgresSessionStore, PostgresSessionStore } from './postgres-session-store.js';
export type { PostgresSessionStoreOptions } from './postgres-session-store.js';
export type { LexicalReplicaStats } from './lexical-replica.js';
export type { PostgresConnectionOptions } from './database.js';
export { SCHEMA_VERSION } from './migrations.js';
export { openStoreUrl } from './store-url.js';
export { inspectPostgresStore } from './inspect-store.js';
export type { PostgresStoreReport } from './inspect-store.js';

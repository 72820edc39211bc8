// @strata/store-sqlite public surface.
export { createSqliteSessionStore, SqliteSessionStore } from './sqlite-session-store.js';
export type { SqliteSessionStoreOptions } from './sqlite-session-store.js';
export type { LexicalCacheStats } from './session-lexical-cache.js';
export { createSqliteKnowledgeBase, SqliteKnowledgeBase } from './sqlite-knowledge-base.js';
export type { SqliteKnowledgeBaseOptions } from './sqlite-knowledge-base.js';
export { SCHEMA_VERSION } from './migrations.js';
export { openStoreUrl } from './store-url.js';
export { inspectSqliteFile } from './inspect-file.js';
export type { SqliteFileReport } from './inspect-file.js';
export type { SqliteOpenOptions } from './open-database.js';

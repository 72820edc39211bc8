// @strata/server public surface. Named exports only.
export { createStrataServer } from './create-strata-server.js';
export { startStrataServer } from './start-strata-server.js';
export type { RunningServer, StartStrataServerOptions } from './start-strata-server.js';
export type { ServerLimits, StrataServerOptions } from './http/server-options.js';
export { FileKeyStore, createFileKeyStore } from './keys/file-key-store.js';
export type { FileKeyStoreOptions } from './keys/file-key-store.js';
export type { ApiKey, KeyStore, NewApiKey, Scope } from './keys/api-key.js';
export type { RateLimit } from './http/rate-limit.js';
export type { Problem } from './http/problem.js';
export type { Caller, ServerEnv } from './http/caller.js';
export { createStrataMcpServer } from './mcp/create-strata-mcp-server.js';
export type { StrataMcpServerOptions } from './mcp/create-strata-mcp-server.js';
export { handleMcpRequest } from './mcp/mcp-http.js';

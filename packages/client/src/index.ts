// @strata/client public surface. Named exports only.
export { createRemoteMemory } from './create-remote-memory.js';
export type { RemoteMemoryOptions } from './create-remote-memory.js';
export { problemToError } from './problem-to-error.js';

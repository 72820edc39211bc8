// @strata/ai-sdk public surface. Named exports only.
export { strataMemory } from './strata-memory.js';
export type { StrataMemoryOptions, StrataSessionSpec } from './strata-memory.js';
export { strataTools, notesSessionId, MEMORY_NOTE_KEY } from './strata-tools.js';
export type { StrataTools, StrataToolsOptions } from './strata-tools.js';
export { loadUIMessages, saveUIMessages } from './ui-messages.js';
export type { LoadUIMessagesOptions, SaveUIMessagesOptions } from './ui-messages.js';
export type { CallOptions, Prompt, PromptMessage } from './language-model-types.js';
export { AI_SDK_KEY } from './turn-metadata.js';

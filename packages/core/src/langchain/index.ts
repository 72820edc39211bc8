// @strata/core/langchain: strata as memory in LangChain.js. Named exports only.
export { StrataChatMessageHistory } from './strata-chat-message-history.js';
export type { StrataChatMessageHistoryOptions } from './strata-chat-message-history.js';
export { StrataRetriever } from './strata-retriever.js';
export type { StrataDocumentMetadata, StrataRetrieverOptions } from './strata-retriever.js';
export { withStrataMemory } from './with-strata-memory.js';
export type { WithStrataMemoryInput, WithStrataMemoryOptions } from './with-strata-memory.js';
export { createStrataMiddleware } from './strata-agent-middleware.js';
export type { StrataAgentRuntime, StrataMiddleware, StrataMiddlewareOptions } from './strata-agent-middleware.js';
export { toMessageInput } from './from-langchain-message.js';

// @strata/langchain: strata as memory in LangChain.js and LangGraph.js. Named exports only.
export { StrataChatMessageHistory } from './strata-chat-message-history.js';
export type { StrataChatMessageHistoryOptions } from './strata-chat-message-history.js';
export { StrataRetriever } from './strata-retriever.js';
export type { StrataDocumentMetadata, StrataRetrieverOptions } from './strata-retriever.js';
export { withStrataMemory } from './with-strata-memory.js';
export type { ReplyOutcome, WithStrataMemoryInput, WithStrataMemoryOptions } from './with-strata-memory.js';
export { createStrataMiddleware } from './strata-agent-middleware.js';
export type { StrataAgentRuntime, StrataMiddleware, StrataMiddlewareOptions } from './strata-agent-middleware.js';
export { toMessageInput, toMessageInputs } from './from-langchain-message.js';
export { toLangChainMessage, toLangChainMessages } from './to-langchain-message.js';
export { LANGCHAIN_METADATA_KEY } from './langchain-message-record.js';
export type { LangChainMessageRecord } from './langchain-message-record.js';
export { LOSSLESS_TAG, fromLosslessJson, toLosslessJson } from './lossless-json.js';

// Tools for agents that manage their own memory: remember, recall, forget.
export { createMemoryTools } from './tools/create-memory-tools.js';
export { createRememberTool } from './tools/remember-tool.js';
export type { RememberArtifact } from './tools/remember-tool.js';
export { createRecallTool } from './tools/recall-tool.js';
export { createForgetTool } from './tools/forget-tool.js';
export { MEMORY_NOTE_KEY, notesSessionId } from './tools/memory-tool-scope.js';
export type { MemoryToolsOptions, PerToolRun } from './tools/memory-tool-scope.js';

// LLM-backed derivation models over any LangChain chat model (e.g. ChatOpenAI).
export { LlmSummarizer } from './models/llm-summarizer.js';
export type { LlmSummarizerOptions } from './models/llm-summarizer.js';
export { LlmFactExtractor } from './models/llm-fact-extractor.js';
export type { LlmFactExtractorOptions } from './models/llm-fact-extractor.js';
export { LlmThreadSelector } from './models/llm-thread-selector.js';
export type { LlmThreadSelectorOptions } from './models/llm-thread-selector.js';
export type { StructuredOutputMethod } from './models/structured-call.js';
export { probeStructuredOutput } from './models/probe-structured-output.js';
export type { MethodTrial, ProbeReport } from './models/probe-structured-output.js';
export type { BreakerOptions } from './models/endpoint-breaker.js';
export type { PerRun } from './strata-agent-middleware.js';
export { buildStrataPrompt } from './strata-prompt.js';
export type { StrataPrompt } from './strata-prompt.js';
export { sessionIdForThread } from './thread-session-id.js';
export { selectNewTurns } from './select-new-turns.js';

// LangGraph's long-term store (BaseStore) kept in strata.
export { StrataStore } from './store/strata-store.js';
export type { StrataSearchItem, StrataStoreOptions } from './store/strata-store.js';

// @strata/core public surface. Named exports only.
export { createMemory } from './create-memory.js';
export { Memory } from './services/memory.js';
export type { MemoryApi, SearchRequest } from './services/memory-api.js';
export type { MemoryOptions } from './memory-options.js';
export { openStoreUrl } from './store-url.js';
export type { FullSessionStore, StoreUrlOpener } from './store-url.js';
export { policySchema } from './config/policy.js';
export { nameProblem, plainJsonProblem } from './config/text-rules.js';
export type { Policy, PolicyInput } from './config/policy.js';
export type { ContextOptions, ContextResult, PendingReport } from './services/retrieval/context.js';
export type { ForgetReport, ForgetTarget } from './services/lifecycle/forget.js';
export type { ReindexReport } from './services/retrieval/reindex.js';
export type { ExportBundle, ExportFormat, ImportOptions, ImportReport } from './services/lifecycle/transfer.js';
export { BUNDLE_FORMAT, BUNDLE_VERSION } from './services/lifecycle/transfer.js';

export { StrataError, isWorthRetrying } from './errors/strata-error.js';
export type { StrataErrorCode, StrataErrorOptions } from './errors/strata-error.js';

export type { Session } from './domain/session.js';
export { isMemoryMessage } from './domain/message.js';
export type { ContextMessage, MemoryMessage, MessageInput, NewMessage, Role, StoredMessage, ToolCall, TurnTokenCount } from './domain/message.js';
export type { Fact, JobRecord, JobType, JobUsage, Summary, SummaryLevel, TokenUsage } from './domain/derived.js';
export type { ItemKind, ManifestItem, PendingJob, SearchHit, Tier } from './domain/retrieval.js';
export type { DeriveJob, DeriveResult, ExtractedFact, JobRef, KnownFact, TranscriptTurn, VectorOf } from './domain/jobs.js';
export type { DroppedItem, ModelFailure, ModelUsage, RederiveTarget } from './domain/jobs.js';
export type { DerivationStats, MemoryStats } from './services/derivation/derivation-stats.js';
export { emptyDerivationStats } from './services/derivation/derivation-stats.js';
export type { UsageReport } from './services/derivation/usage-report.js';
export type { DerivationProgress, DerivationProgressListener, FlushOptions, FlushReport } from './services/derivation/derivation-progress.js';
export type { BackgroundError, BackgroundErrorKind, BackgroundErrorListener } from './services/background-errors.js';

export type {
  FactFilter,
  JobFilter,
  MessageFilter,
  SeqRange,
  SessionFilter,
  SessionStore,
  StoreOp,
  SummaryFilter,
  WriteBatch,
  WriteReceipt,
} from './ports/session-store.js';
export type { LexicalHit, LexicalIndex, LexicalKind, LexicalQuery } from './ports/lexical-index.js';
export type { KnowledgeBase, KnowledgeEntry, KnowledgeFilter, KnowledgeKind, KnowledgeMatch, KnowledgeQuery } from './ports/knowledge-base.js';
export type { DeriveAttempt, FailedAttempt, JobQueue, JobRuntime } from './ports/job-queue.js';
export { deriveJob } from './services/derivation/derive.js';
export type { DeriveModels } from './services/derivation/derive.js';
export type { Clock, ConsolidateInput, Embedder, ExtractInput, FactExtractor, SummarizeInput, Summarizer, TokenCounter } from './ports/models.js';
export type { UsageListener } from './ports/models.js';

export { analyzeText, isStopWord } from './lexical/analyze.js';
export { Bm25Index } from './lexical/bm25-index.js';
export type { Bm25Hit } from './lexical/bm25-index.js';
export type { Bm25Dump, Bm25Image } from './lexical/bm25-index.js';
export { decodeLexicalDump, encodeLexicalDump, lexicalRulesFingerprint } from './lexical/lexical-snapshot.js';
export type { LexicalDump, LexicalEntry, LexicalImage } from './lexical/lexical-snapshot.js';
export { preloadTurnLexicalText, turnLexicalText } from './lexical/turn-lexical-text.js';
export type { TurnLexicalFields } from './lexical/turn-lexical-text.js';
export { factLexicalText, isProfilePredicate } from './lexical/fact-lexical-text.js';
export { slotKey, isSameObject } from './engine/derivation/reconcile-facts.js';
export { jobKey } from './engine/ids.js';

export { InMemorySessionStore, createInMemorySessionStore } from './adapters/in-memory/in-memory-session-store.js';
export { InMemoryKnowledgeBase, createInMemoryKnowledgeBase } from './adapters/knowledge/in-memory-knowledge-base.js';
export { InMemoryLexicalIndex } from './adapters/in-memory/in-memory-lexical-index.js';
export { InlineJobQueue, createInlineJobQueue } from './adapters/queues/inline-job-queue.js';
export { InProcessJobQueue, createInProcessJobQueue } from './adapters/queues/in-process-job-queue.js';
export type { InProcessJobQueueOptions } from './adapters/queues/in-process-job-queue.js';
export { WorkerThreadJobQueue, createWorkerThreadJobQueue } from './adapters/queues/worker-thread-job-queue.js';
export type { WorkerThreadJobQueueOptions } from './adapters/queues/worker-thread-job-queue.js';
export { createOfflineDeriveModels } from './services/derivation/offline-derive-models.js';

export { ExtractiveSummarizer } from './models/summaries/extractive-summarizer.js';
export type { ExtractiveSummarizerOptions } from './models/summaries/extractive-summarizer.js';
export { HeuristicFactExtractor } from './models/facts/heuristic-fact-extractor.js';
export { ObservationFactExtractor } from './models/facts/observation-fact-extractor.js';
export { slotName } from './models/facts/observation-facts.js';
export { type EntityKind, factEntities, type FactEntity } from './models/facts/fact-entities.js';
export { HashingEmbeddings } from './models/embeddings/hashing-embeddings.js';
export type { HashingEmbeddingsOptions } from './models/embeddings/hashing-embeddings.js';
export { TiktokenTokenCounter } from './models/tokens/tiktoken-token-counter.js';
export { CharTokenCounter } from './models/tokens/char-token-counter.js';

// For model adapters outside core (e.g. @strata/langchain's LLM summarizer and extractor):
// how turns and known facts are shown to a model, predicate spelling, error mapping, zod parsing.
export { toModelError, invalidModelOutput } from './models/to-model-error.js';
export { renderTurns, renderKnownFacts, wordsFor } from './models/transcript-text.js';
export { speakerOf } from './models/facts/speaker-of.js';
export { canonicalPredicate } from './models/facts/predicate-aliases.js';
export { parseWith } from './config/parse.js';

// Input rules shared by every KnowledgeBase adapter (same checks, codes and messages).
export {
  REINDEX_HINT,
  knowledgeDimensionMismatch,
  invalidKnowledgeInput,
  validateChanges,
  validateDimensionsOption,
  validateEntries,
  validateFilter,
  validateIds,
  validateQuery,
  validateQueryNamespace,
} from './adapters/knowledge/knowledge-validation.js';

// Topics, threads and decay.
export type { ThreadStep, Topic, TopicStorage, TurnLink } from './domain/topic.js';
export type { LinkFilter, TopicFilter, TopicOp, TopicStore } from './ports/topic-store.js';
export type { ThreadCandidate, ThreadRequest, ThreadSelector } from './ports/thread-selector.js';
export type { TopicsApi } from './services/topics/topics-api.js';
export type { TopicReport } from './services/topics/topic-views.js';
export type { DecayReport } from './services/topics/topic-decay.js';
export { compressText, restoreText } from './engine/topics/cold-text.js';
export { assessTopic, halfLifeOf } from './engine/topics/decay.js';
export type { MemoryType, TopicDecay } from './engine/topics/decay.js';
export { LinearThreadSelector } from './models/threads/linear-thread-selector.js';
export { SimilarityThreadSelector } from './models/threads/similarity-thread-selector.js';
export type { SimilarityThreadSelectorOptions } from './models/threads/similarity-thread-selector.js';

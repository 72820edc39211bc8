import type { DroppedItem, ExtractedFact, KnownFact, ModelUsage, TranscriptTurn } from '../domain/jobs.js';

/** Receives the token usage of each model call a summarizer or extractor makes. */
export type UsageListener = (usage: ModelUsage) => void;

/**
 * What {@link Summarizer.summarize} gets: one batch of turns in seq order, the summary before
 * them if any, and `maxTokens`, the most the summary may take (`policy.working.summaryMaxTokens`).
 */
export interface SummarizeInput {
  turns: TranscriptTurn[];
  /** The previous batch summary of the session, so summaries build on each other. */
  previousSummary?: string;
  maxTokens: number;
  /** Called once per model call with its token usage; offline models never call it. */
  onUsage?: UsageListener;
}

/**
 * What {@link Summarizer.consolidate} gets: the current synopsis, if any, the batch summaries to
 * fold into it in seq order, and `maxTokens`, the most the synopsis may take
 * (`policy.working.synopsisMaxTokens`).
 */
export interface ConsolidateInput {
  synopsis?: string;
  summaries: string[];
  maxTokens: number;
  /** Called once per model call with its token usage. */
  onUsage?: UsageListener;
}

/** Turns text into shorter text. */
export interface Summarizer {
  readonly name: string;
  /**
   * Summarizes one batch of turns, building on the previous summary.
   * @throws StrataError BACKEND_UNAVAILABLE (retryable) when a model endpoint cannot be
   *   reached; another code when its answer is unusable (not worth retrying).
   */
  summarize(input: SummarizeInput): Promise<{ text: string }>;
  /** Folds summaries into a rolling synopsis. Throws like `summarize`. */
  consolidate(input: ConsolidateInput): Promise<{ text: string }>;
}

/**
 * What {@link FactExtractor.extract} gets: the turns to read, in seq order, and current facts of
 * the namespace lexically related to them, whose slot names it should reuse.
 */
export interface ExtractInput {
  turns: TranscriptTurn[];
  /** Current facts of the namespace, so slot names are reused. */
  knownFacts: KnownFact[];
  /** Called once per model call with its token usage. */
  onUsage?: UsageListener;
  /** Told of the items of a model's answer left out as invalid, with why (the valid ones are kept). */
  onDropped?: (dropped: DroppedItem[]) => void;
}

/** Finds durable facts in turns. Each fact names the message ids it came from. */
export interface FactExtractor {
  readonly name: string;
  /**
   * Facts stated in the turns, each attributed to the turn that states it. Pure with respect
   * to the store: reconciliation with stored facts happens when the result is applied.
   * @throws StrataError like `Summarizer.summarize`.
   */
  extract(input: ExtractInput): Promise<ExtractedFact[]>;
}

/** Counts tokens the way the target model's tokenizer would. Synchronous and pure. */
export interface TokenCounter {
  readonly name: string;
  /** The number of tokens `text` takes for the target model. */
  count(text: string): number;
}

/**
 * Turns text into vectors for the knowledge base. The same two methods as LangChain's
 * `EmbeddingsInterface`, so any LangChain embeddings (e.g. `OpenAIEmbeddings`) can be passed
 * as they are; core itself depends on no framework.
 */
export interface Embedder {
  /** One vector per text, in input order, all of the same length. */
  embedDocuments(texts: string[]): Promise<number[][]>;
  /**
   * One vector for a single text (a search query, a summary), of the same length as
   * `embedDocuments` gives.
   */
  embedQuery(text: string): Promise<number[]>;
}

/** Time source; inject a fixed one in tests. */
export interface Clock {
  /** The current time, in epoch milliseconds. */
  now(): number;
}

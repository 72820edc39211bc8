import type { ExtractedFact, KnownFact, TranscriptTurn } from '../domain/jobs.js';

export interface SummarizeInput {
  turns: TranscriptTurn[];
  /** The previous batch summary of the session, so summaries build on each other. */
  previousSummary?: string;
  maxTokens: number;
}

export interface ConsolidateInput {
  synopsis?: string;
  summaries: string[];
  maxTokens: number;
}

/** Turns text into shorter text. */
export interface Summarizer {
  readonly name: string;
  summarize(input: SummarizeInput): Promise<{ text: string }>;
  /** Folds summaries into a rolling synopsis. */
  consolidate(input: ConsolidateInput): Promise<{ text: string }>;
}

export interface ExtractInput {
  turns: TranscriptTurn[];
  /** Current facts of the namespace, so slot names are reused. */
  knownFacts: KnownFact[];
}

/** Finds durable facts in turns. Each fact names the message ids it came from. */
export interface FactExtractor {
  readonly name: string;
  extract(input: ExtractInput): Promise<ExtractedFact[]>;
}

/** Counts tokens the way the target model's tokenizer would. Synchronous and pure. */
export interface TokenCounter {
  readonly name: string;
  count(text: string): number;
}

/** Time source; inject a fixed one in tests. */
export interface Clock {
  now(): number;
}

/**
 * Derived artefacts. Raw messages are the truth; summaries and facts are derived from them
 * and always name the message ids they came from (provenance).
 */

/** `batch`: summary of one seq range; `synopsis`: rolling summary of seq 1..toSeq. */
export type SummaryLevel = 'batch' | 'synopsis';

/**
 * A working-tier summary of a session's turns `fromSeq`..`toSeq` (inclusive): a `batch`
 * summary of one range or the rolling `synopsis`, naming the turns it was built from.
 */
export interface Summary {
  id: string;
  sessionId: string;
  namespace: string;
  level: SummaryLevel;
  fromSeq: number;
  toSeq: number;
  text: string;
  /**
   * The turns it was built from. A batch summary: every turn of its range. A synopsis: the
   * turns its last fold added (the folded summaries' turns); it covers every turn of its
   * session up to `toSeq`, the earlier ones through the synopsis it replaced. Listing them
   * all would make every fold, and every read of the synopsis, cost the whole session.
   */
  sourceMessageIds: string[];
  /** The time of the newest turn it covers, so that a summary is dated like its conversation. */
  createdAt: number;
  /** True when produced by an offline fallback because the configured model failed. */
  degraded: boolean;
}

/**
 * A long-term fact of a namespace (subject, predicate, object), with the messages that state
 * it. Current while it has no `validTo`; a newer fact of the same slot supersedes it.
 */
export interface Fact {
  id: string;
  namespace: string;
  subject: string;
  predicate: string;
  object: string;
  /** A readable sentence stating the fact. */
  text: string;
  sourceMessageIds: string[];
  /** When the fact became true (time of the message stating it). */
  validFrom: number;
  /** When it stopped being current (set on supersession); absent while current. */
  validTo?: number;
  /** Id of the fact that replaced it. */
  supersededBy?: string;
  confidence: number;
  createdAt: number;
  degraded: boolean;
}

/** Input and output tokens summed over a number of model calls. */
export interface TokenUsage {
  inputTokens: number;
  outputTokens: number;
  calls: number;
}

/** Token usage of one job: the sum over its model calls, and the same split by model name. */
export interface JobUsage extends TokenUsage {
  /** The calls of each named model (calls whose model gave no name are in the totals only). */
  byModel?: Record<string, TokenUsage>;
}

/** A job the store has applied. The key is deterministic: type + session + seq range. */
export interface JobRecord {
  key: string;
  type: JobType;
  sessionId: string;
  fromSeq: number;
  toSeq: number;
  appliedAt: number;
  /** The token usage the models reported for the job's result, when a model was called. */
  usage?: JobUsage;
}

/**
 * `ingest`: embed new turns and extract facts from them (runs soon after every append).
 * `summarize`: summarize a batch leaving the immediate tier.
 * `consolidate`: fold the oldest batch summaries into the rolling synopsis.
 */
export type JobType = 'ingest' | 'summarize' | 'consolidate';

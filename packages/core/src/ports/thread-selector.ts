import type { TranscriptTurn } from '../domain/jobs.js';
import type { UsageListener } from './models.js';

/** An assistant turn a user turn may answer: the newest reply of one topic. */
export interface ThreadCandidate {
  messageId: string;
  topicId: string;
  topicTitle: string;
  /** The reply's text (shown to an LLM selector). */
  text: string;
  /** The topic's centroid (compared by a similarity selector). */
  vector: number[];
}

/** One user turn to attach, with its vector (from ingestion) and its candidates. */
export interface ThreadRequest {
  turn: TranscriptTurn;
  /** Empty when the turn has no vector (no text). */
  vector: number[];
  candidates: ThreadCandidate[];
}

/** Chooses which earlier reply each user turn continues (its parent in the conversation tree). */
export interface ThreadSelector {
  /**
   * One answer per request, in order: a candidate's `messageId`, or null to attach the turn
   * linearly (to the newest reply before it). Ids that are not candidates count as null.
   * `onUsage` is called once per model call with its token usage (a selector on a model reports it).
   * @throws StrataError when the selector's model fails (BACKEND_UNAVAILABLE is retryable).
   */
  selectParents(requests: ThreadRequest[], onUsage?: UsageListener): Promise<(string | null)[]>;
}

/** What a context candidate is: a stored turn, a batch summary, the rolling synopsis, or a fact. */
export type ItemKind = 'turn' | 'summary' | 'synopsis' | 'fact';
/**
 * The memory tier a context candidate comes from: `immediate` (the newest turns, verbatim),
 * `working` (summaries and synopsis), `long-term` (facts), `session` (stored turns recalled by search).
 */
export type Tier = 'immediate' | 'working' | 'long-term' | 'session';

/** A search result, best first. */
export interface SearchHit {
  kind: 'turn' | 'summary' | 'fact';
  id: string;
  text: string;
  score: number;
  sessionId: string | null;
  messageIds: string[];
  createdAt: number;
  /** With `contextDepth`: the turns this turn follows, oldest first, at most that many. */
  thread?: import('./topic.js').ThreadStep[];
  /** What brought it in, when only a query expansion found it (a person the query names, a fact's object, a name in a matching turn), not the query's own words. */
  via?: string;
}

/** One candidate considered for a context, kept or cut, and why. */
export interface ManifestItem {
  kind: ItemKind;
  id: string;
  tier: Tier;
  score?: number;
  tokens: number;
  included: boolean;
  reason: string;
  sourceMessageIds: string[];
}

/** A derivation job enqueued but not yet applied. */
export interface PendingJob {
  key: string;
  type: import('./derived.js').JobType;
  sessionId: string;
  fromSeq: number;
  toSeq: number;
  state: 'queued' | 'running' | 'failed';
  attempts: number;
  error?: string;
}

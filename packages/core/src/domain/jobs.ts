import type { JobType, JobUsage } from './derived.js';
import type { Role } from './message.js';
import type { StrataErrorCode } from '../errors/strata-error.js';

/** A turn as a derivation job carries it: just what a model needs. */
export interface TranscriptTurn {
  id: string;
  seq: number;
  role: Role;
  name?: string;
  content: string;
  createdAt: number;
}

/** A fact as a model proposes it, before reconciliation with stored facts. */
export interface ExtractedFact {
  subject: string;
  predicate: string;
  object: string;
  text: string;
  sourceMessageIds: string[];
  validFrom: number;
  confidence: number;
}

/** A current fact shown to an extractor so that it can reuse slot names. */
export interface KnownFact {
  id: string;
  subject: string;
  predicate: string;
  object: string;
  text: string;
}

/** Input and output tokens of one model call (from the model's `usage_metadata`), and which model answered. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  /** The model's name (e.g. `gpt-4o-mini`), when the model reports it. */
  model?: string;
}

/** An item of a model's answer left out because it did not validate: where it was (e.g. `facts[2]`), and why. */
export interface DroppedItem {
  at: string;
  reason: string;
}

/**
 * Why a result was derived offline (degraded): the model failure that made the job fall back.
 * Plain data, so that it crosses threads and processes with the result.
 */
export interface ModelFailure {
  code: StrataErrorCode;
  message: string;
  /** The model endpoint's host (`host:port`), never a key or a path, when known. */
  endpoint?: string;
}

/**
 * Marks a job that re-derives an artefact produced in degraded mode. Such a job never falls
 * back to an offline model: it fails (and is retried later) until the model answers.
 */
export interface RederiveTarget {
  /** Ledger key of the marker recorded when the degraded result was applied. */
  markerKey: string;
  /** The degraded summary or synopsis to replace in place (summarize / consolidate jobs). */
  summaryId?: string;
}

/** What identifies a job and the range it covers. The key is type + session + seq range. */
export interface JobRef {
  key: string;
  type: JobType;
  sessionId: string;
  namespace: string;
  fromSeq: number;
  toSeq: number;
  /** Present on re-derivation jobs only. */
  rederive?: RederiveTarget;
}

/**
 * A derivation job is stateless: it carries every input it needs, so any worker on any
 * machine can run it. Its result is applied to the store by the store's owner.
 */
export type DeriveJob =
  | (JobRef & { type: 'ingest'; turns: TranscriptTurn[]; knownFacts: KnownFact[] })
  | (JobRef & { type: 'summarize'; turns: TranscriptTurn[]; previousSummary?: string })
  | (JobRef & {
      type: 'consolidate';
      synopsis?: { id: string; text: string; toSeq: number };
      summaries: { id: string; fromSeq: number; toSeq: number; text: string; sourceMessageIds: string[] }[];
    });

/** The embedding of one record (in an ingest result: a turn), by its id. */
export interface VectorOf {
  id: string;
  vector: number[];
}

/**
 * What a {@link DeriveJob} produced, by job type: an ingest's turn vectors and extracted facts,
 * a summary or a synopsis with its vector. `degraded` when an offline fallback produced it.
 * The store's owner applies it once: its job key guards the write in the ledger.
 */
export type DeriveResult =
  | {
      job: JobRef & { type: 'ingest' };
      turnVectors: VectorOf[];
      facts: (ExtractedFact & { vector: number[] })[];
      degraded: boolean;
      /** Why it is degraded: the model failure the offline fallback replaced. */
      degradedBy?: ModelFailure;
      usage?: JobUsage;
      /** Items of the model's answer left out because they were invalid (the valid ones are in `facts`). */
      dropped?: DroppedItem[];
    }
  | {
      job: JobRef & { type: 'summarize' };
      text: string;
      vector: number[];
      sourceMessageIds: string[];
      degraded: boolean;
      /** Why it is degraded: the model failure the offline fallback replaced. */
      degradedBy?: ModelFailure;
      usage?: JobUsage;
    }
  | {
      job: JobRef & { type: 'consolidate' };
      text: string;
      vector: number[];
      sourceMessageIds: string[];
      replacesSynopsisId?: string;
      degraded: boolean;
      /** Why it is degraded: the model failure the offline fallback replaced. */
      degradedBy?: ModelFailure;
      usage?: JobUsage;
    };

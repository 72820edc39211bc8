import type { DeriveJob, DeriveResult } from '../../domain/jobs.js';
import type { StrataErrorCode } from '../../errors/strata-error.js';
import type { DeriveAttempt } from '../../ports/job-queue.js';
import type { PolicyInput } from '../../config/policy.js';

/** What a derive thread is started with. */
export interface DeriveThreadData {
  /** Policy for the offline models (only its working-tier token limits matter to derivation). */
  policy: PolicyInput;
  /** A module exporting `createDeriveModels(): DeriveModels | Promise<DeriveModels>`, instead of the offline models. */
  modelsModule?: string;
}

export interface DeriveRequest {
  id: number;
  job: DeriveJob;
  attempt: DeriveAttempt;
}

/** An error crosses the thread as data; the queue rebuilds a StrataError so retry rules still apply. */
export interface ThreadError {
  code: StrataErrorCode;
  message: string;
  hint: string;
  retryable: boolean;
  /** The failing endpoint's host, when the error names one. */
  endpoint?: string;
}

export type DeriveReply = { id: number; result: DeriveResult } | { id: number; error: ThreadError };

import type { ContextResult, SearchHit } from '@strata/core';
import type { UserProfile } from './profile-question.js';

/** What the assistant gets for one user turn: the assembled context and related memory. */
export interface AssistantTurn {
  message: string;
  context: ContextResult;
  /** Memory related to the message (facts first), from earlier turns and sessions. */
  related: SearchHit[];
  /** For a question about the user in general ("what do you remember about me?"): what memory holds about them. */
  profile?: UserProfile;
}

/** Who answers in `strata chat`. */
export interface ChatAssistant {
  /** Shown in the banner, e.g. `gpt-4o-mini at http://...` or `offline`. */
  readonly label: string;
  /** True when no model is configured and answers only repeat what memory holds. */
  readonly isOffline: boolean;
  reply(turn: AssistantTurn): Promise<string>;
  /** The reply a piece at a time, as the model writes it (the web chat shows it as it comes). */
  stream?(turn: AssistantTurn): AsyncIterable<string>;
}

import type { ContextResult, SearchHit } from '@strata/core';

/** What the assistant gets for one user turn: the assembled context and related memory. */
export interface AssistantTurn {
  message: string;
  context: ContextResult;
  /** Memory related to the message (facts first), from earlier turns and sessions. */
  related: SearchHit[];
}

/** Who answers in `strata chat`. */
export interface ChatAssistant {
  /** Shown in the banner, e.g. `gpt-4o-mini at http://...` or `offline`. */
  readonly label: string;
  /** True when no model is configured and answers only repeat what memory holds. */
  readonly isOffline: boolean;
  reply(turn: AssistantTurn): Promise<string>;
}

import { type ExtractedFact, type ExtractInput, ObservationFactExtractor, StrataError } from '@strata/core';

/** Turns containing this word make fact extraction fail for good, so their job stays pending (failed). */
export const HOLD_MARK = 'Holdoutquill';

/** What each extraction reports, as a model would: so that every namespace has token usage that must not show elsewhere. */
export const HELD_EXTRACTOR_USAGE = { inputTokens: 40, outputTokens: 8, model: 'tenant-model' } as const;

/**
 * The offline observation extractor, reporting token usage as a model would, except that it refuses turns carrying {@link HOLD_MARK}
 * with a failure retrying cannot fix: that session keeps a failed job in `memory.pending()`,
 * which is what /v1/status and /v1/flush must not show to another tenant. Being an
 * ObservationFactExtractor, it gets no fallback that would hide the failure.
 */
export class HeldFactExtractor extends ObservationFactExtractor {
  override async extract(input: ExtractInput): Promise<ExtractedFact[]> {
    const held = input.turns.find((turn) => turn.content.includes(HOLD_MARK));
    if (held) throw new StrataError('INVALID_INPUT', `refusing turn ${held.id}: ${held.content}`, { hint: 'test extractor: this turn is held back on purpose.' });
    input.onUsage?.({ ...HELD_EXTRACTOR_USAGE });
    return super.extract(input);
  }
}

import { type ExtractedFact, type ExtractInput, ObservationFactExtractor, StrataError } from '@strata/core';

/** Turns containing this word make the first try of their extraction fail as an endpoint that is down (retried). */
export const FLAKY_MARK = 'Flakeborough';

/** What each extraction reports: one call of a named model, one of a model that gives no name. */
export const NAMED_CALL = { inputTokens: 120, outputTokens: 30, model: 'small-model' } as const;
export const UNNAMED_CALL = { inputTokens: 7, outputTokens: 2 } as const;

/**
 * The offline observation extractor, reporting token usage as a model would (two calls per
 * extraction), and failing the first try of a turn carrying {@link FLAKY_MARK} with a retryable
 * BACKEND_UNAVAILABLE, so that the memory counts a failed try. Nothing is extracted until
 * `open()` is called, so that a test decides when derivation happens (e.g. during a flush).
 */
export class UsageFactExtractor extends ObservationFactExtractor {
  readonly #failed = new Set<string>();
  #open: () => void = () => {};
  readonly #opened = new Promise<void>((resolve) => {
    this.#open = resolve;
  });

  /** Lets extraction go on, now and from then on. */
  open(): void {
    this.#open();
  }

  override async extract(input: ExtractInput): Promise<ExtractedFact[]> {
    await this.#opened;
    const flaky = input.turns.find((turn) => turn.content.includes(FLAKY_MARK) && !this.#failed.has(turn.id));
    if (flaky) {
      this.#failed.add(flaky.id);
      throw new StrataError('BACKEND_UNAVAILABLE', 'test extractor: the model endpoint is down for this try', { hint: 'It answers on the next try.', retryable: true });
    }
    input.onUsage?.({ ...NAMED_CALL });
    input.onUsage?.({ ...UNNAMED_CALL });
    return super.extract(input);
  }
}

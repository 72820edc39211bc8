import { z } from 'zod';

const ratio = z.number().min(0).max(1);
const positiveInt = z.number().int().positive();

/**
 * Tier thresholds and context budget shares. Defaults live here and only here.
 */
export const policySchema = z
  .object({
    immediate: z
      .object({
        /** Most turns kept verbatim before the oldest batch is promoted. @defaultValue 20 */
        maxMessages: positiveInt.default(20),
        /** Most tokens kept verbatim before the oldest batch is promoted. @defaultValue 3000 */
        maxTokens: positiveInt.default(3000),
        /** Turns that always stay verbatim, whatever their size. @defaultValue 4 */
        minMessages: positiveInt.default(4),
      })
      .prefault({}),
    working: z
      .object({
        /** Turns per promoted batch (one summary each). @defaultValue 10 */
        batchMessages: positiveInt.default(10),
        /** Token cap of one batch summary. @defaultValue 160 */
        summaryMaxTokens: positiveInt.default(160),
        /** Batch summaries kept beside the synopsis before the oldest are folded in. @defaultValue 6 */
        maxSummaries: positiveInt.default(6),
        /** Token cap of the rolling synopsis. @defaultValue 400 */
        synopsisMaxTokens: positiveInt.default(400),
      })
      .prefault({}),
    longTerm: z
      .object({
        /**
         * Most turns per ingest job (embedding + fact extraction). Also the longest stretch the
         * in-process queue holds the event loop for: the offline extractor takes ~0.6 ms a turn.
         * @defaultValue 20
         */
        ingestBatchMessages: positiveInt.default(20),
      })
      .prefault({}),
    topics: z
      .object({
        /** A user turn joins the most similar topic at or above this cosine similarity, else opens a new one. @defaultValue 0.3 */
        similarityThreshold: z.number().min(-1).max(1).default(0.3),
        /** Importance of a new topic, 0-1 (users can change it per topic). @defaultValue 0.5 */
        defaultImportance: ratio.default(0.5),
        /** Words of the opening turn kept as a topic's title. @defaultValue 8 */
        titleWords: positiveInt.default(8),
        /** Topics whose newest reply is offered to the thread selector, most recent first. @defaultValue 8 */
        threadCandidates: positiveInt.default(8),
      })
      .prefault({}),
    decay: z
      .object({
        /** Half-life of a topic never accessed again (short-term memory). @defaultValue 86_400_000 (1 day) */
        baseHalfLifeMs: positiveInt.default(86_400_000),
        /** The half-life doubles every this many accesses... @defaultValue 3 */
        accessesPerDoubling: positiveInt.default(3),
        /** ...up to this cap. @defaultValue 2_592_000_000 (30 days) */
        maxHalfLifeMs: positiveInt.default(2_592_000_000),
        /** A topic whose half-life reaches this is long-term memory. @defaultValue 604_800_000 (7 days) */
        longTermHalfLifeMs: positiveInt.default(604_800_000),
        /** Topics whose priority (importance x 0.5^(age / half-life)) falls under this leave the active set. @defaultValue 0.05 */
        floor: ratio.default(0.05),
      })
      .prefault({})
      .refine((d) => d.maxHalfLifeMs >= d.baseHalfLifeMs, { message: 'decay.maxHalfLifeMs must be at least decay.baseHalfLifeMs' }),
    limits: z
      .object({
        /** Largest message content, in UTF-8 bytes: a larger one is rejected (INVALID_INPUT), never cut. @defaultValue 262_144 (256 KB) */
        messageBytes: positiveInt.default(262_144),
        /** Largest query of getContext or search, in UTF-8 bytes. @defaultValue 16_384 (16 KB) */
        queryBytes: positiveInt.default(16_384),
        /** Largest metadata of a session or message, or args of a tool call, as JSON in UTF-8 bytes. @defaultValue 65_536 (64 KB) */
        metadataBytes: positiveInt.default(65_536),
        /** Most facts one ingest job may produce: an extractor returning more fails the job (INVALID_INPUT, not retried). @defaultValue 200 */
        factsPerDerivation: positiveInt.default(200),
        /**
         * Longest fact text (and object), in characters: a fact is a sentence or two, and a longer
         * extract is a message retold whole, which its turn keeps anyway. Longer ones are not stored.
         * @defaultValue 1000
         */
        factChars: positiveInt.default(1000),
      })
      .prefault({}),
    context: z
      .object({
        /** Budget used when getContext is called without one. @defaultValue 2000 */
        defaultBudgetTokens: positiveInt.default(2000),
        /** Share of the budget per section; unused share flows on to the others. */
        shares: z
          .object({
            working: ratio.default(0.15),
            /** Current facts about the people (their profile), offered whatever the query. */
            profile: ratio.default(0.05),
            facts: ratio.default(0.1),
            recall: ratio.default(0.2),
            recent: ratio.default(0.5),
          })
          .prefault({})
          .refine((s) => s.working + s.profile + s.facts + s.recall + s.recent <= 1.000001, {
            message: 'budget shares must add up to at most 1',
          }),
        /** Facts considered per query. @defaultValue 12 */
        factCandidates: positiveInt.default(12),
        /**
         * Older turns and summaries considered per query. On the LoCoMo dev file, evidence in a
         * 1,000-token context was 77.3 % with 12, 81.3 % with 20 and 81.9 % with 30. @defaultValue 24
         */
        recallCandidates: positiveInt.default(24),
        /** Vector matches below this cosine similarity are ignored. @defaultValue 0.12 */
        minSimilarity: z.number().min(-1).max(1).default(0.12),
        /**
         * Adds the objects of the facts best matching the query to the query for older turns and
         * summaries, so that a question about "my sister" also finds turns that only name her. Off:
         * on the retrieval-quality bench it helps alone but not on top of `expandWithNames`. @defaultValue false
         */
        expandWithFacts: z.boolean().default(false),
        /**
         * Searches also for the names (capitalised words) in the two best lexical turn matches:
         * "my cousin" finds "My cousin is called Alice", then turns about Alice. @defaultValue false
         */
        expandWithNames: z.boolean().default(false),
        /**
         * When the query names someone a current fact makes a relative ("User's sister is Lena"),
         * searches also for what that fact calls them ("sister"): "Where does Lena work?" finds
         * "My sister got a job at the port". A hit only this finds says so in the manifest. @defaultValue true
         */
        expandWithEntities: z.boolean().default(true),
        /**
         * When the query names a day ("on Tuesday, March 4", "last Friday"), ranks first the turns
         * and facts about that day (their time, or a date they mention resolved against it). @defaultValue true
         */
        timeAware: z.boolean().default(true),
        /** Recalled turns also bring the other side of their exchange (the reply, or the question). @defaultValue false */
        neighbourTurns: z.boolean().default(false),
        /**
         * Share of a turn's lexical score that the turns right before and after it receive (half of it
         * two turns away), so the reply to a matching question ranks too. On the LoCoMo dev file
         * 0.7 was best (0.5 and 1.0 lower). 0 turns it off. @defaultValue 0.7
         */
        neighbourShare: ratio.default(0.7),
        /** A search for turns also gives the source turns of matching facts this share of each fact's score. 0 turns it off. On the LoCoMo dev file with the offline observation extractor, turn recall@10 was 76.0 % with 0, 76.6 % with 0.25, 75.6 % with 0.5 (multi-hop 44.8, 47.7, 48.4 %). @defaultValue 0.25 */
        factShare: z.number().min(0).max(5).default(0.25),
        /**
         * Turns spoken by someone the query names score 1 + this times higher. 0 turns it off. On the
         * LoCoMo dev file, turn recall@10 was 74.1 % with 0.3, 75.6 % with 0.6 and 76.0 % with 1. @defaultValue 1
         */
        speakerBoost: z.number().min(0).max(10).default(1),
        /**
         * Weight of the vector ranking when fused with the lexical one (reciprocal rank fusion).
         * Unset: 0 with the offline hashing embeddings (on real dialogue they only add noise: turn
         * recall fell by 6 points with them), 1 with any other embeddings model.
         */
        vectorWeight: z.number().min(0).max(10).optional(),
      })
      .prefault({}),
  })
  .prefault({});

/** A complete policy, every default filled in: tier thresholds, topics and decay, input limits, context budget shares. */
export type Policy = z.output<typeof policySchema>;
/**
 * The policy as `createMemory({ policy })` takes it: every field optional, defaults from
 * {@link policySchema}; a value out of range throws StrataError CONFIG_INVALID.
 */
export type PolicyInput = z.input<typeof policySchema>;

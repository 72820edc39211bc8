import { setImmediate as nextMacrotask } from 'node:timers/promises';
/**
 * The default offline fact extractor. Parsing is done with wink-nlp (English lite model),
 * chosen over compromise 14 by measurement on the LoCoMo dev conversations (2,760 real chat
 * turns): wink-nlp splits and tags a turn in ~0.1 ms, compromise in ~1.1 ms, which alone
 * would spend the ~1 ms per turn that offline derivation may take. On what this extractor
 * reads (sentence ends, first-person pronouns, verbs, content words) both taggers are good
 * enough; compromise tags a few more verbs right, wink-nlp's misses are caught by reading
 * the word after "I" by position and lemma rather than by tag.
 */
import type { ExtractedFact, KnownFact, TranscriptTurn } from '../../domain/jobs.js';
import { analyzeText } from '../../lexical/analyze.js';
import { areNearDuplicateTerms, termSet } from '../../lexical/near-duplicate.js';
import type { ExtractInput, FactExtractor } from '../../ports/models.js';
import { HeuristicFactExtractor } from './heuristic-fact-extractor.js';
import { OBSERVATION, observationDraftOf, opinionRetellingsOf, type ObservationDraft, type TurnSurroundings } from './observation-facts.js';
import { type ParsedSentence, parseSentences } from './parse-sentences.js';
import { companionOf } from './third-person.js';
import { speakerOf, userNameIn } from './speaker-of.js';
import { EXTRACTION_SLICE_MS, timeSlices } from '../../shared/time-slices.js';

// Weights of a turn's signals, fitted on real dialogue (which turns' statements readers
// noted): each content word 1, each sentence about the speaker 6, each time word 2.5, a
// greeting opener 5; a reaction opener -4, and -8 when the other speaker's turn before held
// all its terms. A turn is kept from BAR up: a lower bar keeps more of what readers note and
// more that they do not.
const BAR = 6;

/** How much a turn says about its speaker's life: the higher, the likelier a reader notes it. */
export function informativenessOf({ signals, repeated }: ObservationDraft): number {
  return Math.min(signals.content, 20) + 6 * Math.min(signals.anchors, 3) + 2.5 * Math.min(signals.times, 2) + (signals.isGreeting ? 5 : 0) - (signals.isReaction ? 4 : 0) - 8 * repeated;
}

/** Who "you" is for each speaker of a batch: the one other named speaker, when there is one. */
function listenersOf(turns: readonly TranscriptTurn[]): (speaker: string) => string | undefined {
  const speakers = new Set(turns.flatMap((turn) => speakerOf(turn) ?? []));
  return (speaker) => {
    const others = [...speakers].filter((other) => other !== speaker && other !== 'user');
    return others.length === 1 ? others[0] : undefined;
  };
}

/** Curly apostrophes as straight ones, as the patterns and the tagger read them. */
const plainQuotes = (text: string): string => text.replace(/[’‘]/g, "'");

/** How each turn of a batch is retold: who "you" is, the unnamed user's name, and who "we" takes in; and each turn as the tagger read it, once. */
export interface BatchVoices {
  surroundingsOf(turn: TranscriptTurn, speaker: string): Omit<TurnSurroundings, 'echoed'>;
  /** The turn's sentences, tagged (straight apostrophes), read once for the batch. */
  sentencesOf(turn: TranscriptTurn): readonly ParsedSentence[];
}

/**
 * The voices of a batch. "We" takes in the one person a turn puts beside its speaker, else the
 * one their previous turn in the batch did ("My sister Ana is visiting" then "so we will start
 * early"), never further back. An unnamed user is retold as `userName` when it is known.
 */
export async function voicesOf(turns: readonly TranscriptTurn[], userName?: string): Promise<BatchVoices> {
  const listenerOf = listenersOf(turns);
  const nameOf = (speaker: string): string => (speaker === 'user' ? (userName ?? 'User') : speaker);
  const companions = new Map<string, string>();
  const previous = new Map<string, string | undefined>();
  const parsed = new Map<string, readonly ParsedSentence[]>();
  const sentencesOf = (turn: TranscriptTurn): readonly ParsedSentence[] => {
    const known = parsed.get(turn.id);
    if (known !== undefined) return known;
    const sentences = parseSentences(plainQuotes(turn.content));
    parsed.set(turn.id, sentences);
    return sentences;
  };
  const pause = timeSlices(EXTRACTION_SLICE_MS);
  for (const turn of turns) {
    const speaker = speakerOf(turn);
    if (speaker === undefined) continue;
    await pause();
    const own = companionOf(sentencesOf(turn), nameOf(speaker), listenerOf(speaker));
    const companion = own ?? previous.get(speaker);
    previous.set(speaker, own);
    if (companion !== undefined) companions.set(turn.id, companion);
  }
  return {
    sentencesOf,
    surroundingsOf: (turn, speaker) => {
      const listener = listenerOf(speaker);
      const companion = companions.get(turn.id);
      return {
        ...(listener === undefined ? {} : { listener }),
        ...(speaker === 'user' && userName !== undefined ? { speakerName: userName } : {}),
        ...(companion === undefined ? {} : { companion }),
      };
    },
  };
}

/**
 * The candidate observations of a batch of turns, in turn order, told in the batch's voices
 * (by default those the batch itself gives, see {@link voicesOf}). Tagging a turn takes about
 * a millisecond: the event loop is yielded every few ms of the batch (see EXTRACTION_SLICE_MS).
 */
export async function observationDraftsOf(turns: readonly TranscriptTurn[], voices?: BatchVoices): Promise<ObservationDraft[]> {
  const told = voices ?? (await voicesOf(turns));
  const drafts: ObservationDraft[] = [];
  let previous: { speaker: string | undefined; terms: ReadonlySet<string> } = { speaker: undefined, terms: new Set() };
  const pause = timeSlices(EXTRACTION_SLICE_MS);
  for (const turn of turns) {
    await pause();
    const content = plainQuotes(turn.content);
    const speaker = speakerOf(turn);
    // Echoing the other person's last turn is answering them; saying a thing again is not.
    const echoed = previous.speaker === speaker ? new Set<string>() : previous.terms;
    const draft = speaker === undefined ? undefined : observationDraftOf({ ...turn, content }, speaker, { ...told.surroundingsOf(turn, speaker), echoed }, told.sentencesOf(turn));
    if (draft !== undefined) drafts.push(draft);
    previous = { speaker, terms: new Set(analyzeText(content)) };
  }
  return drafts;
}

/** An opinion slot fact of the speaker, its text the whole sentence that states it. */
function withOpinionRetold(fact: ExtractedFact, turns: readonly TranscriptTurn[], voices: BatchVoices): ExtractedFact {
  if (!fact.predicate.startsWith('opinion_of:')) return fact;
  const turn = turns.find((candidate) => candidate.id === fact.sourceMessageIds[0]);
  const speaker = turn === undefined ? undefined : speakerOf(turn);
  if (turn === undefined || speaker === undefined || fact.subject !== speaker.toLowerCase()) return fact;
  const text = opinionRetellingsOf({ ...turn, content: plainQuotes(turn.content) }, speaker, voices.surroundingsOf(turn, speaker), voices.sentencesOf(turn)).get(fact.object);
  return text === undefined ? fact : { ...fact, text };
}

/**
 * Observations that say what a known observation of the same speaker says (or an earlier one
 * of the batch), near enough ({@link areNearDuplicateTerms}: 80 % of their terms), take its
 * slot, where the fact reconciliation merges them into one fact with the sources of both. Their
 * key terms differ by a word or two ("the shelter", "the local shelter"), so each would
 * otherwise have a slot, and a reader two facts, of its own.
 */
function intoNearDuplicateSlots(observations: readonly ExtractedFact[], known: readonly KnownFact[]): ExtractedFact[] {
  const slots = known.filter((fact) => fact.predicate.startsWith(OBSERVATION)).map((fact) => ({ subject: fact.subject.toLowerCase(), predicate: fact.predicate, terms: termSet(fact.object) }));
  return observations.map((fact) => {
    const terms = termSet(fact.object);
    const subject = fact.subject.toLowerCase();
    const same = slots.find((slot) => slot.subject === subject && areNearDuplicateTerms(slot.terms, terms));
    if (same !== undefined) return same.predicate === fact.predicate ? fact : { ...fact, predicate: same.predicate };
    slots.push({ subject, predicate: fact.predicate, terms });
    return fact;
  });
}

/**
 * Offline fact extractor for real dialogue: what each speaker says about themselves and
 * their world, retold as a short third-person statement naming them ("I went to a pottery
 * class yesterday" by Ana -> "Ana went to a pottery class on 7 May 2023."), each in a slot of
 * its own (`observation:<key terms>`) so that two statements never supersede each other and
 * the same one said twice is merged. Of a batch's turns, those that say the most about their
 * speaker's life are kept (see `informativenessOf`). Alongside, the profile slots of
 * {@link HeuristicFactExtractor} (home, job, name, ...), which a new value supersedes.
 * Questions, small talk, hypotheticals, reactions to the other person and an unnamed
 * assistant's turns yield nothing.
 *
 * @example
 * const extractor = new ObservationFactExtractor();
 * const facts = await extractor.extract({ turns, knownFacts: [] });
 * // [{ subject: 'Ana', predicate: 'observation:class potteri went', text: 'Ana went to a pottery class on 7 May 2023.', ... }]
 */
export class ObservationFactExtractor implements FactExtractor {
  readonly name = 'heuristic-observations';
  readonly #slots = new HeuristicFactExtractor();

  /** Slot facts first, then observations, in turn order. */
  async extract(input: ExtractInput): Promise<ExtractedFact[]> {
    const slotFacts = await this.#slots.extract(input);
    // an unnamed user who gave their name (before, or in this batch) is retold by it
    const voices = await voicesOf(input.turns, userNameIn([...input.knownFacts, ...slotFacts]));
    const facts = slotFacts.map((fact) => withOpinionRetold(fact, input.turns, voices));
    // the observations on a turn of the event loop of their own (see the slot extractor's slices)
    await nextMacrotask();
    const observations = (await observationDraftsOf(input.turns, voices)).filter((draft) => informativenessOf(draft) >= BAR).map((draft) => draft.fact);
    facts.push(...intoNearDuplicateSlots(observations, input.knownFacts));
    return facts;
  }
}

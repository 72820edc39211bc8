import { preloadSentenceParser } from './parse-sentences.js';
import type { ExtractedFact, KnownFact, TranscriptTurn } from '../../domain/jobs.js';
import { analyzeText } from '../../lexical/analyze.js';
import type { ExtractInput, FactExtractor } from '../../ports/models.js';
import type { FactDraft, SentenceContext } from './patterns/fact-pattern.js';
import { isCasualText } from './patterns/fact-phrases.js';
import { PREDICATE_ALIASES } from './predicate-aliases.js';
import { heuristicFactPatterns } from './patterns/heuristic-fact-patterns.js';
import { resolveRelativeDate } from '../../shared/resolve-relative-date.js';
import { speakerOf, userNameIn } from './speaker-of.js';
import { splitSentences } from '../split-sentences.js';
import { EXTRACTION_SLICE_MS, timeSlices } from '../../shared/time-slices.js';

const QUESTION_START = /^(?:do|does|did|where|what|who|whom|whose|when|why|how|which|is|are|am|was|were|can|could|would|should|will|shall|have|has)\s/i;
// A statement under a condition or wish is not a fact about the user ("if I lived in Paris").
const HYPOTHETICAL = /\b(?:if|unless|suppose|supposing|imagine|wish|would|wouldn't|might|maybe|perhaps|hypothetically|pretend|whether|in case|I'd)\b/i;
// Independent clauses, so "I'm 34 and I live in Berlin" yields two facts.
const CLAUSE_BREAK = /\s*;\s*|,?\s+(?:and|but|so|because|although|though|while|whereas|plus)\s+(?=(?:I|my)\b)|,\s+(?=I\b)/i;

function isStatement(sentence: string): boolean {
  if (/\?["')\]]*$/.test(sentence) || QUESTION_START.test(sentence)) return false;
  return !HYPOTHETICAL.test(sentence);
}

/** All drafts of one clause; one per slot, the most confident pattern winning. */
function draftsOfClause(clause: string, createdAt: number): FactDraft[] {
  const date = resolveRelativeDate(clause, createdAt);
  const context: SentenceContext = { createdAt, isCasual: isCasualText(clause), date };
  const withoutDate = date === undefined ? undefined : `${clause.slice(0, date.index)} ${clause.slice(date.index + date.matched.length)}`.replace(/\s+/g, ' ').trim();
  const bySlot = new Map<string, FactDraft>();
  for (const pattern of heuristicFactPatterns) {
    const input = pattern.input === 'clause-without-date' ? withoutDate : clause;
    const match = input === undefined ? null : pattern.regex.exec(input);
    if (match === null) continue;
    const built = pattern.build(match, context);
    for (const draft of built === undefined ? [] : Array.isArray(built) ? built : [built]) {
      // A name capitalised by guess in lower-case text ("i live in berlin") is less certain.
      const isGuess = context.isCasual && /\p{Lu}/u.test(draft.object) && !clause.includes(draft.object);
      const scored = isGuess ? { ...draft, confidence: draft.confidence - 0.1 } : draft;
      const slot = `${draft.subject ?? 'user'}|${draft.predicate}`;
      const current = bySlot.get(slot);
      if (current === undefined || current.confidence < scored.confidence) bySlot.set(slot, scored);
    }
  }
  return [...bySlot.values()];
}

/** The profile slot drafts of a text (about its speaker, or people they name), said at `createdAt`. */
export function slotDraftsOf(text: string, createdAt: number): FactDraft[] {
  const content = text
    .replace(/[’‘]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[ \t]+/g, ' ');
  return splitSentences(content)
    .filter(isStatement)
    .flatMap((sentence) => sentence.split(CLAUSE_BREAK))
    .flatMap((clause) => draftsOfClause(clause.trim(), createdAt));
}

function itemTerms(item: string): string {
  return [...new Set(analyzeText(item))].sort().join(' ');
}

/**
 * The predicate to store: a known one when it names the same slot ("opinion_of:jazz music"
 * said before as "opinion_of:jazz-music", or `occupation` for `job_title`), else the draft's.
 */
function reusePredicate(subject: string, predicate: string, known: KnownFact[]): string {
  const [kind, item] = predicate.includes(':') ? [predicate.slice(0, predicate.indexOf(':')), predicate.slice(predicate.indexOf(':') + 1)] : [predicate, undefined];
  const terms = item === undefined ? '' : itemTerms(item);
  const aliases = PREDICATE_ALIASES[predicate] ?? [];
  for (const fact of known) {
    if (fact.subject.toLowerCase() !== subject) continue;
    const other = fact.predicate.toLowerCase().trim();
    if (item === undefined) {
      const normalised = other.replace(/[\s-]+/g, '_');
      if (normalised === predicate || aliases.includes(normalised)) return fact.predicate;
    } else if (other.startsWith(`${kind}:`) && terms.length > 0 && itemTerms(other.slice(kind.length + 1)) === terms) {
      return fact.predicate;
    }
  }
  return predicate;
}

/**
 * A draft about the speaker names them: subject and text ("User lives in ..." -> "Ana lives
 * in ..."); an unnamed user by `userName` when it is known, save in the statement of their name.
 */
function toFact(draft: FactDraft, turn: TranscriptTurn, speaker: string, known: KnownFact[], userName: string | undefined): ExtractedFact {
  const subject = draft.subject ?? speaker.toLowerCase();
  const named = speaker !== 'user' ? speaker : draft.predicate === 'name' ? undefined : userName;
  const text = draft.subject === undefined && named !== undefined ? draft.text.replace(/^User\b/, named) : draft.text;
  const knownSubject = known.find((fact) => fact.subject.toLowerCase() === subject)?.subject ?? subject;
  return {
    subject: knownSubject,
    predicate: reusePredicate(subject, draft.predicate, known),
    object: draft.object,
    text,
    sourceMessageIds: [turn.id],
    validFrom: turn.createdAt,
    confidence: Math.round(draft.confidence * 100) / 100,
  };
}

/**
 * Offline fact extractor: first-person statements of the user ("I live in Berlin", "my
 * sister Anna", "I'm flying to Tokyo next Friday") matched by a table of patterns, with
 * relative dates resolved against each turn's time. Facts are about the speaker (`name`, else
 * 'user'); user turns and named assistant turns are read (an unnamed assistant's "I" is the
 * AI); questions and hypotheticals yield nothing. Precise but narrow:
 * anything phrased outside the patterns is missed, which an LLM-backed extractor catches.
 *
 * @example
 * const extractor = new HeuristicFactExtractor();
 * const facts = await extractor.extract({ turns, knownFacts: [] });
 * // [{ subject: 'user', predicate: 'lives_in', object: 'Berlin', text: 'User lives in Berlin.', ... }]
 */
export class HeuristicFactExtractor implements FactExtractor {
  readonly name = 'heuristic';

  /** Facts in turn order; the same fact said twice in one turn is returned once. */
  async extract({ turns, knownFacts }: ExtractInput): Promise<ExtractedFact[]> {
    await preloadSentenceParser();
    const facts: ExtractedFact[] = [];
    const seen = new Set<string>();
    // the facts are the same; the event loop is yielded every few ms of the batch (see EXTRACTION_SLICE_MS)
    const pause = timeSlices(EXTRACTION_SLICE_MS);
    // an unnamed user is named once known: from their profile, then by what they say in the batch
    let userName = userNameIn(knownFacts);
    for (const turn of turns) {
      await pause();
      const speaker = speakerOf(turn);
      if (speaker === undefined) continue;
      for (const draft of slotDraftsOf(turn.content, turn.createdAt)) {
        const fact = toFact(draft, turn, speaker, knownFacts, userName);
        if (speaker === 'user' && draft.subject === undefined && draft.predicate === 'name') userName = draft.object;
        const key = `${turn.id}|${fact.subject}|${fact.predicate}|${fact.object}`;
        if (seen.has(key)) continue;
        seen.add(key);
        facts.push(fact);
      }
    }
    return facts;
  }
}

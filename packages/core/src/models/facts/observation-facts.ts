import type { ExtractedFact, TranscriptTurn } from '../../domain/jobs.js';
import { analyzeText, wordsOf } from '../../lexical/analyze.js';
import type { FactDraft } from './patterns/fact-pattern.js';
import { slotDraftsOf } from './heuristic-fact-extractor.js';
import { withAbsoluteDate } from './absolute-date.js';
import { contentWordCount, isQuestion, roleOfSentence, signalsOf, type TurnSignals } from './informative-statement.js';
import { parseSentences, type ParsedSentence, type ParsedToken } from './parse-sentences.js';
import { companionOf, retellInThirdPerson, type Teller } from './third-person.js';

// Openers that carry the chat's tone, not its content: "Yeah, ...", "Oh well, ...", "Btw ...".
const OPENERS: ReadonlySet<string> = new Set([
  'yeah',
  'yes',
  'yep',
  'yup',
  'well',
  'oh',
  'so',
  'anyway',
  'anyways',
  'btw',
  'also',
  'and',
  'but',
  'actually',
  'honestly',
  'lol',
  'haha',
  'hey',
  'wow',
  'ah',
  'um',
  'uh',
  'ok',
  'okay',
  'sure',
  'totally',
  'plus',
  'now',
  'guess',
  'what',
]);
const CONFIDENCE = 0.6;
const OPINION = 'opinion_of:';
// Slots a person holds one value of at a time, that a move or a new job replaces.
const SINGLE_VALUED: ReadonlySet<string> = new Set(['lives_in', 'hometown', 'job_title', 'employer', 'name', 'age', 'birthday', 'nationality', 'email', 'diet', 'partner']);

function isOpinionOfSpeaker(draft: FactDraft): boolean {
  return draft.subject === undefined && draft.predicate.startsWith(OPINION);
}

/** Whether a sentence is told by a profile slot fact instead: one that a new value supersedes. */
function isToldBySlot(text: string, createdAt: number): boolean {
  return slotDraftsOf(text, createdAt).some((draft) => SINGLE_VALUED.has(draft.predicate) || isOpinionOfSpeaker(draft));
}

// Thanks and the like open a sentence as a reply only when a name or a stop follows
// ("Thanks, Anna! I ..."): "Thanks for the map" says what for.
const REPLY_OPENERS: ReadonlySet<string> = new Set(['thanks', 'thx', 'congrats', 'congratulations', 'sorry']);
const STOPS: ReadonlySet<string> = new Set([',', '!', '.']);

/** The sentence without its opening interjections, discourse markers and vocatives ("Anna,"). */
function withoutOpeners(tokens: readonly ParsedToken[]): ParsedToken[] {
  let start = 0;
  while (start < tokens.length) {
    const token = tokens[start];
    const next = tokens[start + 1];
    if (token === undefined) break;
    const lower = token.text.toLowerCase();
    const isReply = REPLY_OPENERS.has(lower) && (next === undefined || STOPS.has(next.text) || next.pos === 'PROPN');
    const isOpener = isReply || OPENERS.has(lower) || token.pos === 'INTJ' || token.pos === 'PUNCT';
    const isVocative = token.pos === 'PROPN' && STOPS.has(next?.text ?? '');
    if (!isOpener && !isVocative) break;
    start += 1;
  }
  return tokens.slice(start);
}

function asStatement(text: string): string {
  const trimmed = text
    .trim()
    .replace(/[\s,;:–—-]+$/u, '')
    .replace(/[!.…]+$/u, '');
  return `${trimmed.charAt(0).toUpperCase()}${trimmed.slice(1)}.`;
}

/**
 * The slot of an observation: its key terms, sorted, without the speaker's (their key and the
 * name the text calls them by). Two different statements never share it (so neither
 * supersedes the other); the same statement said again lands in the same slot and is merged
 * with it, whether its speaker was told as "User" or by their name.
 */
export function observationPredicate(text: string, ...speaker: string[]): string {
  const own = new Set(speaker.flatMap((name) => analyzeText(name)));
  const terms = [...new Set(analyzeText(text))].filter((term) => !own.has(term)).sort();
  return `${OBSERVATION}${terms.join(' ')}`;
}

/** Slots whose predicate starts so hold one statement each (see observationPredicate). */
export const OBSERVATION = 'observation:';

/**
 * A fact's slot as a person reads it. An observation's predicate keeps its statement's key
 * terms as stems, sorted (`observation:class potteri went`, as the offline extractor makes it):
 * its name is the statement's words those terms came from, in the statement's order ("went
 * pottery class"), with any term no word gives kept as it is. Other predicates are named as
 * they are (`lives_in`). The predicate stays the slot's identity; this is only its name.
 */
export function slotName(fact: { predicate: string; text: string }): string {
  if (!fact.predicate.startsWith(OBSERVATION)) return fact.predicate;
  const terms = new Set(fact.predicate.slice(OBSERVATION.length).split(' ').filter(Boolean));
  const words: string[] = [];
  for (const word of wordsOf(fact.text)) {
    const [term] = analyzeText(word);
    if (term === undefined || !terms.has(term)) continue;
    terms.delete(term);
    words.push(word);
  }
  return [...words, ...terms].join(' ');
}

// A turn's statement stays short: the first few informative sentences say what it is about.
const MAX_SENTENCES = 4;
// Content words a turn without a sentence about the speaker needs to be retold all the same
// ("Hiking to the top was breathtaking!"): told by them, it is about their life.
const MIN_UNANCHORED_WORDS = 4;

/** A candidate observation of one turn, with what the extractor weighs to keep it. */
export interface ObservationDraft {
  fact: ExtractedFact;
  signals: TurnSignals;
  /** Share of the statement's terms the previous turn already held (0..1). */
  repeated: number;
}

/** What is known around a turn of a dialogue. */
export interface TurnSurroundings {
  /** Who "you" is: the one other named speaker, when there is one. */
  listener?: string;
  /** How the speaker is named in the retelling, when known otherwise than by the turn: an unnamed user's name from their profile. */
  speakerName?: string;
  /** Who "we" takes in besides the speaker, when the batch knows (see voicesOf); else the one person the turn itself names beside them. */
  companion?: string;
  /** Terms of the other speaker's turn just before, which echoing is only answering. */
  echoed: ReadonlySet<string>;
}

/**
 * The sentences of a turn worth retelling: its anchors, with their details when it has any,
 * else its details when they say enough. A sentence that fills a single-valued profile slot
 * ("I live in Lisbon") or states the speaker's opinion ("I love jazz") is left to that slot
 * fact, which a later value supersedes; kept here too, the old home or the old taste would
 * stay current beside the new one.
 */
function keptSentences(sentences: readonly ParsedSentence[], createdAt: number, isListenerKnown: boolean): { kept: ParsedToken[][]; anchors: number } {
  const roles = sentences
    .map((sentence) => ({ sentence, role: isToldBySlot(sentence.text, createdAt) ? 'none' : roleOfSentence(sentence, isListenerKnown) }))
    .filter(({ role }) => role !== 'none')
    .slice(0, MAX_SENTENCES);
  const kept = roles.map(({ sentence }) => withoutOpeners(sentence.tokens));
  const anchors = roles.filter(({ role }) => role === 'anchor').length;
  if (anchors > 0 || kept.reduce((sum, tokens) => sum + contentWordCount(tokens), 0) >= MIN_UNANCHORED_WORDS) return { kept, anchors };
  return { kept: [], anchors: 0 };
}

/** Who the turn's first person is retold as: the speaker's name ("User" for an unnamed user whose name is not known), the listener, and who "we" takes in. */
function tellerOf(speaker: string, around: Omit<TurnSurroundings, 'echoed'>, sentences: readonly ParsedSentence[]): Teller {
  const name = around.speakerName ?? (speaker === 'user' ? 'User' : speaker);
  const companion = around.companion ?? companionOf(sentences, name, around.listener);
  return { name, ...(around.listener === undefined ? {} : { listener: around.listener }), ...(companion === undefined ? {} : { companion }) };
}

function shareRepeated(terms: readonly string[], previous: ReadonlySet<string>): number {
  const unique = new Set(terms);
  if (unique.size === 0) return 0;
  let held = 0;
  for (const term of unique) if (previous.has(term)) held++;
  return held / unique.size;
}

/**
 * What a speaker says about themselves and their world in one turn, retold in the third
 * person as one short statement: "I went to a pottery class yesterday! It was so calming." by
 * Ana -> "Ana went to a pottery class on 7 May 2023. It was so calming." A statement that does
 * not name the speaker is introduced by them ("Ana said: ..."). Questions, small talk,
 * hypotheticals and remarks only about the other person yield nothing; "you" is retold as
 * the listener when known.
 */
export function observationDraftOf(turn: TranscriptTurn, speaker: string, around: TurnSurroundings, all: readonly ParsedSentence[] = parseSentences(turn.content)): ObservationDraft | undefined {
  const { kept, anchors } = keptSentences(all, turn.createdAt, around.listener !== undefined);
  if (kept.length === 0) return undefined;
  const teller = tellerOf(speaker, around, all);
  const named = teller.name;
  const sentences = kept.map((tokens) => asStatement(withAbsoluteDate(retellInThirdPerson(tokens, teller), turn.createdAt)));
  const told = sentences.join(' ');
  const text = told.includes(named) ? told : `${named} said: ${told}`;
  const fact: ExtractedFact = {
    subject: speaker,
    predicate: observationPredicate(text, speaker, named),
    object: text,
    text,
    sourceMessageIds: [turn.id],
    validFrom: turn.createdAt,
    confidence: CONFIDENCE,
  };
  return { fact, signals: signalsOf(kept, anchors, all), repeated: shareRepeated(analyzeText(told), around.echoed) };
}

/**
 * The speaker's opinions in a turn, each retold whole as the text of its slot fact: object
 * ("jazz") -> "Ana loves jazz, especially on rainy evenings." The slot fact alone keeps the
 * opinion (see keptSentences), so it keeps the sentence's details too. A sentence that fills
 * any other slot is not retold.
 */
export function opinionRetellingsOf(
  turn: TranscriptTurn,
  speaker: string,
  around: Omit<TurnSurroundings, 'echoed'> = {},
  all: readonly ParsedSentence[] = parseSentences(turn.content),
): Map<string, string> {
  const out = new Map<string, string>();
  const teller = tellerOf(speaker, around, all);
  for (const sentence of all) {
    const drafts = slotDraftsOf(sentence.text, turn.createdAt);
    // A sentence that also fills another slot ("I live in Lisbon and love surfing") would
    // keep that value current inside the opinion: the opinion keeps its own short text.
    if (drafts.length === 0 || !drafts.every(isOpinionOfSpeaker) || isQuestion(sentence)) continue;
    const objects = drafts.map((draft) => draft.object);
    const told = asStatement(withAbsoluteDate(retellInThirdPerson(withoutOpeners(sentence.tokens), teller), turn.createdAt));
    for (const object of objects) if (!out.has(object)) out.set(object, told);
  }
  return out;
}

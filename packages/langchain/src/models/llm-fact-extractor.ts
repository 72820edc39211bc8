import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { canonicalPredicate, parseWith, renderKnownFacts, renderTurns, speakerOf, type ExtractedFact, type ExtractInput, type FactExtractor, type KnownFact, type TranscriptTurn } from '@strata/core';
import { lenientConfidence, lenientNumber } from './read-model-answer.js';
import { invokeStructured, callSettingsOf, llmModelOptionsSchema, type CallSettings } from './structured-call.js';

/**
 * Options of {@link LlmFactExtractor}: `model`, a LangChain chat model, and `method`, how it is
 * asked for structured output (default `functionCalling`). A bad value throws CONFIG_INVALID.
 */
export type LlmFactExtractorOptions = z.input<typeof llmModelOptionsSchema>;

const factsSchema = z
  .object({
    facts: z
      .array(
        z.object({
          // A plain number: integer bounds in JSON Schema trouble some servers' grammar builders.
          turn: z.number().describe('The #seq of the turn that states the fact.'),
          subject: z
            .string()
            .trim()
            .min(1)
            .describe(
              "Who the fact is about, in lower case: the speaker's name when they speak about themselves ('ana'), 'user' for a speaker without a name, else the other person's or thing's name.",
            ),
          predicate: z.string().trim().min(1).describe('The slot in snake_case (lives_in, job_title, employer, sister_name, opinion_of:jazz). Reuse the predicate of a known fact for the same slot.'),
          object: z.string().trim().min(1).describe('The value, with relative dates resolved to YYYY-MM-DD.'),
          text: z
            .string()
            .trim()
            .min(1)
            .describe('One short third-person sentence naming who it is about, with absolute dates, e.g. "Ana went to a pottery class on 2024-03-02." or "User lives in Berlin."'),
          confidence: z.number().describe('How certain the statement is, 0 to 1.'),
        }),
      )
      .describe('Durable facts stated in the turns; empty when there are none.'),
  })
  .describe('Records the durable facts stated in the conversation.');

/**
 * One fact as it is read back: the model's schema, with numbers sent as text read as numbers
 * and a confidence given in words read as its documented value (CONFIDENCE_WORDS: high 0.9,
 * medium 0.6, low 0.3, ...). A fact that still does not validate is dropped alone.
 */
const lenientFactSchema = factsSchema.shape.facts.element.extend({
  turn: z.preprocess(lenientNumber, z.number()),
  confidence: z.preprocess(lenientConfidence, z.number()),
});

const RULES = [
  'You extract durable facts from a conversation for a long-term memory: identity, where people live and work, relationships, preferences, plans with dates, decisions, events in their lives.',
  '- Each turn starts with [#seq timestamp] and its speaker: their name with their role in parentheses ("Ana (user)"), or just the role ("user") when the speaker has no name. A speaker with a name is a person, whatever their role; an unnamed assistant is the AI.',
  "- A fact is one short third-person sentence naming who it is about: the speaker's name, or 'User' for a user without a name (\"Ana went to a pottery class on 2024-03-02.\", \"User lives in Berlin.\"). Resolve first-person words (I, me, my, we, our) to the speaker; never write I, me, my, you or 'the speaker'.",
  "- subject is who the fact is about, in lower case: the speaker's name ('ana'), 'user' for a user without a name, else the other person's or thing's name. Facts about people the speaker mentions get their name as subject.",
  '- Resolve relative dates ("yesterday", "next Friday", "last week", "in two days") to absolute dates (YYYY-MM-DD) from the timestamp of the turn that says them; never leave a relative date in object or text.',
  '- Cite the #seq of the turn that states each fact (its source turn), so it is attributed to its speaker.',
  '- A speaker states facts about themselves and the people and things in their life. Never take what a speaker says, asks or guesses about the other person in the conversation as a fact about them, and never turn what an unnamed assistant says into a fact about the user.',
  '- subject / predicate / object form the slot and its value: one value per slot (a new value replaces the old one). Use snake_case predicates and reuse the subject and predicate of a known fact when it is the same slot.',
  '- Skip questions, greetings, thanks, compliments and other remarks about the other person, hypotheticals, jokes and small talk. Return an empty list when nothing durable is stated.',
].join('\n');

const SELF = new Set(['i', 'me', 'myself', 'the user', 'user']);

/**
 * Fact extractor backed by any LangChain chat model, using structured output validated with
 * zod. Facts carry subject / predicate / object slots (reusing known slot names), cite the
 * turn that states them (provenance and speaker), and have relative dates resolved from that
 * turn's timestamp. Reconciliation with stored facts (supersede, merge, add) happens when
 * the result is applied. Facts name the speaker they are about (the turn's `name`, else
 * 'user'); a fact about another participant cited from someone else's turn, or about the
 * user from an unnamed assistant's turn, is dropped.
 *
 * @example
 * const extractor = new LlmFactExtractor({ model: new ChatOpenAI({ model: 'gpt-4o-mini' }) });
 * const memory = await createMemory({ extractor });
 */
export class LlmFactExtractor implements FactExtractor {
  readonly name = 'llm';
  private readonly model: BaseChatModel;
  private readonly settings: CallSettings;

  constructor(options: LlmFactExtractorOptions) {
    const parsed = parseWith(llmModelOptionsSchema, options, 'LlmFactExtractor options', 'Pass { model: <a LangChain chat model>, method?, breaker?, timeoutMs? }.', 'CONFIG_INVALID');
    ({ model: this.model, settings: this.settings } = callSettingsOf(parsed));
  }

  /** One model call per batch (none when no turn can state a fact); facts in turn order. */
  async extract({ turns, knownFacts, onUsage, onDropped }: ExtractInput): Promise<ExtractedFact[]> {
    if (!turns.some((t) => (t.role === 'tool' || speakerOf(t) !== undefined) && t.content.trim())) return [];
    const known = knownFacts.length ? `Known facts (subject | predicate | object):\n${renderKnownFacts(knownFacts)}\n\n` : '';
    const { facts } = await invokeStructured({
      model: this.model,
      ...this.settings,
      name: 'facts',
      shape: { schema: factsSchema, list: { key: 'facts', item: lenientFactSchema } },
      messages: [new SystemMessage(RULES), new HumanMessage(`${known}Turns (oldest first):\n${renderTurns(turns)}`)],
      onUsage,
      onDropped,
    });
    return attributedFacts(facts, turns, knownFacts);
  }
}

type ProposedFact = z.infer<typeof factsSchema>['facts'][number];

/**
 * The proposed facts that their cited turn can state, one per turn and slot value, with
 * first-person subjects resolved to that turn's speaker; in turn order.
 */
function attributedFacts(facts: ProposedFact[], turns: TranscriptTurn[], knownFacts: KnownFact[]): ExtractedFact[] {
  const bySeq = new Map(turns.map((t) => [t.seq, t]));
  const participants = new Set(turns.flatMap((t) => speakerOf(t)?.toLowerCase() ?? []));
  const seen = new Set<string>();
  const out: ExtractedFact[] = [];
  for (const fact of facts) {
    const turn = bySeq.get(fact.turn);
    if (!turn) continue;
    const subject = subjectOf(fact.subject, turn, knownFacts);
    if (!isAttributable(turn, subject, participants)) continue;
    const predicate = predicateOf(subject, fact.predicate, knownFacts);
    const key = `${turn.id}|${subject}|${predicate}|${fact.object.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      subject,
      predicate,
      object: fact.object,
      text: fact.text,
      sourceMessageIds: [turn.id],
      validFrom: turn.createdAt,
      confidence: Math.round(Math.min(1, Math.max(0, fact.confidence)) * 100) / 100,
    });
  }
  return out.sort((a, b) => a.validFrom - b.validFrom);
}

/**
 * `I`, `me`, `the user` name the speaker of the cited turn (its name, else 'user'); another
 * subject is lower-cased, and a known subject keeps its stored spelling.
 */
function subjectOf(subject: string, turn: TranscriptTurn, known: KnownFact[]): string {
  const lower = subject.trim().toLowerCase();
  const self = SELF.has(lower) ? (speakerOf(turn) ?? 'user').toLowerCase() : lower;
  return known.find((f) => f.subject.toLowerCase() === self)?.subject ?? self;
}

/**
 * One slot, one name: a known fact's predicate when it names the same slot, else the canonical
 * spelling (`Current City` -> `lives_in`), which is what the offline extractor uses too.
 */
function predicateOf(subject: string, predicate: string, known: KnownFact[]): string {
  const canonical = canonicalPredicate(predicate);
  const same = known.find((f) => f.subject.toLowerCase() === subject.toLowerCase() && canonicalPredicate(f.predicate) === canonical);
  return same?.predicate ?? canonical;
}

/**
 * Who may state a fact about whom. A person speaks for themselves and the people in their
 * life, not for the other participants (what they say of them is a guess, a compliment or a
 * question); an unnamed assistant speaks only of itself; a tool's output may describe anyone.
 */
function isAttributable(turn: TranscriptTurn, subject: string, participants: ReadonlySet<string>): boolean {
  if (turn.role === 'tool') return true;
  const speaker = speakerOf(turn)?.toLowerCase();
  if (speaker === undefined) return turn.role === 'assistant' && subject === 'assistant';
  const about = subject.toLowerCase();
  return about === speaker || !participants.has(about);
}

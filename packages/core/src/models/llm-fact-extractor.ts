import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { parseWith } from '../config/parse.js';
import type { ExtractedFact, TranscriptTurn } from '../domain/jobs.js';
import type { ExtractInput, FactExtractor } from '../ports/models.js';
import { canonicalPredicate } from './predicate-aliases.js';
import { invokeStructured, llmModelOptionsSchema, type StructuredOutputMethod } from './structured-call.js';
import { renderKnownFacts, renderTurns } from './transcript-text.js';

export type LlmFactExtractorOptions = z.input<typeof llmModelOptionsSchema>;

const factsSchema = z.object({
  facts: z.array(
    z.object({
      // A plain number: integer bounds in JSON Schema trouble some servers' grammar builders.
      turn: z.number().describe('The #seq of the turn that states the fact.'),
      subject: z.string().trim().min(1).describe("Who the fact is about: 'user' when the user speaks about themselves, else the person's or thing's name in lower case."),
      predicate: z.string().trim().min(1).describe('The slot in snake_case (lives_in, job_title, employer, sister_name, opinion_of:jazz). Reuse the predicate of a known fact for the same slot.'),
      object: z.string().trim().min(1).describe('The value, with relative dates resolved to YYYY-MM-DD.'),
      text: z.string().trim().min(1).describe('One sentence stating the fact, e.g. "User lives in Berlin."'),
      confidence: z.number().describe('How certain the statement is, 0 to 1.'),
    }),
  ).describe('Durable facts stated in the turns; empty when there are none.'),
}).describe('Records the durable facts stated in the conversation.');

const RULES = [
  'You extract durable facts from a conversation for a long-term memory: identity, where people live and work, relationships, preferences, plans with dates, decisions.',
  '- Each turn starts with [#seq timestamp] speaker. Cite the #seq of the turn that states each fact, so it is attributed to its speaker.',
  "- A fact the user states about themselves has subject 'user'. Facts about other people get their name as subject. Never turn what the assistant says into a fact about the user.",
  '- subject / predicate / object form the slot and its value: one value per slot (a new value replaces the old one). Use snake_case predicates and reuse the subject and predicate of a known fact when it is the same slot.',
  '- Resolve relative dates ("tomorrow", "next Friday", "last week") to absolute dates (YYYY-MM-DD) from the timestamp of the turn that says them; never leave a relative date in object or text.',
  '- Skip questions, hypotheticals, jokes and small talk. Return an empty list when nothing durable is stated.',
].join('\n');

const SELF = new Set(['i', 'me', 'myself', 'the user', 'user']);

/**
 * Fact extractor backed by any LangChain chat model, using structured output validated with
 * zod. Facts carry subject / predicate / object slots (reusing known slot names), cite the
 * turn that states them (provenance and speaker), and have relative dates resolved from that
 * turn's timestamp. Reconciliation with stored facts (supersede, merge, add) happens when
 * the result is applied. A fact about the user cited from an assistant turn is dropped.
 *
 * @example
 * const extractor = new LlmFactExtractor({ model: new ChatOpenAI({ model: 'gpt-4o-mini' }) });
 * const memory = await createMemory({ extractor });
 */
export class LlmFactExtractor implements FactExtractor {
  readonly name = 'llm';
  private readonly model: BaseChatModel;
  private readonly method: StructuredOutputMethod;

  constructor(options: LlmFactExtractorOptions) {
    const parsed = parseWith(llmModelOptionsSchema, options, 'LlmFactExtractor options', 'Pass { model: <a LangChain chat model>, method? }.', 'CONFIG_INVALID');
    this.model = parsed.model;
    this.method = parsed.method;
  }

  /** One model call per batch (none when no user or tool turn has text); facts in turn order. */
  async extract({ turns, knownFacts, onUsage }: ExtractInput): Promise<ExtractedFact[]> {
    if (!turns.some((t) => (t.role === 'user' || t.role === 'tool') && t.content.trim())) return [];
    const known = knownFacts.length ? `Known facts (subject | predicate | object):\n${renderKnownFacts(knownFacts)}\n\n` : '';
    const { facts } = await invokeStructured({
      model: this.model,
      method: this.method,
      name: 'facts',
      schema: factsSchema,
      messages: [new SystemMessage(RULES), new HumanMessage(`${known}Turns (oldest first):\n${renderTurns(turns)}`)],
      onUsage,
    });
    const bySeq = new Map(turns.map((t) => [t.seq, t]));
    const seen = new Set<string>();
    const out: ExtractedFact[] = [];
    for (const fact of facts) {
      const turn = bySeq.get(fact.turn);
      const subject = subjectOf(fact.subject, knownFacts);
      if (!turn || !isAttributable(turn, subject)) continue;
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
}

/** `I`, `me`, `the user` name the user's own slot; a known subject keeps its stored spelling. */
function subjectOf(subject: string, known: ExtractInput['knownFacts']): string {
  const lower = subject.trim().toLowerCase();
  if (SELF.has(lower)) return 'user';
  return known.find((f) => f.subject.toLowerCase() === lower)?.subject ?? lower;
}

/**
 * One slot, one name: a known fact's predicate when it names the same slot, else the canonical
 * spelling (`Current City` -> `lives_in`), which is what the offline extractor uses too.
 */
function predicateOf(subject: string, predicate: string, known: ExtractInput['knownFacts']): string {
  const canonical = canonicalPredicate(predicate);
  const same = known.find((f) => f.subject.toLowerCase() === subject.toLowerCase() && canonicalPredicate(f.predicate) === canonical);
  return same?.predicate ?? canonical;
}

/** The assistant cannot state facts about the user (it echoes or guesses); users and tools can. */
function isAttributable(turn: TranscriptTurn, subject: string): boolean {
  if (turn.role === 'user' || turn.role === 'tool') return true;
  return turn.role === 'assistant' && subject === 'assistant';
}

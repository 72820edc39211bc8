import type { TranscriptTurn } from '../domain/jobs.js';
import { StrataError } from '../errors/strata-error.js';
import { analyzeText } from '../lexical/analyze.js';
import type { ConsolidateInput, SummarizeInput, Summarizer, TokenCounter } from '../ports/models.js';
import { splitSentences } from './split-sentences.js';

export interface ExtractiveSummarizerOptions {
  /** The counter the output must fit: the same one the engine budgets with. */
  tokens: TokenCounter;
}

/** A sentence of the input, with the speaker label and line it is rendered under. */
interface Unit {
  label: string | undefined;
  text: string;
  /** Consecutive units of one group render as one line ("User: a. b."). */
  group: number;
  terms: string[];
  /** Multiplies the lexical score (recency, coverage by the previous summary). */
  weight: number;
}

// Statements that tend to stay true or matter later: identity, preferences, decisions, plans.
const DURABLE = /\b(?:i am|i'm|my|i live|i work|i like|i love|i hate|i prefer|plan|planning|will|i'll|decided|going to|moved)\b/i;
const DATE_WORD = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b|\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b|\d/i;
const NOT_PROPER = new Set(['I', "I'm", 'I’m', "I've", "I'll", "I'd", 'OK', 'Ok']);
const LABELLED_LINE = /^([\p{L}_][\p{L}\p{N}_ .'-]{0,39}):\s+(\S.*)$/u;

function labelOf(turn: TranscriptTurn): string {
  if (turn.role === 'user') return 'User';
  if (turn.role === 'assistant') return 'Assistant';
  if (turn.role === 'tool') return turn.name ?? 'Tool';
  return 'System';
}

/** Numbers, dates and names mid-sentence are what a later question usually asks for. */
function hasSpecifics(sentence: string): boolean {
  if (DATE_WORD.test(sentence)) return true;
  const words = sentence.split(/\s+/).slice(1);
  return words.some((word) => /^[A-Z][\p{L}]+/u.test(word) && !NOT_PROPER.has(word.replace(/[^\p{L}'’]/gu, '')));
}

/** Term frequency over the whole batch, normalised by length, with content bonuses. */
function scoreUnits(units: Unit[]): number[] {
  const tf = new Map<string, number>();
  for (const unit of units) for (const term of unit.terms) tf.set(term, (tf.get(term) ?? 0) + 1);
  return units.map((unit) => {
    if (unit.terms.length === 0) return 0;
    const distinct = new Set(unit.terms);
    let sum = 0;
    for (const term of distinct) sum += tf.get(term) ?? 0;
    const durable = DURABLE.test(unit.text);
    const specific = hasSpecifics(unit.text);
    // One plain word ("Thanks.", "Hi there!") is small talk, however rare the word.
    if (distinct.size < 2 && !durable && !specific) return 0;
    let score = sum / Math.sqrt(unit.terms.length);
    if (durable) score *= 1.5;
    if (specific) score *= 1.25;
    // Questions are mostly prompts for the answer that follows, which carries the content.
    if (/\?["')\]]*$/.test(unit.text)) score *= 0.7;
    return score * unit.weight;
  });
}

function render(units: Unit[]): string {
  const lines: string[] = [];
  let current: { group: number; label: string | undefined; texts: string[] } | undefined;
  for (const unit of units) {
    if (current?.group !== unit.group) {
      if (current !== undefined) lines.push(renderLine(current.label, current.texts));
      current = { group: unit.group, label: unit.label, texts: [] };
    }
    current.texts.push(unit.text);
  }
  if (current !== undefined) lines.push(renderLine(current.label, current.texts));
  return lines.join('\n');
}

function renderLine(label: string | undefined, texts: string[]): string {
  const body = texts.join(' ');
  return label === undefined ? body : `${label}: ${body}`;
}

/** The longest prefix of the unit, cut at a word end (or a character if need be), that fits. */
function truncateToFit(unit: Unit, maxTokens: number, tokens: TokenCounter): string {
  const cuts = [...unit.text.matchAll(/\S+/g)].map((match) => match.index + match[0].length);
  const fits = (end: number): boolean => tokens.count(render([{ ...unit, text: unit.text.slice(0, end) }])) <= maxTokens;
  const words = largestPassing(cuts.length, (k) => fits(cuts[k - 1] ?? 0));
  if (words > 0) return render([{ ...unit, text: unit.text.slice(0, cuts[words - 1]) }]);
  const full = render([unit]);
  return full.slice(0, largestPassing(full.length, (n) => tokens.count(full.slice(0, n)) <= maxTokens)).trimEnd();
}

/** Largest k in [0, n] with passes(k), for a monotone predicate (passes(0) is assumed). */
function largestPassing(n: number, passes: (k: number) => boolean): number {
  let low = 0;
  let high = n;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (passes(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

function inInputOrder(units: Unit[], indices: number[]): Unit[] {
  return [...indices].sort((a, b) => a - b).flatMap((index) => units[index] ?? []);
}

/**
 * Greedy selection by score, rendered in input order, never over budget. Each sentence is
 * costed alone (with its label and a separator, an over-estimate), so the text is counted
 * once per sentence rather than once per attempt; the final text is then counted exactly
 * and the weakest sentences dropped until it fits. When not even the best sentence fits,
 * its longest fitting prefix is returned instead.
 */
function selectWithinBudget(units: Unit[], maxTokens: number, tokens: TokenCounter): string {
  const scores = scoreUnits(units);
  const order = units
    .map((_, index) => index)
    .filter((index) => (scores[index] ?? 0) > 0)
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  const chosen: number[] = [];
  let estimate = 0;
  for (const index of order) {
    const unit = units[index];
    const cost = unit === undefined ? 0 : tokens.count(render([unit])) + 1;
    if (estimate + cost > maxTokens) continue;
    chosen.push(index);
    estimate += cost;
  }
  // `chosen` is in score order: popping drops the weakest sentence first.
  while (chosen.length > 0 && tokens.count(render(inInputOrder(units, chosen))) > maxTokens) chosen.pop();
  if (chosen.length > 0) return render(inInputOrder(units, chosen));
  const best = units[order[0] ?? 0];
  return best === undefined ? '' : truncateToFit(best, maxTokens, tokens);
}

function unitsOfTurns(turns: TranscriptTurn[], previousSummary: string | undefined): Unit[] {
  const covered = new Set(analyzeText(previousSummary ?? ''));
  return turns.flatMap((turn, group) =>
    splitSentences(turn.content).map((text) => {
      const terms = analyzeText(text);
      const coverage = terms.length === 0 ? 0 : terms.filter((term) => covered.has(term)).length / terms.length;
      // Already said in the previous summary: keep room for what is new.
      return { label: labelOf(turn), text, group, terms, weight: 1 - 0.6 * coverage };
    }),
  );
}

/** Synopsis first, then summaries oldest first; later text weighs a little more (it may correct earlier text). */
function unitsOfSummaries(texts: string[]): Unit[] {
  const lines = texts.flatMap((text) => text.split(/\r?\n/)).filter((line) => line.trim().length > 0);
  const seen = new Set<string>();
  return lines.flatMap((line, group) => {
    const labelled = LABELLED_LINE.exec(line.trim());
    const label = labelled?.[1];
    return splitSentences(labelled?.[2] ?? line).flatMap((text) => {
      const key = `${label ?? ''}:${text.toLowerCase()}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ label, text, group, terms: analyzeText(text), weight: 1 + (0.5 * group) / lines.length }];
    });
  });
}

function assertBudget(maxTokens: number): void {
  if (Number.isInteger(maxTokens) && maxTokens > 0) return;
  throw new StrataError('INVALID_INPUT', `maxTokens must be a positive integer (got ${String(maxTokens)}).`, {
    hint: 'Pass the token budget of the summary, e.g. maxTokens: 300.',
  });
}

/**
 * Offline summarizer that picks the most informative sentences of the input verbatim: no
 * model, deterministic, always within `maxTokens` per the given counter. Sentences score by
 * how often their terms recur in the batch, with a bonus for first-person durable statements
 * and for numbers, dates and names; they keep their input order and speaker label.
 *
 * @example
 * const summarizer = new ExtractiveSummarizer({ tokens: new TiktokenTokenCounter() });
 * const { text } = await summarizer.summarize({ turns, maxTokens: 200 });
 */
export class ExtractiveSummarizer implements Summarizer {
  readonly name = 'extractive';
  private readonly tokens: TokenCounter;

  constructor(options: ExtractiveSummarizerOptions) {
    this.tokens = options.tokens;
  }

  /** The previous summary only lowers the score of what it already covers; it is not repeated. */
  async summarize({ turns, previousSummary, maxTokens }: SummarizeInput): Promise<{ text: string }> {
    assertBudget(maxTokens);
    return { text: selectWithinBudget(unitsOfTurns(turns, previousSummary), maxTokens, this.tokens) };
  }

  async consolidate({ synopsis, summaries, maxTokens }: ConsolidateInput): Promise<{ text: string }> {
    assertBudget(maxTokens);
    const texts = synopsis === undefined ? summaries : [synopsis, ...summaries];
    return { text: selectWithinBudget(unitsOfSummaries(texts), maxTokens, this.tokens) };
  }
}

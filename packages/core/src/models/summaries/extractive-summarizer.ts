import type { TranscriptTurn } from '../../domain/jobs.js';
import { StrataError } from '../../errors/strata-error.js';
import { analyzeText } from '../../lexical/analyze.js';
import type { ConsolidateInput, SummarizeInput, Summarizer, TokenCounter } from '../../ports/models.js';
import { cutAtBoundary } from './cut-at-boundary.js';
import { scoreSummaryUnits, type SummaryUnit } from './score-summary-units.js';
import { splitSentences } from '../split-sentences.js';
import { formatDay, parseSummaryLines, renderSummaryLines, type SummaryLine } from './summary-lines.js';

/** Options of {@link ExtractiveSummarizer}: the token counter its `maxTokens` limits are measured with. */
export interface ExtractiveSummarizerOptions {
  /** The counter the output must fit: the same one the engine budgets with. */
  tokens: TokenCounter;
}

// Past this many units tried, an input whose best sentences cannot be shortened yields nothing.
const TRUNCATION_TRIES = 5;

/** The speaker as a reader knows them: their name when the turn has one, else the role. */
function labelOf(turn: TranscriptTurn): string {
  if (turn.name) return turn.name;
  if (turn.role === 'user') return 'User';
  if (turn.role === 'assistant') return 'Assistant';
  if (turn.role === 'tool') return 'Tool';
  return 'System';
}

/** Consecutive units of one group share a line; the day is written when it changes. */
function render(units: SummaryUnit[]): string {
  const lines: (SummaryLine & { group: number })[] = [];
  for (const unit of units) {
    const last = lines.at(-1);
    if (last?.group === unit.group) last.text = `${last.text} ${unit.text}`;
    else lines.push({ group: unit.group, day: unit.day, label: unit.label, text: unit.text });
  }
  return renderSummaryLines(lines);
}

/**
 * The unit shortened to fit, at a clause or word end (see {@link cutAtBoundary}), with its
 * day and label, or without them when the cap leaves no room for a word beside them;
 * undefined when not even its first word fits alone.
 */
function truncateToFit(unit: SummaryUnit, maxTokens: number, tokens: TokenCounter): string | undefined {
  const variants: SummaryUnit[] = [unit, { ...unit, day: undefined }, { ...unit, day: undefined, label: undefined }];
  for (const variant of variants) {
    const fits = (text: string): boolean => tokens.count(render([{ ...variant, text }])) <= maxTokens;
    const text = cutAtBoundary(variant.text, fits);
    if (text !== undefined) return render([{ ...variant, text }]);
  }
  return undefined;
}

function inInputOrder(units: SummaryUnit[], indices: number[]): SummaryUnit[] {
  return [...indices].sort((a, b) => a - b).flatMap((index) => units[index] ?? []);
}

/**
 * Indices in score order whose estimated cost fits: each sentence's text plus a separator, and
 * its line's label and day once per line / day (what rendering shares between sentences).
 */
function chooseGreedily(units: SummaryUnit[], order: number[], maxTokens: number, tokens: TokenCounter): number[] {
  const chosen: number[] = [];
  const groups = new Set<number>();
  const days = new Set<string>();
  let estimate = 0;
  for (const index of order) {
    const unit = units[index];
    if (unit === undefined) continue;
    const label = groups.has(unit.group) || unit.label === undefined ? 0 : tokens.count(`${unit.label}: `);
    const day = unit.day === undefined || days.has(unit.day) ? 0 : tokens.count(`[${unit.day}] `);
    const cost = tokens.count(unit.text) + 1 + label + day;
    if (estimate + cost > maxTokens) continue;
    chosen.push(index);
    groups.add(unit.group);
    if (unit.day !== undefined) days.add(unit.day);
    estimate += cost;
  }
  return chosen;
}

/**
 * Greedy selection by score, rendered in input order, never over budget. Each sentence is
 * costed alone, so the text is counted once per sentence rather than once per attempt; the
 * final text is then counted exactly and the weakest sentences dropped until it fits. When
 * not even the best sentence fits, the best one that can be shortened at a word end is.
 */
function selectWithinBudget(units: SummaryUnit[], maxTokens: number, tokens: TokenCounter): string {
  const scores = scoreSummaryUnits(units);
  const order = units
    .map((_, index) => index)
    .filter((index) => (scores[index] ?? 0) > 0)
    .sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b);
  const chosen = chooseGreedily(units, order, maxTokens, tokens);
  // `chosen` is in score order: popping drops the weakest sentence first.
  while (chosen.length > 0 && tokens.count(render(inInputOrder(units, chosen))) > maxTokens) chosen.pop();
  if (chosen.length > 0) return render(inInputOrder(units, chosen));
  for (const index of (order.length > 0 ? order : [0]).slice(0, TRUNCATION_TRIES)) {
    const unit = units[index];
    const text = unit === undefined ? undefined : truncateToFit(unit, maxTokens, tokens);
    if (text !== undefined) return text;
  }
  return '';
}

/** The previous summary's words, without its labels and days (they are not content). */
function termsOfSummary(summary: string | undefined): Set<string> {
  return new Set(
    analyzeText(
      parseSummaryLines(summary ?? '')
        .map((line) => line.text)
        .join('\n'),
    ),
  );
}

function unitsOfTurns(turns: TranscriptTurn[], previousSummary: string | undefined): SummaryUnit[] {
  const covered = termsOfSummary(previousSummary);
  return turns.flatMap((turn, group) =>
    splitSentences(turn.content).map((text) => {
      const terms = analyzeText(text);
      const coverage = terms.length === 0 ? 0 : terms.filter((term) => covered.has(term)).length / terms.length;
      // Already said in the previous summary: keep room for what is new.
      return { label: labelOf(turn), day: formatDay(turn.createdAt), text, group, terms, weight: 1 - 0.6 * coverage };
    }),
  );
}

/**
 * Synopsis first, then summaries oldest first, each line keeping its speaker and day; later
 * text weighs a little more (it may correct earlier text). A sentence repeated by the same
 * speaker is kept once, where it was first said.
 */
function unitsOfSummaries(texts: string[]): SummaryUnit[] {
  const lines = texts.flatMap((text) => parseSummaryLines(text));
  const seen = new Set<string>();
  return lines.flatMap(({ label, day, text: line }, group) =>
    splitSentences(line).flatMap((text) => {
      const key = `${label ?? ''}:${text.toLowerCase()}`;
      if (seen.has(key)) return [];
      seen.add(key);
      return [{ label, day, text, group, terms: analyzeText(text), weight: 1 + (0.5 * group) / lines.length }];
    }),
  );
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
 * and for numbers, dates and names; they keep their input order, their speaker (the turn's
 * name, else its role) and the day they were said, so a synopsis folded from summaries still
 * says who said what, and when. Shortened text ends at a word, never inside one.
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

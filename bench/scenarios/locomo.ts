// Kept in one file: one scenario, read top to bottom: its setup, its measurements, its report.
/**
 * Retrieval and derivation on real multi-session dialogue (LoCoMo, ../shared/evals/README.md):
 * each conversation ingested into its own namespace on the embedded default (SQLite store and
 * KB, offline models), one strata session per LoCoMo session. Reports turn recall@5/10/20 of
 * `search`, evidence recall inside getContext budgets, observation coverage and grounded facts
 * of the offline derivation, and ingest/derive time; with BM25 over raw turns and a last-N
 * window computed in the same run as references.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { stemmer } from 'stemmer';
import { Bm25Index, createMemory, TiktokenTokenCounter, type Memory, type PolicyInput } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import type { BenchTable, Figure } from '../lib/bench-result.js';
import { CATEGORY_NAMES, DEFAULT_LOCOMO_PATH, loadLocomo, type Category, type LocomoConversation, type LocomoQuestion, type LocomoTurn } from '../lib/locomo-data.js';
import { scoreDerivation, type DerivationScore } from '../lib/locomo-metrics.js';
import { evidenceRecall, mean, recallAtK } from '../lib/retrieval-metrics.js';

export const LOCOMO_BUDGETS = [500, 1000, 2000] as const;
export const LOCOMO_KS = [5, 10, 20] as const;
const CATEGORIES: Category[] = [1, 2, 3, 4];
const DAY_MS = 86_400_000;

/**
 * The dev file's conversations as tuning and validation sets: a change to ranking or
 * derivation is tuned on the first and kept only when it helps the second as well (other
 * LoCoMo conversations are held back outside the repository and judged the same way).
 */
export const LOCOMO_SPLITS: readonly { name: string; conversations: readonly string[] }[] = [
  { name: 'tuning (conv-26, conv-30, conv-41)', conversations: ['conv-26', 'conv-30', 'conv-41'] },
  { name: 'validation (conv-42, conv-43)', conversations: ['conv-42', 'conv-43'] },
];

/** Per question: recall@k of search and evidence recall per context budget. */
export interface QuestionScore {
  /** The conversation's sample_id. */
  conversation: string;
  category: Category;
  recall: Record<number, number>;
  context: Record<number, number>;
  /** Evidence in a 1,000-token context asked inside the conversation's last session (its turns are the recent window). */
  inLastSession?: number;
}

export interface SystemRun {
  name: string;
  questions: QuestionScore[];
  /** Only for strata. */
  derivation?: DerivationScore;
  /** Only for strata: the derivation's counts per conversation (sample_id). */
  derivationOf?: Map<string, DerivationScore>;
}

// stopword ships CommonJS without type declarations; its English list is a plain string[].
const { eng } = createRequire(import.meta.url)('stopword') as { eng: string[] };
const STOP = new Set(eng);
/** The reference analyzer: lower-case words without stop words, no stemming. */
const stopWordsOnly = (text: string): string[] => (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => !STOP.has(w));

const tokens = new TiktokenTokenCounter();
const lineTokens = (turn: LocomoTurn): number => tokens.count(`- [2024-01-01] ${turn.speaker}: ${turn.text}`) + 1;

function turnsOf(conversation: LocomoConversation): LocomoTurn[] {
  return conversation.sessions.flatMap((s) => s.turns);
}

/** Turns in rank order while they fit the budget. */
function pack(turns: readonly LocomoTurn[], budget: number): string[] {
  const kept: string[] = [];
  let spent = 0;
  for (const turn of turns) {
    const cost = lineTokens(turn);
    if (spent + cost > budget) continue;
    kept.push(turn.id);
    spent += cost;
  }
  return kept;
}

function scoreRanking(conversation: string, question: LocomoQuestion, ranked: readonly string[], inContext: (budget: number) => string[]): QuestionScore {
  const items = ranked.map((id) => [id]);
  const recall: Record<number, number> = {};
  for (const k of LOCOMO_KS) recall[k] = recallAtK(question.evidence, items, k);
  const context: Record<number, number> = {};
  for (const budget of LOCOMO_BUDGETS)
    context[budget] = evidenceRecall(
      question.evidence,
      inContext(budget).map((id) => [id]),
    );
  return { conversation, category: question.category, recall, context };
}

const stopWordsStemmed = (text: string): string[] => stopWordsOnly(text).map((w) => stemmer(w));

/** BM25 over the raw turn texts of each conversation; with stop words removed, and optionally Porter stemming. */
export function runBm25Reference(conversations: readonly LocomoConversation[], isStemmed: boolean): SystemRun {
  const questions: QuestionScore[] = [];
  for (const conversation of conversations) {
    const turns = turnsOf(conversation);
    const byId = new Map(turns.map((t) => [t.id, t]));
    const index = new Bm25Index<null>({ analyze: isStemmed ? stopWordsStemmed : stopWordsOnly });
    for (const turn of turns) index.add(turn.id, turn.text, null);
    for (const question of conversation.questions) {
      const ranked = index.search(question.question, 200, () => true).map((hit) => hit.id);
      const rankedTurns = ranked.map((id) => byId.get(id)).filter((t): t is LocomoTurn => t !== undefined);
      questions.push(scoreRanking(conversation.sampleId, question, ranked, (budget) => pack(rankedTurns, budget)));
    }
  }
  return { name: isStemmed ? 'BM25 over raw turns (stop words, stemming)' : 'BM25 over raw turns (stop words)', questions };
}

/** The newest turns: what a plain chat history keeps. */
export function runWindowReference(conversations: readonly LocomoConversation[]): SystemRun {
  const questions: QuestionScore[] = [];
  for (const conversation of conversations) {
    const newestFirst = [...turnsOf(conversation)].reverse();
    for (const question of conversation.questions) {
      questions.push(
        scoreRanking(
          conversation.sampleId,
          question,
          newestFirst.map((t) => t.id),
          (budget) => pack(newestFirst, budget),
        ),
      );
    }
  }
  return { name: 'last-N window (newest turns)', questions };
}

export interface StrataRunOptions {
  policy?: PolicyInput;
  /** A name for the row (default "strata (defaults)"). */
  name?: string;
  /** Opens the memory in a temp folder (default: the embedded default, one SQLite file). */
  open?: (dir: string, clock: { now(): number }, policy: PolicyInput | undefined) => Promise<Memory>;
}

export interface StrataRun extends SystemRun {
  ingestMs: number;
  deriveMs: number;
  turns: number;
  facts: number;
}

/** The memory a new user gets on the embedded default, in a temp folder. */
async function openSqliteMemory(dir: string, clock: { now(): number }, policy: PolicyInput | undefined): Promise<Memory> {
  const path = join(dir, 'memory.sqlite');
  return createMemory({
    store: await createSqliteSessionStore({ path }),
    knowledge: await createSqliteKnowledgeBase({ path }),
    clock,
    ...(policy === undefined ? {} : { policy }),
  });
}

async function ingest(memory: Memory, conversation: LocomoConversation, namespace: string): Promise<void> {
  const [speakerA] = conversation.speakers;
  for (const session of conversation.sessions) {
    const created = await memory.sessions.create({ namespace, id: `${conversation.sampleId}:S${session.index}`, title: `session ${session.index}` });
    await memory.append(
      created.id,
      session.turns.map((t) => ({
        id: t.id,
        role: t.speaker === speakerA ? ('user' as const) : ('assistant' as const),
        name: t.speaker,
        content: t.text,
        createdAt: t.createdAt,
        metadata: t.imageCaption ? { imageCaption: t.imageCaption } : {},
      })),
    );
  }
}

/** strata on the embedded default: ingest, derive, then ask every question. */
export async function runStrata(conversations: readonly LocomoConversation[], options: StrataRunOptions = {}): Promise<StrataRun> {
  const dir = mkdtempSync(join(tmpdir(), 'strata-locomo-'));
  let now = 0;
  const memory = await (options.open ?? openSqliteMemory)(dir, { now: () => now }, options.policy);
  const questions: QuestionScore[] = [];
  const derivation: DerivationScore = { observations: 0, covered: 0, facts: 0, grounded: 0 };
  const derivationOf = new Map<string, DerivationScore>();
  let ingestMs = 0;
  let deriveMs = 0;
  let turns = 0;
  try {
    for (const conversation of conversations) {
      const namespace = `locomo-${conversation.sampleId}`;
      const last = conversation.sessions.at(-1);
      now = (last?.date ?? 0) + DAY_MS;
      let started = performance.now();
      await ingest(memory, conversation, namespace);
      ingestMs += performance.now() - started;
      started = performance.now();
      await memory.flush();
      deriveMs += performance.now() - started;
      turns += turnsOf(conversation).length;

      const facts = await memory.facts.list({ namespace, includeSuperseded: true });
      const scored = scoreDerivation(conversation.observations, facts, conversation.speakers);
      derivationOf.set(conversation.sampleId, scored);
      for (const key of Object.keys(derivation) as (keyof DerivationScore)[]) derivation[key] += scored[key];

      const ask = await memory.sessions.create({ namespace, title: 'questions' });
      for (const question of conversation.questions) {
        const hits = await memory.search({ namespace, query: question.question, k: Math.max(...LOCOMO_KS), kinds: ['turn'] });
        const recall: Record<number, number> = {};
        for (const k of LOCOMO_KS)
          recall[k] = recallAtK(
            question.evidence,
            hits.map((h) => h.messageIds),
            k,
          );
        const context: Record<number, number> = {};
        for (const budget of LOCOMO_BUDGETS) {
          const result = await memory.getContext(ask.id, { query: question.question, budgetTokens: budget });
          const cited = result.manifest.filter((item) => item.included && (item.kind === 'turn' || item.kind === 'fact'));
          context[budget] = evidenceRecall(
            question.evidence,
            cited.map((item) => item.sourceMessageIds),
          );
        }
        const inLast = await memory.getContext(`${conversation.sampleId}:S${last?.index ?? 1}`, { query: question.question, budgetTokens: 1000 });
        const citedInLast = inLast.manifest.filter((item) => item.included && (item.kind === 'turn' || item.kind === 'fact'));
        const inLastSession = evidenceRecall(
          question.evidence,
          citedInLast.map((item) => item.sourceMessageIds),
        );
        questions.push({ conversation: conversation.sampleId, category: question.category, recall, context, inLastSession });
      }
    }
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { name: options.name ?? 'strata (defaults)', questions, derivation, derivationOf, ingestMs, deriveMs, turns, facts: derivation.facts };
}

const pct = (value: number): string => (Number.isNaN(value) ? '–' : (value * 100).toFixed(1));

function byCategory(run: SystemRun, of: (q: QuestionScore) => number): string[] {
  return [...CATEGORIES.map((c) => pct(mean(run.questions.filter((q) => q.category === c).map(of)))), pct(mean(run.questions.map(of)))];
}

export function overall(run: SystemRun, of: (q: QuestionScore) => number, category?: Category): number {
  return mean(run.questions.filter((q) => category === undefined || q.category === category).map(of));
}

export function locomoTables(runs: readonly SystemRun[]): BenchTable[] {
  const header = ['system', ...CATEGORIES.map((c) => CATEGORY_NAMES[c]), 'all (1-4)'];
  return [
    ...LOCOMO_KS.map((k) => ({ title: `turn recall@${k} of search (%)`, header, rows: runs.map((r) => [r.name, ...byCategory(r, (q) => q.recall[k] ?? NaN)]) })),
    ...LOCOMO_BUDGETS.map((b) => ({ title: `evidence recall in a ${b}-token getContext (%)`, header, rows: runs.map((r) => [r.name, ...byCategory(r, (q) => q.context[b] ?? NaN)]) })),
    {
      title: 'evidence recall in a 1,000-token getContext asked inside the last session, whose turns fill the recent window (%)',
      header,
      rows: runs.filter((r) => r.questions.some((q) => q.inLastSession !== undefined)).map((r) => [r.name, ...byCategory(r, (q) => q.inLastSession ?? NaN)]),
    },
  ];
}

/** The headline figures over one split's conversations (none when the file has none of them, e.g. --quick or another file). */
function splitFigures(split: (typeof LOCOMO_SPLITS)[number], strata: SystemRun, bm25: SystemRun): Figure[] {
  const inSplit = (run: SystemRun): SystemRun => ({ ...run, questions: run.questions.filter((q) => split.conversations.includes(q.conversation)) });
  const own = inSplit(strata);
  if (own.questions.length === 0) return [];
  const recall = (run: SystemRun, category?: Category): number => overall(run, (q) => q.recall[10] ?? NaN, category) * 100;
  const derived = split.conversations.map((id) => strata.derivationOf?.get(id)).filter((d): d is DerivationScore => d !== undefined);
  const sum = (key: keyof DerivationScore): number => derived.reduce((n, d) => n + d[key], 0);
  const isValidation = split === LOCOMO_SPLITS[1];
  const r10 = recall(own);
  return [
    { name: `${split.name}: turn recall@10${isValidation ? ` (target >= 78 %: ${r10 >= 78 ? 'met' : 'missed'})` : ''}`, value: r10, unit: '%' },
    { name: `${split.name}: turn recall@10 multi-hop`, value: recall(own, 1), unit: '%' },
    { name: `${split.name}: lead over BM25 (stop words, stemming) at recall@10`, value: r10 - recall(inSplit(bm25)), unit: 'points' },
    { name: `${split.name}: evidence in a 1,000-token getContext`, value: overall(own, (q) => q.context[1000] ?? NaN) * 100, unit: '%' },
    { name: `${split.name}: observation coverage`, value: sum('observations') ? (100 * sum('covered')) / sum('observations') : NaN, unit: '%' },
    { name: `${split.name}: grounded facts`, value: sum('facts') ? (100 * sum('grounded')) / sum('facts') : NaN, unit: '%' },
  ];
}

/** `npm run bench -- locomo`: strata and the references on the dev file, in one run. */
export async function runLocomoBench(options: { quick: boolean; path?: string }): Promise<{ latencies: []; figures: Figure[]; tables: BenchTable[]; notes: string[] } | null> {
  const path = options.path ?? process.env.STRATA_LOCOMO_PATH ?? DEFAULT_LOCOMO_PATH;
  const conversations = loadLocomo(path);
  if (conversations === null) {
    // nothing is written: the results of the last run that had the file stay as they are
    process.stdout.write(`bench: locomo skipped: no LoCoMo file at ${path} (set STRATA_LOCOMO_PATH to its location; see ../shared/evals/README.md)\n`);
    return null;
  }
  const chosen = options.quick ? conversations.slice(0, 1) : conversations;
  const bm25Plain = runBm25Reference(chosen, false);
  // the stronger of the two references is the bar
  const bm25 = runBm25Reference(chosen, true);
  const window = runWindowReference(chosen);
  const strata = await runStrata(chosen);
  const d = strata.derivation ?? { observations: 0, covered: 0, facts: 0, grounded: 0 };
  const r10 = overall(strata, (q) => q.recall[10] ?? NaN);
  const lead = (r10 - overall(bm25, (q) => q.recall[10] ?? NaN)) * 100;
  const ctx1000 = overall(strata, (q) => q.context[1000] ?? NaN);
  const coverage = d.observations ? d.covered / d.observations : 0;
  const grounded = d.facts ? d.grounded / d.facts : 0;
  const met = (ok: boolean): string => (ok ? 'met' : 'missed');
  const multiHop = overall(strata, (q) => q.recall[10] ?? NaN, 1);
  return {
    latencies: [],
    figures: [
      { name: 'conversations', value: chosen.length, unit: '' },
      { name: 'turns', value: strata.turns, unit: '' },
      { name: 'questions (categories 1-4)', value: strata.questions.length, unit: '' },
      { name: `turn recall@10, strata (target >= 80 %: ${met(r10 >= 0.8)})`, value: r10 * 100, unit: '%' },
      { name: `turn recall@10 multi-hop, strata (target >= 55 %: ${met(multiHop >= 0.55)})`, value: multiHop * 100, unit: '%' },
      { name: `lead over BM25 (stop words, stemming) at recall@10 (target >= 20 points: ${met(lead >= 20)})`, value: lead, unit: 'points' },
      { name: `evidence in a 1,000-token getContext (target >= 86 %: ${met(ctx1000 >= 0.86)})`, value: ctx1000 * 100, unit: '%' },
      { name: 'evidence in a 1,000-token getContext asked inside the last session', value: overall(strata, (q) => q.inLastSession ?? NaN) * 100, unit: '%' },
      { name: 'annotated observations', value: d.observations, unit: '' },
      { name: `observation coverage (target >= 60 %: ${met(coverage >= 0.6)})`, value: coverage * 100, unit: '%' },
      { name: 'facts extracted (current and superseded)', value: d.facts, unit: '' },
      { name: `grounded facts (target >= 75 %: ${met(grounded >= 0.75)})`, value: grounded * 100, unit: '%' },
      { name: 'ingest (append) time', value: strata.ingestMs, unit: 'ms' },
      { name: 'derive time (flush after ingest)', value: strata.deriveMs, unit: 'ms' },
      { name: 'derive time per turn', value: strata.deriveMs / Math.max(1, strata.turns), unit: 'ms' },
      ...LOCOMO_SPLITS.flatMap((split) => splitFigures(split, strata, bm25)),
    ],
    tables: locomoTables([strata, bm25, bm25Plain, window]),
    notes: [
      `Data: ${path}, ${chosen.length} conversation(s)${options.quick ? ' (--quick: the first only)' : ''}. Each is ingested into its own namespace on the embedded default (SQLite store and KB, in-process queue, offline models), one strata session per LoCoMo session: id <sample_id>:<dia_id>, name = speaker, createdAt = session date + 1 s per turn, role user for speaker_a and assistant for speaker_b; an image caption is kept in metadata, not in the text.`,
      'Turn recall@k: share of a question\'s evidence turns among the top k of memory.search({ kinds: ["turn"] }). Evidence in context: share of evidence turns cited (sourceMessageIds) by the turns and facts a getContext of a new session includes, with the question as query.',
      "Observation coverage and grounded facts as in ../shared/evals/README.md (40 % / 30 % of the content words, speakers' names and stop words left out, plain suffix strip).",
      `Splits: every figure is also given for the tuning and the validation conversations apart (${LOCOMO_SPLITS.map((split) => split.name).join('; ')}); a change that helps the first and not the second is not kept. Validation target: recall@10 >= 78 %.`,
      'References from the same run: BM25 over the raw turn texts with stop words removed, with and without Porter stemming (the lead is measured against the stronger, stemmed one), packed in rank order into the same budgets; the newest turns that fit.',
    ],
  };
}

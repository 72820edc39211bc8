import type { SeqRange } from './coverage.js';
import { isCovered } from './coverage.js';

export interface WindowPolicy {
  maxMessages: number;
  maxTokens: number;
  minMessages: number;
  batchMessages: number;
}

export interface TurnCost {
  seq: number;
  tokens: number;
}

/**
 * Which batches leave the immediate tier. `uncovered` are the session's turns not covered by
 * an applied summary nor by a pending summarize job, ascending; `covered` the ranges that
 * are. Uncovered turns before the last covered seq are holes (left by forget) and are
 * re-summarized as they are; the tail is batched oldest
 * first, `batchMessages` at a time, while it exceeds the window, always keeping the newest
 * `minMessages`. Boundaries depend only on the turns, so a replay plans the same keys.
 *
 * `isTailOpen`: more uncovered turns follow those given (a planner reading a slice of a long
 * backlog). The tail then exceeds the window whatever the given turns weigh, so full batches
 * are cut while `maxMessages` given turns remain after them: the same batches the whole
 * backlog would get first, so slices plan the same keys as one pass.
 */
export function planSummaries(uncovered: readonly TurnCost[], covered: readonly SeqRange[], policy: WindowPolicy, isTailOpen = false): SeqRange[] {
  const lastCoveredSeq = Math.max(0, ...covered.map((r) => r.toSeq));
  const holes = uncovered.filter((t) => t.seq < lastCoveredSeq);
  const tail = uncovered.filter((t) => t.seq > lastCoveredSeq);
  return [...groupHoles(holes, covered), ...(isTailOpen ? openTail(tail, policy) : planTail(tail, policy))];
}

function openTail(tail: readonly TurnCost[], policy: WindowPolicy): SeqRange[] {
  const ranges: SeqRange[] = [];
  for (let start = 0; tail.length - start - policy.batchMessages >= policy.maxMessages; start += policy.batchMessages) {
    const first = tail[start];
    const last = tail[start + policy.batchMessages - 1];
    if (first && last) ranges.push({ fromSeq: first.seq, toSeq: last.seq });
  }
  return ranges;
}

/** Uncovered turns form one run unless a covered range lies between them (deleted seqs don't split). */
function groupHoles(turns: readonly TurnCost[], covered: readonly SeqRange[]): SeqRange[] {
  const ranges: SeqRange[] = [];
  for (const turn of turns) {
    const last = ranges[ranges.length - 1];
    const split = !last || covered.some((r) => r.fromSeq > last.toSeq && r.toSeq < turn.seq);
    if (last && !split) last.toSeq = turn.seq;
    else ranges.push({ fromSeq: turn.seq, toSeq: turn.seq });
  }
  return ranges;
}

function planTail(tail: readonly TurnCost[], policy: WindowPolicy): SeqRange[] {
  const ranges: SeqRange[] = [];
  let start = 0;
  let tokens = tail.reduce((sum, t) => sum + t.tokens, 0);
  const exceeds = () => tail.length - start > policy.maxMessages || tokens > policy.maxTokens;
  while (exceeds() && tail.length - start > policy.minMessages) {
    const take = Math.min(policy.batchMessages, tail.length - start - policy.minMessages);
    const batch = tail.slice(start, start + take);
    const first = batch[0];
    const last = batch[batch.length - 1];
    if (!first || !last) break;
    ranges.push({ fromSeq: first.seq, toSeq: last.seq });
    tokens -= batch.reduce((sum, t) => sum + t.tokens, 0);
    start += take;
  }
  return ranges;
}

/**
 * The next ingest range: every turn after the last ingested or pending one, in chunks of
 * `maxBatch` turns (by seq).
 */
export function planIngest(lastSeq: number, ingestedThrough: number, maxBatch: number): SeqRange[] {
  const ranges: SeqRange[] = [];
  for (let from = ingestedThrough + 1; from <= lastSeq; from += maxBatch) {
    ranges.push({ fromSeq: from, toSeq: Math.min(lastSeq, from + maxBatch - 1) });
  }
  return ranges;
}

export interface SummaryRange extends SeqRange {
  id: string;
}

/**
 * Whether the oldest batch summaries should be folded into the synopsis: when more than
 * `maxSummaries` follow it. Folds the oldest ones, keeping the newest half, but only a run
 * that is contiguous with the synopsis (no uncovered turn in between), so the synopsis
 * always covers seq 1..toSeq without a hole.
 * @returns the summaries to fold, oldest first, or [] when nothing is due.
 */
export function planConsolidation(synopsisToSeq: number, summaries: readonly SummaryRange[], uncoveredSeqs: readonly number[], maxSummaries: number): SummaryRange[] {
  const after = summaries.filter((s) => s.fromSeq > synopsisToSeq).sort((a, b) => a.fromSeq - b.fromSeq);
  if (after.length <= maxSummaries) return [];
  const foldCount = after.length - Math.ceil(maxSummaries / 2);
  const fold: SummaryRange[] = [];
  let reach = synopsisToSeq;
  for (const summary of after.slice(0, foldCount)) {
    const hole = uncoveredSeqs.some((seq) => seq > reach && seq < summary.fromSeq);
    if (hole) break;
    fold.push(summary);
    reach = summary.toSeq;
  }
  return fold;
}

/** Seqs not covered by the given ranges, for callers holding the session's seq list. */
export function uncoveredSeqs(seqs: readonly number[], ranges: readonly SeqRange[]): number[] {
  return seqs.filter((seq) => !isCovered(seq, ranges));
}

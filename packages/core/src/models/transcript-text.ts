import type { KnownFact, TranscriptTurn } from '../domain/jobs.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** `Friday 2026-11-20 10:00 UTC`: the weekday lets a model resolve "next Friday" without a calendar. */
export function formatTimestamp(ms: number): string {
  const d = new Date(ms);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

/**
 * Who speaks a turn, as a model should attribute it: the name first when the turn has one
 * (`Ana (user)`, `Ben (assistant)`), so that facts and summaries name that person,
 * else the role (`user`, `assistant`); `tool get_weather` for a tool.
 */
export function speakerLabelOf(turn: TranscriptTurn): string {
  if (turn.role === 'tool') return `tool ${turn.name ?? ''}`.trim();
  const name = turn.name?.trim();
  return name ? `${name} (${turn.role})` : turn.role;
}

/**
 * One line per turn, `[#seq timestamp] speaker: content`, so a model can cite the turn that
 * states something (by its seq), name who said it, and date what it says relative to when
 * it was said.
 */
export function renderTurns(turns: readonly TranscriptTurn[]): string {
  return turns.map((t) => `[#${t.seq} ${formatTimestamp(t.createdAt)}] ${speakerLabelOf(t)}: ${t.content.replace(/\s*\n\s*/g, ' ')}`).join('\n');
}

/** Known facts as `subject | predicate | object`, one a line, for slot reuse. */
export function renderKnownFacts(facts: readonly KnownFact[]): string {
  return facts.map((f) => `- ${f.subject} | ${f.predicate} | ${f.object}`).join('\n');
}

/** Rough words for a token cap (English averages about 0.75 words per token). */
export function wordsFor(maxTokens: number): number {
  return Math.max(10, Math.floor(maxTokens * 0.7));
}

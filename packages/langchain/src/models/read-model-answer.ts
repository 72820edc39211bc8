import type { AIMessage } from '@langchain/core/messages';
import { jsonrepair } from 'jsonrepair';
import { z } from 'zod';

/** An item of a model's answer left out, and why (its index in the list, and zod's message). */
export interface DroppedItem {
  /** The list it was in (e.g. `facts`) and its index there. */
  at: string;
  reason: string;
}

/** What reading an answer gave: the value with the items kept, or why nothing could be read. */
export type ReadResult<T> = { ok: true; value: T; dropped: DroppedItem[] } | { ok: false; error: string };

/**
 * How one answer shape is read leniently: `schema` is what the model is asked for (strict, for
 * its tool or JSON schema); `list`, when given, names the array whose items are validated one by
 * one with `item`, which may coerce (a number sent as a string); invalid items are dropped and
 * reported, the rest kept.
 */
export interface AnswerShape<T> {
  schema: z.ZodType<T>;
  list?: { key: string; item: z.ZodType };
}

/**
 * The candidates an answer holds, most trusted first: what LangChain parsed, the arguments of
 * the tool call named `name`, of another tool call (a model that renamed the tool), and the
 * message text read as JSON, repaired: fenced, wrapped in prose, or cut short.
 */
export function answerCandidates(raw: AIMessage | undefined, parsed: unknown, name: string): unknown[] {
  const candidates: unknown[] = [];
  if (parsed !== undefined) candidates.push(parsed);
  if (raw === undefined) return candidates;
  const calls = raw.tool_calls ?? [];
  for (const call of [...calls.filter((c) => c.name === name), ...calls.filter((c) => c.name !== name)]) candidates.push(call.args);
  candidates.push(...readJsonText(raw.text));
  return candidates;
}

/** The first candidate that reads as `shape` (items checked one by one), or the reason the best one did not. */
export function readAnswer<T>(candidates: readonly unknown[], shape: AnswerShape<T>): ReadResult<T> {
  let error = 'the answer holds no JSON object (no tool call, and no JSON in its text)';
  for (const candidate of candidates) {
    const read = readCandidate(candidate, shape);
    if (read.ok) return read;
    error = read.error;
  }
  return { ok: false, error };
}

function readCandidate<T>(candidate: unknown, shape: AnswerShape<T>): ReadResult<T> {
  const whole = shape.schema.safeParse(candidate);
  if (whole.success) return { ok: true, value: whole.data, dropped: [] };
  if (shape.list === undefined) return { ok: false, error: z.prettifyError(whole.error) };
  const { key, item } = shape.list;
  // A bare list is the list itself; a model often leaves out the wrapping object.
  const record = Array.isArray(candidate) ? { [key]: candidate } : candidate;
  const items: unknown = typeof record === 'object' && record !== null ? (record as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(items)) return { ok: false, error: z.prettifyError(whole.error) };
  const kept: unknown[] = [];
  const dropped: DroppedItem[] = [];
  items.forEach((value, i) => {
    const parsed = item.safeParse(value);
    if (parsed.success) kept.push(parsed.data);
    else dropped.push({ at: `${key}[${i}]`, reason: z.prettifyError(parsed.error).replace(/\s+/g, ' ').trim() });
  });
  const rebuilt = shape.schema.safeParse({ ...(record as Record<string, unknown>), [key]: kept });
  if (!rebuilt.success) return { ok: false, error: z.prettifyError(rebuilt.error) };
  if (items.length > 0 && kept.length === 0) return { ok: false, error: `every item of ${key} is invalid: ${dropped.map((d) => `${d.at}: ${d.reason}`).join('; ')}` };
  return { ok: true, value: rebuilt.data, dropped };
}

/**
 * The JSON values a model's text may hold: from its first `{` or `[` to its end (a cut-off
 * answer completed), then up to its last `}` or `]` (prose after it left out); each repaired
 * by jsonrepair (code fences, trailing commas, single quotes, a cut-off end). The reader takes
 * the first that validates. Empty when there is none.
 */
export function readJsonText(text: string): unknown[] {
  const start = text.search(/[[{]/);
  if (start < 0) return [];
  const body = text.slice(start);
  const end = Math.max(body.lastIndexOf('}'), body.lastIndexOf(']')) + 1;
  const spans = end > 0 && end < body.length ? [body, body.slice(0, end)] : [body];
  return spans.flatMap((span) => {
    try {
      return [JSON.parse(jsonrepair(span)) as unknown];
    } catch {
      return [];
    }
  });
}

/** Words models use for a confidence, and the value each stands for (documented in the README). */
export const CONFIDENCE_WORDS: Readonly<Record<string, number>> = { certain: 0.95, 'very high': 0.95, high: 0.9, medium: 0.6, moderate: 0.6, low: 0.3, 'very low': 0.1 };

/** A number, or a number sent as text ("3", "#3", "0.9", "90%"); anything else is left for zod to refuse. */
export const lenientNumber = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  const percent = /^(-?\d+(?:\.\d+)?)\s*%$/.exec(text);
  if (percent) return Number(percent[1]) / 100;
  const number = Number(text.replace(/^#/, ''));
  return text !== '' && Number.isFinite(number) ? number : value;
};

/** A confidence: a number as {@link lenientNumber} reads it, or one of {@link CONFIDENCE_WORDS}. */
export const lenientConfidence = (value: unknown): unknown => {
  const word = typeof value === 'string' ? CONFIDENCE_WORDS[value.trim().toLowerCase()] : undefined;
  return word ?? lenientNumber(value);
};

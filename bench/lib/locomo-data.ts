/**
 * Reads LoCoMo-format conversations (../shared/evals/README.md) into plain turns, questions
 * and observations. The data file is never copied into the repository: its path comes from
 * STRATA_LOCOMO_PATH or defaults to ../shared/evals/locomo-dev.json beside the checkout.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const DEFAULT_LOCOMO_PATH = fileURLToPath(new URL('../../../shared/evals/locomo-dev.json', import.meta.url));

export type Category = 1 | 2 | 3 | 4;
export const CATEGORY_NAMES: Record<Category, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

export interface LocomoTurn {
  /** `<sample_id>:<dia_id>`: the id strata stores the turn under. */
  id: string;
  speaker: string;
  text: string;
  /** Caption of an image the speaker shared, if any (kept in metadata, not in the text). */
  imageCaption?: string;
  createdAt: number;
}

export interface LocomoSession {
  index: number;
  date: number;
  turns: LocomoTurn[];
}

export interface LocomoQuestion {
  question: string;
  category: Category;
  /** Evidence turn ids (`<sample_id>:<dia_id>`), normalised. */
  evidence: string[];
}

export interface LocomoObservation {
  speaker: string;
  statement: string;
  evidence: string[];
}

export interface LocomoConversation {
  sampleId: string;
  speakers: [string, string];
  sessions: LocomoSession[];
  questions: LocomoQuestion[];
  observations: LocomoObservation[];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" -> epoch ms (UTC). A fixed format, so a pattern is enough. */
export function parseSessionDate(text: string): number {
  const match = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})$/i.exec(text.trim());
  const month = match ? MONTHS.indexOf((match[5] ?? '').toLowerCase()) : -1;
  if (!match || month < 0) throw new Error(`unreadable session date ${JSON.stringify(text)}`);
  const hour = (Number(match[1]) % 12) + ((match[3] ?? '').toLowerCase() === 'pm' ? 12 : 0);
  return Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]));
}

/** "D1:3", "D:11:26" or "D1:3; D1:4" -> ["D1:3"], ["D11:26"], ["D1:3", "D1:4"]. */
export function normaliseEvidence(raw: string): string[] {
  return raw
    .split(/[;,]/)
    .map((part) => part.trim().replace(/^D:?(\d+):(\d+)$/, 'D$1:$2'))
    .filter((part) => /^D\d+:\d+$/.test(part));
}

function sessionsOf(sampleId: string, conversation: Record<string, unknown>): LocomoSession[] {
  const out: LocomoSession[] = [];
  for (let index = 1; Array.isArray(conversation[`session_${index}`]); index++) {
    const date = parseSessionDate(String(conversation[`session_${index}_date_time`]));
    const raw = conversation[`session_${index}`] as RawTurn[];
    // one second per turn, so turns keep their order and their session's day
    const turns = raw.map((t, i) => ({
      id: `${sampleId}:${t.dia_id}`,
      speaker: t.speaker,
      text: t.text,
      ...(t.blip_caption ? { imageCaption: t.blip_caption } : {}),
      createdAt: date + i * 1000,
    }));
    out.push({ index, date, turns });
  }
  return out;
}

function observationsOf(sampleId: string, raw: Record<string, Record<string, [string, string][]>>): LocomoObservation[] {
  const out: LocomoObservation[] = [];
  for (const bySpeaker of Object.values(raw)) {
    for (const [speaker, list] of Object.entries(bySpeaker)) {
      for (const [statement, evidence] of list) {
        out.push({ speaker, statement, evidence: normaliseEvidence(String(evidence)).map((id) => `${sampleId}:${id}`) });
      }
    }
  }
  return out;
}

/** Reads the file; null when it is absent (the scenario then says so and skips). */
export function loadLocomo(path: string): LocomoConversation[] | null {
  if (!existsSync(path)) return null;
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>[];
  return raw.map((entry) => {
    const sampleId = String(entry.sample_id);
    const conversation = entry.conversation as Record<string, unknown>;
    const questions = (entry.qa as { question: string; category: number; evidence?: string[] }[])
      .filter((q) => q.category >= 1 && q.category <= 4)
      .map((q) => ({
        question: q.question,
        category: q.category as Category,
        evidence: [...new Set((q.evidence ?? []).flatMap(normaliseEvidence).map((id) => `${sampleId}:${id}`))],
      }))
      .filter((q) => q.evidence.length > 0);
    return {
      sampleId,
      speakers: [String(conversation.speaker_a), String(conversation.speaker_b)],
      sessions: sessionsOf(sampleId, conversation),
      questions,
      observations: observationsOf(sampleId, (entry.observation ?? {}) as Record<string, Record<string, [string, string][]>>),
    };
  });
}

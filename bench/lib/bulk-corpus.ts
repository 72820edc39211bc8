import { BUNDLE_FORMAT, BUNDLE_VERSION } from '@strata/core';
import type { ExportBundle, Fact, Memory, StoredMessage } from '@strata/core';
import { ConversationGenerator, seededRandom } from './conversation-generator.js';

/**
 * Large corpora are loaded the way a user would load an existing history: `memory.import` of
 * bundles (one store transaction and one index pass per bundle), not turn-by-turn appends
 * with live derivation. Imported sessions hold their turns verbatim; derivation is measured
 * separately, on the corpora filled by appends.
 */

const HOUR_MS = 3_600_000;
const START = Date.UTC(2025, 0, 1);
const SUBJECTS = ['user', 'user:sister', 'user:manager', 'user:partner', 'user:neighbour'];
const PREDICATES = ['lives_in', 'works_at', 'likes', 'visited', 'plans', 'owns', 'learns', 'met', 'bought', 'prefers'];

/** A bundle of `sessions` generated sessions of `turns` turns each, numbered from `first`. */
export function messagesBundle(chat: ConversationGenerator, namespace: string, first: number, sessions: number, turns: number): ExportBundle {
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exportedAt: new Date(START).toISOString(),
    sessions: Array.from({ length: sessions }, (_, i) => {
      const n = first + i;
      const id = `ses_bulk_${namespace}_${n}`;
      const createdAt = START + n * HOUR_MS;
      const messages: StoredMessage[] = chat.turns(turns).map((input, j) => ({
        id: `msg_bulk_${namespace}_${n}_${j + 1}`,
        sessionId: id,
        namespace,
        seq: j + 1,
        role: input.role,
        content: input.content,
        createdAt: createdAt + j * 1000,
        metadata: {},
      }));
      return {
        session: { id, namespace, title: `chat ${n + 1}`, metadata: {}, createdAt, updatedAt: createdAt + turns * 1000, lastSeq: turns },
        messages,
        summaries: [],
        jobs: [],
      };
    }),
    facts: [],
  };
}

/** A bundle of `count` current facts numbered from `first` (one slot each, so none supersedes another). */
export function factsBundle(seed: number, namespace: string, first: number, count: number): ExportBundle {
  const random = seededRandom(seed + first);
  const chat = new ConversationGenerator(seed + first);
  const facts: Fact[] = Array.from({ length: count }, (_, i) => {
    const n = first + i;
    const subject = SUBJECTS[Math.floor(random() * SUBJECTS.length)] as string;
    const predicate = `${PREDICATES[Math.floor(random() * PREDICATES.length)] as string}_${n}`;
    const text = chat.next().content.split('. ')[0] ?? '';
    const at = START + n * 1000;
    return { id: `fct_bulk_${namespace}_${n}`, namespace, subject, predicate, object: text, text, sourceMessageIds: [], validFrom: at, confidence: 0.8, createdAt: at, degraded: false };
  });
  return { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: new Date(START).toISOString(), sessions: [], facts };
}

/**
 * Imports `messages` turns into `namespace` in bundles of about `perBundle`, `turns` per
 * session, sessions numbered from `firstSession`; returns the session ids and the import time in ms.
 */
export async function importMessages(
  memory: Memory,
  options: { namespace: string; seed: number; messages: number; turns: number; perBundle: number; firstSession?: number },
): Promise<{ sessionIds: string[]; ms: number }> {
  const chat = new ConversationGenerator(options.seed);
  const sessionsPerBundle = Math.max(1, Math.floor(options.perBundle / options.turns));
  const start = options.firstSession ?? 0;
  const end = start + Math.ceil(options.messages / options.turns);
  const sessionIds: string[] = [];
  let ms = 0;
  for (let first = start; first < end; first += sessionsPerBundle) {
    const bundle = messagesBundle(chat, options.namespace, first, Math.min(sessionsPerBundle, end - first), options.turns);
    const started = process.hrtime.bigint();
    await memory.import(bundle);
    ms += Number(process.hrtime.bigint() - started) / 1e6;
    sessionIds.push(...bundle.sessions.map((s) => s.session.id));
  }
  return { sessionIds, ms };
}

/** Imports `count` facts into `namespace` in bundles of `perBundle`; returns the import time in ms. */
export async function importFacts(memory: Memory, options: { namespace: string; seed: number; count: number; perBundle: number }): Promise<number> {
  let ms = 0;
  for (let first = 0; first < options.count; first += options.perBundle) {
    const bundle = factsBundle(options.seed, options.namespace, first, Math.min(options.perBundle, options.count - first));
    const started = process.hrtime.bigint();
    await memory.import(bundle);
    ms += Number(process.hrtime.bigint() - started) / 1e6;
  }
  return ms;
}

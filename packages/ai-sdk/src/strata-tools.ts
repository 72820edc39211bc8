import { parseWith, StrataError, type ForgetReport, type MemoryApi, type SearchHit } from '@strata/core';
import { tool, type Tool } from 'ai';
import { z } from 'zod';

/** Options of {@link strataTools}: the memory, the namespace the tools are confined to, and where notes go. */
export interface StrataToolsOptions {
  memory: MemoryApi;
  /** Whose memory the tools read and write; recall and forget never reach outside it. */
  namespace: string;
  /**
   * The session remember stores notes in, created in the namespace when it does not exist yet.
   * @defaultValue the namespace's notes session ({@link notesSessionId}), created on first use
   */
  sessionId?: string;
}

/** The tools of {@link strataTools} (a `ToolSet`); each result is a string for the model. */
export type StrataTools = {
  remember: Tool<{ text: string }, string>;
  recall: Tool<{ query: string; k: number }, string>;
  forget: Tool<{ id: string }, string>;
};

/** The metadata key that marks a turn stored by the remember tool (the same as `@strata/langchain`'s). */
export const MEMORY_NOTE_KEY = 'strataMemoryNote';

/** Longest text of one hit in recall's answer. */
const MAX_LINE_CHARS = 400;

const optionsSchema = z.object({
  memory: z.custom<MemoryApi>(
    (v) => typeof v === 'object' && v !== null && typeof (v as MemoryApi).append === 'function' && typeof (v as MemoryApi).search === 'function',
    'memory must be a strata MemoryApi (from createMemory or createRemoteMemory)',
  ),
  namespace: z.string().min(1),
  sessionId: z.string().min(1).optional(),
});

const rememberInput = z.object({
  text: z.string().trim().min(1).describe("One self-contained statement in the user's own words, first person (e.g. 'I moved to Lisbon in May 2025'), so it is filed as a fact about the user."),
});
const recallInput = z.object({
  query: z.string().trim().min(1).describe('What to look for, in words likely to appear in it (e.g. "where the user lives").'),
  /** @defaultValue 5 */
  k: z.number().int().min(1).max(50).default(5).describe('How many results to return.'),
});
const forgetInput = z.object({
  id: z.string().trim().min(1).describe('The id of a turn, note or fact, as recall or remember returned it.'),
});

/**
 * Memory tools for an AI SDK tool loop (`generateText` / `streamText` with `stopWhen`, or a
 * `ToolLoopAgent`): `remember` stores a note as a user turn of the notes session and answers
 * with the facts strata filed from it; `recall` searches the namespace (turns, summaries,
 * facts) and answers one line per hit, `- [<kind> <id> | <date>] <text>`; `forget` deletes a
 * turn or note by id, or a fact with the messages it came from. Results are strings. A
 * failure throws, which the AI SDK turns into a `tool-error` and sends the model as an error
 * result, the loop going on: a StrataError is rethrown with the same code, its hint appended
 * to the message (the original as `cause`). An id outside the namespace fails exactly like
 * an unknown one. Build the tools per request when the namespace is per user.
 * @throws StrataError CONFIG_INVALID for options that are not {@link StrataToolsOptions}.
 * @example
 * const result = await generateText({ model, tools: strataTools({ memory, namespace: 'user-42' }), stopWhen: stepCountIs(5), prompt });
 */
export function strataTools(options: StrataToolsOptions): StrataTools {
  const { memory, namespace, sessionId } = parseWith(optionsSchema, options, 'strataTools options', 'Pass { memory, namespace, sessionId? } with non-empty strings.', 'CONFIG_INVALID');
  return {
    remember: tool({
      description: 'Store a note in long-term memory for later conversations: a fact about the user, a preference, a decision. Returns the note id and the facts filed from it.',
      inputSchema: rememberInput,
      execute: ({ text }, { toolCallId }) => readable(() => remember(memory, namespace, sessionId, text, toolCallId)),
    }),
    recall: tool({
      description: 'Search long-term memory (earlier conversations, notes and facts about the user). Returns one line per result with its kind and id.',
      inputSchema: recallInput,
      execute: ({ query, k }) => readable(async () => (await memory.search({ namespace, query, k })).map(hitLine).join('\n') || 'Nothing in memory matches this query.'),
    }),
    forget: tool({
      description:
        'Delete from long-term memory, by an id from recall or remember, a turn or note, or a fact with the messages it came from. Use it when the user asks you to forget something or it is wrong.',
      inputSchema: forgetInput,
      execute: ({ id }) => readable(() => forget(memory, namespace, id)),
    }),
  };
}

/** The default notes session of a namespace (the same as `@strata/langchain`'s): one per namespace, the same id every time. */
export async function notesSessionId(namespace: string): Promise<string> {
  const id = `memory-notes:${namespace}`;
  if (id.length <= 256) return id;
  // Web Crypto rather than node:crypto, for edge runtimes.
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(namespace)));
  return `memory-notes:${Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

async function remember(memory: MemoryApi, namespace: string, sessionId: string | undefined, text: string, toolCallId: string): Promise<string> {
  const notes = await ensureNotesSession(memory, namespace, sessionId);
  const [note] = await memory.append(notes, { role: 'user', content: text, metadata: { [MEMORY_NOTE_KEY]: { tool: 'remember', toolCallId } } });
  if (!note) throw new StrataError('INTERNAL', 'memory.append returned no message for the note', { hint: 'Report this: append returns one stored message per input.' });
  await memory.flush();
  const facts = (await memory.facts.list({ namespace })).filter((f) => f.sourceMessageIds.includes(note.id));
  if (!facts.length) return `Remembered as ${note.id}. No fact was filed from it: the note is stored and recall finds it by its words.`;
  return `Remembered as ${note.id}. strata filed ${plural(facts.length, 'fact')} from it:\n${facts.map((f) => `- [fact ${f.id}] ${f.text}`).join('\n')}`;
}

/**
 * The notes session's id, created in the namespace when missing.
 * @throws StrataError CONFLICT when it exists in another namespace: one user's notes must not go to another's.
 */
async function ensureNotesSession(memory: MemoryApi, namespace: string, sessionId: string | undefined): Promise<string> {
  const id = sessionId ?? (await notesSessionId(namespace));
  const existing = await memory.sessions.get(id);
  if (existing) return inNamespace(existing, namespace);
  try {
    return (await memory.sessions.create({ namespace, id, ...(sessionId === undefined ? { title: 'Notes of the memory tools' } : {}) })).id;
  } catch (error) {
    // Two first uses racing: the other one created it, which is all we wanted.
    const created = StrataError.is(error, 'CONFLICT') ? await memory.sessions.get(id) : null;
    if (!created) throw error;
    return inNamespace(created, namespace);
  }
}

function inNamespace(session: { id: string; namespace: string }, namespace: string): string {
  if (session.namespace === namespace) return session.id;
  throw new StrataError('CONFLICT', `the notes session ${JSON.stringify(session.id)} belongs to another namespace than ${JSON.stringify(namespace)}`, {
    hint: "Pass strataTools a sessionId of this namespace, or none to use the namespace's own notes session.",
  });
}

async function forget(memory: MemoryApi, namespace: string, id: string): Promise<string> {
  const fact = (await memory.facts.list({ namespace, includeSuperseded: true })).find((f) => f.id === id);
  try {
    if (!fact) return `Forgot message ${id}. ${derivedText(await memory.forget({ messageIds: [id], namespace }))}`;
    // The messages go too, or the fact would be filed again from them and recall would still find them.
    const report = fact.sourceMessageIds.length ? await memory.forget({ messageIds: fact.sourceMessageIds, namespace }) : await memory.forget({ factIds: [id], namespace });
    return `Forgot fact ${id} and the ${plural(report.messages, 'message')} it came from. ${derivedText(report)}`;
  } catch (error) {
    if (!StrataError.is(error, 'NOT_FOUND')) throw error;
    // The same answer for an id of another namespace as for one that does not exist.
    throw new StrataError('NOT_FOUND', `no turn, note or fact with id ${JSON.stringify(id)} in memory; nothing was forgotten`, {
      hint: 'Pass an id that recall or remember returned (a summary goes with the turns it summarises).',
      cause: error,
    });
  }
}

function derivedText(report: ForgetReport): string {
  return `Derived from it: ${plural(report.facts, 'fact')} deleted, ${report.factsTrimmed} kept with other sources, ${plural(report.summaries, 'summary', 'summaries')} to redo.`;
}

function hitLine(hit: SearchHit): string {
  const text = hit.text.replace(/\s+/g, ' ').trim();
  const shown = text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}… (cut)` : text;
  return `- [${hit.kind} ${hit.id} | ${new Date(hit.createdAt).toISOString().slice(0, 10)}] ${shown}`;
}

/** Runs a tool; a StrataError is rethrown with its hint in the message, which is what the AI SDK shows the model. */
async function readable(run: () => Promise<string>): Promise<string> {
  try {
    return await run();
  } catch (error) {
    if (!StrataError.is(error)) throw error;
    throw new StrataError(error.code, `${error.message} (${error.code}). ${error.hint}`, { hint: error.hint, cause: error, retryable: error.retryable });
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

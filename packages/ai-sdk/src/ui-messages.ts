import { plainJsonProblem, StrataError, type MemoryApi, type MessageInput, type StoredMessage } from '@strata/core';
import type { UIMessage } from 'ai';
import { ensureSession, findSession } from './ensure-session.js';
import { addConvertedTurn, isRecord, isTypedPart, type OpenReply } from './ui-from-turns.js';
import { uiMessageText } from './ui-message-text.js';
import { AI_SDK_KEY } from './turn-metadata.js';

/** Options of {@link saveUIMessages}: the memory, the chat's session, where to create it, and the chat. */
export interface SaveUIMessagesOptions<MESSAGE extends UIMessage = UIMessage> {
  memory: MemoryApi;
  /** The chat's session (e.g. `useChat`'s chat id). */
  sessionId: string;
  /** Namespace to create an unknown session in; without it an unknown session is NOT_FOUND. */
  namespace?: string;
  /** The whole chat, oldest first, as `useChat` holds it. */
  messages: readonly MESSAGE[];
}

/** Options of {@link loadUIMessages}: the memory and the chat's session. */
export interface LoadUIMessagesOptions {
  memory: MemoryApi;
  /** The chat's session (e.g. `useChat`'s chat id). */
  sessionId: string;
  /** When given, a session of another namespace is refused (CONFLICT) rather than read: a guessed chat id must not show another user's chat. */
  namespace?: string;
}

const ROLES = new Set(['user', 'assistant', 'system']);
const INPUT_HINT =
  'Pass the UIMessages as useChat holds them: a stored UIMessage is plain JSON (dates as numbers or ISO strings, files as URLs or data URLs, tool inputs, outputs and metadata as JSON values).';

/**
 * Makes the session `sessionId` hold the chat `messages`, so that {@link loadUIMessages}
 * returns it as given: the persistence of `useChat`. Turns are append-only, so it appends, in
 * one `memory.append` (all or nothing), one turn per message that is not stored as it is:
 * - a message whose id is not stored yet: passing the whole chat again stores nothing twice;
 * - a message whose id is stored with other content (the assistant message `useChat`
 *   continued after a tool result or approval, a user message edited with
 *   `sendMessage({ messageId })`): its new version supersedes the stored one on load, which
 *   drops the stored messages after it too, as `useChat` does;
 * - a chat that drops stored messages without changing one (`regenerate()`): the last message
 *   it keeps is stored again, to record where the chat continues.
 * Each turn's content is the message's readable text (text parts, one line per tool call,
 * file and source), for strata's retrieval and derivation; its metadata
 * `{ aiSdk: { ui } }` holds the whole message. Returns the turns appended.
 * @throws StrataError INVALID_INPUT for a message that is not a UIMessage, has an empty id (set
 *   `generateMessageId` on the server: useChat would show the reply under another id), is not plain
 *   JSON (naming the message and the path), that strata's limits refuse (metadataBytes: keep
 *   large files out of the chat, as URLs), or for two messages with one id.
 * @throws StrataError NOT_FOUND for an unknown session without `namespace`; CONFLICT when it
 *   is in another namespace, or when the chat keeps none of the stored messages.
 * @example
 * // app/api/chat/route.ts
 * const result = streamText({ model, messages: await convertToModelMessages(messages) });
 * return result.toUIMessageStreamResponse({
 *   originalMessages: messages,
 *   onFinish: ({ messages }) => saveUIMessages({ memory, sessionId: chatId, namespace: userId, messages }),
 * });
 */
export async function saveUIMessages<MESSAGE extends UIMessage>({ memory, sessionId, namespace, messages }: SaveUIMessagesOptions<MESSAGE>): Promise<StoredMessage[]> {
  const chat = toStorableChat(messages);
  await ensureSession(memory, sessionId, namespace === undefined ? {} : { namespace });
  const turns = turnsToAppend(sessionId, rebuildChat(await memory.messages(sessionId)), chat);
  if (turns.length === 0) return [];
  try {
    return await memory.append(sessionId, turns.map(toMessageInput));
  } catch (error) {
    if (!StrataError.is(error, 'INVALID_INPUT')) throw error;
    const order = turns.map((message, i) => `[${i}] ${JSON.stringify(message.id)}`).join(', ');
    throw new StrataError('INVALID_INPUT', `could not store UIMessages of session ${JSON.stringify(sessionId)} (turns ${order}): ${error.message}`, {
      hint: `${error.hint} A UIMessage is kept whole in its turn's metadata: upload large files and keep their URL in the file part.`,
      cause: error,
    });
  }
}

/**
 * The chat of the session `sessionId`, oldest first (`[]` for an unknown session). Turns
 * saved by {@link saveUIMessages} come back exactly as saved, a newer version of a message
 * superseding the older one and what followed it. Other turns (plain strata turns, turns
 * stored by the `strataMemory` middleware) are converted best-effort, with the strata message
 * id as the UIMessage id: user and system text; an assistant turn, its tool turns and the
 * assistant turns that continue it as ONE assistant message (`tool-<name>` parts with their
 * results, `step-start` between steps).
 * Validate with the AI SDK's `validateUIMessages({ messages, tools })` to type the result.
 * @throws StrataError CONFLICT when `namespace` is given and the session is in another one.
 * @example
 * const messages = await loadUIMessages({ memory, sessionId: chatId, namespace: userId });
 * // then useChat({ id: chatId, messages })
 */
export async function loadUIMessages<MESSAGE extends UIMessage = UIMessage>({ memory, sessionId, namespace }: LoadUIMessagesOptions): Promise<MESSAGE[]> {
  if (namespace !== undefined && (await findSession(memory, sessionId, namespace)) === null) return [];
  try {
    return rebuildChat(await memory.messages(sessionId)) as MESSAGE[];
  } catch (error) {
    if (StrataError.is(error, 'NOT_FOUND')) return [];
    throw error;
  }
}

/** The messages as plain JSON (undefined fields dropped), checked to be UIMessages with distinct ids. */
function toStorableChat(messages: readonly UIMessage[]): UIMessage[] {
  if (!Array.isArray(messages)) throw new StrataError('INVALID_INPUT', `messages must be an array of UIMessages (got ${typeof messages})`, { hint: INPUT_HINT });
  const seen = new Map<string, number>();
  return messages.map((message: unknown, index) => {
    const where = `messages[${index}]`;
    if (!isRecord(message) || typeof message.id !== 'string' || !ROLES.has(String(message.role)) || !Array.isArray(message.parts) || !message.parts.every(isTypedPart)) {
      throw new StrataError('INVALID_INPUT', `${where} is not a UIMessage (an object with a string id, role 'user' | 'assistant' | 'system' and typed parts)`, { hint: INPUT_HINT });
    }
    if (message.id === '') {
      // what toUIMessageStreamResponse gives a reply without generateMessageId: useChat then shows it under an id of its own
      throw new StrataError('INVALID_INPUT', `${where} has an empty id, so it cannot be recognised when the chat is saved again`, {
        hint: "Give every message an id: on the server pass generateMessageId (e.g. createIdGenerator({ prefix: 'msg', size: 16 }) from 'ai') to toUIMessageStreamResponse, so that the reply is saved under the id useChat shows.",
      });
    }
    const problem = plainJsonProblem(message);
    if (problem) throw new StrataError('INVALID_INPUT', `${where} (id ${JSON.stringify(message.id)}) cannot be stored: ${problem.replace(/^\$/, where)}`, { hint: INPUT_HINT });
    const first = seen.get(message.id);
    if (first !== undefined)
      throw new StrataError('INVALID_INPUT', `${where} has the id ${JSON.stringify(message.id)} of messages[${first}]`, { hint: 'A chat identifies its messages by id: give each its own.' });
    seen.set(message.id, index);
    return JSON.parse(JSON.stringify(message)) as UIMessage;
  });
}

/** The messages to append so that the stored chat reads back as `chat` (see {@link rebuildChat}). */
function turnsToAppend(sessionId: string, stored: readonly UIMessage[], chat: readonly UIMessage[]): UIMessage[] {
  let kept = 0;
  while (kept < stored.length && kept < chat.length && isSameJson(stored[kept], chat[kept])) kept += 1;
  const dropped = stored[kept];
  // Nothing of the stored chat dropped, or a new version of its first dropped message replaces it and what follows.
  if (dropped === undefined || dropped.id === chat[kept]?.id) return chat.slice(kept);
  const anchor = stored[kept - 1];
  if (anchor !== undefined) return [anchor, ...chat.slice(kept)];
  throw new StrataError(
    'CONFLICT',
    `the chat passed for session ${JSON.stringify(sessionId)} keeps none of its ${stored.length} stored messages (it starts with ${JSON.stringify(chat[0]?.id ?? null)}, the stored chat with ${JSON.stringify(dropped.id)})`,
    { hint: 'A session holds one chat: save another chat in its own session (e.g. one per useChat id), or delete the stored one first with memory.sessions.delete(sessionId).' },
  );
}

/**
 * The chat the turns hold, oldest first. A saved message whose id is already in the chat
 * supersedes it and everything after it (the stored history of a chat that was continued,
 * edited or regenerated); other turns are converted best-effort.
 */
function rebuildChat(turns: readonly StoredMessage[]): UIMessage[] {
  const chat: UIMessage[] = [];
  let reply: OpenReply | undefined;
  for (const turn of turns) {
    const saved = savedUIMessage(turn);
    if (saved === undefined) {
      reply = addConvertedTurn(chat, turn, reply);
      continue;
    }
    reply = undefined;
    const superseded = chat.findIndex((message) => message.id === saved.id);
    if (superseded >= 0) chat.length = superseded;
    chat.push(saved);
  }
  return chat;
}

function savedUIMessage(turn: StoredMessage): UIMessage | undefined {
  const stored = turn.metadata?.[AI_SDK_KEY];
  const ui = isRecord(stored) ? stored.ui : undefined;
  return isRecord(ui) && typeof ui.id === 'string' && Array.isArray(ui.parts) ? (ui as unknown as UIMessage) : undefined;
}

function toMessageInput(message: UIMessage): MessageInput {
  return { role: message.role, content: uiMessageText(message), metadata: { [AI_SDK_KEY]: { ui: message } } };
}

/** Deep equality of plain JSON values, whatever the order of object keys (a store may not keep it). */
function isSameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!isRecord(a) && !Array.isArray(a)) return false;
  if (!isRecord(b) && !Array.isArray(b)) return false;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => isSameJson(item, b[i]));
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && isSameJson(a[key], b[key]));
}

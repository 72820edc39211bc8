import { StrataError, type MessageInput, type StoredMessage } from '@strata/core';
import { checkOptions, pathId } from './input-checks.js';
import { jsonBody } from './json-body.js';
import type { RemoteTransport } from './remote-transport.js';

/** Most messages one POST /v1/sessions/{id}/messages takes (the server's limit). */
const MAX_APPEND = 1_000;
/** Largest page GET /v1/sessions/{id}/messages answers. */
const MESSAGE_PAGE = 1_000;

/** A message as it goes over the wire: its time as epoch ms or an ISO string. */
type WireMessage = Omit<MessageInput, 'createdAt'> & { createdAt?: number | string };

/** A Date as its epoch milliseconds (what the server stores either way); an invalid Date becomes NaN, which is refused by name. */
function withEpochTime(message: unknown): unknown {
  if (typeof message !== 'object' || message === null || !((message as MessageInput).createdAt instanceof Date)) return message;
  return { ...message, createdAt: ((message as MessageInput).createdAt as Date).getTime() };
}

/**
 * `memory.append` over HTTP, all or nothing as in process. Each call carries a fresh
 * Idempotency-Key, and is sent once more with the same key when the connection failed: the
 * server stores the turns at most once and answers the retry with what it stored.
 */
export async function appendRemote(t: RemoteTransport, sessionId: string, message: MessageInput | MessageInput[]): Promise<StoredMessage[]> {
  const id = pathId(sessionId, 'sessionId');
  const messages = jsonBody((Array.isArray(message) ? message : [message]).map(withEpochTime), 'message') as WireMessage[];
  if (messages.length > MAX_APPEND) {
    throw new StrataError('INVALID_INPUT', `message is invalid: a remote append takes at most ${MAX_APPEND} messages (got ${messages.length})`, {
      hint: `Append in calls of at most ${MAX_APPEND} messages; each call is stored all or nothing.`,
    });
  }
  const key = globalThis.crypto.randomUUID();
  const answer = await t.send(() => t.client.POST('/v1/sessions/{id}/messages', { params: { path: { id }, header: { 'idempotency-key': key } }, body: { messages } }), { retry: true });
  return answer.messages;
}

type Range = { fromSeq?: number; toSeq?: number; last?: number };

/** One GET of the messages with seq in [from, to] (at most MESSAGE_PAGE seqs), and where the next page starts. */
async function readPage(t: RemoteTransport, id: string, from: number | undefined, to: number | undefined): Promise<{ messages: StoredMessage[]; next: number | null }> {
  const limit = to === undefined || from === undefined ? MESSAGE_PAGE : Math.max(1, Math.min(MESSAGE_PAGE, to - from + 1));
  const query = { limit, ...(from === undefined ? {} : { fromSeq: from }) };
  const page = await t.send(() => t.client.GET('/v1/sessions/{id}/messages', { params: { path: { id }, query } }));
  return { messages: page.messages.filter((m) => to === undefined || m.seq <= to), next: page.nextCursor };
}

/** The messages from `fromSeq` to `toSeq`, page after page, following the server's cursor. */
async function readForward(t: RemoteTransport, id: string, fromSeq: number | undefined, toSeq: number | undefined): Promise<StoredMessage[]> {
  const found: StoredMessage[] = [];
  let from = fromSeq;
  for (;;) {
    const page = await readPage(t, id, from, toSeq);
    found.push(...page.messages);
    if (page.next === null || (toSeq !== undefined && page.next > toSeq)) return found;
    from = page.next;
  }
}

/** The newest `last` messages from `fromSeq` to `toSeq` (default the session's last seq), read backwards a page of seqs at a time. */
async function readLast(t: RemoteTransport, id: string, { fromSeq = 1, toSeq, last }: Range & { last: number }): Promise<StoredMessage[]> {
  const upper = toSeq ?? (await t.send(() => t.client.GET('/v1/sessions/{id}', { params: { path: { id } } }))).lastSeq;
  // nothing in the range, so no page is read below: an unknown session must still fail, as in process
  if (upper < fromSeq && toSeq !== undefined) await readPage(t, id, fromSeq, toSeq);
  let found: StoredMessage[] = [];
  for (let to = upper; found.length < last && to >= fromSeq; ) {
    const from = Math.max(fromSeq, to - MESSAGE_PAGE + 1);
    found = [...(await readPage(t, id, from, to)).messages, ...found];
    to = from - 1;
  }
  return found.slice(-last);
}

/**
 * `memory.messages` over HTTP: the range from `fromSeq` to `toSeq` page after page (the server
 * pages forward by seq), or with `last` the newest N of it, read backwards from the session's
 * last seq so that a long session is not read whole.
 */
export async function messagesRemote(t: RemoteTransport, sessionId: string, options: Range = {}): Promise<StoredMessage[]> {
  const id = pathId(sessionId, 'sessionId');
  checkOptions(options, 'messages options', { fromSeq: 'positive', toSeq: 'positive', last: 'positive' }, 'fromSeq, toSeq and last must be positive integers.');
  const { fromSeq, toSeq, last } = options;
  return last === undefined ? readForward(t, id, fromSeq, toSeq) : readLast(t, id, { ...options, last });
}

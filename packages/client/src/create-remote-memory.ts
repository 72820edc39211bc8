import { emptyDerivationStats, StrataError, type ExportFormat, type MemoryApi, type MemoryStats } from '@strata/core';
import { canBeInUrl, checkOptions, pathId } from './input-checks.js';
import { jsonBody } from './json-body.js';
import { appendRemote, messagesRemote } from './remote-messages.js';
import { flushRemote, readStatus, type StatusAnswer } from './remote-flush.js';
import { remoteSessions } from './remote-sessions.js';
import { createRemoteTransport, type RemoteTransport } from './remote-transport.js';
import { usageRemote } from './remote-usage.js';

/** Where the strata server is and how to authenticate to it. */
export interface RemoteMemoryOptions {
  /** The server's base URL, with the path it is mounted under if any (`http://127.0.0.1:8787`, `https://api.example.com/memory`). */
  url: string;
  /** An API key secret (`sk_strata_…`), sent as `Authorization: Bearer`; omit it for a server in open mode (loopback, no keys). */
  apiKey?: string;
  /**
   * The fetch to send requests with (a proxy agent, a test double, another runtime's fetch).
   * @defaultValue globalThis.fetch
   */
  fetch?: typeof fetch;
}

const FORMATS: readonly ExportFormat[] = ['json', 'jsonl', 'markdown', 'text'];

/** The options, checked once: a malformed url or key is a CONFIG_INVALID naming it (never showing the key). */
function parseOptions(options: RemoteMemoryOptions): { url: URL; apiKey?: string; fetch?: typeof fetch } {
  const hint = "Pass { url: 'http://host:port', apiKey?: 'sk_strata_…' }, the url of a running strata server (strata serve).";
  let url: URL | undefined;
  try {
    url = new URL(options?.url);
  } catch (error) {
    throw new StrataError('CONFIG_INVALID', `url must be an absolute http(s) URL (got ${JSON.stringify(options?.url)})`, { hint, cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new StrataError('CONFIG_INVALID', `url must be an http or https URL (got ${url.protocol})`, { hint });
  // fetch refuses such a URL, and the password would end up in error messages
  if (url.username || url.password) throw new StrataError('CONFIG_INVALID', `url must not carry credentials (got ${url.protocol}//…@${url.host})`, { hint: `${hint} The key goes in apiKey.` });
  const { apiKey } = options;
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.length === 0 || /[^\x21-\x7E]/.test(apiKey))) {
    throw new StrataError('CONFIG_INVALID', 'apiKey must be the secret printed by `strata keys create` (a non-empty string of visible ASCII)', { hint });
  }
  if (options.fetch !== undefined && typeof options.fetch !== 'function') throw new StrataError('CONFIG_INVALID', 'fetch must be a function', { hint });
  return { url, ...(apiKey === undefined ? {} : { apiKey }), ...(options.fetch === undefined ? {} : { fetch: options.fetch }) };
}

/**
 * strata's `MemoryApi` over HTTP: the same calls, results and StrataError codes as the
 * in-process memory, answered by a strata server (`@strata/server`, `strata serve`). Every
 * problem the server answers becomes a StrataError with its code and hint; a server that
 * cannot be reached, BACKEND_UNAVAILABLE. Nothing is sent until the first call.
 *
 * Differences that HTTP imposes: input must be plain JSON (a Date is sent as its epoch ms only
 * as `createdAt`); one append takes at most 1,000 messages; `stats()` returns the counters of
 * the last `pending()` (zeros before), with token usage `byNamespace` only for the namespaces
 * in the key's reach (as in a flush report); `close()` ends this client, not the server's memory.
 * @throws StrataError CONFIG_INVALID for a malformed url or key.
 * @example
 * const memory = createRemoteMemory({ url: 'http://127.0.0.1:8787', apiKey: process.env.STRATA_API_KEY });
 * const session = await memory.sessions.create({ namespace: 'user-42' });
 * await memory.append(session.id, { role: 'user', content: 'I moved to Lisbon.' });
 * const { messages } = await memory.getContext(session.id, { query: 'Where do I live?' });
 */
export function createRemoteMemory(options: RemoteMemoryOptions): MemoryApi {
  const t = createRemoteTransport(parseOptions(options));
  let stats: MemoryStats = {
    derivation: emptyDerivationStats(),
  };
  const seen = (status: StatusAnswer) => {
    stats = status.stats;
  };
  return {
    sessions: remoteSessions(t),
    facts: {
      list: async (filter) => {
        checkOptions(filter, 'facts filter', { namespace: 'string', includeSuperseded: 'boolean' }, 'Pass { namespace: string, includeSuperseded?: boolean }.');
        if (!canBeInUrl(filter.namespace)) return [];
        const query = { namespace: filter.namespace, history: filter.includeSuperseded === true ? ('true' as const) : ('false' as const) };
        return (await t.send(() => t.client.GET('/v1/facts', { params: { query } }))).facts;
      },
    },
    append: (sessionId, message) => appendRemote(t, sessionId, message),
    messages: (sessionId, range) => messagesRemote(t, sessionId, range),
    getContext: async (sessionId, context = {}) => {
      const id = pathId(sessionId, 'sessionId');
      return t.send(() => t.client.POST('/v1/sessions/{id}/context', { params: { path: { id } }, body: jsonBody(context, 'getContext options') }));
    },
    search: async (request) => (await t.send(() => t.client.POST('/v1/search', { body: jsonBody(request, 'search request') }))).hits,
    forget: async (target) => t.send(() => t.client.POST('/v1/forget', { body: jsonBody(target, 'forget target') })),
    export: (sessionId, format) => exportRemote(t, sessionId, format),
    import: (bundle, importOptions = {}) => importRemote(t, bundle, importOptions),
    flush: (flushOptions = {}) => flushRemote(t, flushOptions, seen),
    pending: async () => {
      const status = await readStatus(t);
      seen(status);
      return status.pending;
    },
    stats: () => structuredClone(stats),
    usage: (filter) => usageRemote(t, filter),
    close: async () => t.close(),
  };
}

async function exportRemote(t: RemoteTransport, sessionId: string, options: { format: ExportFormat }): Promise<string> {
  const id = pathId(sessionId, 'sessionId');
  const format = (options as { format?: unknown } | undefined)?.format;
  if (!FORMATS.includes(format as ExportFormat)) {
    throw new StrataError('INVALID_INPUT', `export options is invalid: format must be 'json', 'jsonl', 'markdown' or 'text' (got ${JSON.stringify(format)})`, {
      hint: "format must be 'json', 'jsonl', 'markdown' or 'text'.",
    });
  }
  return t.send(() => t.client.GET('/v1/sessions/{id}/export', { params: { path: { id }, query: { format: format as ExportFormat } }, parseAs: 'text' }));
}

async function importRemote(t: RemoteTransport, bundle: unknown, options: { merge?: boolean; namespace?: string }): Promise<Awaited<ReturnType<MemoryApi['import']>>> {
  checkOptions(options, 'import options', { merge: 'boolean' }, 'Pass { merge?: boolean, namespace?: string }.');
  const { merge, namespace } = options;
  if (typeof namespace === 'string' && !canBeInUrl(namespace)) {
    throw new StrataError('INVALID_INPUT', 'import options is invalid: namespace holds a lone surrogate', { hint: 'Pass a namespace of well-formed text, in Unicode NFC.' });
  }
  const query = { ...(merge === undefined ? {} : { merge: merge ? ('true' as const) : ('false' as const) }), ...(namespace === undefined ? {} : { namespace }) };
  // a bundle given as text goes as it is (the server parses it, as the in-process import does)
  const body = typeof bundle === 'string' ? bundle : jsonBody(bundle, 'bundle');
  return t.send(() => t.client.POST('/v1/import', { params: { query }, body: body as never, bodySerializer: (b: unknown) => (typeof b === 'string' ? b : JSON.stringify(b)) }));
}

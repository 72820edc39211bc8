// Kept in one file: one stub server, its routes and what it records; the completions it builds are in openai-stub-completions.ts.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatCompletion, completionChunks, promptText } from './openai-stub-completions.js';

export { promptText };

/** A tool call the stub model makes. Without an id it gets `call_<n>`. */
export interface StubToolCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export type StubAnswer = string | { content?: string; toolCalls?: StubToolCall[] };

/**
 * A fault in place of an answer, for a request of a test's choosing: an HTTP error status
 * (with headers, e.g. `Retry-After`), a delay before the reply, or the connection cut after the
 * response started (a reset mid-body).
 */
export type StubFault = { fault: 'status'; status: number; headers?: Record<string, string>; message?: string } | { fault: 'delay'; ms: number; reply: StubAnswer } | { fault: 'reset' };

/** One chat completion: plain text, text and/or tool calls, or a fault. */
export type StubChatReply = StubAnswer | StubFault;

/** The parts of an OpenAI chat message a test looks at. */
export interface ChatCompletionMessage {
  role: string;
  content: string | null | { type: string; text?: string }[];
  name?: string;
  tool_calls?: { id: string; type: 'function'; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** A `POST /v1/chat/completions` body as the client sent it. */
export interface ChatCompletionRequest {
  model: string;
  messages: ChatCompletionMessage[];
  tools?: { type: string; function: { name: string } }[];
  stream?: boolean;
  [key: string]: unknown;
}

export type StubChatHandler = (request: ChatCompletionRequest) => StubChatReply | Promise<StubChatReply>;

export interface OpenAiStubOptions {
  /** Replies in order (one per request), or a function of each request. @defaultValue [] */
  chat?: StubChatReply[] | StubChatHandler;
  /** Embedding length when a request names no `dimensions`. @defaultValue 32 */
  embeddingDimensions?: number;
  /**
   * Port to listen on, e.g. the port of an endpoint a test brought down, to bring it back.
   * @defaultValue 0 (chosen by the OS)
   */
  port?: number;
  /** Pause before each streamed chunk, so a test can act (abort, stop reading) mid-stream. @defaultValue 0 */
  streamDelayMs?: number;
  /** The model ids `GET /v1/models` lists. @defaultValue ['stub'] */
  models?: string[];
  /**
   * Request features this endpoint refuses with a 400, as servers without them do: `tools`
   * (tool calling), `json_schema` and `json_object` (`response_format` types). @defaultValue []
   */
  refuse?: ('tools' | 'json_schema' | 'json_object')[];
}

/** A request the stub received, body parsed from JSON. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /**
   * The JSON answered (with its `usage`), set once the response is sent; for a streamed
   * answer, the `chat.completion.chunk` objects sent; absent for errors.
   */
  response?: unknown;
  /** How answering it ended, once it has: all of it sent, or the client went away mid-stream (aborted, or stopped reading). */
  ended?: 'sent' | 'client gone';
}

export interface OpenAiStub {
  /** `http://127.0.0.1:<port>`; OpenAI clients take `${url}/v1` as base URL. */
  url: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Resolves once the stub is answering no request: each one received so far was sent, or its client went away. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** Client errors (4xx) make OpenAI clients fail at once; they retry 5xx with backoff, which only slows a failing test. */
class StubError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const isFault = (reply: StubChatReply): reply is StubFault => typeof reply === 'object' && 'fault' in reply;

/** The first feature of `refuse` the request uses: tools, or a `response_format` type. */
function refusedFeature(request: ChatCompletionRequest, refuse: readonly string[]): string | undefined {
  if (refuse.includes('tools') && (request.tools?.length ?? 0) > 0) return 'tools';
  const format = (request.response_format as { type?: unknown } | undefined)?.type;
  return typeof format === 'string' && refuse.includes(format) ? format : undefined;
}

/**
 * Starts a local OpenAI-compatible server: `POST /v1/chat/completions` (scripted or computed
 * replies, tool calls; with `stream: true`, server-sent `chat.completion.chunk` events: the text
 * a word at a time, tool-call arguments in pieces, then a usage chunk when
 * `stream_options.include_usage`) and `POST /v1/embeddings` (deterministic vectors from a hash
 * of each input; `encoding_format` 'float' or 'base64'), both reporting `usage`, and
 * `GET /v1/models` (the `models` option). Listens on
 * 127.0.0.1, on `port` or one chosen by the OS.
 * @example
 * const stub = await startOpenAiStub({ chat: ['Hello!', { toolCalls: [{ name: 'get_weather', args: { city: 'Oslo' } }] }] });
 * const model = new ChatOpenAI({ model: 'stub', apiKey: 'test', configuration: { baseURL: `${stub.url}/v1` } });
 * await model.invoke('Hi'); // AIMessage 'Hello!'
 * await stub.close();
 */
export async function startOpenAiStub(options: OpenAiStubOptions = {}): Promise<OpenAiStub> {
  const requests: RecordedRequest[] = [];
  const nextReply = replySource(options.chat ?? []);
  const dimensions = options.embeddingDimensions ?? 32;
  let completions = 0;
  const route = async (req: IncomingMessage, body: unknown, clientGone: AbortSignal): Promise<Answer> => {
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      const request = body as ChatCompletionRequest;
      const refused = refusedFeature(request, options.refuse ?? []);
      if (refused) throw new StubError(400, `openai stub: this endpoint does not support ${refused}`);
      const reply = await nextReply(request);
      let answer: StubAnswer;
      if (isFault(reply)) {
        if (reply.fault === 'status') throw new StubError(reply.status, reply.message ?? `openai stub: scripted status ${reply.status}`, reply.headers);
        if (reply.fault === 'reset') return { reset: true };
        // a client that gave up (its timeout) ends the wait: no timer outlives the request
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, reply.ms);
          const stop = (): void => {
            clearTimeout(timer);
            resolve();
          };
          clientGone.addEventListener('abort', stop, { once: true });
        });
        answer = reply.reply;
      } else answer = reply;
      const completion = chatCompletion(request, answer, ++completions);
      return request.stream ? { chunks: completionChunks(completion, request) } : { json: completion };
    }
    if (req.method === 'POST' && req.url === '/v1/embeddings') return { json: embeddingList(body, dimensions) };
    if (req.method === 'GET' && req.url === '/v1/models') return { json: { object: 'list', data: (options.models ?? ['stub']).map((id) => ({ id, object: 'model', created: 0, owned_by: 'stub' })) } };
    throw new StubError(404, `openai stub: no route for ${req.method ?? ''} ${req.url ?? ''}`);
  };
  const answering = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    let recorded: RecordedRequest | undefined;
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    const replying: Promise<void> = handle(req, res, options.streamDelayMs ?? 0, async (body) => {
      recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(recorded);
      const answer = await route(req, body, gone.signal);
      if (!('reset' in answer)) recorded.response = 'json' in answer ? answer.json : answer.chunks;
      return answer;
    })
      .then((ended) => {
        if (recorded) recorded.ended = ended;
      })
      .finally(() => answering.delete(replying));
    answering.add(replying);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    settled: async () => {
      while (answering.size) await Promise.all(answering);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Clients keep connections alive; without this, close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

function replySource(chat: StubChatReply[] | StubChatHandler): (request: ChatCompletionRequest) => Promise<StubChatReply> {
  if (typeof chat === 'function') return async (request) => chat(request);
  const queue = [...chat];
  return async () => {
    const reply = queue.shift();
    if (reply === undefined) throw new StubError(400, 'openai stub: no scripted chat reply left (pass more replies or a handler function)');
    return reply;
  };
}

/** A JSON body, the chunks of a server-sent event stream, or a connection to cut mid-body. */
type Answer = { json: unknown } | { chunks: unknown[] } | { reset: true };

async function handle(req: IncomingMessage, res: ServerResponse, delayMs: number, route: (body: unknown) => Promise<Answer>): Promise<'sent' | 'client gone'> {
  try {
    const answer = await route(await readJson(req));
    if ('reset' in answer) {
      // headers and the start of a body, then the socket destroyed: the client sees a reset mid-body
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"id":"chatcmpl-cut","choices":[{"index":0,"mess');
      res.socket?.destroy();
      return 'sent';
    }
    if ('json' in answer) {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.json));
      return 'sent';
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const chunk of answer.chunks) {
      if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
      // the client went away (aborted, or stopped reading): nothing more to send
      if (res.destroyed) return 'client gone';
      res.write(`data: ${JSON.stringify(chunk)}\n\n`);
    }
    res.end('data: [DONE]\n\n');
  } catch (error) {
    const status = error instanceof StubError ? error.status : 500;
    const message = error instanceof Error ? error.message : String(error);
    res.writeHead(status, { 'content-type': 'application/json', ...(error instanceof StubError ? error.headers : {}) }).end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
  }
  return 'sent';
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new StubError(400, `openai stub: request body is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

function embeddingList(body: unknown, defaultDimensions: number) {
  const request = body as { input?: unknown; model?: string; dimensions?: number; encoding_format?: string };
  const inputs = Array.isArray(request.input) ? request.input : [request.input];
  if (!inputs.every((i) => typeof i === 'string')) throw new StubError(400, 'openai stub: embeddings input must be a string or an array of strings');
  const dimensions = request.dimensions ?? defaultDimensions;
  const asBase64 = request.encoding_format === 'base64';
  const data = inputs.map((text, index) => {
    const vector = hashVector(text, dimensions);
    return { object: 'embedding', index, embedding: asBase64 ? Buffer.from(new Float32Array(vector).buffer).toString('base64') : vector };
  });
  const tokens = inputs.reduce((sum, text) => sum + Math.ceil(text.length / 4), 0);
  return { object: 'list', model: request.model ?? 'stub-embedding', data, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

/** A unit vector from SHA-256 of the text: the same text always gets the same vector. */
export function hashVector(text: string, dimensions: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dimensions; block++) {
    const digest = createHash('sha256').update(`${block}\u0000${text}`).digest();
    for (let i = 0; i + 4 <= digest.length && values.length < dimensions; i += 4) values.push(digest.readUInt32LE(i) / 0xffffffff - 0.5);
  }
  const norm = Math.hypot(...values) || 1;
  // Rounded through float32 so 'float' and 'base64' answers decode to the same numbers.
  return values.map((v) => Math.fround(v / norm));
}

import { Agent, type IncomingHttpHeaders, request } from 'node:http';
import { connect } from 'node:net';

/** One HTTP request as sent on the wire: the path is sent as given, unnormalised. */
export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | number>;
  body?: string | Buffer;
  /** The answer must arrive within this time, else the request rejects (a hang is a failure). */
  timeoutMs?: number;
  agent?: Agent;
}

/** A complete answer: status, headers and the body's bytes (and their UTF-8 reading). */
export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** A keep-alive agent so that thousands of requests reuse a few sockets. */
export function keepAliveAgent(maxSockets = 8): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

/**
 * Sends one request with node:http (not app.request: the HTTP layer is part of what is tested)
 * and reads the whole answer. Rejects when no complete answer arrives within `timeoutMs`.
 */
export function sendRaw(port: number, req: RawRequest): Promise<RawResponse> {
  const timeoutMs = req.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) headers['content-length'] = Buffer.byteLength(req.body);
    const outgoing = request({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent: req.agent ?? false });
    const timer = setTimeout(() => outgoing.destroy(new Error(`no answer within ${timeoutMs} ms to ${req.method} ${req.path.slice(0, 200)}`)), timeoutMs);
    outgoing.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      incoming.on('end', () => {
        clearTimeout(timer);
        const body = Buffer.concat(chunks);
        resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body, text: body.toString('utf8') });
      });
    });
    outgoing.end(req.body);
  });
}

/**
 * Sends a request whose body the server may refuse before reading it (over the body limit) on a
 * plain socket: the body is written whole, a failed write (the server closed its side) is
 * ignored, and whatever the server answered before closing is read. node:http would report
 * the failed write instead of the answer that arrived.
 */
export function sendUnread(port: number, req: RawRequest & { chunked?: boolean }): Promise<RawResponse> {
  const timeoutMs = req.timeoutMs ?? 15_000;
  const body = Buffer.from(req.body ?? '');
  const framing = req.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(body.byteLength) };
  const headers = Object.entries({ host: `127.0.0.1:${port}`, connection: 'close', ...req.headers, ...framing }).map(([k, v]) => `${k}: ${v}\r\n`);
  const payload = req.chunked ? Buffer.concat([Buffer.from(`${body.byteLength.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]) : body;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => socket.destroy(new Error(`no answer within ${timeoutMs} ms to ${req.method} ${req.path.slice(0, 200)}`)), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // a write the server no longer reads fails with EPIPE or ECONNRESET: the answer is what counts
    socket.on('error', (error) => chunks.length === 0 && !/EPIPE|ECONNRESET/.test(error.message) && reject(error));
    socket.on('close', () => {
      clearTimeout(timer);
      const parsed = parseAnswer(Buffer.concat(chunks));
      if (parsed) resolve(parsed);
      else reject(new Error(`the connection closed without an answer to ${req.method} ${req.path.slice(0, 200)}`));
    });
    socket.write(`${req.method} ${req.path} HTTP/1.1\r\n${headers.join('')}\r\n`);
    socket.end(payload);
  });
}

/** Reads a status line, headers and a Content-Length body; null when no complete head arrived. */
function parseAnswer(bytes: Buffer): RawResponse | null {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers: IncomingHttpHeaders = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = bytes.subarray(end + 4);
  const length = Number(headers['content-length'] ?? rest.byteLength);
  const body = rest.subarray(0, length);
  return { status, headers, body, text: body.toString('utf8') };
}

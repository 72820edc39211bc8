import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { bin, root } from './cli.js';

/** A running `strata serve`, its URL, and what it says. */
export interface ServeProcess {
  /** `http://host:port` from the line it prints when listening. */
  url: string;
  /** The listening line itself. */
  line: string;
  child: ChildProcess;
  /** Exit code and signal, once it has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Resolves once stderr matches (the test's own timeout bounds the wait). */
  waitForStderr(pattern: RegExp): Promise<void>;
}

/** Starts `strata ARGS serve ...` and resolves once it listens; rejects with its stderr when it exits first. */
export function startServe(args: string[], env: NodeJS.ProcessEnv): Promise<ServeProcess> {
  const child = spawn(process.execPath, [bin, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const w of waiters.filter((w) => w.pattern.test(stderr))) w.resolve();
  });
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = /^strata serve: listening on (http:\/\/\S+) .*$/m.exec(stdout);
      if (!line) return;
      resolve({
        url: line[1] as string,
        line: line[0],
        child,
        exited,
        stderr: () => stderr,
        waitForStderr: (pattern) => new Promise<void>((done) => (pattern.test(stderr) ? done() : waiters.push({ pattern, resolve: done }))),
      });
    });
    void exited.then(({ code, signal }) => reject(new Error(`strata serve exited (${code ?? signal}) before listening\nstdout: ${stdout}\nstderr: ${stderr}`)));
  });
}

/** What an API call answered. */
export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** Calls the API at `url`, with a Bearer key when given, and parses the JSON (or problem) answer. */
export async function call(url: string, method: string, path: string, options: { key?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key !== undefined) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${url}${path}`, { method, headers, ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/** A request whose headers the server holds (it answered 100 Continue) and whose body is not sent yet: a request in flight, for as long as the test wants. */
export interface HeldRequest {
  /** Sends the body; resolves with the answer. */
  finish(): Promise<{ status: number; text: string }>;
}

/** POSTs `body` as JSON with `Expect: 100-continue`, and resolves once the server has the request (its 100 Continue). */
export function holdRequest(url: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<HeldRequest> {
  const text = JSON.stringify(body);
  const { hostname, port } = new URL(url);
  const pending = request({
    host: hostname,
    port,
    method: 'POST',
    path,
    agent: false,
    headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), expect: '100-continue' },
  });
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    pending.once('error', reject);
    pending.once('response', (response) => {
      let received = '';
      response.on('data', (chunk: Buffer) => (received += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: received }));
    });
  });
  // a test that ends before finishing it sees the hang-up nowhere else
  answered.catch(() => undefined);
  pending.flushHeaders();
  return new Promise((resolve, reject) => {
    pending.once('error', reject);
    pending.once('continue', () =>
      resolve({
        finish: () => {
          pending.end(text);
          return answered;
        },
      }),
    );
  });
}

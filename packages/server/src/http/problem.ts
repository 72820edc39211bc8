import { StrataError, type StrataErrorCode } from '@strata/core';
import { HTTPException } from 'hono/http-exception';

/** An RFC 9457 problem document, as every failed answer of the server carries it (`application/problem+json`). */
export interface Problem {
  /** `urn:strata:problem:<code in lower kebab case>`. */
  type: string;
  title: string;
  status: number;
  detail: string;
  /** The StrataError code a client turns the problem back into. */
  code: StrataErrorCode;
  /** How to fix it, addressed to the developer. */
  hint: string;
  instance?: string;
}

/** A problem and the headers its answer carries (Retry-After, WWW-Authenticate, Allow). */
export interface ProblemAnswer {
  problem: Problem;
  headers: Record<string, string>;
}

/** Thrown where an answer needs a status or headers a StrataError code does not give (413, 405, 429 with Retry-After). */
export class ProblemException extends Error {
  constructor(readonly answer: ProblemAnswer) {
    super(answer.problem.detail);
    this.name = 'ProblemException';
  }
}

const STATUS: Record<StrataErrorCode, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  CONFIG_INVALID: 500,
  INTERNAL: 500,
  BACKEND_UNAVAILABLE: 503,
  CLOSED: 503,
};

const TITLES: Record<number, string> = {
  400: 'Invalid input',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Payload too large',
  429: 'Too many requests',
  500: 'Internal error',
  503: 'Service unavailable',
};

/** Seconds a client waits before retrying an unavailable backend. */
const BACKEND_RETRY_AFTER = '5';

/** The HTTP status of a StrataError code. */
export function statusOf(code: StrataErrorCode): number {
  return STATUS[code] ?? 500;
}

/** A problem of `code`, with the status the code maps to unless `status` is given (413, 405). */
export function problem(code: StrataErrorCode, detail: string, hint: string, status = statusOf(code)): Problem {
  const type = `urn:strata:problem:${code.toLowerCase().replaceAll('_', '-')}`;
  return { type, title: TITLES[status] ?? 'Error', status, detail, code, hint };
}

/** Absolute file paths, file URLs and stack frames, which a 5xx hint written by a backend may carry. */
const INTERNALS = [/\n\s+at .*/g, /file:\/\/\S+/g, /(^|[\s"'(=])\/[^\s"')]+/g, /[A-Za-z]:\\[^\s"')]+/g];

/** `text` without the paths and stack frames of the server's machine. */
export function withoutInternals(text: string): string {
  return INTERNALS.reduce((out, pattern) => out.replace(pattern, (_match, lead: unknown) => `${typeof lead === 'string' ? lead : ''}…`), text);
}

const GENERIC_HINT = 'The server logged the cause; retry later, or report it to its operator.';

/**
 * The answer to a failure. A StrataError keeps its code, message and hint when the request
 * caused it (4xx); a server-side failure (5xx) shows a generic detail, and an unknown error is
 * INTERNAL with nothing of its message, stack or paths. Hono's own 4xx (malformed JSON, 415)
 * are INVALID_INPUT 400.
 */
export function problemOf(error: unknown): ProblemAnswer {
  if (error instanceof ProblemException) return error.answer;
  if (StrataError.is(error)) return strataProblem(error);
  if (error instanceof HTTPException && error.status < 500) {
    const status = error.status === 415 ? 400 : error.status;
    return {
      problem: problem('INVALID_INPUT', error.message || 'the request is malformed', 'Send a JSON body with content-type application/json, as the OpenAPI document (/openapi.json) describes.', status),
      headers: {},
    };
  }
  return { problem: problem('INTERNAL', 'internal error', GENERIC_HINT), headers: {} };
}

function strataProblem(error: StrataError): ProblemAnswer {
  const status = statusOf(error.code);
  if (status < 500) {
    const headers: Record<string, string> = error.code === 'UNAUTHORIZED' ? { 'www-authenticate': 'Bearer realm="strata"' } : error.code === 'RATE_LIMITED' ? { 'retry-after': '1' } : {};
    return { problem: problem(error.code, error.message, error.hint), headers };
  }
  if (error.code === 'BACKEND_UNAVAILABLE') {
    return { problem: problem(error.code, 'the memory backend is unavailable', withoutInternals(error.hint)), headers: { 'retry-after': BACKEND_RETRY_AFTER } };
  }
  if (error.code === 'CLOSED') return { problem: problem(error.code, 'the memory is closed', 'The server is shutting down; retry on another instance or after it restarts.'), headers: {} };
  return { problem: problem(error.code, 'internal error', GENERIC_HINT), headers: {} };
}

/** The `application/problem+json` answer of a problem. */
export function problemResponse({ problem: doc, headers }: ProblemAnswer): Response {
  return new Response(JSON.stringify(doc), { status: doc.status, headers: { 'content-type': 'application/problem+json', ...headers } });
}

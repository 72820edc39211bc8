import { expect } from 'vitest';
import type { RawResponse } from './raw-request.js';

/** An RFC 9457 problem document as the server writes it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  hint: string;
  instance?: string;
}

/** Traces of the server's insides that no answer may carry. */
const INTERNALS = ['/work/', 'node_modules', '.ts:', '.js:', '\n    at ', 'file://'];

/** Why `res` is not a well-formed problem document (with no internals), or null when it is. */
export function problemFault(res: RawResponse, bodyExpected = true): string | null {
  const contentType = String(res.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/problem+json')) return `content-type is ${JSON.stringify(contentType)}, not application/problem+json`;
  const leaked = INTERNALS.find((mark) => res.text.includes(mark));
  if (leaked) return `the body shows ${JSON.stringify(leaked)}: ${res.text.slice(0, 300)}`;
  if (!bodyExpected) return null;
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    return `the body is not JSON: ${res.text.slice(0, 200)}`;
  }
  for (const field of ['type', 'title', 'detail', 'code', 'hint']) {
    if (typeof doc[field] !== 'string' || (doc[field] as string).length === 0) return `field ${field} is ${JSON.stringify(doc[field])}`;
  }
  if (doc.status !== res.status) return `field status is ${JSON.stringify(doc.status)}, the answer's status ${res.status}`;
  if (!(doc.type as string).startsWith('urn:strata:problem:')) return `type ${JSON.stringify(doc.type)} is not urn:strata:problem:*`;
  if ('stack' in doc || 'cause' in doc) return 'the problem carries a stack or a cause';
  return null;
}

/**
 * Why an answer of /mcp is neither a problem document (the HTTP layer: key, body limit, method)
 * nor a JSON-RPC error object (the MCP transport, whose clients read JSON-RPC), or null.
 */
export function mcpFault(res: RawResponse): string | null {
  const fault = problemFault(res);
  if (fault === null) return null;
  const contentType = String(res.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) return fault;
  const leaked = INTERNALS.find((mark) => res.text.includes(mark));
  if (leaked) return `the body shows ${JSON.stringify(leaked)}: ${res.text.slice(0, 300)}`;
  try {
    const doc = JSON.parse(res.text) as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
    if (doc.jsonrpc === '2.0' && typeof doc.error?.code === 'number' && typeof doc.error.message === 'string') return null;
  } catch {
    // not JSON: reported below
  }
  return `neither a problem document nor a JSON-RPC error: ${res.text.slice(0, 300)}`;
}

/** Asserts that `res` is a problem document with this status (and code when given), and returns it. */
export function expectProblem(res: RawResponse, status: number, code?: string): Problem {
  expect(res.status, `status of ${res.text.slice(0, 300)}`).toBe(status);
  expect(problemFault(res)).toBeNull();
  const problem = JSON.parse(res.text) as Problem;
  if (code) expect(problem.code).toBe(code);
  return problem;
}

import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { problemOf } from '../http/problem.js';

/** Told of each server-side failure (a 5xx over HTTP), whose answer to the client shows nothing of it. */
export type McpErrorListener = (error: unknown) => void;

/** A tool's answer: text a model reads, and the same data as structured content for programs. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * What a client may learn of a failure, by the HTTP API's rules: a StrataError the caller caused
 * keeps its code, message and hint; a server-side one (and anything that is not a StrataError)
 * shows a generic message, no stack and no path, and is handed to `onError`.
 */
function failureOf(error: unknown, onError: McpErrorListener): { code: string; message: string; hint: string; isServerSide: boolean } {
  const { problem } = problemOf(error);
  const isServerSide = problem.status >= 500;
  if (isServerSide) onError(error);
  return { code: problem.code, message: problem.detail, hint: problem.hint, isServerSide };
}

/** Runs a tool body; a throw becomes an error result (`isError: true`) the model can act on. */
export async function guardedTool(run: () => Promise<CallToolResult>, onError: McpErrorListener): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    const { code, message, hint } = failureOf(error, onError);
    // no structuredContent: clients check it against the tool's output schema even on an error
    return { content: [{ type: 'text', text: `${code}: ${message}\nhint: ${hint}` }], isError: true };
  }
}

/** Runs a resource read; a throw becomes a JSON-RPC error (invalid params when the caller caused it) with the same safe text. */
export async function guardedRead<T>(run: () => Promise<T>, onError: McpErrorListener): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const { code, message, hint, isServerSide } = failureOf(error, onError);
    throw new McpError(isServerSide ? ErrorCode.InternalError : ErrorCode.InvalidParams, `${code}: ${message} (hint: ${hint})`, { code, hint });
  }
}

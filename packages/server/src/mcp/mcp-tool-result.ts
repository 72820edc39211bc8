import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { StrataError } from '@strata/core';

/** A tool's answer: text a model reads, and the same data as structured content for programs. */
export function toolResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * A failed call as a tool result the model can act on: the StrataError's message and hint, or a
 * generic line for anything else (no stack, no internal path ever leaves the server).
 */
export function toolError(error: unknown): CallToolResult {
  const text = StrataError.is(error) ? `${error.code}: ${error.message}\nhint: ${error.hint}` : 'INTERNAL: the memory failed to answer; try again later.';
  return { content: [{ type: 'text', text }], isError: true };
}

/** Runs a tool body and turns a throw into an error result. */
export async function guarded(run: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolError(error);
  }
}

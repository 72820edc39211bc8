import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { MemoryApi } from '@strata/core';
import type { Scope } from '../keys/api-key.js';
import { registerMemoryResources } from './mcp-resources.js';
import { registerMemoryTools } from './mcp-tools.js';

/** What an MCP server works on: one memory, the caller's namespace, and what the caller may do. */
export interface StrataMcpServerOptions {
  /** The memory to serve: a `Memory` from `createMemory()`, or any `MemoryApi`. */
  memory: MemoryApi;
  /** Every tool and resource reads and writes this namespace only; ids of another one answer like unknown ids. */
  namespace: string;
  /**
   * What the caller may do: tools whose scope is missing are not offered at all (read: recall,
   * get_context, list_sessions and the resources; write: remember; forget: forget).
   * @defaultValue ['admin'] (every tool)
   */
  scopes?: readonly Scope[];
  /**
   * Told of each server-side failure of a tool or resource, whose answer to the client shows
   * nothing of it. It must not write to stdout when the server runs on stdio.
   * @defaultValue `console.error`
   */
  onError?: (error: unknown) => void;
}

const INSTRUCTIONS =
  'strata is long-term memory across conversations. Call get_context (or recall) before answering anything that depends on earlier conversations; call remember for what is worth keeping; call forget only when the user asks.';

/**
 * An MCP server over a memory: tools `remember`, `recall`, `get_context`, `forget` and
 * `list_sessions`, and resources `strata://sessions/{id}/transcript` and `strata://facts`.
 * Connect it to any transport: stdio (`strata mcp`), or Streamable HTTP (`handleMcpRequest`,
 * `/mcp` of `createStrataServer`).
 * @example
 * ```ts
 * const server = createStrataMcpServer({ memory, namespace: 'me', scopes: ['read', 'write'] });
 * await server.connect(new StdioServerTransport());
 * ```
 */
export function createStrataMcpServer({ memory, namespace, scopes = ['admin'], onError = console.error }: StrataMcpServerOptions): McpServer {
  const server = new McpServer({ name: 'strata', version: '0.1.0' }, { instructions: INSTRUCTIONS });
  registerMemoryTools(server, { memory, namespace, onError }, scopes);
  registerMemoryResources(server, { memory, namespace, onError }, scopes);
  return server;
}

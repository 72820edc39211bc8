import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { MemoryApi } from '@strata/core';
import type { Scope } from '../keys/api-key.js';
import { registerMemoryResources } from './mcp-resources.js';
import { registerMemoryTools } from './mcp-tools.js';

/** What an MCP server works on: one memory, the caller's namespace, and what the caller may do. */
export interface StrataMcpServerOptions {
  memory: MemoryApi;
  /** Every tool and resource reads and writes this namespace only. */
  namespace: string;
  /** Tools whose scope is missing are not offered. @defaultValue every scope */
  scopes?: readonly Scope[];
}

/**
 * An MCP server over a memory: tools `remember`, `recall`, `get_context`, `forget` and
 * `list_sessions`, and resources for session transcripts and current facts. Connect it to any
 * transport: stdio (`strata mcp`), or Streamable HTTP (`/mcp` of `createStrataServer`).
 * @example
 * const server = createStrataMcpServer({ memory, namespace: 'me' });
 * await server.connect(new StdioServerTransport());
 */
export function createStrataMcpServer({ memory, namespace, scopes = ['admin'] }: StrataMcpServerOptions): McpServer {
  const server = new McpServer(
    { name: 'strata', version: '0.1.0' },
    { instructions: 'strata is long-term memory. Call get_context or recall before answering about anything said earlier; call remember for what is worth keeping.' },
  );
  registerMemoryTools(server, { memory, namespace }, scopes);
  registerMemoryResources(server, { memory, namespace }, scopes);
  return server;
}

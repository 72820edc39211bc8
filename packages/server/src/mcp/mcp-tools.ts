import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { MemoryApi } from '@strata/core';
import type { Scope } from '../keys/api-key.js';
import { registerGetContext, registerListSessions, registerRecall } from './mcp-read-tools.js';
import type { McpErrorListener } from './mcp-tool-result.js';
import { registerForget, registerRemember } from './mcp-write-tools.js';

/** What every tool works on: one memory, one namespace, and where server-side failures are told. */
export interface ToolScope {
  memory: MemoryApi;
  namespace: string;
  onError: McpErrorListener;
}

/** Each tool and the scope it needs; a caller without that scope does not see the tool at all. */
const TOOLS: { scope: Exclude<Scope, 'admin'>; register: (server: McpServer, on: ToolScope) => void }[] = [
  { scope: 'write', register: registerRemember },
  { scope: 'read', register: registerRecall },
  { scope: 'read', register: registerGetContext },
  { scope: 'forget', register: registerForget },
  { scope: 'read', register: registerListSessions },
];

/** Whether `scopes` grant `scope` (admin grants every one). */
export function hasScope(scopes: readonly Scope[], scope: Scope): boolean {
  return scopes.includes('admin') || scopes.includes(scope);
}

/** Registers the tools the scopes allow. */
export function registerMemoryTools(server: McpServer, on: ToolScope, scopes: readonly Scope[]): void {
  for (const tool of TOOLS) if (hasScope(scopes, tool.scope)) tool.register(server, on);
}

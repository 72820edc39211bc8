import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { isMemoryMessage, StrataError, type MemoryApi } from '@strata/core';
import { z } from 'zod';
import type { Scope } from '../keys/api-key.js';
import { guarded, toolResult } from './mcp-tool-result.js';
import { ownSession } from './mcp-session.js';

/** What every tool works on: one memory, one namespace. */
export interface ToolScope {
  memory: MemoryApi;
  namespace: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Tools that need `scope`; a caller without it does not see them at all. */
type ToolSet = { scope: Scope; register: (server: McpServer, on: ToolScope) => void }[];

const TOOLS: ToolSet = [
  {
    scope: 'write',
    register: (server, { memory, namespace }) =>
      server.registerTool(
        'remember',
        {
          title: 'Remember',
          description:
            'Store something worth remembering (a fact about the user, a decision, a preference) in long-term memory. Write it as one plain sentence. Returns the stored message id, which forget takes.',
          inputSchema: {
            text: z.string().min(1).describe('What to remember, as a plain sentence.'),
            sessionId: z.string().optional().describe('A session from list_sessions; default: the MCP session of this memory.'),
            role: z.enum(['user', 'assistant']).optional().describe("Who said it; default 'user'."),
          },
        },
        ({ text, sessionId, role }) =>
          guarded(async () => {
            const session = await ownSession(memory, namespace, sessionId);
            const [stored] = await memory.append(session.id, { role: role ?? 'user', content: text });
            return toolResult(`Remembered (message ${stored?.id} in session ${session.id}).`, { messageId: stored?.id, sessionId: session.id });
          }),
      ),
  },
  {
    scope: 'read',
    register: (server, { memory, namespace }) =>
      server.registerTool(
        'recall',
        {
          title: 'Recall',
          description:
            'Search long-term memory (past turns, summaries and facts) for what matches a query. Use it before answering about anything said earlier. Returns the best matches, newest dates shown.',
          inputSchema: {
            query: z.string().min(1).describe('What to look for, in plain words.'),
            k: z.number().int().min(1).max(50).optional().describe('How many matches; default 8.'),
          },
          annotations: { readOnlyHint: true },
        },
        ({ query, k }) =>
          guarded(async () => {
            const hits = await memory.search({ namespace, query, k: k ?? 8 });
            const lines = hits.map((h, i) => `${i + 1}. [${h.kind}, ${day(h.createdAt)}] ${h.text} (id ${h.id})`);
            const hitsOut = hits.map((h) => ({ id: h.id, kind: h.kind, text: h.text, score: h.score, createdAt: h.createdAt }));
            return toolResult(lines.length ? lines.join('\n') : 'Nothing in memory matches.', { hits: hitsOut });
          }),
      ),
  },
  {
    scope: 'read',
    register: (server, { memory, namespace }) =>
      server.registerTool(
        'get_context',
        {
          title: 'Get context',
          description:
            'Assemble what memory knows that matters for a question, within a token budget: a synopsis, relevant facts and earlier turns. Use it at the start of a task. Returns the memory text and how many items were included.',
          inputSchema: {
            query: z.string().min(1).describe('The question or task at hand.'),
            budgetTokens: z.number().int().min(50).max(32_000).optional().describe('Token budget; default 1000.'),
            sessionId: z.string().optional().describe('A session from list_sessions; default: the MCP session.'),
          },
          annotations: { readOnlyHint: true },
        },
        ({ query, budgetTokens, sessionId }) =>
          guarded(async () => {
            const session = await ownSession(memory, namespace, sessionId);
            const context = await memory.getContext(session.id, { query, budgetTokens: budgetTokens ?? 1000 });
            const memoryText = context.messages
              .filter(isMemoryMessage)
              .map((m) => m.content)
              .join('\n');
            const included = context.manifest.filter((m) => m.included);
            const text = `${memoryText || 'Memory holds nothing for this yet.'}\n\n(${included.length} of ${context.manifest.length} candidates included)`;
            return toolResult(text, { memory: memoryText, included: included.map((m) => ({ id: m.id, kind: m.kind, tier: m.tier, reason: m.reason })) });
          }),
      ),
  },
  {
    scope: 'forget',
    register: (server, { memory, namespace }) =>
      server.registerTool(
        'forget',
        {
          title: 'Forget',
          description:
            'Delete messages or facts from memory for good, with everything derived from them. Use it when the user asks to forget something; get the ids from recall or remember. Returns what was deleted.',
          inputSchema: {
            messageIds: z.array(z.string()).min(1).optional().describe('Ids of messages to forget.'),
            factIds: z.array(z.string()).min(1).optional().describe('Ids of facts to forget.'),
          },
          annotations: { destructiveHint: true },
        },
        ({ messageIds, factIds }) =>
          guarded(async () => {
            const target = messageIds && !factIds ? { messageIds, namespace } : factIds && !messageIds ? { factIds, namespace } : undefined;
            if (!target) {
              throw new StrataError('INVALID_INPUT', 'pass exactly one of messageIds and factIds', { hint: 'Forget messages and facts in two calls.' });
            }
            const report = await memory.forget(target);
            return toolResult(`Forgot ${report.messages} messages and ${report.facts} facts.`, { ...report });
          }),
      ),
  },
  {
    scope: 'read',
    register: (server, { memory, namespace }) =>
      server.registerTool(
        'list_sessions',
        {
          title: 'List sessions',
          description: 'List the conversations stored in this memory, most recent first. Returns their ids, titles and last update.',
          inputSchema: { limit: z.number().int().min(1).max(200).optional().describe('How many; default 20.') },
          annotations: { readOnlyHint: true },
        },
        ({ limit }) =>
          guarded(async () => {
            const sessions = await memory.sessions.list({ namespace, limit: limit ?? 20 });
            const lines = sessions.map((s) => `${s.id}  ${s.title ?? '(untitled)'}  updated ${new Date(s.updatedAt).toISOString()}  ${s.lastSeq} turns`);
            return toolResult(lines.length ? lines.join('\n') : 'No sessions yet.', {
              sessions: sessions.map((s) => ({ id: s.id, title: s.title ?? null, updatedAt: s.updatedAt, turns: s.lastSeq })),
            });
          }),
      ),
  },
];

/** Registers the tools the scopes allow (admin allows every one). */
export function registerMemoryTools(server: McpServer, on: ToolScope, scopes: readonly Scope[]): void {
  const has = (scope: Scope) => scopes.includes('admin') || scopes.includes(scope);
  for (const tool of TOOLS) if (has(tool.scope)) tool.register(server, on);
}

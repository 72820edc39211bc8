import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type ContextResult, isMemoryMessage } from '@strata/core';
import { z } from 'zod';
import { ownSession } from './mcp-session.js';
import { guardedTool, toolResult } from './mcp-tool-result.js';
import type { ToolScope } from './mcp-tools.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** `recall`: search over the namespace's turns, summaries and facts. */
export function registerRecall(server: McpServer, { memory, namespace, onError }: ToolScope): void {
  server.registerTool(
    'recall',
    {
      title: 'Recall',
      description:
        'Search long-term memory (earlier conversation turns, their summaries, and facts) for what matches a query. Use it before answering anything that depends on what was said or remembered earlier. Returns the best matches, one a line: kind, date, text and id.',
      inputSchema: {
        query: z.string().min(1).describe('What to look for, in plain words.'),
        k: z.number().int().min(1).max(50).optional().describe('How many matches to return, 1 to 50; default 8.'),
      },
      outputSchema: {
        hits: z.array(z.object({ id: z.string(), kind: z.enum(['turn', 'summary', 'fact']), text: z.string(), score: z.number(), createdAt: z.number(), sessionId: z.string().nullable() })),
      },
      annotations: READ_ONLY,
    },
    ({ query, k }) =>
      guardedTool(async () => {
        const hits = await memory.search({ namespace, query, k: k ?? 8 });
        const lines = hits.map((h, i) => `${i + 1}. [${h.kind}, ${day(h.createdAt)}] ${h.text} (id ${h.id})`);
        const structured = hits.map(({ id, kind, text, score, createdAt, sessionId }) => ({ id, kind, text, score, createdAt, sessionId }));
        return toolResult(lines.length ? lines.join('\n') : 'Nothing in memory matches.', { hits: structured });
      }, onError),
  );
}

/** `get_context`: the memory message of a context, the session's recent turns, and what was kept or cut. */
export function registerGetContext(server: McpServer, { memory, namespace, onError }: ToolScope): void {
  server.registerTool(
    'get_context',
    {
      title: 'Get context',
      description:
        'Assemble what memory knows that matters for a question or task, within a token budget: a synopsis of the conversation, relevant facts, recalled earlier turns and the most recent turns. Use it at the start of a task or when the user refers to the past. Returns that memory as text and a summary of what was included.',
      inputSchema: {
        query: z.string().min(1).describe('The question or task at hand.'),
        budgetTokens: z.number().int().min(50).max(32_000).optional().describe('How many tokens the context may take; default 1000.'),
        sessionId: z.string().min(1).optional().describe('The conversation to assemble it for (an id from list_sessions); default: the MCP session.'),
      },
      outputSchema: {
        sessionId: z.string(),
        memory: z.string(),
        recentTurns: z.array(z.object({ id: z.string(), role: z.string(), content: z.string(), createdAt: z.number() })),
        tokens: z.number(),
        budgetTokens: z.number(),
        included: z.array(z.object({ id: z.string(), kind: z.string(), tier: z.string(), reason: z.string() })),
        cut: z.number().int(),
      },
      annotations: { ...READ_ONLY, idempotentHint: false },
    },
    ({ query, budgetTokens, sessionId }) =>
      guardedTool(async () => {
        const session = await ownSession(memory, namespace, sessionId);
        const context = await memory.getContext(session.id, { query, budgetTokens: budgetTokens ?? 1000 });
        return contextResult(session.id, context);
      }, onError),
  );
}

function contextResult(sessionId: string, context: ContextResult) {
  const memoryText = context.messages
    .filter(isMemoryMessage)
    .map((m) => m.content)
    .join('\n');
  const recentTurns = context.messages.flatMap((m) => (isMemoryMessage(m) ? [] : [{ id: m.id, role: m.role, content: m.content, createdAt: m.createdAt }]));
  const included = context.manifest.filter((m) => m.included);
  const counts = new Map<string, number>();
  for (const { kind } of included) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const byKind = [...counts].map(([kind, n]) => `${n} ${kind}${n === 1 ? '' : 's'}`);
  const cut = context.manifest.length - included.length;
  const text = [
    memoryText || 'No summaries, facts or earlier turns match this yet.',
    ...(recentTurns.length ? ['', 'Most recent turns:', ...recentTurns.map((t) => `- [${t.role}, ${day(t.createdAt)}] ${t.content}`)] : []),
    '',
    `(included ${byKind.join(', ') || 'nothing'}; cut ${cut} for the budget; ${context.tokens} of ${context.budgetTokens} tokens)`,
  ].join('\n');
  return toolResult(text, {
    sessionId,
    memory: memoryText,
    recentTurns,
    tokens: context.tokens,
    budgetTokens: context.budgetTokens,
    included: included.map(({ id, kind, tier, reason }) => ({ id, kind, tier, reason })),
    cut,
  });
}

/** `list_sessions`: the namespace's conversations, newest first. */
export function registerListSessions(server: McpServer, { memory, namespace, onError }: ToolScope): void {
  server.registerTool(
    'list_sessions',
    {
      title: 'List sessions',
      description:
        'List the conversations stored in this memory, most recently updated first. Use it to find a sessionId for remember or get_context. Returns each session id, title, number of turns and last update.',
      inputSchema: { limit: z.number().int().min(1).max(200).optional().describe('How many sessions, 1 to 200; default 20.') },
      outputSchema: { sessions: z.array(z.object({ id: z.string(), title: z.string().nullable(), turns: z.number(), updatedAt: z.number() })) },
      annotations: READ_ONLY,
    },
    ({ limit }) =>
      guardedTool(async () => {
        const sessions = await memory.sessions.list({ namespace, limit: limit ?? 20 });
        const lines = sessions.map((s) => `${s.id}  ${s.title ?? '(untitled)'}  ${s.lastSeq} turns  updated ${new Date(s.updatedAt).toISOString()}`);
        return toolResult(lines.length ? lines.join('\n') : 'No sessions yet.', {
          sessions: sessions.map((s) => ({ id: s.id, title: s.title ?? null, turns: s.lastSeq, updatedAt: s.updatedAt })),
        });
      }, onError),
  );
}

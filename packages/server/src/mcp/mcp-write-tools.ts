import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StrataError } from '@strata/core';
import { z } from 'zod';
import { ownSession } from './mcp-session.js';
import { guardedTool, toolResult } from './mcp-tool-result.js';
import type { ToolScope } from './mcp-tools.js';

/** `remember`: appends one turn to the named session of the namespace, or to its MCP session. */
export function registerRemember(server: McpServer, { memory, namespace, onError }: ToolScope): void {
  server.registerTool(
    'remember',
    {
      title: 'Remember',
      description:
        'Store something worth keeping in long-term memory: a fact about the user, a preference, a decision, an outcome. Write it as one plain, self-contained sentence. Use it when the user shares something to keep or asks you to remember it. Returns the stored message id (forget takes it) and the session id.',
      inputSchema: {
        text: z.string().min(1).describe('What to remember, as a plain sentence.'),
        sessionId: z.string().min(1).optional().describe('The conversation to add it to (an id from list_sessions); default: the MCP session of this memory.'),
        role: z.enum(['user', 'assistant']).optional().describe("Who said it; default 'user'."),
      },
      outputSchema: { messageId: z.string(), sessionId: z.string(), seq: z.number().int() },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    ({ text, sessionId, role }) =>
      guardedTool(async () => {
        const session = await ownSession(memory, namespace, sessionId);
        const [stored] = await memory.append(session.id, { role: role ?? 'user', content: text });
        if (!stored) throw new StrataError('INTERNAL', `append to session ${session.id} stored nothing`, { hint: 'Retry the call.' });
        return toolResult(`Remembered (message ${stored.id} in session ${session.id}).`, { messageId: stored.id, sessionId: session.id, seq: stored.seq });
      }, onError),
  );
}

/** `forget`: deletes messages or facts of the namespace, and what was derived from them. */
export function registerForget(server: McpServer, { memory, namespace, onError }: ToolScope): void {
  server.registerTool(
    'forget',
    {
      title: 'Forget',
      description:
        'Delete messages or facts from memory for good, with everything derived from them. Use it only when the user asks to forget something; take the ids from recall (or the message id that remember returned). Pass messageIds or factIds, not both. Returns how many messages, facts and summaries were deleted.',
      inputSchema: {
        messageIds: z.array(z.string().min(1)).min(1).max(1000).optional().describe('Ids of messages to forget (kind turn in recall).'),
        factIds: z.array(z.string().min(1)).min(1).max(1000).optional().describe('Ids of facts to forget (kind fact in recall).'),
      },
      outputSchema: { messages: z.number(), facts: z.number(), summaries: z.number(), sessions: z.number() },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    ({ messageIds, factIds }) =>
      guardedTool(async () => {
        if ((messageIds === undefined) === (factIds === undefined)) {
          throw new StrataError('INVALID_INPUT', 'pass exactly one of messageIds and factIds', { hint: 'Forget messages and facts in two calls.' });
        }
        // with the namespace, an id of another namespace is NOT_FOUND like an unknown one, and nothing is forgotten
        const report = await memory.forget(messageIds ? { messageIds, namespace } : { factIds: factIds ?? [], namespace });
        const { messages, facts, summaries, sessions } = report;
        return toolResult(`Forgot ${messages} message(s), ${facts} fact(s) and ${summaries} summary(ies).`, { messages, facts, summaries, sessions });
      }, onError),
  );
}

import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Scope } from '../keys/api-key.js';
import { ownSession } from './mcp-session.js';
import type { ToolScope } from './mcp-tools.js';

/**
 * Resources a client can attach: each session's transcript (markdown) and the namespace's current
 * facts. Both need the read scope. A session of another namespace reads as not found.
 */
export function registerMemoryResources(server: McpServer, { memory, namespace }: ToolScope, scopes: readonly Scope[]): void {
  if (!scopes.includes('read') && !scopes.includes('admin')) return;
  const transcripts = new ResourceTemplate('strata://sessions/{sessionId}/transcript', {
    list: async () => ({
      resources: (await memory.sessions.list({ namespace, limit: 200 })).map((s) => ({
        uri: `strata://sessions/${encodeURIComponent(s.id)}/transcript`,
        name: s.title ?? s.id,
        mimeType: 'text/markdown',
      })),
    }),
  });
  server.registerResource(
    'transcript',
    transcripts,
    { title: 'Session transcript', description: 'A stored conversation, verbatim, as markdown.', mimeType: 'text/markdown' },
    async (uri, { sessionId }) => {
      const id = decodeURIComponent(String(sessionId));
      const session = await ownSession(memory, namespace, id);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await memory.export(session.id, { format: 'markdown' }) }] };
    },
  );
  server.registerResource(
    'facts',
    'strata://facts',
    { title: 'Current facts', description: 'What memory currently holds true about this namespace, one fact a line.', mimeType: 'text/plain' },
    async (uri) => {
      const facts = await memory.facts.list({ namespace });
      const text = facts.map((f) => `- ${f.text} (since ${new Date(f.validFrom).toISOString().slice(0, 10)}; id ${f.id})`).join('\n');
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: text || 'No facts yet.' }] };
    },
  );
}

import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Scope } from '../keys/api-key.js';
import { ownSession } from './mcp-session.js';
import { guardedRead } from './mcp-tool-result.js';
import { hasScope, type ToolScope } from './mcp-tools.js';

/** How many sessions the transcript listing shows, most recently updated first. */
const LISTED_SESSIONS = 200;

/**
 * Resources a client can attach: each session's transcript (markdown) and the namespace's current
 * facts. Both need the read scope. A session of another namespace reads as not found.
 */
export function registerMemoryResources(server: McpServer, { memory, namespace, onError }: ToolScope, scopes: readonly Scope[]): void {
  if (!hasScope(scopes, 'read')) return;
  const transcripts = new ResourceTemplate('strata://sessions/{id}/transcript', {
    list: () =>
      guardedRead(async () => {
        const sessions = await memory.sessions.list({ namespace, limit: LISTED_SESSIONS });
        const resources = sessions.map((s) => ({ uri: transcriptUri(s.id), name: s.title ?? s.id, title: `Transcript of ${s.title ?? s.id}`, mimeType: 'text/markdown' }));
        return { resources };
      }, onError),
  });
  server.registerResource(
    'transcript',
    transcripts,
    { title: 'Session transcript', description: 'A stored conversation of this memory, verbatim, as markdown.', mimeType: 'text/markdown' },
    (uri, { id }) =>
      guardedRead(async () => {
        const session = await ownSession(memory, namespace, sessionIdOf(String(id)));
        return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text: await memory.export(session.id, { format: 'markdown' }) }] };
      }, onError),
  );
  server.registerResource(
    'facts',
    'strata://facts',
    { title: 'Current facts', description: 'What this memory currently holds true, one fact a line, with the date it holds from and its id.', mimeType: 'text/plain' },
    (uri) =>
      guardedRead(async () => {
        const facts = await memory.facts.list({ namespace });
        const text = facts.map((f) => `- ${f.text} (since ${new Date(f.validFrom).toISOString().slice(0, 10)}; id ${f.id})`).join('\n');
        return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: text || 'No facts yet.' }] };
      }, onError),
  );
}

/** The transcript resource of a session; the id is encoded, so any session id makes one URI segment. */
function transcriptUri(sessionId: string): string {
  return `strata://sessions/${encodeURIComponent(sessionId)}/transcript`;
}

/** The session id of a URI segment; a malformed escape is kept as typed, so it reads as an unknown session. */
function sessionIdOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch (error) {
    if (error instanceof URIError) return segment;
    throw error;
  }
}

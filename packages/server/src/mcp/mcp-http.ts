import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createStrataMcpServer, type StrataMcpServerOptions } from './create-strata-mcp-server.js';

/**
 * A stateless server keeps no stream open between requests, so it has no server-to-client
 * stream (GET) and no session to end (DELETE): both answer 405, which Streamable HTTP clients
 * take as "POST only" instead of reconnecting to a stream that closes at once.
 */
function postOnly(): Response {
  const body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless, send JSON-RPC messages with POST.' }, id: null };
  return new Response(JSON.stringify(body), { status: 405, headers: { allow: 'POST', 'content-type': 'application/json' } });
}

/**
 * Answers one MCP request over Streamable HTTP, statelessly: a server and a transport for this
 * request only, so that any process behind a load balancer can answer any request. Answers
 * JSON (not SSE). Authentication is the caller's: pass the namespace and scopes of its key.
 * @example
 * ```ts
 * app.post('/mcp', (c) => handleMcpRequest(c.req.raw, { memory, namespace: 'me', scopes: ['read'] }));
 * ```
 */
export async function handleMcpRequest(request: Request, options: StrataMcpServerOptions): Promise<Response> {
  if (request.method !== 'POST') return postOnly();
  const server = createStrataMcpServer(options);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

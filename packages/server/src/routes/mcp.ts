import type { RouteDeps } from './route-deps.js';

/**
 * ALL /mcp: MCP Streamable HTTP (stateless), for the caller's key: its namespace and scopes
 * (in open mode, `?namespace=` or `default`, every scope). The MCP SDK loads on the first
 * request, so that a server nobody calls over MCP does not pay for it. A tool's failure inside
 * the server goes to `onError`, as a route's does.
 */
export function addMcpRoute({ app, memory }: RouteDeps, onError: (error: unknown, request: Request) => void): void {
  app.openAPIRegistry.registerPath({
    method: 'post',
    path: '/mcp',
    tags: ['mcp'],
    summary: 'MCP Streamable HTTP, stateless (any valid key; tools check scopes)',
    security: [{ bearer: [] }],
    request: { body: { content: { 'application/json': { schema: { type: 'object', description: 'A JSON-RPC 2.0 message of the Model Context Protocol.' } } } } },
    responses: { 200: { description: 'A JSON-RPC answer (application/json or text/event-stream)' } },
  });
  app.all('/mcp', async (c) => {
    const { caller } = c.var;
    const namespace = caller.open ? (c.req.query('namespace') ?? 'default') : caller.namespace;
    const { handleMcpRequest } = await import('../mcp/mcp-http.js');
    const request = c.req.raw;
    // a tool's server-side failure reaches the model as a generic error, and the operator through the server's onError
    return handleMcpRequest(request, { memory, namespace, scopes: [...caller.scopes], onError: (error) => onError(error, request) });
  });
}

import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createStrataMcpServer, type StrataMcpServerOptions } from './create-strata-mcp-server.js';

/**
 * One MCP request over Streamable HTTP, stateless: a server and transport for this request only,
 * so any `strata serve` process behind a load balancer can answer it. Answers JSON, not SSE.
 */
export async function handleMcpRequest(request: Request, options: StrataMcpServerOptions): Promise<Response> {
  const server = createStrataMcpServer(options);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}

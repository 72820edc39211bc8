import type { Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import { note } from '../format/output.js';
import { configOf } from '../run-command.js';
import { keysFileOf } from './serve.js';

interface McpOptions {
  key?: string;
  keys?: string;
}

/**
 * `strata mcp`: an MCP server on stdin/stdout over the configured memory, for desktop
 * assistants and coding agents that start their MCP servers as processes. stdout carries
 * JSON-RPC only; everything for people goes to stderr.
 */
export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('serve the memory to an MCP client over stdio (tools remember, recall, get_context, forget, list_sessions; session transcripts and facts as resources)')
    .option('--key <secret>', "an API key (env STRATA_API_KEY): the namespace and scopes are the key's")
    .option('--keys <file>', 'the API keys file the key is checked against (default DATA_DIR/keys.json)')
    .addHelpText('after', '\nWithout a key: the namespace of --namespace (env STRATA_NAMESPACE, default "default"), every scope.')
    .action(async (options: McpOptions, command: Command) => runMcp(options, command));
}

async function runMcp(options: McpOptions, command: Command): Promise<void> {
  const { config } = await configOf(command);
  const { createFileKeyStore, createStrataMcpServer } = await import('@strata/server');
  const secret = options.key ?? process.env.STRATA_API_KEY;
  let scope: { namespace: string; scopes: ('read' | 'write' | 'forget' | 'admin')[] } = { namespace: config.namespace, scopes: ['admin'] };
  if (secret) {
    const key = await (await createFileKeyStore({ path: keysFileOf(config.dataDir, options.keys) })).verify(secret);
    if (!key)
      throw new StrataError('UNAUTHORIZED', 'the API key is unknown or revoked', {
        hint: 'Create one with strata keys create --namespace NS --scope read,write, and pass it with --key or STRATA_API_KEY.',
      });
    if (key.match === 'prefix') {
      throw new StrataError('CONFIG_INVALID', `key ${key.id} reaches every namespace starting with "${key.namespace}"; an MCP server works on one`, {
        hint: 'Use a key bound to one namespace (strata keys create --namespace NS without --prefix).',
      });
    }
    scope = { namespace: key.namespace, scopes: key.scopes };
  }
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { wireMemory } = await import('../wiring.js');
  const wiring = await wireMemory(config);
  const server = createStrataMcpServer({ memory: wiring.memory, ...scope });
  const closed = new Promise<void>((done) => {
    server.server.onclose = () => done();
  });
  await server.connect(new StdioServerTransport());
  note(`strata mcp: serving namespace "${scope.namespace}" (${scope.scopes.join(', ')}) on stdio, ${wiring.storage}`);
  // the client ends the session by closing stdin
  process.stdin.once('end', () => void server.close());
  await closed;
  await wiring.memory.close();
}

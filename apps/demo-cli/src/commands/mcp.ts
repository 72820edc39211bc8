import type { Command } from 'commander';
import type { MemoryApi } from '@strata/core';
import { StrataError } from '@strata/core/errors';
import type { ApiKey, Scope } from '@strata/server';
import type { ConfigSource, LoadedConfig } from '../config.js';
import { note } from '../format/output.js';
import { configOf } from '../run-command.js';
import { keysFileOf } from './serve.js';

interface McpOptions {
  key?: string;
  keys?: string;
}

/** Whom the server acts for: a namespace and what may be done in it. */
interface McpCaller {
  namespace: string;
  scopes: Scope[];
  /** How the caller was chosen, for the start-up note. */
  by: string;
  /** With a key: throws UNAUTHORIZED once the key is revoked or gone from its keys file. */
  check?: () => Promise<void>;
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
    .option('--key <secret>', "an API key (or env STRATA_API_KEY, which other processes cannot see): the namespace and scopes are the key's")
    .option('--keys <file>', 'the API keys file the key is checked against (default DATA_DIR/keys.json)')
    .addHelpText(
      'after',
      '\nWithout a key: the namespace of --namespace (env STRATA_NAMESPACE, default "default"), every tool.\nWith a --prefix key: --namespace NS picks a namespace within its reach.\nAn MCP client starts it, e.g. { "command": "strata", "args": ["mcp", "--namespace", "me"] }.',
    )
    .action(async (options: McpOptions, command: Command) => runMcp(options, command));
}

async function runMcp(options: McpOptions, command: Command): Promise<void> {
  // a library that logs with console.log would corrupt the JSON-RPC stream on stdout
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  const loaded = await configOf(command);
  const caller = await callerOf(loaded, options);
  const { createStrataMcpServer } = await import('@strata/server');
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const { wireMemory } = await import('../wiring.js');
  const wiring = await wireMemory(loaded.config);
  const onError = (error: unknown) => note(`strata mcp: a call failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  const memory = caller.check === undefined ? wiring.memory : checkedEachCall(wiring.memory, caller.check);
  const server = createStrataMcpServer({ memory, namespace: caller.namespace, scopes: caller.scopes, onError });
  const closed = new Promise<void>((done) => {
    server.server.onclose = () => done();
  });
  await server.connect(new StdioServerTransport());
  note(`strata mcp: serving namespace "${caller.namespace}" (${caller.scopes.join(', ')}; ${caller.by}) on stdio, ${wiring.storage}`);
  stopOnEndOrSignal(() => server.close());
  await closed;
  // hands back or settles the derivation in flight, so that nothing the client sent is lost
  await wiring.memory.close();
}

/** The client ends the session by closing stdin, or stops the process with a signal; a second signal exits at once with 130. */
function stopOnEndOrSignal(close: () => Promise<void>): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void close();
  };
  process.stdin.once('end', stop);
  const onSignal = () => (stopping ? process.exit(130) : stop());
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

/** Without a key: the configured namespace and every scope. With one: the key's, checked against the keys file. */
async function callerOf({ config, sources }: LoadedConfig, options: McpOptions): Promise<McpCaller> {
  const secret = options.key ?? process.env.STRATA_API_KEY;
  if (!secret) return { namespace: config.namespace, scopes: ['admin'], by: 'no key' };
  const path = keysFileOf(config.dataDir, options.keys);
  const { createFileKeyStore } = await import('@strata/server');
  const keys = await createFileKeyStore({ path });
  const key = await keys.verify(secret);
  if (!key) {
    throw new StrataError('UNAUTHORIZED', `the API key is unknown or revoked in ${path}`, {
      hint: 'Create one with strata keys create --namespace NS --scope read,write, and pass it with STRATA_API_KEY or --key (and --keys FILE when it is in another keys file).',
    });
  }
  const check = async (): Promise<void> => {
    if (await keys.verify(secret)) return;
    throw new StrataError('UNAUTHORIZED', `API key ${key.id} was revoked (or removed from ${path}) while strata mcp ran`, {
      hint: 'Start strata mcp again with a valid key (strata keys create --namespace NS --scope read,write).',
    });
  };
  return { namespace: namespaceOf(key, config.namespace, sources.namespace), scopes: key.scopes, by: `key ${key.id}`, check };
}

/**
 * The memory with `check` before each call, so that a key revoked while `strata mcp` runs is
 * refused from its next tool call or resource read, as `strata serve` refuses it at the next
 * request. The check is a stat of the keys file (re-read only when it changed) and a hash.
 */
function checkedEachCall(memory: MemoryApi, check: () => Promise<void>): MemoryApi {
  const checked =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      await check();
      return call(...args);
    };
  return {
    sessions: {
      create: checked((input) => memory.sessions.create(input)),
      get: checked((id) => memory.sessions.get(id)),
      list: checked((filter) => memory.sessions.list(filter)),
      rename: checked((id, title) => memory.sessions.rename(id, title)),
      delete: checked((id) => memory.sessions.delete(id)),
    },
    facts: { list: checked((filter) => memory.facts.list(filter)) },
    append: checked((sessionId, message) => memory.append(sessionId, message)),
    messages: checked((sessionId, options) => memory.messages(sessionId, options)),
    getContext: checked((sessionId, options) => memory.getContext(sessionId, options)),
    search: checked((request) => memory.search(request)),
    forget: checked((target) => memory.forget(target)),
    export: checked((sessionId, options) => memory.export(sessionId, options)),
    import: checked((bundle, options) => memory.import(bundle, options)),
    flush: checked((options) => memory.flush(options)),
    pending: checked(() => memory.pending()),
    usage: checked((filter) => memory.usage(filter)),
    stats: () => memory.stats(),
    close: () => memory.close(),
  };
}

/**
 * The namespace a key serves: an exact key's own (a --namespace flag naming another is refused
 * rather than ignored); for a prefix key, the configured namespace, which must be within reach.
 */
function namespaceOf(key: ApiKey, configured: string, source: ConfigSource): string {
  const isChosen = source !== 'default' && source !== 'unset';
  if (key.match === 'exact') {
    if (source !== 'flag' || configured === key.namespace) return key.namespace;
    throw new StrataError('CONFIG_INVALID', `key ${key.id} is for namespace "${key.namespace}", not "${configured}" (--namespace)`, {
      hint: `Leave --namespace out (the key's namespace is used), or use a key for "${configured}".`,
    });
  }
  if (isChosen && configured.startsWith(key.namespace)) return configured;
  throw new StrataError('CONFIG_INVALID', `key ${key.id} reaches every namespace that starts with "${key.namespace}"; ${isChosen ? `"${configured}" does not` : 'an MCP server works on one'}`, {
    hint: `Pick one within its reach: strata mcp --namespace ${key.namespace}<rest>.`,
  });
}

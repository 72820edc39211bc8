import { existsSync } from 'node:fs';
import { isIPv4, isIPv6 } from 'node:net';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { StrataError } from '@strata/core/errors';
import { count, note, print, printJson } from '../format/output.js';
import { configOf } from '../run-command.js';
import { port } from './ui.js';

interface ServeOptions {
  host: string;
  port: number;
  keys?: string;
  json?: boolean;
  rateLimit: RateLimitOption;
}

/** `--rate-limit`: requests per second and burst of each key, or off. */
type RateLimitOption = { perSecond: number; burst: number } | false;

const DEFAULT_RATE_LIMIT = { perSecond: 50, burst: 100 };

/** Parses `--rate-limit`: `N` (N per second, burst 2N), `N,B` (burst B) or `off`. */
export function rateLimit(value: string): RateLimitOption {
  if (value.trim().toLowerCase() === 'off') return false;
  const [perSecond, burst, ...rest] = value.split(',').map((part) => Number(part.trim()));
  const valid = rest.length === 0 && Number.isFinite(perSecond) && (perSecond as number) > 0 && (burst === undefined || (Number.isInteger(burst) && burst >= 1));
  if (!valid) throw new InvalidArgumentError('It must be requests per second per key (e.g. 200), with a burst after a comma (200,400), or off.');
  return { perSecond: perSecond as number, burst: burst ?? Math.max(1, Math.ceil(2 * (perSecond as number))) };
}

/** Whether only this machine can reach `host`: 127.0.0.0/8, ::1 (also IPv4-mapped) or localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  if (isIPv4(bare)) return bare.startsWith('127.');
  if (!isIPv6(bare) || bare.includes('%')) return false;
  // the URL parser writes every spelling of an IPv6 address the same way (::1, 0:0:0:0:0:0:0:1; ::ffff:127.0.0.1 as ::ffff:7f00:1)
  const written = new URL(`http://[${bare}]`).hostname;
  return written === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(written);
}

/** The keys file: --keys FILE, else keys.json in the data dir. */
export function keysFileOf(dataDir: string, given: string | undefined): string {
  return given === undefined ? join(dataDir, 'keys.json') : resolve(given);
}

/**
 * `strata serve`: the HTTP API (and MCP at /mcp) over the configured memory. With keys in the
 * keys file every request needs one; without any, the API is open, which only loopback allows.
 */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the memory over HTTP: the /v1 API (OpenAPI at /openapi.json), MCP at /mcp, /healthz, /readyz, /metrics. SIGTERM / Ctrl-C finish requests in flight, then exit')
    .option('--host <host>', 'interface to listen on; any but loopback needs an API key in the keys file', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0: a free one)', port, 8787)
    .option('--keys <file>', 'the API keys file (default DATA_DIR/keys.json; `strata keys create` adds keys)')
    .option('--json', 'print the listening line as JSON: { url, storage, keys } (keys: active keys, null in open mode)')
    .option('--rate-limit <n[,burst]>', 'requests per second each key may send (burst: how many at once; default twice n), or off; beyond it: 429 with Retry-After', rateLimit, DEFAULT_RATE_LIMIT)
    .addHelpText(
      'after',
      '\nWithout a key in the keys file the API is open (every namespace, every scope), on loopback only.\nKeys revoked with `strata keys revoke` are refused from the next request; keys created while it runs count from its next start.',
    )
    .action(async (options: ServeOptions, command: Command) => serve(options, command));
}

async function serve(options: ServeOptions, command: Command): Promise<void> {
  const { config } = await configOf(command);
  const path = keysFileOf(config.dataDir, options.keys);
  if (options.keys !== undefined && !existsSync(path)) {
    throw new StrataError('CONFIG_INVALID', `no keys file at ${path} (--keys)`, {
      hint: `Create a key into it first: strata keys create --keys ${path} --namespace NS --scope read,write (or leave --keys out for DATA_DIR/keys.json).`,
    });
  }
  const { createFileKeyStore, createStrataServer, startStrataServer } = await import('@strata/server');
  const keys = await createFileKeyStore({ path });
  const listed = await keys.list();
  const active = listed.filter((key) => key.revokedAt === undefined).length;
  if (active === 0 && !isLoopbackHost(options.host)) {
    throw new StrataError('CONFIG_INVALID', `strata serve refuses to listen on ${options.host} without an API key: anyone who reaches it could read and forget every namespace`, {
      hint: `Create a key first: strata keys create --namespace NS --scope read,write${options.keys === undefined ? '' : ` --keys ${path}`} (then send it as Authorization: Bearer <secret>), or serve on --host 127.0.0.1.`,
    });
  }
  const { wireMemory } = await import('../wiring.js');
  const wiring = await wireMemory(config);
  // a file that holds keys, even revoked ones only, keeps the API closed: revoking the last key must not open it
  const app = createStrataServer({ memory: wiring.memory, ...(listed.length > 0 ? { auth: { keys } } : {}), limits: { rateLimit: options.rateLimit } });
  const server = await startStrataServer({ app, host: options.host, port: options.port, onClose: () => wiring.memory.close() }).catch(async (error: unknown) => {
    await wiring.memory.close();
    throw listenError(options, error);
  });
  if (options.json) printJson({ url: server.url, storage: wiring.storage, keys: listed.length > 0 ? active : null });
  else print(`strata serve: listening on ${server.url} (${wiring.storage}, ${listed.length > 0 ? `keys: ${count(active, 'key')}` : 'open: loopback only'})`);
  await untilSignalled(() => server.close());
  note('strata serve: stopped');
}

/**
 * Resolves once `close` has finished after SIGTERM or SIGINT (stop accepting, finish requests
 * in flight, close the memory). A second signal exits at once with 130, as a shell reports Ctrl-C.
 */
function untilSignalled(close: () => Promise<void>): Promise<void> {
  return new Promise((done, fail) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) process.exit(130);
      stopping = true;
      // close() stops accepting before it returns: whoever reads the note finds the port closed
      const closed = close();
      note(`strata serve: ${signal}: finishing requests in flight (a second signal exits at once)`);
      closed.then(done, fail);
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

function listenError(options: ServeOptions, error: unknown): StrataError {
  const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
  return new StrataError('BACKEND_UNAVAILABLE', `cannot listen on ${options.host}:${options.port} (${code})`, {
    hint: code === 'EADDRINUSE' ? 'Pass another --port, or 0 for a free one.' : 'Check --host: an address of this machine, e.g. 127.0.0.1.',
    cause: error,
  });
}

import { mkdirSync } from 'node:fs';
import type { Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import type { ApiKey, FileKeyStore, Scope } from '@strata/server';
import { pc } from '../format/colors.js';
import { formatTime, note, print, printJson } from '../format/output.js';
import { renderTable } from '../format/table.js';
import { configOf } from '../run-command.js';
import { keysFileOf } from './serve.js';

const SCOPES: Scope[] = ['read', 'write', 'forget', 'admin'];

interface CreateOptions {
  prefix?: boolean;
  scope: string;
  name?: string;
  json?: boolean;
}

/** `strata keys create | list | revoke`: the API keys `strata serve` accepts, in DATA_DIR/keys.json (or --keys FILE). */
export function registerKeysCommands(program: Command): void {
  const keys = program
    .command('keys')
    .description('create, list (the default) or revoke the API keys strata serve accepts; secrets are stored as hashes and shown once')
    .option('--keys <file>', 'the API keys file (default DATA_DIR/keys.json)');
  registerCreate(keys);
  registerList(keys);
  registerRevoke(keys);
}

function registerCreate(keys: Command): void {
  keys
    .command('create')
    .description('create a key for a namespace (-n/--namespace NS, required) and print its secret, once')
    .option('--prefix', 'reach every namespace that starts with NS, not only NS itself')
    .requiredOption('--scope <list>', `what the key may do, comma-separated: ${SCOPES.join(', ')} (admin: all of them and /metrics)`)
    .option('--name <label>', 'a label for people: who holds the key, what for')
    .option('--json', 'print JSON: { key, secret }')
    .action(async (options: CreateOptions, command: Command) => {
      // the global -n/--namespace, as given on the command line: a key is never bound to a default or an env value by accident
      const namespace = command.optsWithGlobals<{ namespace?: string }>().namespace;
      if (namespace === undefined) {
        throw new StrataError('INVALID_INPUT', 'strata keys create needs the namespace the key is for', {
          hint: 'Pass --namespace NS (a key is bound to it; with --prefix to every namespace starting with it), e.g. strata keys create --namespace acme --scope read,write.',
        });
      }
      const store = await openKeys(command, true);
      const { key, secret } = await store.create({
        namespace,
        match: options.prefix ? 'prefix' : 'exact',
        scopes: parseScopes(options.scope),
        ...(options.name === undefined ? {} : { name: options.name }),
      });
      if (options.json) return printJson({ key, secret });
      print(secret);
      note(`created key ${pc.bold(key.id)} for ${describeReach(key)} with scopes ${key.scopes.join(', ')} in ${store.path}`);
      note(pc.yellow('This is the only time the secret is shown: it is stored as a hash and will not be shown again. Send it as Authorization: Bearer <secret>.'));
    });
}

function registerList(keys: Command): void {
  keys
    .command('list', { isDefault: true })
    .description('list the keys: id, namespace, match, scopes, name, created, revoked (never secrets)')
    .option('--json', 'print JSON: { keys }')
    .action(async (options: { json?: boolean }, command: Command) => {
      const store = await openKeys(command, false);
      const listed = await store.list();
      if (options.json) return printJson({ keys: listed });
      if (!listed.length) return print(`No keys in ${store.path}. Create one with ${pc.bold('strata keys create --namespace NS --scope read,write')}.`);
      print(
        await renderTable(
          ['id', 'namespace', 'match', 'scopes', 'name', 'created', 'revoked'],
          listed.map((k) => [k.id, k.namespace, k.match, k.scopes.join(','), k.name ?? '', formatTime(k.createdAt), k.revokedAt === undefined ? '' : formatTime(k.revokedAt)]),
        ),
      );
    });
}

function registerRevoke(keys: Command): void {
  keys
    .command('revoke <id>')
    .description('revoke a key for good: a running strata serve refuses it from its next request')
    .option('--json', 'print JSON: the revoked key')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      const store = await openKeys(command, false);
      const key = await store.revoke(id);
      if (options.json) return printJson(key);
      print(`revoked key ${key.id} (${describeReach(key)}) at ${formatTime(key.revokedAt ?? Date.now())}`);
    });
}

/** The keys file of the command; the default one's data dir is created (owner only) when a key is to be written. */
async function openKeys(command: Command, isWriting: boolean): Promise<FileKeyStore> {
  const { config } = await configOf(command);
  const given = command.optsWithGlobals<{ keys?: string }>().keys;
  // owner only, as `strata` makes it for the memory: it will hold the keys file
  if (isWriting && given === undefined) mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const { createFileKeyStore } = await import('@strata/server');
  return createFileKeyStore({ path: keysFileOf(config.dataDir, given) });
}

/** `read,write` as scopes, with a hint a CLI user can follow (the store's speaks of its API). */
function parseScopes(list: string): Scope[] {
  const given = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = given.filter((s) => !SCOPES.includes(s as Scope));
  if (given.length === 0 || unknown.length > 0) {
    throw new StrataError('INVALID_INPUT', `--scope ${JSON.stringify(list)} ${unknown.length ? `names unknown scopes: ${unknown.join(', ')}` : 'names no scope'}`, {
      hint: `Pass a comma-separated list of ${SCOPES.join(', ')}, e.g. --scope read,write.`,
    });
  }
  return given as Scope[];
}

function describeReach(key: ApiKey): string {
  return key.match === 'prefix' ? `every namespace starting with ${JSON.stringify(key.namespace)}` : `namespace ${JSON.stringify(key.namespace)}`;
}

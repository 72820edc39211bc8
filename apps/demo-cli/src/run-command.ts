import { InvalidArgumentError, type Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import type { Memory, Session, SessionStore } from '@strata/core';
import type { GlobalFlags, LoadedConfig } from './config.js';
import type { Wiring } from './wiring.js';

/** The effective config for a command (flags of the program and the command merged); its schemas load here, not for `--help`. */
export async function configOf(command: Command): Promise<LoadedConfig> {
  const { loadConfig } = await import('./config.js');
  return loadConfig(command.optsWithGlobals<GlobalFlags>());
}

export interface CommandContext extends LoadedConfig {
  /** False when the namespace is only the default: listing commands then show every namespace. */
  isNamespaceChosen: boolean;
}

export interface MemoryContext extends CommandContext {
  wiring: Wiring;
}

/** The config, opened as `open` says, passed to `run`, and closed whatever `run` does. */
async function withOpened<R extends { close(): Promise<void> }, T>(command: Command, open: (loaded: LoadedConfig) => Promise<R>, run: (opened: R, context: CommandContext) => Promise<T>): Promise<T> {
  const loaded = await configOf(command);
  const opened = await open(loaded);
  try {
    return await run(opened, { ...loaded, isNamespaceChosen: loaded.sources.namespace !== 'default' });
  } finally {
    await opened.close();
  }
}

/**
 * Opens the memory in the data dir for one command and always closes it. The wiring (SQLite,
 * the models, Chroma or BullMQ when configured) is imported here, so `--help` and `config` do
 * not load it.
 */
export async function withMemory<T>(command: Command, run: (memory: Memory, context: MemoryContext) => Promise<T>): Promise<T> {
  const open = async (loaded: LoadedConfig): Promise<Wiring & { close(): Promise<void> }> => {
    const wiring = await (await import('./wiring.js')).wireMemory(loaded.config);
    return { ...wiring, close: () => wiring.memory.close() };
  };
  return withOpened(command, open, (wiring, context) => run(wiring.memory, { ...context, wiring }));
}

/**
 * Opens only the session store of the config's SQLite file, for a command that reads sessions
 * and messages (the `sessions` listing): no models, knowledge base or queue are loaded.
 */
export async function withSessionStore<T>(command: Command, run: (store: SessionStore, context: CommandContext) => Promise<T>): Promise<T> {
  return withOpened(command, async (loaded) => (await import('./store-wiring.js')).openSessionStore(loaded.config), run);
}

/** Parses a positive integer option; commander reports a bad value as a usage error (exit 1). */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new InvalidArgumentError('It must be a positive whole number.');
  return n;
}

/** The session, or NOT_FOUND with a hint a CLI user can follow. */
export async function requireSession(memory: Memory, id: string): Promise<Session> {
  const session = id.trim() ? await memory.sessions.get(id) : null;
  if (!session) throw new StrataError('NOT_FOUND', `no session with id ${JSON.stringify(id)}`, { hint: 'List the sessions with `strata sessions` (add --namespace NS to narrow).' });
  return session;
}

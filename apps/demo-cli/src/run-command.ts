import { InvalidArgumentError, type Command } from 'commander';
import { StrataError, type Memory, type Session } from '@strata/core';
import { loadConfig, type GlobalFlags, type LoadedConfig } from './config.js';
import { wireMemory, type Wiring } from './wiring.js';

/** The effective config for a command (flags of the program and the command merged). */
export function configOf(command: Command): LoadedConfig {
  return loadConfig(command.optsWithGlobals<GlobalFlags>());
}

export interface MemoryContext extends LoadedConfig {
  wiring: Wiring;
  /** False when the namespace is only the default: listing commands then show every namespace. */
  isNamespaceChosen: boolean;
}

/** Opens the memory in the data dir for one command and always closes it. */
export async function withMemory<T>(command: Command, run: (memory: Memory, context: MemoryContext) => Promise<T>): Promise<T> {
  const loaded = configOf(command);
  const wiring = await wireMemory(loaded.config);
  try {
    return await run(wiring.memory, { ...loaded, wiring, isNamespaceChosen: loaded.sources.namespace !== 'default' });
  } finally {
    await wiring.memory.close();
  }
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

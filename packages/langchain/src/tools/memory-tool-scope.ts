import { createHash } from 'node:crypto';
import type { ToolRunnableConfig } from '@langchain/core/tools';
import { z } from 'zod';
import { parseWith, StrataError, type MemoryApi, type StoredMessage } from '@strata/core';
import { ensureSession } from '../ensure-session.js';

/** A value fixed for every run, or read from the run (its `configurable`, `context`, ...). */
export type PerToolRun = string | ((config: ToolRunnableConfig) => string);

/**
 * Options of {@link createMemoryTools} (and of each tool's own factory): the memory, the
 * namespace the tools are confined to, and the session `remember` stores notes in.
 */
export interface MemoryToolsOptions {
  memory: MemoryApi;
  /**
   * Whose memory the tools read and write: a fixed namespace, or one per run, e.g.
   * `(config) => String(config.configurable?.userId)`. recall and forget never reach outside it.
   */
  namespace: PerToolRun;
  /**
   * The session remember stores notes in: a fixed id, or one per run, e.g.
   * `(config) => String(config.configurable?.thread_id)`; created in the namespace when it does
   * not exist yet. @defaultValue the namespace's notes session (`memory-notes:<namespace>`), created on first use
   */
  sessionId?: PerToolRun;
}

const perRun = z.union([z.string().min(1), z.custom<(config: ToolRunnableConfig) => string>((v) => typeof v === 'function', 'must be a function of the run config')]);
const optionsSchema = z.object({
  memory: z.custom<MemoryApi>(
    (v) => typeof v === 'object' && v !== null && typeof (v as MemoryApi).append === 'function' && typeof (v as MemoryApi).search === 'function',
    'memory must be a strata MemoryApi (from createMemory)',
  ),
  namespace: perRun,
  sessionId: perRun.optional(),
});

/** The metadata key that marks a turn stored by the remember tool. */
export const MEMORY_NOTE_KEY = 'strataMemoryNote';

/** What the memory tools share: the memory, and where a run's notes and searches go. */
export interface MemoryToolScope {
  memory: MemoryApi;
  /** The namespace of a run. @throws StrataError INVALID_INPUT when the run yields none. */
  namespaceOf(config: ToolRunnableConfig): string;
  /** The session remember writes to in a run, created in its namespace when missing. @throws StrataError CONFLICT when it belongs to another namespace. */
  notesSessionOf(config: ToolRunnableConfig, namespace: string): Promise<string>;
}

/** @throws StrataError CONFIG_INVALID for options that are not {@link MemoryToolsOptions}. */
export function memoryToolScope(options: MemoryToolsOptions): MemoryToolScope {
  const { memory, namespace, sessionId } = parseWith(
    optionsSchema,
    options,
    'memory tools options',
    'Pass { memory, namespace, sessionId? }: namespace and sessionId are strings or functions of the run config.',
    'CONFIG_INVALID',
  );
  const namespaceOf = (config: ToolRunnableConfig) => resolve(namespace, config, 'namespace');
  return {
    memory,
    namespaceOf,
    notesSessionOf: async (config, ns) => {
      if (sessionId !== undefined) return (await ensureSession(memory, resolve(sessionId, config, 'sessionId'), { namespace: ns })).id;
      return (await ensureSession(memory, notesSessionId(ns), { namespace: ns, title: 'Notes of the memory tools' })).id;
    },
  };
}

/** The default notes session of a namespace: one per namespace, the same id every time. */
export function notesSessionId(namespace: string): string {
  const id = `memory-notes:${namespace}`;
  return id.length <= 256 ? id : `memory-notes:${createHash('sha256').update(namespace).digest('hex')}`;
}

/**
 * The stored message with this id in the namespace, or undefined. Reads the namespace's
 * sessions one by one (the preferred one first) until it is found: strata looks messages up
 * by session, and an id from another namespace must not be reachable.
 */
export async function findMessageIn(memory: MemoryApi, namespace: string, id: string, preferredSessionId?: string): Promise<StoredMessage | undefined> {
  const sessions = (await memory.sessions.list({ namespace })).map((s) => s.id);
  const ordered = preferredSessionId && sessions.includes(preferredSessionId) ? [preferredSessionId, ...sessions.filter((s) => s !== preferredSessionId)] : sessions;
  for (const sessionId of ordered) {
    const found = (await memory.messages(sessionId)).find((m) => m.id === id);
    if (found) return found;
  }
  return undefined;
}

function resolve(value: PerToolRun, config: ToolRunnableConfig, what: string): string {
  const resolved = typeof value === 'function' ? value(config) : value;
  if (typeof resolved === 'string' && resolved.trim()) return resolved;
  throw new StrataError('INVALID_INPUT', `the memory tools' ${what} for this run is empty (got ${JSON.stringify(resolved)})`, {
    hint: `Pass ${what} as a string, or a function of the run config that returns one (e.g. from config.configurable).`,
  });
}

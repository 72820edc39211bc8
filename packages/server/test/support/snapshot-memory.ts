import type { Memory, PendingJob } from '@strata/core';
import { readTenant, type TenantData } from './seed-tenants.js';

/** Everything the store holds, read through the memory: every session, message and fact, and the pending jobs. */
export interface MemorySnapshot {
  namespaces: TenantData[];
  pending: PendingJob[];
}

/**
 * Reads every namespace that has a session, plus `extraNamespaces` (facts can outlive their
 * sessions), in a stable order, so two snapshots compare with toEqual.
 */
export async function snapshotMemory(memory: Memory, extraNamespaces: string[] = []): Promise<MemorySnapshot> {
  const all = await memory.sessions.list({ limit: 100_000 });
  const names = [...new Set([...all.map((s) => s.namespace), ...extraNamespaces])].sort();
  const namespaces = await Promise.all(names.map((ns) => readTenant(memory, ns)));
  const pending = (await memory.pending()).map((job) => ({ ...job })).sort((a, b) => a.key.localeCompare(b.key));
  return { namespaces, pending };
}

import { createMemory, type Memory, type PolicyInput } from '@strata/core';

/**
 * The composition root of the `strata` command: the only place that chooses adapters.
 * Today every adapter is the embedded in-process default of @strata/core.
 */
export interface Wiring {
  /** Where the data lives, for people. */
  storage: string;
  memory: Memory;
}

export async function wireMemory(policy?: PolicyInput): Promise<Wiring> {
  const memory = await createMemory(policy ? { policy } : {});
  return { memory, storage: 'in memory (this process): the session store and knowledge base end when the command ends' };
}

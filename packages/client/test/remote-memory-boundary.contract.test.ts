import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type PolicyInput } from '@strata/core';
import { createSqliteSessionStore } from '@strata/store-sqlite';
import { describeMemoryBoundaryContract, type OpenedMemory } from '@strata/testkit';
import { createRemoteMemory } from '../src/index.js';
import { serveOverHttp } from './support/serve-over-http.js';

/**
 * The remote memory of one case: a strata server over a memory with the contract's policy on a
 * fresh SQLite file, served on a real socket; the contract writes into the same store directly.
 */
async function openRemote(policy: PolicyInput): Promise<OpenedMemory> {
  const directory = await mkdtemp(join(tmpdir(), 'strata-remote-boundary-'));
  const store = await createSqliteSessionStore({ path: join(directory, 'strata.db') });
  const memory = await createMemory({ store, policy });
  const served = await serveOverHttp(memory);
  const remote = createRemoteMemory({ url: served.url });
  return {
    memory: remote,
    store,
    close: async () => {
      await remote.close();
      await served.close();
      await memory.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

describeMemoryBoundaryContract('remote memory (HTTP, SQLite temp file)', { open: openRemote });

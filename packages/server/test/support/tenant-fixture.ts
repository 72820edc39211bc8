import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type Memory } from '@strata/core';
import { createFileKeyStore, type ServerLimits } from '../../src/index.js';
import { HeldFactExtractor } from './held-extractor.js';
import { type SeededTenants, seedTenants } from './seed-tenants.js';
import { createTenantKeys, type TenantKeys } from './tenant-keys.js';
import { startTestServer, type TestServer } from './test-server.js';

/** A running server over a seeded in-memory core memory, with the keys of {@link TenantKeys}. */
export interface TenantFixture {
  memory: Memory;
  server: TestServer;
  tenants: SeededTenants;
  keys: TenantKeys;
  close(): Promise<void>;
}

/**
 * Seeds a fresh memory (acme, globex, team/a, team/b, teamx), creates the keys in a keys file
 * (FileKeyStore) in a temp dir, and serves it. Rate limiting is off unless `limits` turns it on: these tests
 * send many requests with one key on purpose.
 */
export async function startTenantFixture(limits: ServerLimits = {}): Promise<TenantFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'strata-server-security-'));
  const keyStore = await createFileKeyStore({ path: join(dir, 'keys.json') });
  const memory = await createMemory({ extractor: new HeldFactExtractor() });
  const tenants = await seedTenants(memory);
  const keys = await createTenantKeys(keyStore);
  const server = await startTestServer({ memory, auth: { keys: keyStore }, limits: { rateLimit: false, ...limits } });
  return {
    memory,
    server,
    tenants,
    keys,
    close: async () => {
      await server.close();
      await memory.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

import { randomUUID } from 'node:crypto';
import { ChromaClient } from 'chromadb';
import { requireService } from '@strata/testkit';

/** The server the integration tests use; `bash scripts/services.sh up` starts it there. */
export const CHROMA_URL = process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';

/** A raw client, for what the tests check behind the knowledge base's back (collections). */
export function adminClient(): ChromaClient {
  const url = new URL(CHROMA_URL);
  return new ChromaClient({ host: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), ssl: url.protocol === 'https:' });
}

/** Null when Chroma answers; otherwise why the suite is skipped (or a throw under STRATA_REQUIRE_SERVICES=1). */
export function chromaUnavailable(): Promise<string | null> {
  return requireService('Chroma', async () => {
    const heartbeat = `${CHROMA_URL}/api/v2/heartbeat`;
    const response = await fetch(heartbeat, { signal: AbortSignal.timeout(5000) }).catch((error: unknown) => {
      throw new Error(`no answer at ${heartbeat} (${error instanceof Error ? error.message : String(error)})`, { cause: error });
    });
    if (!response.ok) throw new Error(`GET ${heartbeat} answered ${response.status}`);
  });
}

/** A collection prefix no other test run uses. */
export const uniquePrefix = (): string => `test-${randomUUID().slice(0, 12)}`;

/** Deletes every collection whose name starts with `prefix`. */
export async function dropCollections(prefix: string): Promise<void> {
  const client = adminClient();
  const names = (await client.listCollections({ limit: 1000 })).map((c) => c.name).filter((name) => name.startsWith(prefix));
  for (const name of names) await client.deleteCollection({ name });
}

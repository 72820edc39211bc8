import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteSessionStore } from '../src/sqlite-session-store.js';

const BATCHES = 50;

/** A child process: on the parent's go, opens the file (maybe creating it) and appends BATCHES one-turn batches. */
const appenderSource = (storeModule: string): string => `
import { createSqliteSessionStore } from ${JSON.stringify(storeModule)};
const [path, worker, batches] = process.argv.slice(2);
// Report ready once loaded, then wait for the parent's go, so that both processes create
// (migrate) the new file and append at the same time.
process.stdout.write('ready\\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
const store = await createSqliteSessionStore({ path });
const session = { id: 's1', namespace: 'ns', metadata: {}, createdAt: 0, updatedAt: 0, lastSeq: 0 };
await store.write({ ops: [{ type: 'putSession', session }] });
for (let i = 0; i < Number(batches); i += 1) {
  const message = { id: worker + '-' + i, role: 'user', content: 'turn ' + i + ' of ' + worker, createdAt: i, metadata: {} };
  await store.write({ ops: [{ type: 'appendMessages', sessionId: 's1', messages: [message] }] });
}
await store.close();
`;

interface Appender {
  /** Resolves once the process has loaded the store's code. */
  ready: Promise<void>;
  /** Lets it start appending. */
  go: () => void;
  /** Its exit code and stderr. */
  exit: Promise<{ code: number | null; stderr: string }>;
}

/** Starts the appender script under node with tsx (for the TypeScript sources). */
function startAppender(script: string, args: string[]): Appender {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const child = spawn(process.execPath, ['--import', tsx, '--conditions=@strata/source', script, ...args], { stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    // A child that dies before it is ready fails the test with its stderr.
    void exit.then(({ stderr: output }) => reject(new Error(`appender exited before it was ready: ${output}`)));
  });
  return { ready, go: () => child.stdin.end('go\n'), exit };
}

describe('SqliteSessionStore shared by processes', () => {
  let directory: string;

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'strata-processes-'));
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('two processes creating and appending to one new file at once both succeed, with distinct consecutive seqs', async () => {
    const path = join(directory, 'shared.db');
    const script = join(directory, 'append.mts');
    await writeFile(script, appenderSource(new URL('../src/sqlite-session-store.ts', import.meta.url).href));

    const appenders = ['a', 'b'].map((worker) => startAppender(script, [path, worker, String(BATCHES)]));
    await Promise.all(appenders.map((appender) => appender.ready));
    for (const appender of appenders) appender.go();
    const results = await Promise.all(appenders.map((appender) => appender.exit));
    expect(results).toEqual([
      { code: 0, stderr: '' },
      { code: 0, stderr: '' },
    ]);

    const store = await createSqliteSessionStore({ path });
    try {
      const messages = await store.messages({ sessionId: 's1' });
      expect(messages.map((m) => m.seq)).toEqual(Array.from({ length: 2 * BATCHES }, (_, i) => i + 1));
      for (const worker of ['a', 'b']) {
        const own = messages.filter((m) => m.id.startsWith(`${worker}-`)).map((m) => m.id);
        expect(own).toEqual(Array.from({ length: BATCHES }, (_, i) => `${worker}-${i}`));
      }
      expect((await store.sessions({ ids: ['s1'] }))[0]?.lastSeq).toBe(2 * BATCHES);
    } finally {
      await store.close();
    }
    // Each child loads @strata/core from source through tsx, which takes seconds on a busy machine.
  }, 90_000);
});

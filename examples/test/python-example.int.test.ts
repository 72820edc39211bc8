import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireService } from '@strata/testkit';
import { repoRoot, type RunResult } from './run-example.js';

const BIN = join(repoRoot, 'apps/demo-cli/bin/strata.js');
const EXAMPLE = 'examples/python/strata_quickstart.py';

const unavailable = await requireService('python3', async () => {
  const probe = spawnSync('python3', ['--version'], { encoding: 'utf8' });
  if (probe.error) throw probe.error;
  if (probe.status !== 0) throw new Error(`python3 --version exited with ${String(probe.status)}: ${probe.stderr}`);
});

/** The CLI's environment without the caller's strata settings (a Chroma URL or a PostgreSQL store would change what `serve` opens). */
function cliEnv(dataDir: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('STRATA_') && name !== 'OPENAI_API_KEY'));
  return { ...env, STRATA_DATA_DIR: dataDir, XDG_CONFIG_HOME: join(dataDir, 'config'), NO_COLOR: '1' };
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `strata serve --port 0`, resolved with its URL once it says where it listens; rejects if it exits first. */
function startServer(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcessWithoutNullStreams; url: string; output: () => string }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], { cwd: repoRoot, env });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /listening on (http:\/\/\S+)/.exec(output);
      if (listening) resolve({ child, url: listening[1] as string, output: () => output });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', reject);
    child.on('exit', (code, signal) => reject(new Error(`strata serve exited (${signal ?? code}) before listening:\n${output}`)));
  });
}

describe.skipIf(unavailable !== null)(`${EXAMPLE}${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'strata-python-example-'));
  const env = cliEnv(dataDir);
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let secret = '';

  beforeAll(async () => {
    const created = await run(process.execPath, [BIN, 'keys', 'create', '--namespace', 'py-demo', '--scope', 'read,write,forget', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const { key, secret: given } = JSON.parse(created.stdout) as { key: { namespace: string; scopes: string[] }; secret: string };
    expect(key).toMatchObject({ namespace: 'py-demo', scopes: ['read', 'write', 'forget'] });
    secret = given;
    server = await startServer(env);
  }, 60_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await once(server.child, 'exit');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a session through strata serve with a key: context, search, facts, then forgets it (404 problem)', async () => {
    const { code, stdout, stderr } = await run('python3', [EXAMPLE], { ...process.env, STRATA_URL: server?.url, STRATA_API_KEY: secret, STRATA_NAMESPACE: '' });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const sessionId = /^created session (\S+) in namespace py-demo$/m.exec(stdout)?.[1];
    expect(sessionId).toBeDefined();
    expect(stdout).toContain('appended #1 user: Hi! I live in Lisbon and I work as a nurse.\n');
    expect(stdout).toContain('appended #4 assistant: Miso sounds like a character.\n');
    expect(stdout).toContain('retried the append with the same Idempotency-Key: 200, Idempotent-Replayed: true, same 4 messages\n');
    // the memory message of the context holds what the offline extractor derived from the first turn
    const context = stdout.slice(stdout.indexOf('context for "Where do I live?"'), stdout.indexOf('search "cat"'));
    expect(context).toMatch(/memory system message:\n[\s\S]*User lives in Lisbon\./);
    expect(context).toMatch(/manifest, included items:\n(\s+(fact|turn|summary|synopsis) \(.*\n)+/);
    expect(stdout).toMatch(/search "cat":\n\s+turn [\d.]+: My cat is called Miso and she hates the tram\.\n/);
    expect(stdout).toContain('flushed: derivation settled, 0 job(s) left\n');
    expect(stdout).toMatch(/\nfacts:\n[\s\S]*User lives in Lisbon\. \(from 1 message\(s\)\)/);
    expect(stdout).toMatch(new RegExp(`forgot session ${sessionId}: 4 messages, [1-9]\\d* facts`));
    expect(stdout).toContain(`GET /v1/sessions/${sessionId} now answers 404 NOT_FOUND: no session with id "${sessionId}"\n  hint: `);
  });

  it('turns the problem of a bad key into an exception with code, detail and hint, and exits 1', async () => {
    const { code, stdout, stderr } = await run('python3', [EXAMPLE], { ...process.env, STRATA_URL: server?.url, STRATA_API_KEY: 'sk_strata_0000000000000000_not-a-key', STRATA_NAMESPACE: '' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^error: POST \/v1\/sessions answered 401 UNAUTHORIZED: .+\n {2}hint: .+\n$/);
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const child = server?.child as ChildProcessWithoutNullStreams;
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    child.kill('SIGTERM');
    const [exitCode, signal] = await exited;
    expect({ exitCode, signal }, server?.output()).toEqual({ exitCode: 0, signal: null });
  });
});

/**
 * Scale-out: one conversation held across two app processes, with two worker processes
 * deriving, on PostgreSQL (sessions, lexical search), Chroma (vectors) and Redis (jobs).
 * Starts the three servers on this machine if they are not running (scripts/services.sh up).
 *
 *   npm run scale-out -w @strata/examples
 */
import { execFileSync, spawn, type ChildProcessByStdio } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Command } from './process.js';
import { topologyFromEnv } from './topology.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entry = fileURLToPath(new URL('./process.ts', import.meta.url));
// the memory's name: its PostgreSQL schema, Chroma collection prefix and Redis prefix
const topology = topologyFromEnv(process.env.STRATA_SCALE_OUT_NAME ?? 'strata_scale_out');
const NAMESPACE = 'scale-out-example';
type Child = ChildProcessByStdio<Writable, Readable, null>;

/** A child process of this example: `role` with the topology, its lines one by one. */
function start(role: 'worker' | 'serve'): { child: Child; next: () => Promise<string> } {
  const child = spawn(process.execPath, ['--import', 'tsx', '--conditions=@strata/source', entry, role, JSON.stringify({ topology })], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, next: async () => String((await lines.next()).value) };
}

/** An app process: sends a command, returns its answer. */
function app(name: string): { ask: (command: Command) => Promise<unknown>; ready: Promise<string>; child: Child } {
  const { child, next } = start('serve');
  return {
    child,
    ready: next(),
    ask: async (command) => {
      child.stdin.write(`${JSON.stringify(command)}\n`);
      const reply = JSON.parse(await next()) as { ok?: unknown; error?: string };
      if (reply.error !== undefined) throw new Error(`${name}: ${reply.error}`);
      return reply.ok;
    },
  };
}

execFileSync('bash', ['scripts/services.sh', 'up'], { cwd: root, stdio: 'inherit' });
const workers = [start('worker'), start('worker')];
await Promise.all(workers.map((w) => w.next()));
const a = app('app A');
const b = app('app B');
await Promise.all([a.ready, b.ready]);
console.log(`2 app processes and 2 workers on ${topology.postgresUrl.replace(/\/\/[^@]*@/, '//')} (schema ${topology.schema}), ${topology.chromaUrl}, ${topology.redisUrl}`);
try {
  const sessionId = 'chat-1';
  await a.ask({ create: { namespace: NAMESPACE, id: sessionId } });
  const turns: [typeof a, 'user' | 'assistant', string][] = [
    [a, 'user', 'I moved to Trondheim last spring and I work at the harbour now.'],
    [b, 'assistant', 'Trondheim, lovely. How is the work at the harbour?'],
    [a, 'user', 'Busy. My sister Ingrid visits next week, she is a nurse in Oslo.'],
    [b, 'assistant', 'Say hello to Ingrid from me.'],
  ];
  for (const [process, role, content] of turns) {
    const stored = (await process.ask({ append: { sessionId, role, content } })) as { seq: number };
    console.log(`${process === a ? 'app A' : 'app B'} appended seq ${stored.seq} (${role}): ${content}`);
  }
  // the workers derive what both apps appended; either app applies the results
  await a.ask({ flush: true });
  await b.ask({ flush: true });
  const context = (await b.ask({ context: { sessionId, query: 'Where do I work, and who is visiting?' } })) as { facts: number; text: string };
  console.log(`\napp B's context for "Where do I work, and who is visiting?" (${context.facts} facts, derived by the workers from turns both apps stored):\n${context.text}`);
} finally {
  await a.ask({ forget: { namespace: NAMESPACE } }).catch(() => undefined);
  for (const child of [a.child, b.child]) child.stdin.end();
  for (const w of workers) w.child.kill('SIGTERM');
  console.log(`\nforgot namespace ${NAMESPACE} (schema ${topology.schema}, Redis prefix ${topology.redisPrefix})`);
}

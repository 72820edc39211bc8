import { createInterface } from 'node:readline';
import type { Memory } from '@strata/core';
import { openAppMemory, startOfflineWorker, type Topology } from './topology.js';

/**
 * One process of the scale-out topology, started by run.ts (and by the fault test):
 * - `worker`: derives until SIGTERM;
 * - `app`: appends `appends` turns one at a time, round robin over `sessions` (which exist),
 *   printing `ack <id> <session> <seq>` once each append is acknowledged, then waits for the
 *   derivation it planned (flush) and exits;
 * - `serve`: an app process that takes one JSON command per stdin line (`create`, `append`,
 *   `context`, `flush`, `forget`) and answers each with one JSON line.
 * Prints `ready` once connected. Usage: process.ts worker|app|serve '<json config>'.
 */

interface AppConfig {
  topology: Topology;
  name: string;
  sessions: string[];
  appends: number;
}

const TOPICS = ['the harbour', 'a bakery', 'the climbing gym', 'the library', 'a film festival', 'the night train', 'a pottery class', 'the football club'];
const PLACES = ['Trondheim', 'Porto', 'Valencia', 'Gdańsk', 'Leeds', 'Tartu', 'Lyon', 'Bergen'];

/** A turn of generated small talk, different for each process and step. */
function turnText(name: string, i: number): string {
  const topic = TOPICS[i % TOPICS.length] as string;
  const place = PLACES[Math.floor(i / TOPICS.length) % PLACES.length] as string;
  return i % 2 === 0 ? `(${name} #${i}) I went to ${topic} in ${place} again, it was busy.` : `(${name} #${i}) Nice, how was ${topic} in ${place} this time?`;
}

async function runWorker(topology: Topology): Promise<void> {
  const worker = await startOfflineWorker(topology);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void worker.close().then(() => process.exit(0)));
  process.stdout.write('ready\n');
}

async function runApp(config: AppConfig): Promise<void> {
  const memory = await openAppMemory(config.topology);
  process.stdout.write('ready\n');
  for (let i = 0; i < config.appends; i++) {
    const sessionId = config.sessions[i % config.sessions.length] as string;
    const [stored] = await memory.append(sessionId, { role: i % 2 === 0 ? 'user' : 'assistant', content: turnText(config.name, i) });
    if (stored) process.stdout.write(`ack ${stored.id} ${stored.sessionId} ${stored.seq}\n`);
  }
  await memory.flush();
  process.stdout.write('flushed\n');
  await memory.close();
  process.stdout.write('done\n');
}

/** One command of a `serve` process. */
export type Command =
  | { create: { namespace: string; id: string } }
  | { append: { sessionId: string; role: 'user' | 'assistant'; content: string } }
  | { context: { sessionId: string; query: string } }
  | { flush: true }
  | { forget: { namespace: string } };

async function answer(memory: Memory, command: Command): Promise<unknown> {
  if ('create' in command) return memory.sessions.create(command.create);
  if ('append' in command) return (await memory.append(command.append.sessionId, { role: command.append.role, content: command.append.content }))[0];
  if ('context' in command) {
    const context = await memory.getContext(command.context.sessionId, { query: command.context.query, budgetTokens: 400 });
    return { facts: context.manifest.filter((m) => m.included && m.kind === 'fact').length, text: context.messages.map((m) => m.content).join('\n') };
  }
  if ('flush' in command) return memory.flush();
  return memory.forget({ namespace: command.forget.namespace });
}

async function serve(topology: Topology): Promise<void> {
  const memory = await openAppMemory(topology);
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    try {
      process.stdout.write(`${JSON.stringify({ ok: (await answer(memory, JSON.parse(line) as Command)) ?? null })}\n`);
    } catch (error) {
      process.stdout.write(`${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
    }
  }
  await memory.close();
}

const [role, json] = process.argv.slice(2);
const config = JSON.parse(json ?? '{}') as AppConfig;
if (role === 'worker') await runWorker(config.topology);
else if (role === 'app') await runApp(config);
else if (role === 'serve') await serve(config.topology);
else {
  process.stderr.write("usage: process.ts worker|app|serve '<json config>'\n");
  process.exit(1);
}

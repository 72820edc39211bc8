// A worker beside an app on Redis (BullMQ): the app appends and applies, the worker derives the summaries and facts, and the queue stats show what ran where.
//
//   STRATA_REDIS_URL=redis://127.0.0.1:6379 node --import tsx --conditions=@strata/source examples/worker-beside-app.ts
//
// Both run in this process for the demo; in production the worker is its own process, on any
// machine. Every key goes under a prefix of this run, deleted at the end. Without Redis the
// example says so and exits 0.
import { randomUUID } from 'node:crypto';
import { createMemory, createOfflineDeriveModels, StrataError } from '@strata/core';
import { createBullMqJobQueue, formatQueueStats, readQueueStats, startWorker, type WorkerEvent } from '@strata/worker';
// the project's test kit (a devDependency of this workspace) counts and deletes the keys under a prefix
import { countRedisKeys, deleteRedisKeys } from '@strata/testkit/redis';

const url = process.env.STRATA_REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `strata-example-${randomUUID().slice(0, 8)}`;
// app and worker must share the models and the policy; a small immediate tier makes a summary
const policy = { immediate: { maxMessages: 4, minMessages: 2 }, working: { batchMessages: 4 } };

let queue: Awaited<ReturnType<typeof createBullMqJobQueue>>;
try {
  // deriveConcurrency 0: this app derives nothing itself, it only enqueues and applies results
  queue = await createBullMqJobQueue({ url, prefix, deriveConcurrency: 0, connectTimeoutMs: 2000 });
} catch (error) {
  if (!(error instanceof StrataError && error.code === 'BACKEND_UNAVAILABLE')) throw error;
  console.log(`skipped, this example needs Redis: ${error.message.split(' (')[0]}. Start it with bash scripts/services.sh up, or set STRATA_REDIS_URL.`);
  process.exit(0);
}

const ran: WorkerEvent[] = []; // the jobs the worker took, as it starts each one
const worker = await startWorker({ url, prefix, models: createOfflineDeriveModels(policy), concurrency: 2, onEvent: (event) => event.type === 'active' && ran.push(event) });
const memory = await createMemory({ queue, policy });
try {
  console.log(`app and worker on ${url}, key prefix ${prefix}`);
  const session = await memory.sessions.create({ namespace: 'ana', title: 'New job' });
  const stored = await memory.append(session.id, [
    { role: 'user', content: 'I started a new job at the Oslo harbour office last week.' },
    { role: 'assistant', content: 'Congratulations! How is the commute?' },
    { role: 'user', content: 'Easy, I cycle along the fjord. My sister Ingrid lives close by.' },
    { role: 'assistant', content: 'Lovely. Do you see Ingrid often?' },
    { role: 'user', content: 'Every Sunday. She is a nurse and works nights during the week.' },
    { role: 'assistant', content: 'Sunday dinners with Ingrid, then.' },
  ]);
  console.log(`app appended ${stored.length} turns; queued for the worker: ${(await memory.getContext(session.id)).pending.jobs.map((j) => j.key).join(', ')}`);

  // flush waits until the worker's results are applied here (learned from BullMQ events, no polling)
  const { pending } = await memory.flush();
  console.log(`\nafter flush, the worker had run ${ran.length} job(s), ${pending.length} left pending:`);
  for (const event of ran) console.log(`  ${event.queue}: ${event.key} (attempt ${event.attempt})`);
  const facts = await memory.facts.list({ namespace: 'ana' });
  console.log(`\nfacts the worker derived (${facts.length}):`);
  for (const fact of facts) console.log(`  - ${fact.text}`);
  const context = await memory.getContext(session.id, { query: 'Who is Ingrid?', budgetTokens: 300 });
  const included = (kind: string) => context.manifest.filter((m) => m.included && m.kind === kind).length;
  console.log(`\ncontext for "Who is Ingrid?" holds what the worker derived: summaries ${included('summary')}, facts ${included('fact')}; jobs pending ${context.pending.jobs.length}`);

  console.log(`\nreadQueueStats:\n${formatQueueStats(await readQueueStats({ url, prefix }))}`);
} finally {
  await memory.close(); // closes the app's queue
  await worker.close(); // finishes running jobs, takes no new ones
  const deleted = await deleteRedisKeys(url, prefix);
  console.log(`\ndeleted ${deleted} Redis keys matching ${prefix}:*, ${await countRedisKeys(url, prefix)} left`);
}

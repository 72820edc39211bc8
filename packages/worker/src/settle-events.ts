import { QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import type { RedisSettings } from './connection-options.js';
import type { SettledHow } from './key-tracker.js';
import type { StrataQueues } from './queues.js';
import { APPLY_QUEUE, QUEUE_NAMES, keyOfJobId } from './redis-keys.js';
import type { QueueName } from './redis-keys.js';
import { redisOptionsFor } from './redis-client.js';

/**
 * The events of a prefix's queues that settle a strata key, from every process: `completed` in
 * the apply queue (the result is stored) and `failed` in any queue (BullMQ emits it only once
 * no attempt is left). A derive job completing only hands its result to the apply queue, so it
 * settles nothing.
 */
export interface SettleEvents {
  /**
   * Starts reading, from where the streams ended when they were opened: no event after that
   * is missed, however late this is called. At most once; nothing after close().
   */
  listen(onSettled: (key: string, how: SettledHow) => void): void;
  /** Ends the reads and their blocking connections. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens one BullMQ `QueueEvents` per queue (each on its own blocking connection, which its
 * close() ends), positioned at the current end of its stream, read through `client`.
 * Connection errors go to `onError`; QueueEvents reconnects and goes on from its last event.
 */
export async function openSettleEvents(settings: RedisSettings, client: Redis, queues: StrataQueues, onError: (error: unknown) => void): Promise<SettleEvents> {
  const streamOf = (name: QueueName): string => (name === APPLY_QUEUE ? queues.apply : queues.derive[name]).keys.events as string;
  const lastIds = await Promise.all(QUEUE_NAMES.map((name) => lastEventId(client, streamOf(name))));
  const readers = QUEUE_NAMES.map((name, i) => {
    const reader = new QueueEvents(name, {
      connection: redisOptionsFor(settings, true),
      prefix: settings.prefix,
      autorun: false,
      lastEventId: lastIds[i] as string,
    });
    reader.on('error', onError);
    return { name, reader };
  });
  let closing: Promise<void> | null = null;
  let isListening = false;
  return {
    listen(onSettled) {
      if (closing !== null || isListening) return;
      isListening = true;
      for (const { name, reader } of readers) {
        reader.on('failed', ({ jobId }) => onSettled(keyOfJobId(jobId), 'failed'));
        if (name === APPLY_QUEUE) reader.on('completed', ({ jobId }) => onSettled(keyOfJobId(jobId), 'applied'));
        reader.run().catch((error: unknown) => {
          if (closing === null) onError(error);
        });
      }
    },
    close() {
      closing ??= Promise.all(readers.map(({ reader }) => reader.close())).then(() => undefined);
      return closing;
    },
  };
}

/** The id of a stream's last entry, or `0-0` for an empty or missing stream (then every entry is new). */
async function lastEventId(client: Redis, stream: string): Promise<string> {
  const [last] = await client.xrevrange(stream, '+', '-', 'COUNT', 1);
  return last?.[0] ?? '0-0';
}

import type { StrataError } from '@strata/core';
import { toStrataError } from './to-strata-error.js';

const QUIET_MS = 30_000;

/**
 * Turns background errors (events of ioredis and BullMQ) into StrataErrors for `onError`.
 * Without one, each distinct message is written to stderr at most every 30 s: a Redis that
 * is down for a minute says so a few times, not thousands.
 */
export function errorReporter(where: string, onError: ((error: StrataError) => void) | undefined, label: string): (error: unknown) => void {
  const lastShown = new Map<string, number>();
  return (error) => {
    const strataError = toStrataError(error, where);
    if (onError) return onError(strataError);
    const now = Date.now();
    if (now - (lastShown.get(strataError.message) ?? 0) < QUIET_MS) return;
    lastShown.set(strataError.message, now);
    process.stderr.write(`${label}: ${strataError.code}: ${strataError.message}\n`);
  };
}

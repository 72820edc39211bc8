import { createHash, randomUUID } from 'node:crypto';
import type { JobType } from '../domain/derived.js';

/** A fresh random id with a readable prefix (`ses_…`, `msg_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}

/** A deterministic id from its parts, so re-running a derivation yields the same ids. */
export function stableId(prefix: string, ...parts: (string | number)[]): string {
  const hash = createHash('sha256').update(parts.join('\u0000')).digest('base64url');
  return `${prefix}_${hash.slice(0, 22)}`;
}

/** The deterministic key of a derivation job: type + session + seq range. */
export function jobKey(type: JobType, sessionId: string, fromSeq: number, toSeq: number): string {
  return `${type}:${sessionId}:${fromSeq}-${toSeq}`;
}

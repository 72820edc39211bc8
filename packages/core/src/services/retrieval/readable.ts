import type { Fact, Summary } from '../../domain/derived.js';
import type { StoredMessage } from '../../domain/message.js';
import { MAX_EPOCH_MS } from '../../config/text-rules.js';

/**
 * Why a stored record cannot be shown in a context, or undefined when it can. Input is checked
 * before it is stored, but a file written by an older version (or edited by hand) may hold a
 * time no Date can hold, or a record missing its provenance: such a record is left out of a
 * read and reported, never allowed to make the read of its whole namespace throw.
 */
export function unreadableReason(kind: 'turn' | 'summary' | 'fact', record: StoredMessage | Summary | Fact): string | undefined {
  // called for every record a context reads: no arrays built per call
  if (kind === 'fact' && !isTime((record as Fact).validFrom)) return notATime('validFrom', (record as Fact).validFrom);
  if (!isTime(record.createdAt)) return notATime('createdAt', record.createdAt);
  if (kind === 'turn') return typeof (record as StoredMessage).content === 'string' ? undefined : 'content is not text';
  const derived = record as Summary | Fact;
  if (typeof derived.text !== 'string') return 'text is not text';
  if (!Array.isArray(derived.sourceMessageIds)) return 'sourceMessageIds is missing';
  return undefined;
}

function isTime(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_EPOCH_MS;
}

function notATime(field: string, value: unknown): string {
  return `${field} ${String(value)} is not a time a Date can hold`;
}

/** A stored record a read left out, and why. */
export interface SkippedRecord {
  kind: 'turn' | 'summary' | 'fact';
  id: string;
  reason: string;
}

/** The records that can be read; each other one is added to `skipped` (once). */
export function readableOnly<R extends StoredMessage | Summary | Fact>(kind: SkippedRecord['kind'], records: readonly R[], skipped: SkippedRecord[]): R[] {
  return records.filter((record) => {
    const reason = unreadableReason(kind, record);
    if (reason !== undefined && !skipped.some((s) => s.id === record.id)) skipped.push({ kind, id: record.id, reason });
    return reason === undefined;
  });
}

import type { MessageInput, StoredMessage } from '@strata/core';

/** An item as one turn of its namespace's session holds it (newest turn of its key wins). */
export interface StoredItem {
  key: string;
  value: Record<string, unknown>;
  /** Epoch ms of the item's first put (kept across updates). */
  createdAt: number;
  /** Epoch ms of the put that stored this version: its turn's createdAt. */
  updatedAt: number;
  /** False when the put asked for no index (`index: false`) or the value holds no text. */
  searchable: boolean;
  messageId: string;
  seq: number;
}

/** A delete, stored as a turn so that other stores see the session change (then forgotten). */
interface Tombstone {
  key: string;
  deleted: true;
  messageId: string;
  seq: number;
}

type Version = StoredItem | Tombstone;

/** The turn of an item version: its text to search, and the item in metadata. */
export function itemTurn(key: string, value: Record<string, unknown>, text: string, createdAt: number | undefined): MessageInput {
  const searchable = text.length > 0;
  return {
    role: 'assistant',
    // a turn needs content: an item without text to search is stored under its key, never found by a query
    content: searchable ? text : key,
    metadata: { key, value, ...(createdAt === undefined ? {} : { createdAt }), ...(searchable ? {} : { searchable: false }) },
  };
}

/** The turn that records a delete of `key`. */
export function tombstoneTurn(key: string): MessageInput {
  return { role: 'assistant', content: `deleted ${key}`, metadata: { key, deleted: true } };
}

function versionOf(message: StoredMessage): Version | undefined {
  const { key, value, createdAt, searchable, deleted } = message.metadata;
  if (typeof key !== 'string') return undefined;
  const at = { key, messageId: message.id, seq: message.seq };
  if (deleted === true) return { ...at, deleted: true };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return {
    ...at,
    value: value as Record<string, unknown>,
    createdAt: typeof createdAt === 'number' ? createdAt : message.createdAt,
    updatedAt: message.createdAt,
    searchable: searchable !== false,
  };
}

/**
 * The items of one store session as this process has read them, up to `lastSeq`: the newest
 * version of each key, and the older turns of a key still stored (a writer's forget not done
 * yet, or never done), which the key's next write forgets.
 */
export class SessionItems {
  private readonly versions = new Map<string, Version>();
  private readonly stale = new Map<string, string[]>();

  constructor(
    /** The session's createdAt: a session forgotten and created again is another one. */
    readonly sessionCreatedAt: number,
    /** Every turn up to this seq has been applied (or was forgotten before it was read). */
    public lastSeq: number,
  ) {}

  /** Applies turns in any order; a turn applied twice changes nothing. */
  apply(messages: readonly StoredMessage[]): void {
    for (const message of messages) {
      const next = versionOf(message);
      if (next === undefined) continue;
      const current = this.versions.get(next.key);
      if (current !== undefined && current.seq === next.seq) continue;
      const [older, newer] = current === undefined || current.seq < next.seq ? [current, next] : [next, current];
      if (older !== undefined) this.stale.set(next.key, [...(this.stale.get(next.key) ?? []), older.messageId]);
      this.versions.set(next.key, newer);
    }
  }

  /** The live item of a key. */
  get(key: string): StoredItem | undefined {
    const version = this.versions.get(key);
    return version === undefined || 'deleted' in version ? undefined : version;
  }

  /** Every live item. */
  items(): StoredItem[] {
    return [...this.versions.values()].filter((v): v is StoredItem => !('deleted' in v));
  }

  /** The turns a new write of `key` replaces: its current version and any stale ones. */
  replacedBy(key: string): string[] {
    const current = this.versions.get(key);
    return [...(current === undefined ? [] : [current.messageId]), ...(this.stale.get(key) ?? [])];
  }

  /** Drops what the forgotten turns held (a forgotten tombstone leaves its key absent). */
  forgotten(messageIds: readonly string[]): void {
    const gone = new Set(messageIds);
    for (const [key, version] of this.versions) if (gone.has(version.messageId)) this.versions.delete(key);
    for (const [key, ids] of this.stale) {
      const left = ids.filter((id) => !gone.has(id));
      if (left.length) this.stale.set(key, left);
      else this.stale.delete(key);
    }
  }
}

import { StrataError, type MemoryApi, type StoredMessage } from '@strata/core';
import { SessionItems } from './session-items.js';

/**
 * Each store session's items as last read, kept per StrataStore and checked against the
 * session before every use: one session lookup when nothing changed, the new turns when
 * turns were only added, a full read otherwise (after another store deleted an item: the
 * delete is seen, not which key). Every write of a StrataStore appends a turn
 * (a delete appends a tombstone before forgetting), so the session's `lastSeq` moves on every
 * change another store makes, and a turn forgotten after it was appended shows as a gap in
 * the seqs read. A turn forgotten through `memory.forget({ messageIds })` directly is not
 * seen until the session changes again; `memory.forget({ sessionId | namespace })` is.
 */
export class ItemCache {
  private readonly sessions = new Map<string, SessionItems>();

  constructor(private readonly memory: MemoryApi) {}

  /** The session's items as stored now; undefined when the session does not exist. */
  async read(sessionId: string): Promise<SessionItems | undefined> {
    const session = await this.memory.sessions.get(sessionId);
    const cached = this.sessions.get(sessionId);
    if (session === null) {
      this.sessions.delete(sessionId);
      return undefined;
    }
    if (cached !== undefined && cached.sessionCreatedAt === session.createdAt) {
      if (cached.lastSeq >= session.lastSeq) return cached;
      const added = await this.turns(sessionId, cached.lastSeq + 1);
      if (added === undefined) return this.forget(sessionId);
      const last = added.at(-1)?.seq ?? cached.lastSeq;
      // turns forgotten since the last read (a delete's tombstone) leave a gap: read everything again
      if (last >= session.lastSeq && added.every((m, i) => m.seq === cached.lastSeq + 1 + i)) {
        cached.apply(added);
        cached.lastSeq = last;
        return cached;
      }
    }
    const all = await this.turns(sessionId);
    if (all === undefined) return this.forget(sessionId);
    const fresh = new SessionItems(session.createdAt, session.lastSeq);
    fresh.apply(all);
    this.sessions.set(sessionId, fresh);
    return fresh;
  }

  /**
   * Whether the session holds a live item: its newest turn is an item version (nothing after
   * it can have deleted it), else, rarely (a delete was the last write), its items are read.
   */
  async hasItems(sessionId: string): Promise<boolean> {
    const [newest] = (await this.turns(sessionId, undefined, 1)) ?? [];
    if (newest === undefined) return false;
    const { key, value, deleted } = newest.metadata;
    if (typeof key === 'string' && deleted !== true && typeof value === 'object' && value !== null) return true;
    return ((await this.read(sessionId))?.items().length ?? 0) > 0;
  }

  private forget(sessionId: string): undefined {
    this.sessions.delete(sessionId);
    return undefined;
  }

  /** A session's turns from `fromSeq` (or its `last` ones); undefined when it was forgotten meanwhile. */
  private async turns(sessionId: string, fromSeq?: number, last?: number): Promise<StoredMessage[] | undefined> {
    try {
      return await this.memory.messages(sessionId, { ...(fromSeq === undefined ? {} : { fromSeq }), ...(last === undefined ? {} : { last }) });
    } catch (error) {
      if (StrataError.is(error, 'NOT_FOUND')) return undefined;
      throw error;
    }
  }
}

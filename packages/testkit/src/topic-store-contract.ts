import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import type { LexicalIndex, SessionStore, Topic, TopicStore, TurnLink } from '@strata/core';
import { message, session, T0 } from './session-store-contract/fixtures.js';

export interface TopicStoreContractOptions<S extends SessionStore & TopicStore = SessionStore & TopicStore> {
  /** A fresh, empty store for each test: the session store and its topic side in one object. */
  create: () => Promise<S>;
  /** Releases what `create` made. `close()` is called first. */
  destroy?: (store: S) => Promise<void>;
  /**
   * The {@link LexicalIndex} over the store's records, which checks that cold text is still found.
   * Required when the store does not implement `LexicalIndex` itself.
   * @defaultValue the store
   */
  lexicalOf?: (store: S) => LexicalIndex;
}

const LONG = 'We compared the lasagna recipes again: spinach, ricotta, tomato sauce and the oven at 180 degrees. '.repeat(6);

function topic(id: string, sessionId: string, overrides: Partial<Topic> = {}): Topic {
  return { id, sessionId, namespace: 'ns-a', title: `topic ${id}`, importance: 0.5, accessCount: 0, lastActiveAt: T0, createdAt: T0, centroid: [0.1, -0.25, 1 / 3], vectorCount: 2, ...overrides };
}

function link(messageId: string, sessionId: string, seq: number, topicId: string, parentId: string | null = null): TurnLink {
  return { messageId, sessionId, namespace: 'ns-a', seq, role: seq % 2 ? 'user' : 'assistant', parentId, topicId };
}

/**
 * The behaviour every {@link TopicStore} must have, checked through the ports only: exact
 * round trips, atomic writes, cold text that reads and searches like verbatim text, and
 * links and topics that go with their messages and sessions.
 * @example
 * describeTopicStoreContract('SqliteSessionStore', { create: () => createSqliteSessionStore({ path: ':memory:' }) });
 */
export function describeTopicStoreContract<S extends SessionStore & TopicStore & LexicalIndex>(name: string, options: TopicStoreContractOptions<S>): void;
export function describeTopicStoreContract<S extends SessionStore & TopicStore>(name: string, options: TopicStoreContractOptions<S> & { lexicalOf: (store: S) => LexicalIndex }): void;
export function describeTopicStoreContract(name: string, options: TopicStoreContractOptions): void {
  // The overloads require `lexicalOf` for a store that is no LexicalIndex itself.
  const lexicalOf = options.lexicalOf ?? ((target: SessionStore & TopicStore) => target as SessionStore & TopicStore & LexicalIndex);
  describe(`TopicStore contract: ${name}`, () => {
    let store: SessionStore & TopicStore;

    beforeEach(async () => {
      store = await options.create();
      await store.write({
        ops: [
          { type: 'putSession', session: session('s1') },
          { type: 'putSession', session: session('s2', { namespace: 'ns-b' }) },
          { type: 'appendMessages', sessionId: 's1', messages: [message('m1', LONG), message('m2', 'Bake it for 45 minutes.', { role: 'assistant' }), message('m3', 'Now about Berlin bike lanes.')] },
          { type: 'appendMessages', sessionId: 's2', messages: [message('n1', 'Another namespace entirely.')] },
        ],
      });
    });
    afterEach(async () => {
      await store.close();
      await options.destroy?.(store);
    });

    it('reads back topics and links exactly as written, ordered, filtered', async () => {
      const cold = topic('t2', 's1', { createdAt: T0 + 5, coldSince: T0 + 9, centroid: [] });
      const first = topic('t1', 's1');
      const other = topic('u1', 's2', { namespace: 'ns-b' });
      await store.writeTopics([{ type: 'putTopics', topics: [cold, first, other] }]);
      await store.writeTopics([{ type: 'putLinks', links: [link('m3', 's1', 3, 't2', 'm2'), link('m1', 's1', 1, 't1'), link('m2', 's1', 2, 't1', 'm1')] }]);
      expect(await store.topics({ sessionId: 's1' })).toEqual([first, cold]);
      expect(await store.topics({ namespace: 'ns-b' })).toEqual([other]);
      expect(await store.topics({ ids: ['t2', 'nope'] })).toEqual([cold]);
      expect((await store.links({ sessionId: 's1' })).map((l) => l.messageId)).toEqual(['m1', 'm2', 'm3']);
      expect(await store.links({ messageIds: ['m3'] })).toEqual([link('m3', 's1', 3, 't2', 'm2')]);
      expect((await store.links({ topicIds: ['t1'] })).map((l) => l.messageId)).toEqual(['m1', 'm2']);
      // seq windows of one session, and the newest N (still in seq order)
      expect((await store.links({ sessionId: 's1', fromSeq: 2 })).map((l) => l.messageId)).toEqual(['m2', 'm3']);
      expect((await store.links({ sessionId: 's1', toSeq: 2 })).map((l) => l.messageId)).toEqual(['m1', 'm2']);
      expect(await store.links({ sessionId: 's1', fromSeq: 2, toSeq: 2 })).toEqual([link('m2', 's1', 2, 't1', 'm1')]);
      expect((await store.links({ sessionId: 's1', last: 2 })).map((l) => l.messageId)).toEqual(['m2', 'm3']);
      expect((await store.links({ sessionId: 's1', toSeq: 2, last: 1 })).map((l) => l.messageId)).toEqual(['m2']);
      expect(await store.links({ sessionId: 's1', last: 0 })).toEqual([]);
      expect((await store.links({ topicIds: ['t1'], last: 1 })).map((l) => l.messageId)).toEqual(['m2']);
      expect(await store.links({ sessionId: 's2', last: 5 })).toEqual([]);
      await store.writeTopics([
        { type: 'putTopics', topics: [{ ...first, importance: 0.9, accessCount: 3 }] },
        { type: 'deleteTopics', ids: ['t2'] },
      ]);
      expect((await store.topics({ sessionId: 's1' })).map((t) => [t.id, t.importance, t.accessCount])).toEqual([['t1', 0.9, 3]]);
    });

    it('stores cold text compressed, reads and finds it like verbatim text, and restores it', async () => {
      await store.writeTopics([
        { type: 'putTopics', topics: [topic('t1', 's1')] },
        { type: 'putLinks', links: [link('m1', 's1', 1, 't1'), link('m2', 's1', 2, 't1', 'm1')] },
      ]);
      const before = await store.messages({ sessionId: 's1' });
      await store.writeTopics([{ type: 'compress', messageIds: ['m1', 'm2', 'unknown'] }]);
      await store.writeTopics([{ type: 'compress', messageIds: ['m1'] }]);
      expect(await store.messages({ sessionId: 's1' })).toEqual(before);
      expect((await store.messages({ ids: ['m1'] }))[0]?.content).toBe(LONG);
      const [cold] = await store.topicStorage({ sessionId: 's1' });
      expect(cold).toMatchObject({ topicId: 't1', activeMessages: 0, compressedMessages: 2, textBytes: Buffer.byteLength(LONG) + 23 });
      expect(cold?.storedBytes).toBeLessThan((cold?.textBytes ?? 0) / 3);
      expect((await lexicalOf(store).search({ namespace: 'ns-a', text: 'ricotta oven', kinds: ['turn'], k: 5 })).map((h) => h.id)).toEqual(['m1']);
      await store.writeTopics([{ type: 'restore', messageIds: ['m1', 'm3'] }]);
      expect(await store.topicStorage({ sessionId: 's1' })).toEqual([{ topicId: 't1', activeMessages: 1, compressedMessages: 1, textBytes: cold?.textBytes, storedBytes: expect.any(Number) }]);
      expect(await store.messages({ sessionId: 's1' })).toEqual(before);
    });

    it('keeps the last of a topic or link given twice in one step, and compresses a message listed twice once', async () => {
      await store.writeTopics([
        { type: 'putTopics', topics: [topic('t1', 's1', { title: 'first' }), topic('t2', 's1'), topic('t1', 's1', { title: 'second', importance: 0.7 })] },
        { type: 'putLinks', links: [link('m1', 's1', 1, 't2'), link('m2', 's1', 2, 't1', 'm1'), link('m1', 's1', 1, 't1')] },
      ]);
      expect((await store.topics({ sessionId: 's1' })).map((t) => [t.id, t.title, t.importance])).toEqual([
        ['t1', 'second', 0.7],
        ['t2', topic('t2', 's1').title, topic('t2', 's1').importance],
      ]);
      expect((await store.links({ sessionId: 's1' })).map((l) => [l.messageId, l.topicId])).toEqual([
        ['m1', 't1'],
        ['m2', 't1'],
      ]);
      await store.writeTopics([{ type: 'compress', messageIds: ['m2', 'm1', 'm2'] }]);
      expect(await store.topicStorage({ sessionId: 's1' })).toMatchObject([{ topicId: 't1', activeMessages: 0, compressedMessages: 2 }]);
      expect((await store.messages({ ids: ['m2'] }))[0]?.content).toBe('Bake it for 45 minutes.');
      await store.writeTopics([{ type: 'restore', messageIds: ['m1', 'm1'] }]);
      expect(await store.topicStorage({ sessionId: 's1' })).toMatchObject([{ topicId: 't1', activeMessages: 1, compressedMessages: 1 }]);
      // a link to an unknown message among known ones is refused, naming it
      const refused = await store.writeTopics([{ type: 'putLinks', links: [link('m3', 's1', 3, 't1'), link('ghost-9', 's1', 9, 't1')] }]).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(StrataError.is(refused, 'NOT_FOUND') && refused.message).toContain('ghost-9');
      expect((await store.links({ sessionId: 's1' })).map((l) => l.messageId)).toEqual(['m1', 'm2']);
    });

    it('writes all or nothing, and refuses links to unknown messages and topics of unknown sessions', async () => {
      const failing = store.writeTopics([
        { type: 'putTopics', topics: [topic('t1', 's1')] },
        { type: 'compress', messageIds: ['m1'] },
        { type: 'putLinks', links: [link('ghost', 's1', 9, 't1')] },
      ]);
      await expect(failing).rejects.toSatisfy((e: unknown) => StrataError.is(e, 'NOT_FOUND'));
      expect(await store.topics({})).toEqual([]);
      expect(await store.topicStorage({ sessionId: 's1' })).toEqual([]);
      await expect(store.writeTopics([{ type: 'putTopics', topics: [topic('t9', 'no-session')] }])).rejects.toSatisfy((e: unknown) => StrataError.is(e, 'NOT_FOUND'));
      await store.writeTopics([
        { type: 'putTopics', topics: [topic('t1', 's1')] },
        { type: 'putLinks', links: [link('m1', 's1', 1, 't1')] },
      ]);
      expect((await store.messages({ ids: ['m1'] }))[0]?.content).toBe(LONG);
    });

    it('deleting a message deletes its link and cold text; deleting a session deletes its topics and links', async () => {
      await store.writeTopics([
        { type: 'putTopics', topics: [topic('t1', 's1'), topic('u1', 's2', { namespace: 'ns-b' })] },
        { type: 'putLinks', links: [link('m1', 's1', 1, 't1'), link('m2', 's1', 2, 't1', 'm1'), { ...link('n1', 's2', 1, 'u1'), namespace: 'ns-b' }] },
        { type: 'compress', messageIds: ['m1'] },
      ]);
      await store.write({ ops: [{ type: 'delete', messages: ['m1'] }] });
      expect((await store.links({ sessionId: 's1' })).map((l) => l.messageId)).toEqual(['m2']);
      expect(await store.topicStorage({ sessionId: 's1' })).toMatchObject([{ topicId: 't1', activeMessages: 1, compressedMessages: 0 }]);
      expect(await lexicalOf(store).search({ namespace: 'ns-a', text: 'ricotta', kinds: ['turn'], k: 5 })).toEqual([]);
      await store.write({ ops: [{ type: 'delete', sessions: ['s1'] }] });
      expect(await store.topics({ sessionId: 's1' })).toEqual([]);
      expect(await store.links({ sessionId: 's1' })).toEqual([]);
      expect((await store.topics({})).map((t) => t.id)).toEqual(['u1']);
    });
  });
}

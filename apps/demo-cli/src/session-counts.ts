import type { Session, StoredMessage } from '@strata/core';

/** What counting needs: a Memory (`memory.messages(id)`) or a session store (`store.messages({ sessionId })`) read through it. */
export type ReadMessages = (sessionId: string) => Promise<StoredMessage[]>;

/** Sessions with how many messages each holds now (the `sessions` listing, the web app's lists). */
export async function withMessageCounts(read: ReadMessages, sessions: Session[]): Promise<(Session & { messages: number })[]> {
  return Promise.all(sessions.map(async (s) => ({ ...s, messages: (await read(s.id)).length })));
}

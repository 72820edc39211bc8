import type { Memory, Session } from '@strata/core';

/** Sessions with how many messages each holds now (the `sessions` listing, the web app's lists). */
export async function withMessageCounts(memory: Memory, sessions: Session[]): Promise<(Session & { messages: number })[]> {
  return Promise.all(sessions.map(async (s) => ({ ...s, messages: (await memory.messages(s.id)).length })));
}

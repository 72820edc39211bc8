import type { Session } from '@strata/core';

/** The session store's `countMessages`: messages per session, counted on its index without reading them. */
export type CountMessages = (sessionIds: readonly string[]) => Promise<Map<string, number>>;

/** Sessions with how many messages each holds now (the `sessions` listing, the web app's lists): one count query for the page. */
export async function withMessageCounts(count: CountMessages, sessions: Session[]): Promise<(Session & { messages: number })[]> {
  const counts = await count(sessions.map((s) => s.id));
  return sessions.map((s) => ({ ...s, messages: counts.get(s.id) ?? 0 }));
}

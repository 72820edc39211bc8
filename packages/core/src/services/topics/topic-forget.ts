import type { Topic, TurnLink } from '../../domain/topic.js';
import { topicTitle } from '../../engine/topics/plan-attachment.js';
import type { TopicOp } from '../../ports/topic-store.js';
import type { MemoryDeps } from '../deps.js';
import { forget, type ForgetReport, type ForgetTarget } from '../lifecycle/forget.js';

/**
 * Forget, cascading to the conversation tree and topics. Deleting a session (or namespace)
 * deletes its topics and links in the store. Forgetting single turns deletes their links;
 * then their children follow the nearest remaining ancestor, a topic left without turns is
 * deleted, and a topic that lost turns drops what was derived from them: its centroid
 * (rebuilt by the turns that join later) and its title (taken from its first remaining turn).
 */
export async function forgetWithTopics(deps: MemoryDeps, target: ForgetTarget): Promise<ForgetReport> {
  if (!('messageIds' in target)) return forget(deps, target);
  const gone = await deps.topics.links({ messageIds: target.messageIds });
  const report = await forget(deps, target);
  for (const sessionId of new Set(gone.map((l) => l.sessionId))) {
    await repairSession(
      deps,
      sessionId,
      gone.filter((l) => l.sessionId === sessionId),
    );
  }
  return report;
}

async function repairSession(deps: MemoryDeps, sessionId: string, gone: readonly TurnLink[]): Promise<void> {
  const [links, topics] = await Promise.all([deps.topics.links({ sessionId }), deps.topics.topics({ sessionId })]);
  const parentOfGone = new Map(gone.map((l) => [l.messageId, l.parentId]));
  const relinked = links.filter((l) => l.parentId !== null && parentOfGone.has(l.parentId)).map((l) => ({ ...l, parentId: survivingAncestor(l.parentId, parentOfGone) }));
  const touched = new Set(gone.map((l) => l.topicId));
  const emptied: string[] = [];
  const retitle: { topic: Topic; firstId: string }[] = [];
  for (const topic of topics.filter((t) => touched.has(t.id))) {
    const first = links.find((l) => l.topicId === topic.id);
    if (first === undefined) emptied.push(topic.id);
    else retitle.push({ topic, firstId: first.messageId });
  }
  const firsts = retitle.length ? await deps.store.messages({ ids: retitle.map((r) => r.firstId) }) : [];
  const textOf = new Map(firsts.map((m) => [m.id, m.content]));
  const titled = retitle.map(({ topic, firstId }) => ({ ...topic, title: topicTitle(textOf.get(firstId) ?? '', deps.policy.topics.titleWords) || topic.title, centroid: [], vectorCount: 0 }));
  const ops: TopicOp[] = [
    { type: 'putLinks', links: relinked },
    { type: 'putTopics', topics: titled },
    { type: 'deleteTopics', ids: emptied },
  ];
  await deps.topics.writeTopics(ops);
}

function survivingAncestor(id: string | null, parentOfGone: ReadonlyMap<string, string | null>): string | null {
  let at = id;
  const seen = new Set<string>();
  while (at !== null && parentOfGone.has(at) && !seen.has(at)) {
    seen.add(at);
    at = parentOfGone.get(at) ?? null;
  }
  return at;
}

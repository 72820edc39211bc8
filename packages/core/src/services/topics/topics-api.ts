import type { Session } from '../../domain/session.js';
import type { Topic } from '../../domain/topic.js';
import type { MemoryDeps } from '../deps.js';
import type { Mutex } from '../mutex.js';
import { restoreTopic, setImportance, sweepTopics, type DecayReport } from './topic-decay.js';
import { listTopics, type TopicReport } from './topic-views.js';

/** `memory.topics`: the topics of a session, their decay and their cold storage. */
export interface TopicsApi {
  /** A session's topics, oldest first, with priority, half-life, memory type, access count and storage (active / compressed turns). */
  list(sessionId: string): Promise<TopicReport[]>;
  /** Sets a topic's importance, 0-1 (it scales the topic's priority). */
  setImportance(topicId: string, importance: number): Promise<Topic>;
  /** Applies decay now (one session, or all): topics under the floor leave the active set and their turns are compressed. */
  decay(options?: { sessionId?: string }): Promise<DecayReport>;
  /** Brings a topic back to the active set (counts as an access) and restores its turns verbatim. */
  restore(topicId: string): Promise<{ restored: number }>;
}

/**
 * Topic writes share the apply lock, so that they never interleave with turns being attached.
 * Every call first waits for the accesses earlier reads recorded (`settleAccesses`).
 */
export function topicsApi(deps: MemoryDeps, lock: Mutex, requireSession: (id: string) => Promise<Session>, settleAccesses: () => Promise<void>): TopicsApi {
  return {
    list: async (sessionId) => {
      await settleAccesses();
      return listTopics(deps, await requireSession(sessionId));
    },
    setImportance: async (topicId, importance) => {
      await settleAccesses();
      return lock.run(() => setImportance(deps, topicId, importance));
    },
    decay: async (options = {}) => {
      await settleAccesses();
      const session = options.sessionId === undefined ? undefined : await requireSession(options.sessionId);
      return lock.run(() => sweepTopics(deps, session?.id));
    },
    restore: async (topicId) => {
      await settleAccesses();
      return lock.run(() => restoreTopic(deps, topicId));
    },
  };
}

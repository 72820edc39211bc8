import type { Topic, TurnLink } from '../../domain/topic.js';
import { Table, type UndoLog } from './in-memory-table.js';

/** A message's text in cold storage; the message row then holds an empty content. */
export interface ColdText {
  messageId: string;
  bytes: Uint8Array;
  /** UTF-8 bytes of the original text. */
  textBytes: number;
}

/**
 * The topic side of the in-memory store: topics, links (the conversation tree) and cold
 * texts, sharing the session tables' undo log so that a failing batch reverts them too.
 */
export class InMemoryTopicTables {
  private readonly topicsBySession = new Map<string, Set<string>>();
  private readonly linksBySession = new Map<string, Set<string>>();
  private readonly linksByTopic = new Map<string, Set<string>>();

  readonly cold: Table<ColdText>;
  readonly topics: Table<Topic>;
  readonly links: Table<TurnLink>;

  constructor(undo: UndoLog) {
    this.cold = new Table<ColdText>((c) => c.messageId, undo);
    this.topics = new Table<Topic>((t) => t.id, undo, {
      attach: (t) => addTo(this.topicsBySession, t.sessionId, t.id),
      detach: (t) => removeFrom(this.topicsBySession, t.sessionId, t.id),
    });
    this.links = new Table<TurnLink>((l) => l.messageId, undo, {
      attach: (l) => {
        addTo(this.linksBySession, l.sessionId, l.messageId);
        addTo(this.linksByTopic, l.topicId, l.messageId);
      },
      detach: (l) => {
        removeFrom(this.linksBySession, l.sessionId, l.messageId);
        removeFrom(this.linksByTopic, l.topicId, l.messageId);
      },
    });
  }

  sessionTopicIds(sessionId: string): string[] {
    return [...(this.topicsBySession.get(sessionId) ?? [])];
  }

  sessionLinkIds(sessionId: string): string[] {
    return [...(this.linksBySession.get(sessionId) ?? [])];
  }

  topicLinkIds(topicId: string): string[] {
    return [...(this.linksByTopic.get(topicId) ?? [])];
  }

  /** Removes a deleted message's link and cold text. */
  dropMessage(messageId: string): void {
    this.links.delete(messageId);
    this.cold.delete(messageId);
  }

  /** Removes a deleted session's topics (its messages' links go with the messages). */
  dropSession(sessionId: string): void {
    for (const id of this.sessionTopicIds(sessionId)) this.topics.delete(id);
  }
}

function addTo(groups: Map<string, Set<string>>, group: string, key: string): void {
  let members = groups.get(group);
  if (members === undefined) {
    members = new Set();
    groups.set(group, members);
  }
  members.add(key);
}

function removeFrom(groups: Map<string, Set<string>>, group: string, key: string): void {
  const members = groups.get(group);
  if (members === undefined) return;
  members.delete(key);
  if (members.size === 0) groups.delete(group);
}

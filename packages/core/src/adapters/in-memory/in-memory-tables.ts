// Kept in one file: the tables and every secondary index their hooks keep in step, so that no index can miss a hook.
import type { Fact, JobRecord, Summary } from '../../domain/derived.js';
import type { StoredMessage } from '../../domain/message.js';
import type { Session } from '../../domain/session.js';
import { restoreText } from '../../engine/topics/cold-text.js';
import { turnLexicalText } from '../../lexical/turn-lexical-text.js';
import { factLexicalText, predicateKind } from '../../lexical/fact-lexical-text.js';
import { InMemoryLexicalIndex } from './in-memory-lexical-index.js';
import { InMemoryTopicTables } from './in-memory-topic-tables.js';
import { Table, UndoLog } from './in-memory-table.js';

/**
 * The whole state of an in-memory session store: one table per record type, plus
 * secondary indexes (messages per session in seq order, summaries / jobs per session,
 * facts per namespace, the lexical index) that the table hooks keep in step.
 */
export class InMemoryTables {
  readonly undo = new UndoLog();
  readonly lexical = new InMemoryLexicalIndex();
  private readonly messagesBySession = new Map<string, StoredMessage[]>();
  private readonly summariesBySession = new Map<string, Map<string, Summary>>();
  /** Summaries by session and level, in ascending toSeq: planning reads those after the synopsis without walking all. */
  private readonly summariesByLevel = new Map<string, Summary[]>();
  private readonly jobsBySession = new Map<string, Map<string, JobRecord>>();
  private readonly factsByNamespace = new Map<string, Map<string, Fact>>();
  /** Facts by namespace and predicate kind, so a profile read does not walk every fact. */
  private readonly currentFactsByKind = new Map<string, Map<string, Fact>>();
  /** Facts by namespace and slot (subject, predicate), so reconciling a new fact does not walk every fact. */
  private readonly factsBySlot = new Map<string, Map<string, Fact>>();

  readonly sessions = new Table<Session>((session) => session.id, this.undo);
  readonly topic = new InMemoryTopicTables(this.undo);

  readonly messages = new Table<StoredMessage>((message) => message.id, this.undo, {
    attach: (message) => {
      insertBySeq(this.messagesBySession, message);
      this.lexical.add(message.namespace, turnEntry(message), turnLexicalText({ ...message, content: this.textOf(message) }));
    },
    detach: (message) => {
      removeBySeq(this.messagesBySession, message);
      this.lexical.remove(message.namespace, 'turn', message.id);
    },
  });

  readonly summaries = new Table<Summary>((summary) => summary.id, this.undo, {
    attach: (summary) => {
      addToGroup(this.summariesBySession, summary.sessionId, summary.id, summary);
      insertByToSeq(this.summariesByLevel, levelGroup(summary.sessionId, summary.level), summary);
      const entry = { kind: 'summary' as const, id: summary.id, sessionId: summary.sessionId };
      this.lexical.add(summary.namespace, entry, summary.text);
    },
    detach: (summary) => {
      removeFromGroup(this.summariesBySession, summary.sessionId, summary.id);
      removeByToSeq(this.summariesByLevel, levelGroup(summary.sessionId, summary.level), summary);
      this.lexical.remove(summary.namespace, 'summary', summary.id);
    },
  });

  readonly facts = new Table<Fact>((fact) => fact.id, this.undo, {
    attach: (fact) => {
      addToGroup(this.factsByNamespace, fact.namespace, fact.id, fact);
      addToGroup(this.factsBySlot, slotGroup(fact.namespace, fact.subject, fact.predicate), fact.id, fact);
      // Superseded facts stay in the table for history but leave the lexical index.
      if (isCurrentFact(fact)) {
        addToGroup(this.currentFactsByKind, kindGroup(fact.namespace, predicateKind(fact.predicate)), fact.id, fact);
        this.lexical.add(fact.namespace, { kind: 'fact', id: fact.id, sessionId: null }, factLexicalText(fact));
      }
    },
    detach: (fact) => {
      removeFromGroup(this.factsByNamespace, fact.namespace, fact.id);
      removeFromGroup(this.currentFactsByKind, kindGroup(fact.namespace, predicateKind(fact.predicate)), fact.id);
      removeFromGroup(this.factsBySlot, slotGroup(fact.namespace, fact.subject, fact.predicate), fact.id);
      this.lexical.remove(fact.namespace, 'fact', fact.id);
    },
  });

  readonly jobs = new Table<JobRecord>((job) => job.key, this.undo, {
    attach: (job) => addToGroup(this.jobsBySession, job.sessionId, job.key, job),
    detach: (job) => removeFromGroup(this.jobsBySession, job.sessionId, job.key),
  });

  /** A message's text, from cold storage when it is compressed. */
  textOf(message: StoredMessage): string {
    const cold = this.topic.cold.get(message.id);
    return cold === undefined ? message.content : restoreText(cold.bytes);
  }

  /** Messages of one session in ascending seq order; do not mutate. */
  sessionMessages(sessionId: string): readonly StoredMessage[] {
    return this.messagesBySession.get(sessionId) ?? [];
  }

  messageAtSeq(sessionId: string, seq: number): StoredMessage | undefined {
    const list = this.sessionMessages(sessionId);
    const message = list[lowerBound(list, seq)];
    return message?.seq === seq ? message : undefined;
  }

  sessionSummaries(sessionId: string): Summary[] {
    return [...(this.summariesBySession.get(sessionId)?.values() ?? [])];
  }

  /** One session's summaries of one level with `toSeq >= minToSeq`, by a binary search. */
  sessionSummariesAtLevel(sessionId: string, level: Summary['level'], minToSeq: number): Summary[] {
    const list = this.summariesByLevel.get(levelGroup(sessionId, level)) ?? [];
    return list.slice(toSeqBound(list, minToSeq, ''));
  }

  sessionJobs(sessionId: string): JobRecord[] {
    return [...(this.jobsBySession.get(sessionId)?.values() ?? [])];
  }

  /** Facts of one slot of a namespace. */
  slotFacts(namespace: string, subject: string, predicate: string): Fact[] {
    return [...(this.factsBySlot.get(slotGroup(namespace, subject, predicate))?.values() ?? [])];
  }

  namespaceFacts(namespace: string): Fact[] {
    return [...(this.factsByNamespace.get(namespace)?.values() ?? [])];
  }

  /** Current facts of a namespace whose predicate kind is one of `kinds` (superseded ones pile up: a profile read skips them). */
  currentKindFacts(namespace: string, kinds: readonly string[]): Fact[] {
    return [...new Set(kinds)].flatMap((kind) => [...(this.currentFactsByKind.get(kindGroup(namespace, kind))?.values() ?? [])]);
  }
}

function kindGroup(namespace: string, kind: string): string {
  return `${namespace}\u0000${kind}`;
}

/** A fact is current until supersession sets its `validTo`. */
export function isCurrentFact(fact: Fact): boolean {
  return typeof fact.validTo !== 'number';
}

/**
 * Index of the first message whose seq is >= `seq`. A session's seqs are usually dense (1, 2,
 * 3, ...; forgetting leaves holes), so the index the first seq predicts is tried first: a
 * binary search over a long session costs a cache miss per step.
 */
export function lowerBound(list: readonly StoredMessage[], seq: number): number {
  const first = list[0];
  if (first === undefined || seq <= first.seq) return 0;
  const guess = seq - first.seq;
  if (guess < list.length && list[guess]?.seq === seq && (list[guess - 1]?.seq ?? -Infinity) < seq) return guess;
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((list[mid]?.seq ?? Infinity) < seq) low = mid + 1;
    else high = mid;
  }
  return low;
}

function turnEntry(message: StoredMessage): { kind: 'turn'; id: string; sessionId: string } {
  return { kind: 'turn', id: message.id, sessionId: message.sessionId };
}

function insertBySeq(bySession: Map<string, StoredMessage[]>, message: StoredMessage): void {
  let list = bySession.get(message.sessionId);
  if (list === undefined) {
    list = [];
    bySession.set(message.sessionId, list);
  }
  const last = list[list.length - 1];
  // Appends arrive in seq order, so the common case is a push, not a splice.
  if (last === undefined || last.seq < message.seq) list.push(message);
  else list.splice(lowerBound(list, message.seq), 0, message);
}

function removeBySeq(bySession: Map<string, StoredMessage[]>, message: StoredMessage): void {
  const list = bySession.get(message.sessionId);
  if (list === undefined) return;
  const index = lowerBound(list, message.seq);
  if (list[index]?.id === message.id) list.splice(index, 1);
  if (list.length === 0) bySession.delete(message.sessionId);
}

function slotGroup(namespace: string, subject: string, predicate: string): string {
  return `${namespace}\u0000${subject}\u0000${predicate}`;
}

function levelGroup(sessionId: string, level: Summary['level']): string {
  return `${sessionId}\u0000${level}`;
}

/** The first index whose (toSeq, id) is not below (toSeq, id). */
function toSeqBound(list: readonly Summary[], toSeq: number, id: string): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    const row = list[mid];
    if (row !== undefined && (row.toSeq < toSeq || (row.toSeq === toSeq && row.id < id))) low = mid + 1;
    else high = mid;
  }
  return low;
}

function insertByToSeq(groups: Map<string, Summary[]>, group: string, summary: Summary): void {
  let list = groups.get(group);
  if (list === undefined) {
    list = [];
    groups.set(group, list);
  }
  list.splice(toSeqBound(list, summary.toSeq, summary.id), 0, summary);
}

function removeByToSeq(groups: Map<string, Summary[]>, group: string, summary: Summary): void {
  const list = groups.get(group);
  if (list === undefined) return;
  const at = toSeqBound(list, summary.toSeq, summary.id);
  if (list[at]?.id === summary.id) list.splice(at, 1);
  if (list.length === 0) groups.delete(group);
}

function addToGroup<T>(groups: Map<string, Map<string, T>>, group: string, key: string, row: T): void {
  let members = groups.get(group);
  if (members === undefined) {
    members = new Map();
    groups.set(group, members);
  }
  members.set(key, row);
}

function removeFromGroup<T>(groups: Map<string, Map<string, T>>, group: string, key: string): void {
  const members = groups.get(group);
  if (members === undefined) return;
  members.delete(key);
  if (members.size === 0) groups.delete(group);
}

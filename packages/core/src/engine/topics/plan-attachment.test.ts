import { describe, expect, it } from 'vitest';
import type { Role } from '../../domain/message.js';
import type { Topic, TurnLink } from '../../domain/topic.js';
import { planAttachment, type AttachInput } from './plan-attachment.js';

const policy = { similarityThreshold: 0.5, defaultImportance: 0.5, titleWords: 3 };
const X = [1, 0];
const Y = [0, 1];
const turn = (seq: number, role: Role, vector: number[] = [], content = `turn ${seq} text here`) => ({
  turn: { id: `m${seq}`, seq, role, content, createdAt: seq * 1000 },
  vector,
});
const topic = (id: string, centroid: number[], over: Partial<Topic> = {}): Topic => ({
  id,
  sessionId: 's',
  namespace: 'ns',
  title: id,
  importance: 0.5,
  accessCount: 0,
  lastActiveAt: 0,
  createdAt: 0,
  centroid,
  vectorCount: 1,
  ...over,
});
const link = (seq: number, role: Role, parentSeq: number | null, topicId: string): TurnLink => ({
  messageId: `m${seq}`,
  sessionId: 's',
  namespace: 'ns',
  seq,
  role,
  parentId: parentSeq === null ? null : `m${parentSeq}`,
  topicId,
});
const input = (over: Partial<AttachInput>): AttachInput => ({ sessionId: 's', namespace: 'ns', topics: [], links: [], turns: [], chosenParents: new Map(), policy, ...over });
/** `seq:parentSeq@topic` per new link, for compact tables. */
const shape = (links: TurnLink[]) => links.map((l) => `${l.seq}:${l.parentId?.slice(1) ?? '-'}@${l.topicId}`);

describe('planAttachment', () => {
  it.each([
    {
      name: 'first exchange opens a topic; the reply follows the question',
      given: input({ turns: [turn(1, 'user', X), turn(2, 'assistant', X)] }),
      links: ['1:-@top_', '2:1@top_'],
    },
    {
      name: 'linear by default: a user turn follows the newest reply, joins the similar topic',
      given: input({ topics: [topic('ta', X)], links: [link(1, 'user', null, 'ta'), link(2, 'assistant', 1, 'ta')], turns: [turn(3, 'user', X)] }),
      links: ['3:2@ta'],
    },
    {
      name: 'a dissimilar user turn opens a new topic, still following the newest reply',
      given: input({ topics: [topic('ta', X)], links: [link(1, 'user', null, 'ta'), link(2, 'assistant', 1, 'ta')], turns: [turn(3, 'user', Y), turn(4, 'assistant', Y)] }),
      links: ['3:2@top_', '4:3@top_'],
    },
    {
      name: 'the chosen parent branches the tree',
      given: input({
        topics: [topic('ta', X), topic('tb', Y)],
        links: [link(1, 'user', null, 'ta'), link(2, 'assistant', 1, 'ta'), link(3, 'user', 2, 'tb'), link(4, 'assistant', 3, 'tb')],
        turns: [turn(5, 'user', X)],
        chosenParents: new Map([['m5', 'm2']]),
      }),
      links: ['5:2@ta'],
    },
    {
      name: 'a chosen parent that is not an earlier reply is ignored',
      given: input({ topics: [topic('ta', X)], links: [link(1, 'user', null, 'ta'), link(2, 'assistant', 1, 'ta')], turns: [turn(3, 'user', X)], chosenParents: new Map([['m3', 'm1']]) }),
      links: ['3:2@ta'],
    },
    {
      name: 'a user turn without a vector stays in its parent topic',
      given: input({ topics: [topic('ta', X)], links: [link(1, 'user', null, 'ta'), link(2, 'assistant', 1, 'ta')], turns: [turn(3, 'user', [])] }),
      links: ['3:2@ta'],
    },
    {
      name: 'tool and system turns follow the turn before them',
      given: input({ topics: [topic('ta', X)], links: [link(1, 'user', null, 'ta')], turns: [turn(3, 'tool', Y), turn(2, 'assistant', Y)] }),
      links: ['2:1@ta', '3:2@ta'],
    },
  ])('$name', ({ given, links }) => {
    const plan = planAttachment(given);
    expect(shape(plan.links).map((s) => s.replace(/@top_[A-Za-z0-9_-]+/, '@top_'))).toEqual(links);
  });

  it('returning to another topic is an access and brings a cold topic back; continuing is not', () => {
    const plan = planAttachment(
      input({
        topics: [topic('ta', X, { coldSince: 5, accessCount: 1 }), topic('tb', Y)],
        links: [link(1, 'user', null, 'ta'), link(2, 'assistant', 1, 'ta'), link(3, 'user', 2, 'tb'), link(4, 'assistant', 3, 'tb')],
        turns: [turn(5, 'user', Y), turn(6, 'assistant', Y), turn(7, 'user', X)],
      }),
    );
    const byId = new Map(plan.topics.map((t) => [t.id, t]));
    expect(plan.returned).toEqual(['ta']);
    expect(byId.get('ta')).toMatchObject({ accessCount: 2, lastActiveAt: 7000 });
    expect(byId.get('ta')?.coldSince).toBeUndefined();
    expect(byId.get('tb')).toMatchObject({ accessCount: 0, lastActiveAt: 6000, vectorCount: 3 });
  });

  it('titles a new topic from its opening turn and is stable across replays', () => {
    const given = input({ turns: [turn(1, 'user', X, 'Which lasagna recipe uses spinach?')] });
    const first = planAttachment(given);
    expect(first.topics[0]).toMatchObject({ title: 'Which lasagna recipe …', importance: 0.5, accessCount: 0, centroid: [1, 0] });
    expect(planAttachment(given)).toEqual(first);
  });
});

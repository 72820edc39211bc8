import { describe, expect, it } from 'vitest';
import type { Topic, TurnLink } from '../../domain/topic.js';
import { renderMermaid } from './render-mermaid.js';

const topic = (id: string, title: string, coldSince?: number): Topic => ({
  id,
  sessionId: 's',
  namespace: 'ns',
  title,
  importance: 0.5,
  accessCount: 0,
  lastActiveAt: 0,
  createdAt: 0,
  centroid: [],
  vectorCount: 0,
  ...(coldSince === undefined ? {} : { coldSince }),
});
const link = (seq: number, role: TurnLink['role'], parentSeq: number | null, topicId: string): TurnLink => ({
  messageId: `m${seq}`,
  sessionId: 's',
  namespace: 'ns',
  seq,
  role,
  parentId: parentSeq === null ? null : `m${parentSeq}`,
  topicId,
});
const turn = (seq: number, role: string, content: string) => ({ id: `m${seq}`, seq, role, content });

describe('renderMermaid', () => {
  it('escapes # in labels, so that typed text never reads as a Mermaid entity', () => {
    const out = renderMermaid([turn(1, 'user', 'C# tips: #1; #quot; and 50#')], [link(1, 'user', null, 'ta')], [topic('ta', 'C# #35;')]);
    expect(out).toContain('subgraph topic_ta["C#35; #35;35;"]');
    expect(out).toContain('t1["#1 user: C#35; tips: #35;1; #35;quot; and 50#35;"]');
  });

  it('draws turns in topic subgraphs, edges from parent to child, cold topics classed', () => {
    const out = renderMermaid(
      [turn(1, 'user', 'Berlin "bike" lanes?'), turn(2, 'assistant', 'Yes [many]'), turn(3, 'user', 'Lasagna recipe?'), turn(4, 'assistant', 'Bake it'), turn(5, 'user', 'back to Berlin')],
      [link(1, 'user', null, 'ta'), link(2, 'assistant', 1, 'ta'), link(3, 'user', 2, 'tb'), link(4, 'assistant', 3, 'tb'), link(5, 'user', 2, 'ta')],
      [topic('ta', 'Berlin'), topic('tb', 'Lasagna', 7)],
    );
    expect(out).toBe(
      [
        'flowchart TD',
        '  subgraph topic_ta["Berlin"]',
        '    t1["#1 user: Berlin #quot;bike#quot; lanes?"]',
        '    t2["#2 assistant: Yes  many "]',
        '    t5["#5 user: back to Berlin"]',
        '  end',
        '  subgraph topic_tb["Lasagna (cold)"]',
        '    t3["#3 user: Lasagna recipe?"]',
        '    t4["#4 assistant: Bake it"]',
        '  end',
        '  t1 --> t2',
        '  t2 --> t3',
        '  t3 --> t4',
        '  t2 --> t5',
        '  classDef cold fill:#eef,stroke:#99a,color:#557',
        '  class topic_tb cold',
        '',
      ].join('\n'),
    );
  });

  it('truncates long labels and skips turns without a link', () => {
    const out = renderMermaid([turn(1, 'user', 'x'.repeat(100)), turn(2, 'assistant', 'unlinked')], [link(1, 'user', null, 'ta')], [topic('ta', 'T')], 10);
    expect(out).toContain('t1["#1 user: xxxxxxxxx…"]');
    expect(out).not.toContain('unlinked');
  });
});

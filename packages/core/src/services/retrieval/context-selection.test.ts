import { describe, expect, it } from 'vitest';
import type { Fact } from '../../domain/derived.js';
import type { StoredMessage } from '../../domain/message.js';
import { pickFacts } from './context-selection.js';
import type { Retrieved } from './retrieve.js';

const fact = (id: string, predicate: string, sources: string[]): Retrieved => {
  const record = {
    id,
    namespace: 'n',
    subject: 'ana',
    predicate,
    object: 'x',
    text: `fact ${id}`,
    sourceMessageIds: sources,
    validFrom: 1,
    confidence: 0.8,
    createdAt: 1,
    degraded: false,
  } satisfies Fact;
  return { kind: 'fact', id, text: record.text, score: 1, sessionId: null, messageIds: sources, createdAt: 1, record };
};
const turn = (id: string): Retrieved => {
  const record = { id, role: 'user', content: id, createdAt: 1, metadata: {}, sessionId: 's', namespace: 'n', seq: 1 } satisfies StoredMessage;
  return { kind: 'turn', id, text: id, score: 1, sessionId: 's', messageIds: [id], createdAt: 1, record };
};

describe('pickFacts', () => {
  it('leaves out an observation whose source turns are all recalled verbatim, and keeps the rest', () => {
    const recall = [turn('m1'), turn('m2')];
    const out = pickFacts([fact('retold', 'observation:paint lighthous', ['m1']), fact('half', 'observation:trip', ['m2', 'm9']), fact('job', 'job_title', ['m1'])], recall);
    expect(out.kept.map((f) => f.id)).toEqual(['half', 'job']);
    expect(out.redundant.map((r) => [r.hit.id, r.reason])).toEqual([['retold', 'redundant: its source turns are recalled verbatim']]);
  });
});

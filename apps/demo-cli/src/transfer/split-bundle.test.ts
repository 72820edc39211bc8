import { describe, expect, it } from 'vitest';
import type { ExportBundle, Fact } from '@strata/core';
import { mergeBundles } from './merge-bundles.js';
import { inFileTerms, splitBundle } from './split-bundle.js';

const session = (id: string, messageIds: string[]): ExportBundle['sessions'][number] => ({
  session: { id, namespace: 'ns', metadata: {}, createdAt: 0, updatedAt: 0, lastSeq: messageIds.length },
  messages: messageIds.map((m, i) => ({ id: m, sessionId: id, namespace: 'ns', seq: i + 1, role: 'user', content: m, createdAt: 0, metadata: {} })),
  summaries: [],
  jobs: [],
});
const fact = (id: string, sourceMessageIds: string[]): Fact => ({
  id,
  namespace: 'ns',
  subject: 'user',
  predicate: 'p',
  object: id,
  text: id,
  sourceMessageIds,
  validFrom: 0,
  confidence: 1,
  createdAt: 0,
  degraded: false,
});
const bundle = (sessions: ExportBundle['sessions'], facts: Fact[]): ExportBundle => ({ format: 'strata-bundle', version: 1, exportedAt: '', sessions, facts });

describe('splitBundle (import progress per session)', () => {
  const a = session('a', ['a1', 'a2']);
  const b = session('b', ['b1']);
  const c = session('c', ['c1']);

  it('gives each fact to the last session holding one of its sources, exactly once', () => {
    const parts = splitBundle(bundle([a, b, c], [fact('only-a', ['a1']), fact('a-and-c', ['a2', 'c1']), fact('b', ['b1']), fact('orphan', ['gone'])]));
    expect(parts.map((p) => [p.bundle.sessions.map((s) => s.session.id), p.bundle.facts.map((f) => f.id)])).toEqual([
      [['a'], ['only-a']],
      [['b'], ['b']],
      [['c'], ['a-and-c', 'orphan']],
    ]);
    expect(parts.map((p) => [p.sessionIndex, p.factIndices])).toEqual([
      [0, [0]],
      [1, [2]],
      [2, [1, 3]],
    ]);
  });

  it('names the records of an error about a part by their place in the file', () => {
    const [, , last] = splitBundle(bundle([a, b, c], [fact('only-a', ['a1']), fact('a-and-c', ['a2', 'c1']), fact('b', ['b1']), fact('orphan', ['gone'])]));
    expect(inFileTerms('→ at sessions[0].messages[0].content; → at facts[1].text; facts[7]', last!)).toBe('→ at sessions[2].messages[0].content; → at facts[3].text; facts[7]');
  });

  it('is undone by mergeBundles (facts shared by sessions kept once)', () => {
    const shared = fact('shared', ['a1', 'b1']);
    const merged = mergeBundles([bundle([a], [shared, fact('x', ['a2'])]), bundle([b], [shared])], 'now');
    expect(merged.sessions.map((s) => s.session.id)).toEqual(['a', 'b']);
    expect(merged.facts.map((f) => f.id)).toEqual(['shared', 'x']);
    expect(merged.version).toBe(1);
    expect(mergeBundles([bundle([a], []), { ...bundle([b], []), version: 2 }], 'now').version).toBe(2);
    expect(
      splitBundle(merged)
        .flatMap((p) => p.bundle.facts.map((f) => f.id))
        .sort(),
    ).toEqual(['shared', 'x']);
  });
});

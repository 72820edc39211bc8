import { describe, expect, it } from 'vitest';
import { StrataError } from '@strata/core';
import type { TurnMessage } from './language-model-types.js';
import { fromPlainJson, toPlainJson } from './plain-json.js';
import { overlapLength } from './strata-memory.js';
import { pairToolCalls } from './strata-prompt.js';

const call = (id: string): TurnMessage => ({
  role: 'assistant',
  content: [
    { type: 'text', text: `calling ${id}` },
    { type: 'tool-call', toolCallId: id, toolName: 'weather', input: {} },
  ],
});
const result = (id: string): TurnMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, toolName: 'weather', output: { type: 'text', value: 'sunny' } }] });
const user = (text: string): TurnMessage => ({ role: 'user', content: [{ type: 'text', text }] });

describe('pairToolCalls', () => {
  it('keeps calls with their results', () => {
    const messages = [user('q'), call('a'), result('a')];
    expect(pairToolCalls(messages)).toEqual(messages);
  });

  it('drops a call whose result was cut, keeping the text of its message', () => {
    expect(pairToolCalls([user('q'), call('a')])).toEqual([user('q'), { role: 'assistant', content: [{ type: 'text', text: 'calling a' }] }]);
  });

  it('drops a result whose call was cut, and the message it leaves empty', () => {
    expect(pairToolCalls([result('a'), user('q')])).toEqual([user('q')]);
  });

  it('keeps a call answered elsewhere (in the current turn)', () => {
    expect(pairToolCalls([call('a')], new Set(['a']))).toEqual([call('a')]);
  });
});

describe('overlapLength', () => {
  it('is the longest prefix of the prompt that ends the stored turns', () => {
    expect(overlapLength(['u1', 'a1', 'u2'], ['u0', 'u1', 'a1'])).toBe(2);
    expect(overlapLength(['u2'], ['u1', 'a1'])).toBe(0);
    expect(overlapLength(['u1', 'a1'], ['u1', 'a1'])).toBe(2);
    expect(overlapLength([], ['u1'])).toBe(0);
    // a repeated exchange: the longest match wins
    expect(overlapLength(['hi', 'hello', 'hi', 'hello', 'hi'], ['hi', 'hello', 'hi', 'hello'])).toBe(4);
  });
});

describe('plain JSON for stored turns', () => {
  it('keeps bytes, drops undefined fields, turns URLs into strings', () => {
    const value = { data: new Uint8Array([0, 255, 7]), url: new URL('https://example.com/a.png'), gone: undefined, list: [1, 'two', null] };
    const plain = toPlainJson(value);
    expect(JSON.parse(JSON.stringify(plain))).toEqual(plain);
    expect(fromPlainJson(plain)).toEqual({ data: new Uint8Array([0, 255, 7]), url: 'https://example.com/a.png', list: [1, 'two', null] });
  });

  it('refuses what JSON cannot hold, naming the path', () => {
    for (const bad of [{ at: { f: () => 1 } }, { at: Number.NaN }, { at: new Map() }, { at: { __strata_bytes__: 'x' } }]) {
      const error = (() => {
        try {
          toPlainJson(bad);
        } catch (e) {
          return e;
        }
      })();
      expect(StrataError.is(error, 'INVALID_INPUT')).toBe(true);
      expect((error as StrataError).message).toMatch(/^message\.at/);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { InMemoryStore, type BaseStore } from '@langchain/langgraph';
import { StrataError, type Memory } from '@strata/core';
import { StrataStore, type StrataStoreOptions } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

/** What a call rejected with: its code and hint for a StrataError, else its class name. */
async function refusal(call: Promise<unknown>) {
  try {
    await call;
    return 'resolved';
  } catch (error) {
    if (!StrataError.is(error)) return (error as Error).name;
    expect(error.hint.length).toBeGreaterThan(20);
    return { code: error.code, message: error.message };
  }
}

const invalid = (message: RegExp) => ({ code: 'INVALID_INPUT', message: expect.stringMatching(message) as unknown });

/** Inputs InMemoryStore takes (it checks only namespaces) that strata refuses, and why. */
const REFUSED: { name: string; call: (store: BaseStore) => Promise<unknown>; message: RegExp }[] = [
  { name: 'a string value', call: (s) => s.put(['u1'], 'k', 'just text' as unknown as Record<string, unknown>), message: /value of "k" must be a plain object or null \(got string "just text"\)/ },
  { name: 'an array value', call: (s) => s.put(['u1'], 'k', [1, 2] as unknown as Record<string, unknown>), message: /got an array/ },
  { name: 'a class instance as value', call: (s) => s.put(['u1'], 'k', new Map() as unknown as Record<string, unknown>), message: /got a Map/ },
  { name: 'a Date inside the value (not plain JSON)', call: (s) => s.put(['u1'], 'k', { when: new Date(0) }), message: /the value of "k" cannot be stored: \$\.when is a Date/ },
  { name: 'a number that is not finite', call: (s) => s.put(['u1'], 'k', { n: Number.NaN }), message: /the value of "k" cannot be stored: \$\.n is NaN/ },
  { name: 'an empty key', call: (s) => s.put(['u1'], '', { v: 1 }), message: /key must be a non-empty string \(got ""\)/ },
  { name: 'a key with surrounding whitespace', call: (s) => s.put(['u1'], ' k', { v: 1 }), message: /key " k" starts or ends with whitespace/ },
  { name: 'a label with a control character', call: (s) => s.put(['u\n1'], 'k', { v: 1 }), message: /namespace \["u\\n1"\] has a label that holds an invisible or control character/ },
  { name: 'a label not in NFC', call: (s) => s.put(['Cafe\u0301'], 'k', { v: 1 }), message: /not in Unicode NFC/ },
  { name: 'index that is not false or field paths', call: (s) => s.put(['u1'], 'k', { v: 1 }, 'v' as unknown as string[]), message: /index must be false or an array of field paths/ },
  { name: 'a negative limit', call: (s) => s.search(['u1'], { limit: -1 }), message: /limit must be a non-negative integer \(got -1\)/ },
  { name: 'a fractional offset', call: (s) => s.listNamespaces({ offset: 1.5 }), message: /offset must be a non-negative integer/ },
  { name: 'a filter that is not an object', call: (s) => s.search(['u1'], { filter: 'kind' as unknown as Record<string, unknown> }), message: /filter must be an object/ },
];

describe('StrataStore input', () => {
  for (const row of REFUSED) {
    it(`refuses ${row.name} with INVALID_INPUT and a hint (InMemoryStore takes it)`, async () => {
      const { memory } = await createTestMemory();
      const store = new StrataStore({ memory, namespace: 'store' });
      expect(await refusal(row.call(store))).toEqual(invalid(row.message));
      expect(await store.search([])).toEqual([]);
      // the namespace rules InMemoryStore applies are met: only strata's own rules refuse it
      expect(await refusal(row.call(new InMemoryStore()).then(() => undefined))).not.toBe('InvalidNamespaceError');
      await memory.close();
    });
  }

  it('a batch with one refused put writes nothing', async () => {
    const { memory } = await createTestMemory();
    const store = new StrataStore({ memory, namespace: 'store' });
    const batch = store.batch([
      { namespace: ['u1'], key: 'ok', value: { v: 1 } },
      { namespace: ['u2'], key: '', value: { v: 2 } },
    ]);
    expect(await refusal(batch)).toEqual(invalid(/key must be a non-empty string/));
    expect([await store.get(['u1'], 'ok'), await memory.sessions.list({ namespace: 'store' })]).toEqual([null, []]);
    await memory.close();
  });

  it('a batch whose later put holds a value that is not JSON writes nothing in any namespace', async () => {
    const { memory } = await createTestMemory();
    const store = new StrataStore({ memory, namespace: 'store' });
    const batch = store.batch([
      { namespace: ['u1'], key: 'ok', value: { v: 1 } },
      { namespace: ['u2'], key: 'bad', value: { at: new Date(0) } },
    ]);
    expect(await refusal(batch)).toEqual(invalid(/the value of "bad" cannot be stored/));
    expect([await store.get(['u1'], 'ok'), await memory.sessions.list({ namespace: 'store' })]).toEqual([null, []]);
    await memory.close();
  });

  it('takes labels and keys with any visible text, spaces and emoji', async () => {
    const { memory } = await createTestMemory();
    const store = new StrataStore({ memory, namespace: 'store' });
    await store.put(['user 42', 'Ação', '🎒'], 'favourite food', { text: 'ramen' });
    expect((await store.get(['user 42', 'Ação', '🎒'], 'favourite food'))?.value).toEqual({ text: 'ramen' });
    expect(await store.listNamespaces()).toEqual([['user 42', 'Ação', '🎒']]);
    await memory.close();
  });

  it('refuses options it cannot use with CONFIG_INVALID', async () => {
    const { memory } = await createTestMemory();
    const attempts: unknown[] = [
      { memory, namespace: '' },
      { memory, namespace: ' padded' },
      { namespace: 'store' },
      { memory, namespace: 'store', index: { dims: 256, embeddings: {}, fields: ['text'] } },
      { memory, namespace: 'store', index: { fields: [] } },
    ];
    for (const options of attempts) {
      let caught: unknown;
      try {
        new StrataStore(options as StrataStoreOptions);
      } catch (error) {
        caught = error;
      }
      expect(StrataError.is(caught, 'CONFIG_INVALID'), JSON.stringify(Object.keys(options as object))).toBe(true);
    }
    await (memory as Memory).close();
  });
});

import { describe, expect, it } from 'vitest';
import { TiktokenTokenCounter } from '../src/models/tokens/tiktoken-token-counter.js';
import type { TokenCounter } from '../src/ports/models.js';
import { createTestMemory } from './helpers.js';

/** The default counter, recording every text it is asked to count. */
function recordingCounter(name = 'tiktoken:o200k_base'): TokenCounter & { texts: string[] } {
  const inner = new TiktokenTokenCounter();
  const texts: string[] = [];
  return {
    name,
    texts,
    count: (text) => {
      texts.push(text);
      return inner.count(text);
    },
  };
}

const TURNS = Array.from({ length: 40 }, (_, i) => ({ role: i % 2 ? ('assistant' as const) : ('user' as const), content: `turn ${i}: notes on the garden plan number ${i}` }));

describe('token counts stored with each turn', () => {
  it('counts a large append a slice at a time, yielding the event loop between slices; every turn counted in order before it is stored, one time for all', async () => {
    const tokens = recordingCounter();
    const { memory } = await createTestMemory({ tokens });
    const session = await memory.sessions.create({ namespace: 'ns' });
    const many = Array.from({ length: 1000 }, (_, i) => ({ role: 'user' as const, content: `history turn ${i}` }));
    let turns = 0;
    let timer = setImmediate(function tick() {
      turns++;
      timer = setImmediate(tick);
    });
    const stored = await memory.append(session.id, many);
    clearImmediate(timer);
    expect(turns).toBeGreaterThan(5);
    expect(stored.map((m) => m.content)).toEqual(many.map((m) => m.content));
    expect(stored.map((m) => m.seq)).toEqual(many.map((_, i) => i + 1));
    // counted before the write, in order (derivation counts what it builds later)
    expect(tokens.texts.slice(0, many.length)).toEqual(many.map((m) => m.content));
    expect(new Set(stored.map((m) => m.createdAt)).size).toBe(1);
    await memory.close();
  });

  it('counts a turn once when it is stored, never again for getContext', async () => {
    const tokens = recordingCounter();
    // a long immediate tier, so every turn is a recent candidate of each getContext
    const { memory, store } = await createTestMemory({ tokens, policy: { immediate: { maxMessages: 100, minMessages: 2 } } });
    const session = await memory.sessions.create({ namespace: 'ns' });
    const stored = await memory.append(session.id, TURNS);
    expect(stored.every((m) => m.tokens?.counter === 'tiktoken:o200k_base' && m.tokens.count > 0)).toBe(true);
    const [read] = await store.messages({ ids: [stored[0]?.id ?? ''] });
    expect(read?.tokens).toEqual(stored[0]?.tokens);

    tokens.texts.length = 0;
    for (let i = 0; i < 3; i++) await memory.getContext(session.id, { query: 'garden plan', budgetTokens: 2_000 });
    const contents = new Set(TURNS.map((t) => t.content));
    expect(tokens.texts.filter((text) => contents.has(text))).toEqual([]);
    await memory.close();
  });

  it("counts again turns that carry another counter's count or none (imports, older rows)", async () => {
    const tokens = recordingCounter('chars/4-test');
    const { memory, store } = await createTestMemory({ tokens, policy: { immediate: { maxMessages: 100, minMessages: 2 } } });
    const session = await memory.sessions.create({ namespace: 'ns' });
    await memory.append(session.id, TURNS.slice(0, 4));
    // the stored counts were made by another counter: a memory with this one must not trust them
    const [first] = await store.messages({ sessionId: session.id });
    await store.write({ ops: [{ type: 'delete', messages: [first?.id ?? ''] }] });
    await store.write({ ops: [{ type: 'insertMessages', messages: [{ ...first!, tokens: { counter: 'other', count: 1 } }] }] });
    tokens.texts.length = 0;
    const context = await memory.getContext(session.id, { budgetTokens: 2_000 });
    expect(tokens.texts).toContain(first?.content);
    const item = context.manifest.find((entry) => entry.id === first?.id);
    expect(item?.tokens).toBeGreaterThan(1);
    await memory.close();
  });

  it('counts a large import a slice at a time: no turn of the event loop counts more than 64 of its turns', async () => {
    let turn = 0;
    const countedOn = new Map<number, number>();
    const inner = recordingCounter();
    const tokens: TokenCounter = {
      name: inner.name,
      count: (text) => {
        countedOn.set(turn, (countedOn.get(turn) ?? 0) + 1);
        return inner.count(text);
      },
    };
    const { memory: source } = await createTestMemory();
    const session = await source.sessions.create({ namespace: 'ns' });
    await source.append(
      session.id,
      Array.from({ length: 1000 }, (_, i) => ({ role: 'user' as const, content: `history turn ${i}` })),
    );
    const bundle = JSON.parse(await source.export(session.id, { format: 'json' })) as { sessions: { messages: Record<string, unknown>[] }[] };
    for (const m of bundle.sessions[0]?.messages ?? []) delete m.tokens;
    const { memory } = await createTestMemory({ tokens });
    let timer = setImmediate(function tick() {
      turn++;
      timer = setImmediate(tick);
    });
    await memory.import(bundle);
    clearImmediate(timer);
    expect([...countedOn.values()].reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...countedOn.values())).toBeLessThanOrEqual(64);
    expect((await memory.messages(session.id)).map((m) => m.tokens?.count)).toEqual((await source.messages(session.id)).map((m) => m.tokens?.count));
    await Promise.all([source.close(), memory.close()]);
  });

  it('an imported bundle without counts, or with junk, is counted on import', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'ns' });
    await memory.append(session.id, TURNS.slice(0, 4));
    const bundle = JSON.parse(await memory.export(session.id, { format: 'json' })) as { sessions: { session: { id: string }; messages: Record<string, unknown>[] }[] };
    const [entry] = bundle.sessions;
    if (!entry) throw new Error('no session in the bundle');
    entry.messages.forEach((m, i) => {
      if (i % 2) delete m.tokens;
      else m.tokens = null;
    });
    await memory.forget({ sessionId: session.id });
    await memory.import(bundle);
    const context = await memory.getContext(session.id, { budgetTokens: 2_000 });
    const turns = context.manifest.filter((item) => item.kind === 'turn');
    expect(turns.length).toBe(4);
    expect(turns.every((item) => item.tokens > 0)).toBe(true);
    await memory.close();
  });
});

import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { AIMessage, AIMessageChunk, ChatMessage, HumanMessage, HumanMessageChunk, SystemMessage, ToolMessage, ToolMessageChunk, type BaseMessage } from '@langchain/core/messages';
import type { Memory, StoredMessage } from '@strata/core';
import { toLangChainMessage, toMessageInput, toMessageInputs } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

/** Every field the conversion promises to keep, with the class it is an instance of. */
function fieldsOf(message: BaseMessage) {
  const m = message as unknown as Record<string, unknown>;
  return {
    class: (message.constructor as unknown as { lc_name(): string }).lc_name(),
    type: message.type,
    id: message.id,
    content: message.content,
    name: message.name,
    role: m.role,
    tool_calls: m.tool_calls,
    invalid_tool_calls: m.invalid_tool_calls,
    tool_call_chunks: m.tool_call_chunks,
    tool_call_id: m.tool_call_id,
    status: m.status,
    artifact: m.artifact,
    metadata: m.metadata,
    usage_metadata: m.usage_metadata,
    response_metadata: message.response_metadata,
    additional_kwargs: message.additional_kwargs,
  };
}

const toolCall = { id: 'call_1', name: 'get_weather', args: { city: 'Oslo', days: [1, 2], unit: null }, type: 'tool_call' as const };

/** One message of every kind, every field it has set. */
const everyKind: [string, BaseMessage][] = [
  [
    'human with text and an image',
    new HumanMessage({
      id: 'h1',
      name: 'ana',
      content: [
        { type: 'text', text: 'What is in ' },
        { type: 'text', text: 'this picture?' },
        { type: 'image_url', image_url: { url: 'https://x.test/cat.png', detail: 'low' } },
      ],
      additional_kwargs: { trace: 'abc' },
      response_metadata: { source: 'web' },
    }),
  ],
  ['human with an image alone, as bytes', new HumanMessage({ id: 'h2', content: [{ type: 'image', data: new Uint8Array([137, 80, 78, 71]), mimeType: 'image/png' }] })],
  ['human chunk', new HumanMessageChunk({ id: 'h3', content: 'stream' })],
  ['system', new SystemMessage({ id: 's1', content: 'Be brief.' })],
  ['developer system message', new SystemMessage({ id: 's2', content: 'Answer in French.', additional_kwargs: { __openai_role__: 'developer' } })],
  [
    'ai with everything',
    new AIMessage({
      id: 'chatcmpl-1',
      name: 'planner',
      content: 'Checking the weather.',
      tool_calls: [toolCall],
      invalid_tool_calls: [{ id: 'call_2', name: 'get_weather', args: '{"city": Osl', error: 'bad JSON', type: 'invalid_tool_call' }],
      usage_metadata: { input_tokens: 12, output_tokens: 5, total_tokens: 17, input_token_details: { cache_read: 0 }, output_token_details: { reasoning: 2 } },
      response_metadata: { model_name: 'gpt-test', finish_reason: 'tool_calls', logprobs: null, created: 1_700_000_000 },
      additional_kwargs: { tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }], refusal: null },
    }),
  ],
  ['ai with tool calls only', new AIMessage({ id: 'a2', content: '', tool_calls: [toolCall] })],
  [
    'ai in the v1 output format',
    new AIMessage({
      id: 'a3',
      contentBlocks: [
        { type: 'reasoning', reasoning: 'They asked about Oslo.' },
        { type: 'text', text: 'It is cold.' },
      ],
      response_metadata: { model_provider: 'openai' },
    }),
  ],
  [
    'ai chunk with tool call chunks',
    new AIMessageChunk({
      id: 'a4',
      content: 'Let me look.',
      tool_call_chunks: [
        { id: 'call_3', name: 'search', args: '{"q":"os', index: 0, type: 'tool_call_chunk' },
        { args: 'lo"}', index: 0, type: 'tool_call_chunk' },
      ],
    }),
  ],
  [
    'ai chunk concatenated from a stream',
    new AIMessageChunk({ id: 'a5', content: 'Hel', response_metadata: { model_name: 'm' } }).concat(
      new AIMessageChunk({ id: 'a5', content: 'lo', usage_metadata: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } }),
    ),
  ],
  [
    'tool result with status, artifact and metadata',
    new ToolMessage({
      id: 't1',
      name: 'get_weather',
      tool_call_id: 'call_1',
      content: [{ type: 'text', text: '-3 °C' }],
      status: 'error',
      artifact: {
        raw: Buffer.from('binary payload'),
        at: new Date('2026-11-20T10:00:00Z'),
        missing: undefined,
        numbers: [Number.NaN, -0, Infinity, 2n ** 70n],
        nested: [{ ok: true }, undefined],
        parsed: JSON.parse('{"__proto__": "a key like any other"}') as unknown,
      },
      metadata: { latencyMs: 12 },
    }),
  ],
  ['tool chunk', new ToolMessageChunk({ id: 't2', tool_call_id: 'call_1', content: 'partial', artifact: [1, 2] })],
  ['chat message with a role of its own', new ChatMessage({ id: 'c1', content: 'The plan lacks tests.', role: 'critic' })],
  ['named chat message with a role of its own', new ChatMessage({ id: 'c2', content: 'Agreed.', role: 'reviewer', name: 'bo' })],
  ['chat message with an OpenAI role', new ChatMessage({ id: 'c3', content: 'Hello.', role: 'assistant' })],
];

async function storeAndRead(memory: Memory, messages: readonly BaseMessage[]): Promise<StoredMessage[]> {
  const session = await memory.sessions.create({ namespace: 'u1' });
  await memory.append(session.id, toMessageInputs(messages));
  return memory.messages(session.id);
}

describe('LangChain messages round-trip through strata', () => {
  it('comes back from the store as the same class with every field, content the plain text', async () => {
    const { memory } = await createTestMemory();
    const stored = await storeAndRead(
      memory,
      everyKind.map(([, m]) => m),
    );
    expect(stored).toHaveLength(everyKind.length);
    stored.forEach((turn, i) => {
      const [kind, original] = everyKind[i]!;
      expect(fieldsOf(toLangChainMessage(turn)), kind).toStrictEqual(fieldsOf(original));
      expect(turn.content, kind).toBe(toMessageInput(original)?.content);
    });
    expect(stored.map((t) => t.content)).toEqual([
      'What is in this picture?',
      '[image]',
      'stream',
      'Be brief.',
      'Answer in French.',
      'Checking the weather.',
      '',
      'It is cold.',
      'Let me look.',
      'Hello',
      '-3 °C',
      'partial',
      'The plan lacks tests.',
      'Agreed.',
      'Hello.',
    ]);
    await memory.close();
  });

  it('comes back the same after a JSON export and an import into another memory', async () => {
    const { memory } = await createTestMemory();
    const original = await storeAndRead(
      memory,
      everyKind.map(([, m]) => m),
    );
    const sessionId = original[0]!.sessionId;
    const bundle = JSON.parse(await memory.export(sessionId, { format: 'json' })) as unknown;
    const { memory: other } = await createTestMemory();
    await other.import(bundle);
    const imported = await other.messages(sessionId);
    expect(imported.map((t) => fieldsOf(toLangChainMessage(t)))).toStrictEqual(everyKind.map(([, m]) => fieldsOf(m)));
    await Promise.all([memory.close(), other.close()]);
  });

  it('keeps content searchable as text: a multi-part message is found by its words', async () => {
    const { memory } = await createTestMemory();
    await storeAndRead(memory, [everyKind[0]![1]]);
    const hits = await memory.search({ namespace: 'u1', query: 'picture', kinds: ['turn'] });
    expect(hits.map((h) => h.text)).toEqual(['What is in this picture?']);
    await memory.close();
  });

  it('gives a message without an id the strata id, and a tool call without one the id strata stored', async () => {
    const { memory } = await createTestMemory();
    const [human, ai] = await storeAndRead(memory, [new HumanMessage('hi'), new AIMessage({ content: '', tool_calls: [{ name: 'f', args: {}, type: 'tool_call' }] })]);
    expect(toLangChainMessage(human!).id).toBe(human!.id);
    expect((toLangChainMessage(ai!) as AIMessage).tool_calls).toEqual([{ id: ai!.toolCalls?.[0]?.id, name: 'f', args: {}, type: 'tool_call' }]);
    await memory.close();
  });

  it('reads a turn appended without LangChain (plain memory.append) as the message its role names', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const [turn] = await memory.append(session.id, { role: 'tool', content: 'ok', toolCallId: 'c1', name: 'f', metadata: { app: 1 } });
    expect(fieldsOf(toLangChainMessage(turn!))).toStrictEqual(fieldsOf(new ToolMessage({ id: turn!.id, content: 'ok', tool_call_id: 'c1', name: 'f' })));
    await memory.close();
  });

  it('refuses, never truncates, a message whose kept fields exceed the metadata limit', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const big = new HumanMessage({
      content: [
        { type: 'text', text: 'Look:' },
        { type: 'image', data: new Uint8Array(70_000), mimeType: 'image/png' },
      ],
    });
    await expect(memory.append(session.id, toMessageInputs([big]))).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/metadata is \d+ bytes as JSON, more than the limit/),
    });
    expect(await memory.messages(session.id)).toEqual([]);
    await memory.close();
  });

  it('reports a metadata.langchain that toMessageInput did not write, naming the message', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    const [turn] = await memory.append(session.id, { role: 'user', content: 'hi', metadata: { langchain: { chunk: 'yes' } } });
    expect(() => toLangChainMessage(turn!)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining(turn!.id) }));
    await memory.close();
  });
});

describe('generated LangChain messages round-trip through a real memory', () => {
  // LangChain builds plain objects; fast-check may build null-prototype ones, which come back as plain objects.
  const record = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }): fc.Arbitrary<T> => fc.record<T>(model, { noNullPrototype: true });
  const key = fc.stringMatching(/^k[a-z_]{0,6}$/);
  const nonJson = fc.oneof(
    fc.constantFrom(undefined, Number.NaN, -0, Infinity, -Infinity),
    fc.bigInt(),
    fc.date({ noInvalidDate: true }),
    fc.uint8Array({ maxLength: 8 }),
    fc.uint8Array({ maxLength: 8 }).map((bytes) => Buffer.from(bytes)),
  );
  const json = fc.jsonValue({ maxDepth: 2 });
  const value = fc.oneof(json, nonJson, fc.array(fc.oneof(json, nonJson), { maxLength: 3 }), fc.dictionary(key, fc.oneof(json, nonJson), { maxKeys: 3, noNullPrototype: true }));
  const dict = fc.dictionary(key, value, { maxKeys: 3, noNullPrototype: true });
  const name = fc.stringMatching(/^[a-z_]{1,10}$/);
  const id = fc.option(fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/), { nil: undefined });
  const block = fc.oneof(
    record({ type: fc.constant('text'), text: fc.string({ maxLength: 20 }) }),
    record({ type: fc.constant('image_url'), image_url: record({ url: fc.webUrl() }) }),
    record({ type: fc.constant('image'), data: fc.uint8Array({ maxLength: 16 }), mimeType: fc.constant('image/png') }),
  );
  const content = fc.oneof(fc.string({ maxLength: 30 }), fc.array(block, { maxLength: 3 }));
  const common = record({ id, content, name: fc.option(fc.string({ maxLength: 8 }), { nil: undefined }), additional_kwargs: dict, response_metadata: dict });
  const call = record({ id: fc.stringMatching(/^call_[a-z0-9]{1,8}$/), name, args: fc.dictionary(key, json, { maxKeys: 3, noNullPrototype: true }), type: fc.constant('tool_call' as const) });
  const invalidCall = record({
    id: fc.stringMatching(/^call_[a-z0-9]{1,8}$/),
    name,
    args: fc.string({ maxLength: 10 }),
    error: fc.string({ maxLength: 10 }),
    type: fc.constant('invalid_tool_call' as const),
  });
  const usage = fc.option(record({ input_tokens: fc.nat(), output_tokens: fc.nat(), total_tokens: fc.nat() }), { nil: undefined });
  const message: fc.Arbitrary<BaseMessage> = fc.oneof(
    common.map((f) => new HumanMessage(f)),
    common.map((f) => new SystemMessage(f)),
    fc
      .tuple(common, fc.array(call, { maxLength: 2 }), fc.array(invalidCall, { maxLength: 1 }), usage, fc.boolean())
      .map(([f, tool_calls, invalid_tool_calls, usage_metadata, chunk]) =>
        chunk ? new AIMessageChunk({ ...f, tool_calls, usage_metadata }) : new AIMessage({ ...f, tool_calls, invalid_tool_calls, usage_metadata }),
      ),
    fc
      .tuple(
        common,
        fc.stringMatching(/^call_[a-z0-9]{1,8}$/),
        fc.option(fc.constantFrom('success' as const, 'error' as const), { nil: undefined }),
        value,
        fc.option(fc.dictionary(key, json, { maxKeys: 2, noNullPrototype: true }), { nil: undefined }),
      )
      .map(([f, tool_call_id, status, artifact, metadata]) => new ToolMessage({ ...f, tool_call_id, status, artifact, metadata })),
    fc.tuple(common, fc.constantFrom('user', 'assistant', 'system', 'developer', 'critic', 'narrator', 'tool', 'constructor')).map(([f, role]) => new ChatMessage({ ...f, role })),
  );

  it('comes back from memory.messages, and after export and import, deep-equal on every field (missing ids filled with the strata id)', async () => {
    const [{ memory }, { memory: other }] = await Promise.all([createTestMemory(), createTestMemory()]);
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 1, maxLength: 4 }), async (messages) => {
        const kept = messages.filter((m) => toMessageInput(m) !== null);
        // Only an AIMessage with nothing in it is left out.
        for (const m of messages.filter((x) => !kept.includes(x))) expect([m.type, m.text, (m as AIMessage).tool_calls]).toEqual(['ai', '', []]);
        if (!kept.length) return;
        const stored = await storeAndRead(memory, kept);
        const expected = stored.map((turn, i) => ({ ...fieldsOf(kept[i]!), id: kept[i]!.id ?? turn.id }));
        expect(stored.map((turn) => fieldsOf(toLangChainMessage(turn)))).toStrictEqual(expected);
        await other.import(JSON.parse(await memory.export(stored[0]!.sessionId, { format: 'json' })));
        expect((await other.messages(stored[0]!.sessionId)).map((turn) => fieldsOf(toLangChainMessage(turn)))).toStrictEqual(expected);
      }),
      { numRuns: 200 },
    );
    await Promise.all([memory.close(), other.close()]);
  });
});

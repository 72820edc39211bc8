import { describe, expect, it } from 'vitest';
import { AIMessage, AIMessageChunk, ChatMessage, FunctionMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { Document } from '@langchain/core/documents';
import { toLangChainMessage, toMessageInput } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

describe('toMessageInput', () => {
  it.each<[string, BaseMessage, unknown]>([
    ['human', new HumanMessage('hi'), { role: 'user', content: 'hi' }],
    ['named human with an id', new HumanMessage({ content: 'hi', name: 'ana', id: 'lc-1' }), { role: 'user', content: 'hi', name: 'ana', metadata: { langchain: { id: 'lc-1' } } }],
    ['system', new SystemMessage('be brief'), { role: 'system', content: 'be brief' }],
    ['ai text', new AIMessage('hello'), { role: 'assistant', content: 'hello' }],
    [
      'ai chunk with a tool call',
      new AIMessageChunk({ content: '', tool_calls: [{ id: 'c1', name: 'f', args: { x: 1 }, type: 'tool_call' }] }),
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', args: { x: 1 } }], metadata: { langchain: { chunk: true } } },
    ],
    ['tool result', new ToolMessage({ content: 'ok', tool_call_id: 'c1', name: 'f' }), { role: 'tool', content: 'ok', name: 'f', toolCallId: 'c1' }],
    [
      'tool result with status and artifact',
      new ToolMessage({ content: 'ok', tool_call_id: 'c1', status: 'error', artifact: { rows: [1, 2] } }),
      { role: 'tool', content: 'ok', toolCallId: 'c1', metadata: { langchain: { status: 'error', artifact: { rows: [1, 2] } } } },
    ],
    ['chat message with an OpenAI role', new ChatMessage('yo', 'assistant'), { role: 'assistant', content: 'yo', metadata: { langchain: { type: 'generic', role: 'assistant' } } }],
    [
      'chat message with a role of its own: a user turn named after it',
      new ChatMessage('needs tests', 'critic'),
      { role: 'user', content: 'needs tests', name: 'critic', metadata: { langchain: { type: 'generic', role: 'critic', name: null } } },
    ],
    [
      'content blocks: the text is the content, the blocks are kept',
      new HumanMessage({
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
      {
        role: 'user',
        content: 'ab',
        metadata: {
          langchain: {
            content: [
              { type: 'text', text: 'a' },
              { type: 'text', text: 'b' },
            ],
          },
        },
      },
    ],
    [
      'an image alone: a stand-in as content',
      new HumanMessage({ content: [{ type: 'image_url', image_url: { url: 'https://x.test/cat.png' } }] }),
      { role: 'user', content: '[image]', metadata: { langchain: { content: [{ type: 'image_url', image_url: { url: 'https://x.test/cat.png' } }] } } },
    ],
    ['an empty tool result', new ToolMessage({ content: '', tool_call_id: 'c1' }), { role: 'tool', content: '[empty]', toolCallId: 'c1', metadata: { langchain: { content: '' } } }],
    [
      'ai usage and response metadata',
      new AIMessage({ content: 'hi', usage_metadata: { input_tokens: 3, output_tokens: 1, total_tokens: 4 }, response_metadata: { model_name: 'gpt' } }),
      { role: 'assistant', content: 'hi', metadata: { langchain: { usage_metadata: { input_tokens: 3, output_tokens: 1, total_tokens: 4 }, response_metadata: { model_name: 'gpt' } } } },
    ],
    ['empty ai turn', new AIMessage(''), null],
  ])('%s', (_name, message, expected) => {
    expect(toMessageInput(message)).toEqual(expected);
  });

  it('gives a tool call without an id a fresh one, so its result can point at it', () => {
    const input = toMessageInput(new AIMessage({ content: '', tool_calls: [{ name: 'f', args: {}, type: 'tool_call' }] }));
    expect(input?.toolCalls?.[0]?.id).toMatch(/^call_[0-9a-f]{32}$/);
  });

  it('keeps an ai turn that holds only invalid tool calls', () => {
    const input = toMessageInput(new AIMessage({ content: '', invalid_tool_calls: [{ id: 'c9', name: 'f', args: '{oops', error: 'bad json', type: 'invalid_tool_call' }] }));
    expect(input).toEqual({
      role: 'assistant',
      content: '[empty]',
      metadata: { langchain: { content: '', invalid_tool_calls: [{ id: 'c9', name: 'f', args: '{oops', error: 'bad json', type: 'invalid_tool_call' }] } },
    });
  });

  it('refuses messages strata has no role for', () => {
    expect(() => toMessageInput(new RemoveMessage({ id: 'm1' }))).toThrow(/type "remove"/);
    expect(() => toMessageInput(new FunctionMessage({ content: '{}', name: 'f' }))).toThrow(/type "function"/);
    expect(() => toMessageInput(new ToolMessage({ content: 'ok', tool_call_id: '' }))).toThrow(/tool_call_id/);
  });

  it('keeps the Documents a retriever tool returns as its artifact, and restores them', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'ns' });
    const artifact = [new Document({ pageContent: 'Lisbon is sunny.', metadata: { source: 'wiki', at: new Date(0) }, id: 'd1' }), new Document({ pageContent: 'Porto is rainy.', metadata: {} })];
    const input = toMessageInput(new ToolMessage({ content: 'two documents', tool_call_id: 'c1', artifact }));
    const [stored] = await memory.append(session.id, input!);
    const back = toLangChainMessage((await memory.messages(session.id)).find((m) => m.id === stored?.id)!) as ToolMessage;
    expect(back.artifact).toEqual(artifact);
    expect((back.artifact as unknown[]).every((d) => d instanceof Document)).toBe(true);
    await memory.close();
  });

  it('refuses a field that is not data, naming where it is, rather than drop it', () => {
    const artifact = { rows: [new Map([['a', 1]])] };
    const error = catchError(() => toMessageInput(new ToolMessage({ content: 'ok', tool_call_id: 'c1', artifact })));
    expect(error).toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('ToolMessage.artifact.rows[0] is a Map') });
    expect((error as { hint: string }).hint).toMatch(/plain data/);
    expect(() => toMessageInput(new AIMessage({ content: 'hi', additional_kwargs: { callback: () => 1 } }))).toThrow(/AIMessage.additional_kwargs.callback is a function/);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => toMessageInput(new HumanMessage({ content: 'hi', response_metadata: cyclic }))).toThrow(/response_metadata.self refers back to itself/);
    expect(() => toMessageInput(new HumanMessage({ content: 'hi', additional_kwargs: { __strata_lc__: 'x' } }))).toThrow(/reserves/);
  });
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected it to throw');
}

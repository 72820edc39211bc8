import { describe, expect, it } from 'vitest';
import { AIMessage, AIMessageChunk, ChatMessage, HumanMessage, RemoveMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { toMessageInput } from '../../src/langchain/index.js';

describe('toMessageInput', () => {
  it.each<[string, BaseMessage, unknown]>([
    ['human', new HumanMessage('hi'), { role: 'user', content: 'hi' }],
    ['named human', new HumanMessage({ content: 'hi', name: 'ana' }), { role: 'user', content: 'hi', name: 'ana' }],
    ['system', new SystemMessage('be brief'), { role: 'system', content: 'be brief' }],
    ['ai text', new AIMessage('hello'), { role: 'assistant', content: 'hello' }],
    [
      'ai chunk with a tool call',
      new AIMessageChunk({ content: '', tool_calls: [{ id: 'c1', name: 'f', args: { x: 1 }, type: 'tool_call' }] }),
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', args: { x: 1 } }] },
    ],
    ['tool result', new ToolMessage({ content: 'ok', tool_call_id: 'c1', name: 'f' }), { role: 'tool', content: 'ok', name: 'f', toolCallId: 'c1' }],
    ['chat message with an OpenAI role', new ChatMessage('yo', 'assistant'), { role: 'assistant', content: 'yo' }],
    ['content blocks', new HumanMessage({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }), { role: 'user', content: 'ab' }],
    ['empty ai turn', new AIMessage(''), null],
  ])('%s', (_name, message, expected) => {
    expect(toMessageInput(message)).toEqual(expected);
  });

  it('gives a tool call without an id a fresh one, so its result can point at it', () => {
    const input = toMessageInput(new AIMessage({ content: '', tool_calls: [{ name: 'f', args: {}, type: 'tool_call' }] }));
    expect(input?.toolCalls?.[0]?.id).toMatch(/^call_[0-9a-f]{32}$/);
  });

  it('refuses messages strata has no role for', () => {
    expect(() => toMessageInput(new RemoveMessage({ id: 'm1' }))).toThrow(/type "remove"/);
    expect(() => toMessageInput(new ChatMessage('x', 'critic'))).toThrow(/type "critic"/);
    expect(() => toMessageInput(new ToolMessage({ content: 'ok', tool_call_id: '' }))).toThrow(/tool_call_id/);
  });
});

import { describe, expect, it } from 'vitest';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ContextMessage, MessageInput } from '@strata/core';
import { buildStrataPrompt } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

interface Pairing {
  kind: 'call' | 'result';
  id: string;
}

/** Tool calls without a later result, and tool results without an earlier call: what providers reject. */
function unpaired(messages: readonly Pairing[]): string[] {
  const problems: string[] = [];
  messages.forEach((m, i) => {
    const partner = m.kind === 'call' ? messages.slice(i + 1).some((o) => o.kind === 'result' && o.id === m.id) : messages.slice(0, i).some((o) => o.kind === 'call' && o.id === m.id);
    if (!partner) problems.push(`${m.kind} ${m.id}`);
  });
  return problems;
}

const ofLangChain = (messages: readonly BaseMessage[]) =>
  messages.flatMap((m): Pairing[] =>
    m instanceof ToolMessage ? [{ kind: 'result', id: m.tool_call_id }] : m instanceof AIMessage ? (m.tool_calls ?? []).map((c) => ({ kind: 'call', id: c.id ?? '' })) : [],
  );
const ofContext = (messages: readonly ContextMessage[]) =>
  messages.flatMap((m): Pairing[] => ('memory' in m ? [] : m.role === 'tool' ? [{ kind: 'result', id: m.toolCallId ?? '' }] : (m.toolCalls ?? []).map((c) => ({ kind: 'call', id: c.id }))));

const toolExchange = (n: number): MessageInput[] => [
  { role: 'user', content: `Question ${n} about the weather in city number ${n}?` },
  { role: 'assistant', content: '', toolCalls: [{ id: `call_${n}`, name: 'get_weather', args: { city: `City ${n}` } }] },
  // results larger than their calls: a budget can hold a result without the call before it
  { role: 'tool', content: `{"city":"City ${n}","tempC":${n},"report":"${'cloudy then clear '.repeat(4)}"}`, toolCallId: `call_${n}` },
  { role: 'assistant', content: `It is ${n} °C in City ${n}.` },
];

describe('buildStrataPrompt', () => {
  it('keeps the current turn and never a tool call or result without its partner, whatever the budget', async () => {
    const { memory } = await createTestMemory({ policy: { immediate: { maxMessages: 40, minMessages: 2 } } });
    const session = await memory.sessions.create({ namespace: 'u1' });
    for (let n = 1; n <= 4; n++) await memory.append(session.id, toolExchange(n));
    await memory.append(session.id, [{ role: 'user', content: 'And City 5?' }, ...toolExchange(5).slice(1, 3)]);
    for (let budget = 15; budget <= 600; budget += 5) {
      const context = await memory.getContext(session.id, { budgetTokens: budget });
      const { messages } = buildStrataPrompt(context);
      expect(unpaired(ofLangChain(messages)), `budget ${budget}`).toEqual([]);
      // the current turn is always there, paired
      expect(
        messages.slice(-3).map((m) => [m.type, m.text.slice(0, 11)]),
        `budget ${budget}`,
      ).toEqual([
        ['human', 'And City 5?'],
        ['ai', ''],
        ['tool', '{"city":"Ci'],
      ]);
    }
    await memory.close();
  });

  it('drops a tool call that was never answered, keeping its text, and folds stored system turns into the one system text', async () => {
    const { memory } = await createTestMemory();
    const session = await memory.sessions.create({ namespace: 'u1' });
    await memory.append(session.id, [
      { role: 'system', content: 'Prefer metric units.' },
      { role: 'user', content: 'Book a trip to Oslo.' },
      { role: 'assistant', content: 'Let me check.', toolCalls: [{ id: 'call_x', name: 'book_trip', args: { city: 'Oslo' } }] },
      { role: 'user', content: 'Never mind, what is the capital of Norway?' },
    ]);
    const context = await memory.getContext(session.id, { systemPrompt: 'You are a travel agent.', budgetTokens: 1000 });
    // the context holds the call that no result answers; a provider would reject it
    expect(unpaired(ofContext(context.messages))).toEqual(['call call_x']);
    const prompt = buildStrataPrompt(context, 'You are a travel agent.');
    expect(prompt.messages.map((m) => [m.type, m.text, (m as AIMessage).tool_calls?.length ?? 0])).toEqual([
      ['human', 'Book a trip to Oslo.', 0],
      ['ai', 'Let me check.', 0],
      ['human', 'Never mind, what is the capital of Norway?', 0],
    ]);
    expect(prompt.system.startsWith('You are a travel agent.\n\n')).toBe(true);
    expect(prompt.system.endsWith('\n\nPrefer metric units.')).toBe(true);
    expect(prompt.system).toBe(`You are a travel agent.\n\n${prompt.appended}`);
    // without memory or system turns, strata adds nothing to the app's prompt
    const fresh = await memory.sessions.create({ namespace: 'empty' });
    await memory.append(fresh.id, { role: 'user', content: 'Hi' });
    const bare = buildStrataPrompt(await memory.getContext(fresh.id, { systemPrompt: 'Be kind.' }), 'Be kind.');
    expect([bare.system, bare.appended, bare.messages.map((m) => m.text)]).toEqual(['Be kind.', '', ['Hi']]);
    await memory.close();
  });
});

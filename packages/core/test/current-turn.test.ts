import { describe, expect, it } from 'vitest';
import { isMemoryMessage, type StoredMessage } from '../src/domain/message.js';
import type { ContextResult } from '../src/services/retrieval/context.js';
import { createTestMemory } from './helpers.js';

const BIG_RESULT = 'row '.repeat(3000);

function roles(context: ContextResult): string[] {
  return context.messages.map((m) => ('memory' in m ? 'memory' : m.role));
}

async function conversationWithToolTurn() {
  const setup = await createTestMemory();
  const session = await setup.memory.sessions.create({ namespace: 'ns' });
  for (let i = 0; i < 8; i++) {
    await setup.memory.append(session.id, [
      { role: 'user', content: `Earlier question ${i} about the garden and the tomatoes.` },
      { role: 'assistant', content: `Earlier answer ${i}: water the tomatoes in the morning.` },
    ]);
  }
  const turn = await setup.memory.append(session.id, [
    { role: 'user', content: 'Which rows of the sales table are over budget?' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'call_1', name: 'query_table', args: { table: 'sales' } }] },
    { role: 'tool', content: BIG_RESULT, toolCallId: 'call_1' },
  ]);
  return { ...setup, session, turn };
}

describe('the current turn is always in the context', () => {
  it('a tiny budget still sends the user turn, the tool call and its result, flags it and cuts everything else', async () => {
    const { memory, session, turn } = await conversationWithToolTurn();
    const context = await memory.getContext(session.id, { budgetTokens: 20 });
    expect(context.messages.map((m) => ('id' in m ? m.id : 'memory'))).toEqual(turn.map((m) => m.id));
    expect(context.overBudget).toBe(true);
    expect(context.tokens).toBeGreaterThan(context.budgetTokens);
    const kept = context.manifest.filter((m) => m.included);
    expect(kept.map((m) => m.id)).toEqual(expect.arrayContaining(turn.map((m) => m.id)));
    expect(kept).toHaveLength(3);
    expect(kept.every((m) => /kept over the budget/.test(m.reason))).toBe(true);
    await memory.close();
  });

  it('a budget that holds the turn cuts older turns and memory first, and stays within the budget', async () => {
    const { memory, session, turn } = await conversationWithToolTurn();
    const alone = (await memory.getContext(session.id, { budgetTokens: 20 })).tokens;
    const context = await memory.getContext(session.id, { budgetTokens: alone + 40 });
    expect(context.overBudget).toBe(false);
    expect(context.tokens).toBeLessThanOrEqual(alone + 40);
    const ids = context.messages.map((m) => ('id' in m ? m.id : 'memory'));
    expect(ids.slice(-3)).toEqual(turn.map((m) => m.id));
    await memory.close();
  });

  it('keeps the current turn verbatim even when a summary already covers it', async () => {
    // summaries every 3 turns, keeping only 2 verbatim: the user turn of a 5-message tool loop gets summarized
    const { memory, session, turn } = await conversationWithToolTurn();
    const more = await memory.append(session.id, [
      { role: 'assistant', content: '', toolCalls: [{ id: 'call_2', name: 'query_table', args: { table: 'costs' } }] },
      { role: 'tool', content: 'costs: 12 rows', toolCallId: 'call_2' },
    ]);
    await memory.flush();
    const context = await memory.getContext(session.id, { budgetTokens: 4000 });
    const turns = context.messages.filter((m): m is StoredMessage => !isMemoryMessage(m));
    expect(turns.some((m) => m.role === 'user' && m.content.startsWith('Which rows of the sales table'))).toBe(true);
    expect(turns.at(-1)?.id).toBe(more[1]?.id);
    expect(context.pending.watermarkSeq).toBeGreaterThanOrEqual(turn[0]?.seq ?? Infinity);
    await memory.close();
  });
});

describe('systemPrompt', () => {
  it('opens the one system message, memory after it, and counts against the budget', async () => {
    const { memory, session } = await conversationWithToolTurn();
    const systemPrompt = 'You are a careful analyst. Answer in one sentence.';
    const without = await memory.getContext(session.id, { budgetTokens: 6000 });
    const context = await memory.getContext(session.id, { budgetTokens: 6000, systemPrompt });
    expect(roles(context).filter((r) => r === 'memory' || r === 'system')).toHaveLength(1);
    const [first] = context.messages;
    expect(first && 'memory' in first ? first.content : '').toMatch(/^You are a careful analyst\. Answer in one sentence\.\n\nMemory of this user/);
    expect(context.tokens).toBeGreaterThan(without.tokens);
    const tight = await memory.getContext(session.id, { budgetTokens: 5, systemPrompt });
    expect(roles(tight)).toEqual(['memory', 'user', 'assistant', 'tool']);
    expect(tight.overBudget).toBe(true);
    await memory.close();
  });
});

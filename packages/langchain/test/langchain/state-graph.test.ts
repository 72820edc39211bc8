import { afterEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage, type AIMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type { Memory } from '@strata/core';
import type { OpenAiStub } from '@strata/testkit';
import { selectNewTurns, sessionIdForThread, withStrataMemory } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';
import { chatRequests, getWeather, shapeOf, startStubModel, storedTurns, textOf, weatherReplies, weatherTurns } from './openai-stub-model.js';

let stub: OpenAiStub | undefined;
let dir: string | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A ReAct graph whose model node goes through withStrataMemory, checkpointed in a SQLite file, pausing before tools run. */
async function weatherGraph(memory: Memory, chat: Parameters<typeof startStubModel>[0]['chat']) {
  const started = await startStubModel({ chat });
  stub = started.stub;
  const model = withStrataMemory(started.model.bindTools([getWeather]), {
    memory,
    namespace: 'u1',
    sessionId: (config: RunnableConfig) => sessionIdForThread(String(config.configurable?.thread_id)),
    systemPrompt: 'You are a weather bot.',
    budgetTokens: 500,
  });
  dir = mkdtempSync(join(tmpdir(), 'strata-graph-'));
  return new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state, config) => ({ messages: [await model.invoke(selectNewTurns(state.messages), config)] }))
    .addNode('tools', new ToolNode([getWeather]))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (state) => ((state.messages.at(-1) as AIMessage).tool_calls?.length ? 'tools' : END), ['tools', END])
    .addEdge('tools', 'agent')
    .compile({ checkpointer: SqliteSaver.fromConnString(join(dir, 'checkpoints.db')), interruptBefore: ['tools'] });
}

describe('withStrataMemory in a LangGraph StateGraph with a SQLite checkpointer', () => {
  it('starts a session for a random thread, pauses before tools, resumes, and stores each message once', async () => {
    const { memory } = await createTestMemory();
    const graph = await weatherGraph(memory, [...weatherReplies(), 'Still 21 °C in Lisbon.']);
    const config = { configurable: { thread_id: randomUUID() } };
    const paused = await graph.invoke({ messages: [new HumanMessage('Weather in Lisbon?')] }, config);
    expect((await graph.getState(config)).next).toEqual(['tools']);
    expect((paused.messages.at(-1) as AIMessage).tool_calls?.[0]?.name).toBe('get_weather');
    const resumed = await graph.invoke(null, config);
    expect(resumed.messages.at(-1)?.text).toBe('It is 21 °C in Lisbon.');
    expect(await storedTurns(memory, config.configurable.thread_id)).toEqual(weatherTurns('Weather in Lisbon?'));
    expect(await memory.sessions.get(config.configurable.thread_id)).toMatchObject({ namespace: 'u1' });

    // a second run on the thread: the checkpoint holds every message, strata appends only the new turn
    await graph.invoke({ messages: [new HumanMessage('And now?')] }, config);
    expect(await storedTurns(memory, config.configurable.thread_id)).toEqual([
      ...weatherTurns('Weather in Lisbon?'),
      { role: 'user', content: 'And now?' },
      { role: 'assistant', content: 'Still 21 °C in Lisbon.' },
    ]);
    const requests = chatRequests(stub!);
    expect(shapeOf(requests[1])).toEqual([{ role: 'system' }, { role: 'user' }, { role: 'assistant', calls: ['call_lx'] }, { role: 'tool', answers: 'call_lx' }]);
    for (const request of requests) {
      expect(request.messages.filter((m) => m.role === 'system')).toHaveLength(1);
      expect(textOf(request.messages[0]).startsWith('You are a weather bot.')).toBe(true);
    }
    expect(requests[2]?.messages.filter((m) => textOf(m) === 'Weather in Lisbon?')).toHaveLength(1);
    await memory.close();
  });
});

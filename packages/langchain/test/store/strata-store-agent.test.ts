import { afterEach, describe, expect, it } from 'vitest';
import { HumanMessage } from '@langchain/core/messages';
import { tool, type ToolRuntime } from '@langchain/core/tools';
import { BaseStore } from '@langchain/langgraph';
import { ChatOpenAI } from '@langchain/openai';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { startOpenAiStub, type ChatCompletionRequest, type OpenAiStub } from '@strata/testkit';
import { StrataStore } from '../../src/index.js';
import { createTestMemory } from '../helpers.js';

/** The LangGraph store the agent was given, as a tool sees it. */
function storeOf(runtime: ToolRuntime): BaseStore {
  const { store } = runtime;
  if (!(store instanceof BaseStore)) throw new Error('createAgent was given no LangGraph store');
  return store;
}

const saveMemory = tool(
  async ({ text }: { text: string }, runtime: ToolRuntime) => {
    await storeOf(runtime).put(['memories', 'u42'], runtime.toolCallId, { text });
    return `saved as ${runtime.toolCallId}`;
  },
  { name: 'save_memory', description: 'Remember a fact about the user.', schema: z.object({ text: z.string() }) },
);

const searchMemories = tool(
  async ({ query }: { query: string }, runtime: ToolRuntime) => {
    const hits = await storeOf(runtime).search(['memories', 'u42'], { query, limit: 3 });
    return JSON.stringify(hits.map((hit) => hit.value.text));
  },
  { name: 'search_memories', description: 'Search what is remembered about the user.', schema: z.object({ query: z.string() }) },
);

let stub: OpenAiStub | undefined;
afterEach(async () => {
  await stub?.close();
  stub = undefined;
});

describe('StrataStore as the store of a createAgent loop over HTTP', () => {
  it("the agent's tools write a memory and find it again through runtime.store", async () => {
    const { memory } = await createTestMemory();
    const store = new StrataStore({ memory, namespace: 'agent-memories' });
    await store.put(['memories', 'u42'], 'city', { text: 'The user lives in Lisbon' });
    stub = await startOpenAiStub({
      chat: [
        { toolCalls: [{ id: 'call_save', name: 'save_memory', args: { text: 'The user loves ramen' } }] },
        { toolCalls: [{ id: 'call_search', name: 'search_memories', args: { query: 'favourite food ramen' } }] },
        'You love ramen.',
      ],
    });
    const model = new ChatOpenAI({ model: 'stub-model', apiKey: 'test', maxRetries: 0, configuration: { baseURL: `${stub.url}/v1` } });
    const agent = createAgent({ model, tools: [saveMemory, searchMemories], store });

    const result = await agent.invoke({ messages: [new HumanMessage('Remember that I love ramen, then tell me what I love.')] });

    expect(result.messages.at(-1)?.text).toBe('You love ramen.');
    const requests = stub.requests.filter((r) => r.path === '/v1/chat/completions').map((r) => r.body as ChatCompletionRequest);
    expect(requests[0]?.tools?.map((t) => t.function.name).sort()).toEqual(['save_memory', 'search_memories']);
    const toolResults = (requests[2]?.messages ?? []).filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, m.content]);
    expect(toolResults).toEqual([
      ['call_save', 'saved as call_save'],
      ['call_search', expect.stringMatching(/^\["The user loves ramen"/) as unknown],
    ]);
    // the memory the tool wrote is an item of the store and a turn of strata
    expect((await store.get(['memories', 'u42'], 'call_save'))?.value).toEqual({ text: 'The user loves ramen' });
    const [hit] = await memory.search({ namespace: 'agent-memories', query: 'ramen', kinds: ['turn'] });
    expect(hit?.text).toBe('text: The user loves ramen');
    await memory.close();
  });
});

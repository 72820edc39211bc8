/**
 * strata as the long-term store of a LangGraph `StateGraph`: `StrataStore` is a LangGraph
 * `BaseStore`, handed to `compile({ store })`, and every node reads it as `config.store`. One
 * run's `save` node puts a user preference the model chose to keep; a later run's `recall`
 * node reads it back and the model follows it. Prints each run, the items the nodes read and
 * wrote, and the item as strata holds it (a turn that strata's own search finds).
 *
 *   node --import tsx --conditions=@strata/source examples/store-graph.ts
 *
 * Offline by default, no key needed: the example starts the project's OpenAI-compatible stub
 * (`startOpenAiStub` from @strata/testkit, a devDependency of this private workspace; an app
 * would not ship it) to play the model, answering only from what the prompt holds.
 * For a real model, set STRATA_LLM_BASE_URL, STRATA_LLM_MODEL and OPENAI_API_KEY (README.md).
 */
import { type AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { Annotation, END, START, StateGraph, type Item, type LangGraphRunnableConfig } from '@langchain/langgraph';
import { createMemory } from '@strata/core';
import { StrataStore } from '@strata/langchain';
import type { ChatCompletionRequest, StubChatReply } from '@strata/testkit';
import { z } from 'zod';
import { connectChatModel } from './lib/connect-chat-model.js';
import { readChatRequest } from './lib/read-chat-request.js';

/** The stub's script: keeps a preference the user states, and follows the ones the prompt lists. */
function scriptedModel(request: ChatCompletionRequest): StubChatReply {
  const { question, memoryLines } = readChatRequest(request);
  const preference = /^from now on,? (?:please )?(.+)$/i.exec(question)?.[1];
  if (preference) return { content: 'Noted.', toolCalls: [{ name: 'save_preference', args: { topic: 'units', text: preference[0]!.toUpperCase() + preference.slice(1) } }] };
  if (memoryLines.some((line) => /celsius/i.test(line))) return `Following your preference (${memoryLines.join(' ')}): 4 °C in Oslo, bring a coat.`;
  return 'It is 39 °F and cloudy in Oslo today, so bring a warm coat.';
}

const { model, endpoint, close } = await connectChatModel('store-graph', scriptedModel);
console.log(`model: ${endpoint}`);

const preferenceSchema = z.object({
  topic: z.string().describe('A short key for the preference, e.g. "units" or "tone".'),
  text: z.string().describe('The preference as an instruction, e.g. "Give temperatures in Celsius."'),
});
const savePreference = { name: 'save_preference', description: 'Save a lasting preference the user states, to follow in later conversations.', schema: preferenceSchema };

const State = Annotation.Root({
  userId: Annotation<string>,
  message: Annotation<string>,
  recalled: Annotation<Item[]>,
  reply: Annotation<AIMessage>,
  saved: Annotation<Item[]>,
});
type GraphState = typeof State.State;

const preferencesOf = (state: GraphState) => ['users', state.userId, 'preferences'];
function storeOf(config: LangGraphRunnableConfig) {
  if (!config.store) throw new Error('compile the graph with { store }');
  return config.store;
}

const graph = new StateGraph(State)
  // Preferences apply to every answer: list all of the user's (a search with no query), newest first.
  .addNode('recall', async (state, config: LangGraphRunnableConfig) => ({ recalled: await storeOf(config).search(preferencesOf(state), { limit: 10 }) }))
  .addNode('respond', async (state) => {
    const preferences = state.recalled.map((item) => `- ${String(item.value.text)}`).join('\n') || '(none yet)';
    const system = `You are a travel assistant; answer in one short sentence. If the user states a lasting preference, call save_preference.\nThis user's saved preferences, to follow:\n${preferences}`;
    return { reply: await model.bindTools([savePreference]).invoke([new SystemMessage(system), new HumanMessage(state.message)]) };
  })
  .addNode('save', async (state, config: LangGraphRunnableConfig) => {
    const store = storeOf(config);
    const saved: Item[] = [];
    for (const call of state.reply.tool_calls ?? []) {
      const args = preferenceSchema.safeParse(call.args);
      // a real model may call with malformed arguments: keep nothing rather than fail the run
      if (!args.success) continue;
      const { topic, text } = args.data;
      await store.put(preferencesOf(state), topic, { text });
      const item = await store.get(preferencesOf(state), topic);
      if (item) saved.push(item);
    }
    return { saved };
  })
  .addEdge(START, 'recall')
  .addEdge('recall', 'respond')
  .addEdge('respond', 'save')
  .addEdge('save', END);

const memory = await createMemory();
const app = graph.compile({ store: new StrataStore({ memory, namespace: 'travel-app' }) });

const describeItem = (item: Item) => `${item.namespace.join('/')} ${item.key} = ${JSON.stringify(item.value)} (updated ${item.updatedAt.toISOString()})`;
async function run(n: number, userId: string, message: string): Promise<void> {
  console.log(`\n--- run ${n}, user ${userId}\nuser: ${message}`);
  const state = await app.invoke({ userId, message });
  console.log(`recall node read ${state.recalled.length} item(s)${state.recalled.map((item) => `\n  ${describeItem(item)}`).join('')}`);
  console.log(`assistant: ${state.reply.text}`);
  for (const item of state.saved) console.log(`save node put\n  ${describeItem(item)}`);
}

await run(1, 'ana', 'From now on, please give temperatures in Celsius.');
await run(2, 'ana', "What's the weather like in Oslo today?");
await run(3, 'ben', "What's the weather like in Oslo today?");

// The item is a strata turn of the namespace "travel-app": strata's own search finds it.
const [hit] = await memory.search({ namespace: 'travel-app', query: 'temperatures celsius', kinds: ['turn'] });
console.log(`\nstrata search "temperatures celsius" in travel-app: ${hit ? `${hit.kind} ${hit.id} "${hit.text}"` : 'nothing'}`);

await memory.close();
await close();

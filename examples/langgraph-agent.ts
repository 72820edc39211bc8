/**
 * A LangChain agent (`createAgent`, a LangGraph graph underneath) with strata as its memory
 * across threads. LangGraph's checkpointer (MemorySaver) keeps each thread's state; strata's
 * middleware makes each thread_id a strata session of one user, so a fact told in thread A
 * reaches the prompt in thread B, where the model uses it in a tool call. Prints each run's
 * steps, then what strata stored per thread and the facts it filed for the user.
 *
 *   node --import tsx --conditions=@strata/source examples/langgraph-agent.ts
 *
 * Offline by default, no key needed: the example starts the project's OpenAI-compatible stub
 * (`startOpenAiStub` from @strata/testkit, a devDependency of this private workspace; an app
 * would not ship it) to play the model, answering only from what the prompt holds.
 * For a real model, set STRATA_LLM_BASE_URL, STRATA_LLM_MODEL and OPENAI_API_KEY (README.md).
 */
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MemorySaver } from '@langchain/langgraph';
import { createMemory } from '@strata/core';
import { createStrataMiddleware } from '@strata/langchain';
import type { StubChatReply, ChatCompletionRequest } from '@strata/testkit';
import { createAgent } from 'langchain';
import { z } from 'zod';
import { connectChatModel } from './lib/connect-chat-model.js';
import { describeMessage } from './lib/describe-message.js';
import { readChatRequest } from './lib/read-chat-request.js';

const getWeather = tool(async ({ city }) => JSON.stringify({ city, tempC: city === 'Lisbon' ? 21 : 9, sky: 'sunny' }), {
  name: 'get_weather',
  description: 'Current weather of a city.',
  schema: z.object({ city: z.string().describe('The city, e.g. "Lisbon".') }),
});

/** The stub's script: it knows where the user lives and works only if strata put it in the system message. */
function scriptedModel(request: ChatCompletionRequest): StubChatReply {
  const { memoryLines, question, toolResults } = readChatRequest(request);
  const weather = toolResults.find((r) => r.name === 'get_weather');
  if (weather) {
    const { city, tempC, sky } = JSON.parse(weather.content) as { city: string; tempC: number; sky: string };
    return `It is ${tempC} °C and ${sky} in ${city}.`;
  }
  if (/weather/i.test(question)) {
    const city = memoryLines.map((line) => /^User lives in (\w+)/.exec(line)?.[1]).find(Boolean);
    return city ? { toolCalls: [{ name: 'get_weather', args: { city } }] } : 'Which city do you mean?';
  }
  if (/what do I do/i.test(question)) {
    const job = memoryLines.map((line) => /^User works as (.+?)\.?$/.exec(line)?.[1]).find(Boolean);
    return job ? `You work as ${job}.` : "You haven't told me yet.";
  }
  return 'Nice to meet you!';
}

const { model, endpoint, close } = await connectChatModel('langgraph-agent', scriptedModel);
console.log(`model: ${endpoint}`);

const memory = await createMemory();
const checkpointer = new MemorySaver();
const agent = createAgent({
  model,
  tools: [getWeather],
  systemPrompt: 'You are a friendly assistant. Use get_weather for weather questions. Answer in one short sentence.',
  // With no sessionId option, each run's thread_id names its strata session, created in the namespace on first use.
  middleware: [createStrataMiddleware({ memory, namespace: 'ana', budgetTokens: 1500 })],
  checkpointer,
});

async function say(threadId: string, text: string): Promise<void> {
  const result = await agent.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id: threadId } });
  // The checkpointed state holds the whole thread; print this run's steps only.
  const run = result.messages.slice(result.messages.findLastIndex((m) => m.type === 'human'));
  for (const line of run.flatMap(describeMessage)) console.log(`[${threadId}] ${line}`);
}

await say('thread-a', 'Hi! I live in Lisbon and I work as a nurse.');
// strata files facts in the background; wait for them before the other thread starts.
await memory.flush();
await say('thread-b', "What's the weather like where I live?");
await say('thread-b', 'Thanks! And what do I do for work?');
await memory.flush();

console.log('\nwhat strata stored, per thread (one session each, namespace "ana"):');
for (const threadId of ['thread-a', 'thread-b']) {
  const checkpoint = await agent.graph.getState({ configurable: { thread_id: threadId } });
  console.log(`  ${threadId} (checkpoint: ${(checkpoint.values as { messages: unknown[] }).messages.length} messages)`);
  for (const m of await memory.messages(threadId)) {
    const calls = (m.toolCalls ?? []).map((c) => `calls ${c.name}(${JSON.stringify(c.args)})`).join(' ');
    console.log(`    ${m.seq}. ${m.role}: ${m.content || calls}`);
  }
}
console.log('facts strata filed for "ana" (every thread sees them):');
for (const fact of await memory.facts.list({ namespace: 'ana' })) console.log(`  - ${fact.text}`);

await memory.close();
await close();

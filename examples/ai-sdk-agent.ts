// An AI SDK tool loop (generateText with stopWhen) with strata's memory tools: remember in one session, recall in the next, which shares no messages with it.
//
//   node --import tsx --conditions=@strata/source examples/ai-sdk-agent.ts
//
// Each session is its own generateText call with no history: what the model knows in session 2,
// it got from strata through the recall tool. Prints every user message, tool call, tool result
// and answer, then the facts strata filed.
//
// Offline by default, no key needed: the example starts the project's OpenAI-compatible stub
// (`startOpenAiStub` from @strata/testkit, a devDependency of this private workspace; an app
// would not ship it) to play the model, making the tool calls a model would and answering from
// the tool results. For a real model, set STRATA_LLM_BASE_URL, STRATA_LLM_MODEL and
// OPENAI_API_KEY (README.md), e.g. https://api.openai.com/v1 and gpt-4o-mini.
import { strataTools } from '@strata/ai-sdk';
import { createMemory } from '@strata/core';
import type { ChatCompletionRequest, StubChatReply } from '@strata/testkit';
import { generateText, stepCountIs } from 'ai';
import { connectLanguageModel } from './lib/connect-language-model.js';
import { readChatRequest } from './lib/read-chat-request.js';

/** The stub's script: the tool call a model would make for each question, and an answer from the tool's result. */
function scriptedModel(request: ChatCompletionRequest): StubChatReply {
  const { question, toolResults } = readChatRequest(request);
  const result = toolResults.at(-1);
  if (!result) {
    const note = /remember that (.+)$/i.exec(question)?.[1];
    // a note in the user's own words, so strata files it as a fact about them
    if (note) return { toolCalls: [{ name: 'remember', args: { text: note[0]!.toUpperCase() + note.slice(1) } }] };
    if (/where do I live/i.test(question)) return { toolCalls: [{ name: 'recall', args: { query: 'where the user lives' } }] };
    return 'I can remember and recall things for you.';
  }
  if (result.name === 'remember') return 'Noted, I will remember that.';
  // recall answers `- [<kind> <id> | <date>] <text>` lines
  const lives = /^- \[fact \S+ \| [^\]]*\] (User lives .*)$/m.exec(result.content)?.[1];
  return lives ? `From memory: ${lives}` : 'I do not know yet.';
}

const { model, endpoint, close } = await connectLanguageModel('ai-sdk-agent', scriptedModel);
console.log(`model: ${endpoint}`);

const memory = await createMemory();
// Notes go to the namespace's notes session; recall and forget never reach outside the namespace.
const tools = strataTools({ memory, namespace: 'ana' });
const system =
  'You have a long-term memory. Use remember for lasting facts the user tells you (written in first person), and recall before answering questions about the user. Answer in one short sentence.';

async function session(name: string, prompt: string): Promise<void> {
  console.log(`\n[${name}] user: ${prompt}`);
  const { steps } = await generateText({ model, system, prompt, tools, stopWhen: stepCountIs(5) });
  for (const step of steps) {
    for (const part of step.content) {
      if (part.type === 'tool-call') console.log(`[${name}] tool call: ${part.toolName}(${JSON.stringify(part.input)})`);
      else if (part.type === 'tool-result') console.log(`[${name}] tool result (${part.toolName}): ${String(part.output).replace(/\n/g, '\n    ')}`);
      else if (part.type === 'tool-error') console.log(`[${name}] tool error (${part.toolName}): ${part.error instanceof Error ? part.error.message : String(part.error)}`);
      else if (part.type === 'text' && part.text) console.log(`[${name}] assistant: ${part.text}`);
    }
  }
}

await session('session 1', 'Please remember that I live in Lisbon.');
await session('session 2', 'Where do I live?');

console.log('\nfacts strata filed for "ana":');
for (const fact of await memory.facts.list({ namespace: 'ana' })) console.log(`  - ${fact.text} (${fact.id})`);

await memory.close();
await close();

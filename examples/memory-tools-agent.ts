/**
 * An agent that manages its own memory with strata's tools: `remember` (store a note; strata
 * files facts from it), `recall` (search the user's memory) and `forget` (delete a note or fact
 * by the id recall gave). The agent keeps no history between runs: what it knows from one run
 * to the next, it got through recall. Prints every tool call and result, and what strata's
 * memory holds (notes and facts) after each run.
 *
 *   node --import tsx --conditions=@strata/source examples/memory-tools-agent.ts
 *
 * Offline by default, no key needed: the example starts the project's OpenAI-compatible stub
 * (`startOpenAiStub` from @strata/testkit, a devDependency of this private workspace; an app
 * would not ship it) to play the model, making the tool calls a model would and answering
 * from the tool results.
 * For a real model, set STRATA_LLM_BASE_URL, STRATA_LLM_MODEL and OPENAI_API_KEY (README.md).
 */
import { HumanMessage } from '@langchain/core/messages';
import { createMemory } from '@strata/core';
import { createMemoryTools, notesSessionId } from '@strata/langchain';
import type { ChatCompletionRequest, StubChatReply } from '@strata/testkit';
import { createAgent } from 'langchain';
import { connectChatModel } from './lib/connect-chat-model.js';
import { describeMessage } from './lib/describe-message.js';
import { readChatRequest } from './lib/read-chat-request.js';

/** The stub's script: the tool calls a model would make for each request, and answers from their results. */
function scriptedModel(request: ChatCompletionRequest): StubChatReply {
  const { question, toolResults } = readChatRequest(request);
  const result = toolResults.at(-1);
  if (!result) {
    const note = /remember that (.+)$/i.exec(question)?.[1];
    // a note in the user's own words, so strata files it as a fact about them
    if (note) return { toolCalls: [{ name: 'remember', args: { text: note[0]!.toUpperCase() + note.slice(1) } }] };
    if (/where do I live|forget where I live/i.test(question)) return { toolCalls: [{ name: 'recall', args: { query: 'where the user lives' } }] };
    return 'I can remember, recall and forget things for you.';
  }
  // recall answers `- [<kind> <id> | <date>] <text>` lines; every question here is about where the user lives
  const fact = /^- \[fact (\S+) \| [^\]]*\] (User lives .*)$/m.exec(result.content);
  if (result.name === 'recall' && /forget/i.test(question)) return fact ? { toolCalls: [{ name: 'forget', args: { id: fact[1] } }] } : 'There is nothing to forget.';
  if (result.name === 'recall') return fact ? `From memory: ${fact[2]}` : 'I do not know yet.';
  if (result.name === 'forget') return result.content.startsWith('Forgot') ? 'Done: I have forgotten it.' : 'There was nothing to forget.';
  return 'Noted, I will remember that.';
}

const { model, endpoint, close } = await connectChatModel('memory-tools-agent', scriptedModel);
console.log(`model: ${endpoint}`);

const memory = await createMemory();
const agent = createAgent({
  model,
  // Notes go to the namespace's notes session; recall and forget never reach outside the namespace.
  tools: [...createMemoryTools({ memory, namespace: 'ana' })],
  systemPrompt:
    'You have a long-term memory. Use remember for lasting facts the user tells you (written in first person), ' +
    'recall before answering questions about the user, and recall then forget (with the id recall gave) when asked to forget. ' +
    'Answer in one short sentence.',
});

async function run(text: string): Promise<void> {
  console.log(`\n> ${text}`);
  const { messages } = await agent.invoke({ messages: [new HumanMessage(text)] });
  for (const line of messages.slice(1).flatMap(describeMessage)) console.log(`  ${line}`);
  const notes = await memory.messages(notesSessionId('ana'));
  const facts = await memory.facts.list({ namespace: 'ana' });
  console.log('  memory now holds:');
  for (const note of notes) console.log(`    note ${note.id}: ${note.content}`);
  for (const fact of facts) console.log(`    fact ${fact.id}: ${fact.text}`);
}

await run('Please remember that I live in Lisbon.');
await run('Also remember that I work as a nurse.');
await run('Where do I live?');
await run('Forget where I live.');

await memory.close();
await close();

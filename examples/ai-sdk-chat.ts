// The AI SDK with strata memory: generateText in one session, streamText in the next, which recalls a fact from the first.
/**
 * Offline by default (a scripted OpenAI-compatible stub); with a real model:
 *   STRATA_LLM_BASE_URL=https://api.openai.com/v1 STRATA_LLM_MODEL=gpt-4o-mini OPENAI_API_KEY=sk-... \
 *     node --import tsx --conditions=@strata/source examples/ai-sdk-chat.ts
 */
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { createMemory, type ContextResult } from '@strata/core';
import { strataMemory } from '@strata/ai-sdk';
import { promptText } from '@strata/testkit';
import { connectLanguageModel } from './lib/connect-language-model.js';

// The stub can only answer from what strata put in its prompt.
const { model, endpoint, close } = await connectLanguageModel('ai-sdk-chat', (request) => {
  const lives = /User lives in (\w+)/.exec(promptText(request));
  return lives ? `You live in ${lives[1]}.` : 'Nice to meet you!';
});
console.log(`model: ${endpoint}`);

const memory = await createMemory();
let lastContext: ContextResult | undefined;
/** The model with strata memory for one session (a chat); unknown sessions are created in the user's namespace. */
const withMemory = (sessionId: string) =>
  wrapLanguageModel({ model, middleware: strataMemory({ memory, sessionId, namespace: 'demo-user', budgetTokens: 1500, onContext: (context) => (lastContext = context) }) });
const system = 'You are a friendly assistant. Answer in one short sentence.';

console.log('--- session monday (generateText)');
const hello = 'Hi! I live in Lisbon and I work as a nurse.';
const first = await generateText({ model: withMemory('monday'), system, prompt: hello });
console.log(`user: ${hello}\nassistant: ${first.text}`);
// Facts are extracted in the background; wait for them before the next session starts.
await memory.flush();

console.log('--- session friday (streamText)');
const question = 'Where do I live?';
const second = streamText({ model: withMemory('friday'), system, prompt: question });
process.stdout.write(`user: ${question}\nassistant: `);
for await (const delta of second.textStream) process.stdout.write(delta);
process.stdout.write('\n');

if (lastContext) {
  const facts = lastContext.manifest.filter((item) => item.included && item.kind === 'fact');
  console.log(`\nthe friday prompt held ${facts.length} long-term fact(s) from monday`);
}
for (const id of ['monday', 'friday']) {
  const turns = await memory.messages(id);
  console.log(`stored in ${id}: ${turns.map((m) => `${m.role}: ${m.content}`).join(' | ')}`);
}
await memory.close();
await close();

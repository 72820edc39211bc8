// An ESM app on the AI SDK with @strata/ai-sdk installed from its tarball, no LangChain anywhere:
// the middleware stores a turn and its reply, the tools and the chat persistence load.
import { createMemory } from '@strata/core';
import { loadUIMessages, saveUIMessages, strataMemory, strataTools } from '@strata/ai-sdk';
import { generateText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
const inner = new MockLanguageModelV3({
  doGenerate: async () => ({ content: [{ type: 'text', text: 'Hello from the model.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }),
});
const memory = await createMemory();
const model = wrapLanguageModel({ model: inner, middleware: strataMemory({ memory, sessionId: 'chat-1', namespace: 'ana' }) });
const { text } = await generateText({ model, system: 'Be brief.', prompt: 'Hi there' });
const stored = (await memory.messages('chat-1')).map((m) => `${m.role}: ${m.content}`);
const systems = inner.doGenerateCalls[0].prompt.filter((m) => m.role === 'system').length;
const ui = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Saved from a chat UI' }] }];
await saveUIMessages({ memory, sessionId: 'ui-chat', namespace: 'ana', messages: ui });
const loaded = await loadUIMessages({ memory, sessionId: 'ui-chat' });
const tools = Object.keys(strataTools({ memory, namespace: 'ana' })).sort();
await memory.close();
console.log(JSON.stringify({ consumer: 'esm', text, stored, systems, uiRoundTrip: JSON.stringify(loaded) === JSON.stringify(ui), tools }));

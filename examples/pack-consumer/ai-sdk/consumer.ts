// A TypeScript app on the AI SDK with @strata/ai-sdk installed from its tarball, type-checked
// (strict, NodeNext) against the packed declarations and compiled: no LangChain anywhere.
import { createMemory, type ContextResult } from '@strata/core';
import { loadUIMessages, saveUIMessages, strataMemory, strataTools, type StrataMemoryOptions } from '@strata/ai-sdk';
import { generateText, wrapLanguageModel, type UIMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };
const inner = new MockLanguageModelV3({
  doGenerate: async () => ({ content: [{ type: 'text', text: 'Hello from the model.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] }),
});
const memory = await createMemory();
let context: ContextResult | undefined;
const options: StrataMemoryOptions = { memory, sessionId: 'chat-1', namespace: 'ana', budgetTokens: 1000, onContext: (c) => (context = c) };
const model = wrapLanguageModel({ model: inner, middleware: strataMemory(options) });
const { text } = await generateText({ model, system: 'Be brief.', prompt: 'Hi there' });
const stored = (await memory.messages('chat-1')).map((m) => `${m.role}: ${m.content}`);
const systems = inner.doGenerateCalls[0]?.prompt.filter((m) => m.role === 'system').length ?? 0;
const ui: UIMessage[] = [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Saved from a chat UI' }] }];
await saveUIMessages({ memory, sessionId: 'ui-chat', namespace: 'ana', messages: ui });
const loaded: UIMessage[] = await loadUIMessages({ memory, sessionId: 'ui-chat' });
const tools = Object.keys(strataTools({ memory, namespace: 'ana' })).sort();
await memory.close();
console.log(JSON.stringify({ consumer: 'ts', text, stored, systems, uiRoundTrip: JSON.stringify(loaded) === JSON.stringify(ui), tools, manifest: Array.isArray(context?.manifest) }));

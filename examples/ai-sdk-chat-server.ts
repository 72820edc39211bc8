// A chat server on the AI SDK and Hono: it streams UI message responses (useChat's protocol) and keeps every chat in strata, in a SQLite file.
/**
 *   node --import tsx --conditions=@strata/source examples/ai-sdk-chat-server.ts
 *   POST /api/chat {"id": "<chat id>", "messages": [<UIMessage>...]}   (what useChat sends)
 *   GET  /api/chats/<chat id>/messages                                 (the chat, to restore useChat)
 * Offline by default (a scripted OpenAI-compatible stub); STRATA_LLM_BASE_URL, STRATA_LLM_MODEL
 * and OPENAI_API_KEY select a real model. PORT (default: any free port) and STRATA_DB (default:
 * a file in a temp dir) are optional. It prints `listening on <url>` when it is ready.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { convertToModelMessages, streamText, validateUIMessages, wrapLanguageModel } from 'ai';
import { Hono } from 'hono';
import { createMemory, StrataError } from '@strata/core';
import { loadUIMessages, saveUIMessages, strataMemory } from '@strata/ai-sdk';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';
import { promptText } from '@strata/testkit';
import { connectLanguageModel } from './lib/connect-language-model.js';

const { model, endpoint, close } = await connectLanguageModel('ai-sdk-chat-server', (request) => {
  const lives = /User lives in (\w+)/.exec(promptText(request));
  return lives ? `You live in ${lives[1]}.` : 'Nice to meet you!';
});
/** STRATA_DB, or a file in a temp directory of its own, removed when the server stops. */
const ownDir = process.env.STRATA_DB ? undefined : mkdtempSync(join(tmpdir(), 'strata-chat-'));
const path = process.env.STRATA_DB || join(ownDir as string, 'memory.sqlite');
const memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
/** One user in this example; a real app takes the namespace from its authenticated user. */
const namespace = 'demo-user';
const system = 'You are a friendly assistant. Answer in one short sentence.';

const app = new Hono();
app.onError((error, c) => {
  if (error instanceof StrataError) return c.json({ code: error.code, message: error.message, hint: error.hint }, error.code === 'NOT_FOUND' ? 404 : 400);
  return c.json({ message: error.message }, 400);
});

app.post('/api/chat', async (c) => {
  const body = await c.req.json<{ id?: unknown; messages?: unknown }>();
  if (typeof body.id !== 'string' || !body.id) return c.json({ message: 'id (the chat id) is required' }, 400);
  const sessionId = body.id;
  const messages = await validateUIMessages({ messages: body.messages });
  // The user's new message is kept before the model runs: an aborted reply still leaves it stored.
  await saveUIMessages({ memory, sessionId, namespace, messages });
  const result = streamText({
    // persist: false: the chat's UIMessages are the stored turns; the middleware only reads memory.
    model: wrapLanguageModel({ model, middleware: strataMemory({ memory, sessionId, namespace, persist: false, budgetTokens: 1500 }) }),
    system,
    messages: await convertToModelMessages(messages),
  });
  return result.toUIMessageStreamResponse({
    originalMessages: messages,
    generateMessageId: () => crypto.randomUUID(),
    onFinish: async ({ messages: chat, isAborted }) => {
      if (!isAborted) await saveUIMessages({ memory, sessionId, namespace, messages: chat });
    },
  });
});

// With the namespace, a chat id of another user is refused rather than read.
app.get('/api/chats/:id/messages', async (c) => c.json(await loadUIMessages({ memory, sessionId: c.req.param('id'), namespace })));

// Derivation runs in the background; a client (or test) that needs the facts now can ask for them to settle.
app.post('/api/flush', async (c) => c.json(await memory.flush()));

const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0) }, (info) => {
  console.log(`model: ${endpoint}`);
  console.log(`listening on http://127.0.0.1:${info.port}`);
});

const stop = (): void => {
  server.close(async () => {
    await memory.close();
    await close();
    if (ownDir !== undefined) rmSync(ownDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

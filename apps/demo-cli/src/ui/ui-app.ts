import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { streamText } from 'hono/streaming';
import type { ContextResult, ExportBundle, Memory } from '@strata/core';
import { StrataError } from '@strata/core/errors';
import type { ChatAssistant } from '../chat/assistant.js';
import { draftSession, type ChatState } from '../chat/chat-state.js';
import { answerTurn } from '../chat/chat-turn.js';
import type { CliConfig } from '../config.js';
import { EXPORT_FORMATS } from '../commands/export.js';
import type { CountMessages } from '../session-counts.js';
import { chatPage, contextPanel } from './chat-page.js';
import { contextPage } from './context-page.js';
import { factsPage } from './facts-page.js';
import { sessionPage, sessionsPage, topicsPage } from './session-pages.js';

export interface UiDeps {
  memory: Memory;
  assistant: ChatAssistant;
  config: CliConfig;
  /** The SQLite file, for people. */
  path: string;
  /** Every request must carry it (in the URL once, then as a cookie). */
  token: string;
  /** Messages per session, from the session store's index. */
  countMessages: CountMessages;
}

const COOKIE = 'strata_ui';
const require = createRequire(import.meta.url);
/** Scripts served from node_modules: the app works offline, no CDN. */
const ASSETS: Record<string, string> = {
  'htmx.min.js': 'htmx.org/dist/htmx.min.js',
  'mermaid.min.js': 'mermaid/dist/mermaid.min.js',
};

/** A random access token for one run of `strata ui`. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

function sameToken(given: string | undefined, token: string): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The web app of `strata ui`: chat with memory, sessions and their timelines, facts and their
 * history, the context explorer, topic diagrams. It reads and writes through the Memory API
 * only. Server-rendered HTML (hono/html escapes every value); htmx for confirmations and
 * small swaps; a few lines of script stream chat replies.
 */
export function createUiApp(deps: UiDeps): Hono {
  const app = new Hono();
  const { memory } = deps;
  const namespace = deps.config.namespace;
  /** The context each session's last reply was given, for the chat's context panel. */
  const lastContext = new Map<string, ContextResult>();

  app.use('*', async (c, next) => {
    const fromUrl = c.req.query('token');
    if (sameToken(fromUrl, deps.token)) {
      setCookie(c, COOKIE, deps.token, { httpOnly: true, sameSite: 'Strict', path: '/' });
      return next();
    }
    if (sameToken(getCookie(c, COOKIE), deps.token)) return next();
    return c.text('strata ui: missing or wrong access token. Open the URL that `strata ui` printed (it holds ?token=...).\n', 401);
  });

  app.get('/', (c) => c.redirect('/chat'));
  app.get('/assets/:name', (c) => {
    const file = ASSETS[c.req.param('name')];
    if (!file) return c.notFound();
    return c.body(readFileSync(require.resolve(file)), 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'max-age=3600' });
  });

  app.get('/chat', async (c) => c.html(await chatPage(memory, deps.countMessages, namespace, deps.assistant.label, c.req.query('session'))));
  app.get('/fragments/context', async (c) => {
    const id = c.req.query('session') ?? '';
    return c.html(contextPanel(lastContext.get(id)));
  });
  app.post('/api/chat', async (c) => {
    const body = await c.req.json<{ session?: string; text?: string }>().catch(() => ({}) as { session?: string; text?: string });
    const text = (body.text ?? '').trim();
    if (!text) return c.json({ error: { code: 'INVALID_INPUT', message: 'the message is empty', hint: 'Type a message.' } }, 400);
    const state = await chatState(deps, body.session);
    c.header('x-strata-session', state.session.id);
    return streamText(c, async (out) => {
      try {
        const { context } = await answerTurn(state, text, (piece) => void out.write(piece));
        lastContext.set(state.session.id, context);
      } catch (error) {
        await out.write(`\n[error: ${error instanceof Error ? error.message : String(error)}]`);
      }
    });
  });

  app.get('/sessions', async (c) => c.html(await sessionsPage(memory, deps.countMessages, namespace, c.req.query('q') ?? '')));
  app.get('/sessions/:id', async (c) => c.html(await sessionPage(memory, namespace, await bundleOf(memory, c.req.param('id')))));
  app.get('/sessions/:id/topics', async (c) => c.html(await topicsPage(memory, namespace, c.req.param('id'))));
  app.get('/sessions/:id/export', async (c) => exportSession(c, memory));

  app.get('/facts', async (c) => c.html(await factsPage(memory, c.req.query('namespace') ?? namespace)));
  app.post('/facts/:id/forget', async (c) => {
    const ns = c.req.query('namespace') ?? namespace;
    const fact = (await memory.facts.list({ namespace: ns, includeSuperseded: true })).find((f) => f.id === c.req.param('id'));
    if (!fact) return c.text('no such fact (already forgotten?)', 404);
    // a fact is forgotten with the turns it was derived from: derivation would otherwise state it again
    await memory.forget({ messageIds: fact.sourceMessageIds });
    await memory.flush();
    c.header('HX-Redirect', `/facts?namespace=${encodeURIComponent(ns)}`);
    return c.body(null, 204);
  });

  app.get('/context', async (c) => {
    const budget = Number(c.req.query('budget') ?? 2000);
    return c.html(await contextPage(memory, namespace, { session: c.req.query('session'), query: c.req.query('q'), budget: Number.isInteger(budget) && budget > 0 ? budget : 2000 }));
  });

  app.onError((error, c) => {
    const status = StrataError.is(error) && error.code === 'NOT_FOUND' ? 404 : StrataError.is(error) && error.code === 'INVALID_INPUT' ? 400 : 500;
    const hint = StrataError.is(error) ? error.hint : 'See the terminal running strata ui.';
    if (status === 500) process.stderr.write(`strata ui: ${error.stack ?? error.message}\n`);
    return c.text(`${error.message}\n${hint}\n`, status);
  });
  return app;
}

/** The chat of one browser request: its session (a draft until the first message when none is given). */
async function chatState(deps: UiDeps, sessionId: string | undefined): Promise<ChatState> {
  const existing = sessionId ? await deps.memory.sessions.get(sessionId) : null;
  return {
    memory: deps.memory,
    assistant: deps.assistant,
    config: deps.config,
    path: deps.path,
    session: existing ?? draftSession(deps.config),
    isSessionStored: existing !== null,
    budgetTokens: 2000,
    print: () => undefined,
    isInteractive: false,
  };
}

async function bundleOf(memory: Memory, sessionId: string): Promise<ExportBundle> {
  return JSON.parse(await memory.export(sessionId, { format: 'json' })) as ExportBundle;
}

async function exportSession(c: Context, memory: Memory): Promise<Response> {
  const format = c.req.query('format') ?? 'json';
  const resolved = EXPORT_FORMATS[format];
  if (!resolved) return c.text(`unknown export format ${format}: json, jsonl, md or txt`, 400);
  const id = c.req.param('id') ?? '';
  const text = await memory.export(id, { format: resolved });
  return c.body(text, 200, { 'content-type': format === 'json' ? 'application/json' : 'text/plain; charset=utf-8', 'content-disposition': `attachment; filename="${id}.${format}"` });
}

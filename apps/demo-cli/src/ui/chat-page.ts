import { html, raw } from 'hono/html';
import type { ContextResult, Memory } from '@strata/core';
import { type CountMessages, withMessageCounts } from '../session-counts.js';
import { layout, when, type Html } from './layout.js';

/** The chat: recent sessions on the left, the conversation, and what memory went into the last reply. */
export async function chatPage(memory: Memory, countMessages: CountMessages, namespace: string, assistantLabel: string, sessionId: string | undefined): Promise<Html> {
  const sessions = await memory.sessions.list({ namespace, limit: 30 });
  const counted = await withMessageCounts(countMessages, sessions);
  const current = sessionId ? counted.find((s) => s.id === sessionId) : undefined;
  const messages = current ? await memory.messages(current.id, { last: 200 }) : [];
  const body = html`<div class="cols">
<aside class="card sessions"><a href="/chat"><b>+ New conversation</b></a>
${counted.map((s) => html`<a href="/chat?session=${s.id}" class="${s.id === current?.id ? 'on' : ''}" data-session="${s.id}">${s.title ?? s.id} <span class="dim">(${s.messages})</span></a>`)}
</aside>
<section class="card"><div class="dim">${current ? html`${current.title ?? current.id} · ${current.id} · export <a href="/sessions/${current.id}/export?format=md">Markdown</a> <a href="/sessions/${current.id}/export?format=json" id="export-json">JSON</a>` : 'New conversation (stored with its first message)'} · ${assistantLabel}</div>
<div id="messages">${messages.map((m) => html`<div class="msg ${m.role}"><span class="dim">${m.role}</span> ${m.content}</div>`)}</div>
<form id="chat" class="inline"><input type="text" name="text" id="text" autocomplete="off" placeholder="Type a message" autofocus><button>Send</button></form>
</section>
<aside class="card" id="context-panel"><b>Memory in the prompt</b><p class="dim">Send a message: the memory that goes into the reply's prompt shows here.</p></aside>
</div>
<script>${raw(CHAT_SCRIPT)}</script>`;
  return layout('Chat', 'chat', namespace, body);
}

/** Sends a message, shows the reply as it streams, then loads what memory went into its prompt. */
const CHAT_SCRIPT = `
let session = new URLSearchParams(location.search).get('session') || '';
const list = document.getElementById('messages');
function bubble(role, text) { const d = document.createElement('div'); d.className = 'msg ' + role; const r = document.createElement('span'); r.className = 'dim'; r.textContent = role + ' '; d.append(r, document.createTextNode(text)); list.append(d); return d; }
document.getElementById('chat').addEventListener('submit', async (event) => {
  event.preventDefault();
  const input = document.getElementById('text'); const text = input.value.trim(); if (!text) return;
  input.value = ''; bubble('user', text); const reply = bubble('assistant', ''); reply.dataset.streaming = 'true';
  const response = await fetch('/api/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ session, text }) });
  session = response.headers.get('x-strata-session') || session;
  history.replaceState(null, '', '/chat?session=' + encodeURIComponent(session));
  const reader = response.body.getReader(); const decoder = new TextDecoder();
  for (;;) { const { done, value } = await reader.read(); if (done) break; reply.lastChild.textContent += decoder.decode(value, { stream: true }); }
  delete reply.dataset.streaming;
  const panel = await fetch('/fragments/context?session=' + encodeURIComponent(session));
  document.getElementById('context-panel').innerHTML = await panel.text();
});`;

/** The memory a reply's prompt held: what was included, by tier, with tokens. */
export function contextPanel(context: ContextResult | undefined): Html {
  if (!context) return html`<b>Memory in the prompt</b><p class="dim">No reply in this session since the app started.</p>`;
  const included = context.manifest.filter((m) => m.included);
  return html`<b>Memory in the prompt</b> <span class="dim">${context.tokens} of ${context.budgetTokens} tokens, query "${context.query}"</span>
<table id="context-items"><tr><th>tier</th><th>kind</th><th>tokens</th><th>why</th></tr>
${included.map((m) => html`<tr data-id="${m.id}"><td>${m.tier}</td><td>${m.kind}</td><td>${m.tokens}</td><td>${m.reason}</td></tr>`)}</table>
<details><summary>The prompt as sent</summary>${context.messages.map((m) => html`<div class="msg ${m.role}">${m.content}</div>`)}</details>
<p class="dim">Assembled ${when(Date.now())} UTC</p>`;
}

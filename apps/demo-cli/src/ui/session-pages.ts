import { html } from 'hono/html';
import type { ExportBundle, Fact, Memory, Summary } from '@strata/core';
import { readSessionUsage } from '../format/usage.js';
import { type CountMessages, withMessageCounts } from '../session-counts.js';
import { layout, when, type Html } from './layout.js';
import { usageCard } from './usage-card.js';

/** Namespaces and sessions: search, counts, last activity. */
export async function sessionsPage(memory: Memory, countMessages: CountMessages, namespace: string, query: string): Promise<Html> {
  const all = await memory.sessions.list();
  const needle = query.trim().toLowerCase();
  const shown = needle ? all.filter((s) => [s.id, s.title ?? '', s.namespace].some((v) => v.toLowerCase().includes(needle))) : all;
  const counted = await withMessageCounts(countMessages, shown.slice(0, 200));
  const namespaces = new Map<string, { sessions: number; last: number }>();
  for (const s of all) {
    const n = namespaces.get(s.namespace) ?? { sessions: 0, last: 0 };
    namespaces.set(s.namespace, { sessions: n.sessions + 1, last: Math.max(n.last, s.updatedAt) });
  }
  const body = html`<form class="inline" method="get" action="/sessions"><input type="text" name="q" value="${query}" placeholder="search titles, ids, namespaces"><button>Search</button></form>
<div class="card"><b>Namespaces</b><table id="namespaces"><tr><th>namespace</th><th>sessions</th><th>last activity</th></tr>
${[...namespaces].map(([name, n]) => html`<tr><td><a href="/facts?namespace=${encodeURIComponent(name)}">${name}</a></td><td>${n.sessions}</td><td>${when(n.last)}</td></tr>`)}</table></div>
<div class="card"><b>Sessions</b> <span class="dim">${shown.length} of ${all.length}${shown.length > 200 ? ' (first 200 shown)' : ''}</span>
<table id="sessions"><tr><th>title</th><th>namespace</th><th>messages</th><th>last activity</th><th></th></tr>
${counted.map((s) => html`<tr><td><a href="/sessions/${s.id}">${s.title ?? s.id}</a></td><td>${s.namespace}</td><td>${s.messages}</td><td>${when(s.updatedAt)}</td><td><a href="/chat?session=${s.id}">chat</a> · <a href="/sessions/${s.id}/topics">topics</a></td></tr>`)}</table></div>`;
  return layout('Sessions', 'sessions', namespace, body);
}

/** A session's timeline: turns, the summaries covering them, the facts derived from them, linked both ways; and pending derivation. */
export async function sessionPage(memory: Memory, namespace: string, bundle: ExportBundle): Promise<Html> {
  const part = bundle.sessions[0];
  if (!part) return layout('Session', 'session', namespace, html`<p>No such session.</p>`);
  const { session, messages, summaries } = part;
  const factsOf = new Map<string, Fact[]>();
  for (const fact of bundle.facts) for (const id of fact.sourceMessageIds) factsOf.set(id, [...(factsOf.get(id) ?? []), fact]);
  // one pass over each: a long session has thousands of turns and summaries
  const summariesOf = new Map<number, Summary[]>();
  for (const s of summaries) if (s.level !== 'synopsis') for (let seq = s.fromSeq; seq <= s.toSeq; seq++) summariesOf.set(seq, [...(summariesOf.get(seq) ?? []), s]);
  const idOfSeq = new Map(messages.map((m) => [m.seq, m.id]));
  const [{ pending }, usage] = await Promise.all([memory.getContext(session.id, { budgetTokens: 200, touch: false }), readSessionUsage(memory, session)]);
  const stats = memory.stats();
  const body = html`<div class="card"><b>${session.title ?? session.id}</b> <span class="dim">${session.id} · namespace ${session.namespace} · created ${when(session.createdAt)} · ${messages.length} messages</span>
· <a href="/chat?session=${session.id}">chat</a> · <a href="/sessions/${session.id}/topics">threads and topics</a> · <a href="/context?session=${session.id}">context explorer</a>
· export <a href="/sessions/${session.id}/export?format=md">Markdown</a> <a href="/sessions/${session.id}/export?format=json">JSON</a></div>
<div class="card" id="pending"><b>Derivation and freshness</b> <span class="dim">jobs pending ${pending.jobs.length} · summarized through seq ${pending.watermarkSeq} of ${session.lastSeq} · turns not yet summarized ${pending.uncoveredMessages} · results applied since the app started ${stats.derivation.results}</span>
${pending.jobs.length ? html`<table><tr><th>job</th><th>turns</th><th>state</th><th>attempts</th><th>error</th></tr>${pending.jobs.map((j) => html`<tr><td>${j.type}</td><td>#${j.fromSeq}–#${j.toSeq}</td><td>${j.state}</td><td>${j.attempts}</td><td>${j.error ?? ''}</td></tr>`)}</table>` : ''}</div>
${usageCard(usage)}
<div class="card"><b>Summaries</b><table id="summaries"><tr><th>turns</th><th>level</th><th>text</th></tr>
${summaries.map((s) => html`<tr id="s-${s.id}"><td><a href="#m-${idOfSeq.get(s.fromSeq) ?? ''}">#${s.fromSeq}–#${s.toSeq}</a></td><td>${s.level}</td><td>${s.text}</td></tr>`)}</table></div>
<div class="card"><b>Turns</b><table id="turns"><tr><th>#</th><th>when</th><th>role</th><th>text</th><th>summarized in</th><th>facts from it</th></tr>
${messages.map(
  (m) => html`<tr id="m-${m.id}" class="turn"><td>${m.seq}</td><td class="dim">${when(m.createdAt)}</td><td>${m.role}</td><td>${m.content}</td>
<td>${(summariesOf.get(m.seq) ?? []).map((s) => html`<a href="#s-${s.id}">#${s.fromSeq}–#${s.toSeq}</a> `)}</td>
<td>${(factsOf.get(m.id) ?? []).map((f) => html`<a class="fact-link" href="/facts?namespace=${encodeURIComponent(session.namespace)}#f-${f.id}">${f.text}</a><br>`)}</td></tr>`,
)}</table></div>`;
  return layout(session.title ?? session.id, 'session', namespace, body);
}

/** Threads and topics as a Mermaid diagram, drawn in the browser by the bundled Mermaid. */
export async function topicsPage(memory: Memory, namespace: string, sessionId: string): Promise<Html> {
  const session = await memory.sessions.get(sessionId);
  const [diagram, topics] = await Promise.all([memory.toMermaid(sessionId), memory.topics.list(sessionId)]);
  const body = html`<div class="card"><b>${session?.title ?? sessionId}</b>: threads (edges from a turn to the one it answers or continues) grouped by topic · <a href="/sessions/${sessionId}">timeline</a></div>
<div class="card"><pre class="mermaid" id="diagram">${diagram}</pre></div>
<div class="card"><b>Topics</b><table id="topics"><tr><th>title</th><th>active turns</th><th>compressed</th><th>accesses</th><th>half-life</th><th>state</th></tr>
${topics.map((t) => html`<tr><td>${t.title}</td><td>${t.activeMessages}</td><td>${t.compressedMessages}</td><td>${t.accessCount}</td><td>${(t.halfLifeMs / 3_600_000).toFixed(1)} h</td><td>${t.isActive ? 'active' : 'cold'}</td></tr>`)}</table></div>`;
  return layout('Threads and topics', 'topics', namespace, body, { mermaid: true });
}

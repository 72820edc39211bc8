import { html } from 'hono/html';
import type { ContextResult, Memory } from '@strata/core';
import { layout, type Html } from './layout.js';

const TIERS = ['system', 'immediate', 'session', 'working', 'long-term'] as const;

/** Type a query and a budget, see the assembled context and its full manifest, with a token-budget bar. */
export async function contextPage(memory: Memory, namespace: string, request: { session: string | undefined; query: string | undefined; budget: number }): Promise<Html> {
  const sessions = await memory.sessions.list({ namespace, limit: 50 });
  const sessionId = request.session ?? sessions[0]?.id;
  // a look, not a use: no topic access is counted
  const context = sessionId ? await memory.getContext(sessionId, { budgetTokens: request.budget, touch: false, ...(request.query ? { query: request.query } : {}) }) : undefined;
  const body = html`<form class="card inline" method="get" action="/context">
<select name="session">${sessions.map((s) => html`<option value="${s.id}" ${s.id === sessionId ? 'selected' : ''}>${s.title ?? s.id}</option>`)}</select>
<input type="text" name="q" value="${request.query ?? ''}" placeholder="query (default: the last user turn)">
<input type="number" name="budget" value="${request.budget}" min="1" style="width:7rem"> tokens <button>Assemble</button></form>
${context ? explorer(context) : html`<p class="dim">No session in namespace ${namespace} yet.</p>`}`;
  return layout('Context explorer', 'context', namespace, body);
}

function explorer(context: ContextResult): Html {
  const byTier = new Map<string, number>();
  for (const m of context.manifest) if (m.included) byTier.set(m.tier, (byTier.get(m.tier) ?? 0) + m.tokens);
  const rest = Math.max(0, context.budgetTokens - context.tokens);
  const listed = [...byTier.values()].reduce((a, b) => a + b, 0);
  // prompt text, headings and message overhead: what the manifest's items do not count
  const overhead = Math.max(0, context.tokens - listed);
  const pct = (tokens: number): string => `${((tokens / Math.max(context.budgetTokens, context.tokens)) * 100).toFixed(2)}%`;
  return html`<div class="card"><b>Query</b> "${context.query}" · <span id="used">${context.tokens}</span> of <span id="budget">${context.budgetTokens}</span> tokens${context.overBudget ? html` · <span class="out">over budget</span>` : ''}
<div class="bar" id="budget-bar">${TIERS.filter((t) => byTier.has(t)).map((t) => html`<span class="t-${t}" style="width:${pct(byTier.get(t) ?? 0)}" title="${t}: ${byTier.get(t)} tokens"></span>`)}${overhead ? html`<span class="t-system" style="width:${pct(overhead)}" title="headings and message overhead: ${overhead} tokens"></span>` : ''}</div>
<div class="legend dim">${TIERS.filter((t) => byTier.has(t)).map((t) => html`<span><i class="t-${t}"></i>${t} ${byTier.get(t)}</span>`)}<span><i class="t-system"></i>overhead ${overhead}</span><span>free ${rest}</span></div></div>
<div class="card"><b>Manifest</b> <span class="dim">every candidate, in or out, and why</span>
<table id="manifest"><tr><th></th><th>tier</th><th>kind</th><th>score</th><th>tokens</th><th>reason</th><th>id</th></tr>
${context.manifest.map((m) => html`<tr data-id="${m.id}" data-included="${String(m.included)}"><td class="${m.included ? 'in' : 'out'}">${m.included ? 'in' : 'out'}</td><td>${m.tier}</td><td>${m.kind}</td><td>${m.score === undefined ? '' : m.score.toFixed(4)}</td><td>${m.tokens}</td><td>${m.reason}</td><td class="dim">${m.id}</td></tr>`)}</table></div>
<div class="card"><b>The assembled messages</b>${context.messages.map((m) => html`<div class="msg ${m.role}">${m.content}</div>`)}</div>`;
}

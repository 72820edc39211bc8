import { html } from 'hono/html';
import { coverageLine, formatCount, namespaceLine, noUsageLine, usageRows, type SessionUsage } from '../format/usage.js';
import type { Html } from './layout.js';

/**
 * What the models cost a session: its tokens by job type and by model, and its namespace's
 * total; one line when no job of the session called a model. hono/html escapes every value,
 * model names included (they come from configuration and the endpoint's answers).
 */
export function usageCard({ session, namespace }: SessionUsage): Html {
  const none = noUsageLine(session);
  return html`<div class="card" id="usage"><b>Model usage</b> <span class="dim">tokens the models reported for the derivation jobs applied${none ? '' : html` · ${coverageLine(session)}`}</span>
${
  none
    ? html`<p class="dim" id="usage-none">${none}</p>`
    : html`<table id="usage-session"><tr><th>by</th><th>name</th><th>tokens in</th><th>tokens out</th><th>calls</th></tr>
${usageRows(session).map((r) => html`<tr data-by="${r.by}" data-name="${r.name}"><td>${r.by}</td><td>${r.name}</td><td>${formatCount(r.usage.inputTokens)}</td><td>${formatCount(r.usage.outputTokens)}</td><td>${formatCount(r.usage.calls)}</td></tr>`)}</table>`
}
${namespace.jobsWithUsage > 0 ? html`<p id="usage-namespace">${namespaceLine(namespace)}</p>` : ''}</div>`;
}

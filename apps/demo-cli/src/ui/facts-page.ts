import { html } from 'hono/html';
import { type Fact, type Memory, slotName } from '@strata/core';
import { layout, when, type Html } from './layout.js';

/** Facts as a timeline per slot (subject · slot name): current and superseded, with where each came from. */
export async function factsPage(memory: Memory, namespace: string): Promise<Html> {
  const facts = await memory.facts.list({ namespace, includeSuperseded: true });
  // grouped by slot (its identity: subject and predicate), shown by its name (words, not an observation's stems)
  const slots = new Map<string, { name: string; history: Fact[] }>();
  for (const fact of facts) {
    const key = JSON.stringify([fact.subject, fact.predicate]);
    const slot = slots.get(key) ?? { name: `${fact.subject} · ${slotName(fact)}`, history: [] };
    slot.history.push(fact);
    slots.set(key, slot);
  }
  const sessionOf = await sourceSessions(memory, namespace);
  const body = html`<p class="dim">${facts.length} facts in ${slots.size} slots. Forgetting a fact forgets the turns it came from (derivation would state it again otherwise).</p>
${[...slots.values()].map(
  ({ name, history }) => html`<div class="card slot"><b>${name}</b>
<table><tr><th>state</th><th>value</th><th>valid from</th><th>valid to</th><th>from the turns</th><th></th></tr>
${history
  .sort((a, b) => a.validFrom - b.validFrom)
  .map(
    (f) => html`<tr id="f-${f.id}" class="fact" data-id="${f.id}"><td class="${f.validTo === undefined ? 'in' : 'dim'}">${f.validTo === undefined ? 'current' : 'superseded'}</td>
<td>${f.text}</td><td>${when(f.validFrom)}</td><td>${when(f.validTo)}</td>
<td>${f.sourceMessageIds.map((id) => (sessionOf.get(id) ? html`<a href="/sessions/${sessionOf.get(id)}#m-${id}">${id.slice(0, 12)}…</a> ` : html`<span class="dim">${id.slice(0, 12)}…</span> `))}</td>
<td><button hx-post="/facts/${f.id}/forget?namespace=${encodeURIComponent(namespace)}" hx-confirm="Forget the fact &quot;${f.text}&quot;? The ${f.sourceMessageIds.length} turn(s) it came from are forgotten with it, for good.">forget</button></td></tr>`,
  )}
</table></div>`,
)}`;
  return layout('Facts', 'facts', namespace, body);
}

/** The session of each turn facts cite, for links to the session timeline. */
async function sourceSessions(memory: Memory, namespace: string): Promise<Map<string, string>> {
  const bySource = new Map<string, string>();
  for (const session of await memory.sessions.list({ namespace })) for (const m of await memory.messages(session.id)) bySource.set(m.id, session.id);
  return bySource;
}

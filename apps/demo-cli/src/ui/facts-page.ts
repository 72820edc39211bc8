import { html } from 'hono/html';
import { type Fact, type FactEntity, factEntities, type Memory, slotName } from '@strata/core';
import { layout, when, type Html } from './layout.js';

/**
 * Facts by entity (core's factEntities): each person the facts are about, with their slots as
 * timelines (subject · slot name, current and superseded, where each came from), then every
 * person, place or thing the facts name, with links to those facts.
 */
export async function factsPage(memory: Memory, namespace: string): Promise<Html> {
  const facts = await memory.facts.list({ namespace, includeSuperseded: true });
  const entities = factEntities(facts);
  const sessionOf = await sourceSessions(memory, namespace);
  const slotCount = new Set(facts.map((f) => JSON.stringify([f.subject, f.predicate]))).size;
  const body = html`<p class="dim">${facts.length} facts in ${slotCount} slots, about ${plural(entities.filter((e) => e.about.length > 0).length, 'person', 'people')}; they name ${plural(entities.filter((e) => e.about.length === 0).length, 'more person, place or thing', 'more people, places and things')}. Forgetting a fact forgets the turns it came from (derivation would state it again otherwise).</p>
${entities.map((entity) => entitySection(entity, namespace, sessionOf))}`;
  return layout('Facts', 'facts', namespace, body);
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** "3 facts about, named in 1 fact". */
function countsOf({ about, namedIn }: FactEntity): string {
  const parts = [about.length ? `${plural(about.length, 'fact', 'facts')} about` : '', namedIn.length ? `named in ${plural(namedIn.length, 'fact', 'facts')}` : ''];
  return parts.filter(Boolean).join(', ');
}

function entitySection(entity: FactEntity, namespace: string, sessionOf: Map<string, string>): Html {
  const named = entity.namedIn.length
    ? html`<p class="named">named in ${entity.namedIn.map((f) => html`<a class="fact-ref" href="#f-${f.id}">${f.text}</a>${f.validTo === undefined ? '' : html` <span class="dim">(superseded)</span>`} `)}</p>`
    : '';
  return html`<section class="entity" data-entity="${entity.name}" data-kind="${entity.kind ?? ''}"><h2>${entity.name} <span class="dim">${entity.kind === undefined ? '' : `${entity.kind} · `}${countsOf(entity)}</span></h2>
${named}${[...slotsOf(entity.about).values()].map(({ name, history }) => slotCard(name, history, namespace, sessionOf))}</section>`;
}

/** The facts of an entity by slot (its identity: subject and predicate), named in words (not an observation's stems). */
function slotsOf(facts: readonly Fact[]): Map<string, { name: string; history: Fact[] }> {
  const slots = new Map<string, { name: string; history: Fact[] }>();
  for (const fact of facts) {
    const key = JSON.stringify([fact.subject, fact.predicate]);
    const slot = slots.get(key) ?? { name: `${fact.subject} · ${slotName(fact)}`, history: [] };
    slot.history.push(fact);
    slots.set(key, slot);
  }
  return slots;
}

function slotCard(name: string, history: Fact[], namespace: string, sessionOf: Map<string, string>): Html {
  return html`<div class="card slot"><b>${name}</b>
<table><tr><th>state</th><th>value</th><th>valid from</th><th>valid to</th><th>from the turns</th><th></th></tr>
${history
  .sort((a, b) => a.validFrom - b.validFrom)
  .map(
    (f) => html`<tr id="f-${f.id}" class="fact" data-id="${f.id}"><td class="${f.validTo === undefined ? 'in' : 'dim'}">${f.validTo === undefined ? 'current' : 'superseded'}</td>
<td>${f.text}</td><td>${when(f.validFrom)}</td><td>${when(f.validTo)}</td>
<td>${f.sourceMessageIds.map((id) => (sessionOf.get(id) ? html`<a href="/sessions/${sessionOf.get(id)}#m-${id}">${id.slice(0, 12)}…</a> ` : html`<span class="dim">${id.slice(0, 12)}…</span> `))}</td>
<td><button hx-post="/facts/${f.id}/forget?namespace=${encodeURIComponent(namespace)}" hx-confirm="Forget the fact &quot;${f.text}&quot;? The ${f.sourceMessageIds.length} turn(s) it came from are forgotten with it, for good.">forget</button></td></tr>`,
  )}
</table></div>`;
}

/** The session of each turn facts cite, for links to the session timeline. */
async function sourceSessions(memory: Memory, namespace: string): Promise<Map<string, string>> {
  const bySource = new Map<string, string>();
  for (const session of await memory.sessions.list({ namespace })) for (const m of await memory.messages(session.id)) bySource.set(m.id, session.id);
  return bySource;
}

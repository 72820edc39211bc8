// Export a session as JSON and markdown, import the JSON into a second memory, and check the import is lossless: same turns (ids, seqs), same facts, same context.
//
//   node --import tsx --conditions=@strata/source examples/import-export.ts
//
// Both memories are in process (in-memory store, offline models): no server, no key.
import { createMemory, type ExportBundle } from '@strata/core';

const source = await createMemory();
const session = await source.sessions.create({ namespace: 'ana', title: 'Dinner plans' });
await source.append(session.id, [
  { role: 'user', content: "I'm hosting a dinner on Saturday. I'm allergic to peanuts, so no satay." },
  { role: 'assistant', content: 'Noted: no peanuts. How many guests are coming?' },
  { role: 'user', content: 'Six of us. My brother Tomás is vegetarian.' },
  { role: 'assistant', content: 'A mushroom risotto would suit Tomás and everyone else.' },
]);
await source.flush(); // facts and topics are derived in the background; the bundle carries them

const json = await source.export(session.id, { format: 'json' });
const bundle = JSON.parse(json) as ExportBundle;
console.log(`exported session ${session.id} as JSON: ${json.length} characters, bundle version ${bundle.version}, ${bundle.sessions[0]?.messages.length} turns, ${bundle.facts.length} facts`);
console.log('\nthe same session as markdown:\n');
console.log((await source.export(session.id, { format: 'markdown' })).trimEnd());

const target = await createMemory();
const report = await target.import(json);
console.log(`\nimported into a second memory: ${report.sessions} session, ${report.messages} turns, ${report.summaries} summaries, ${report.facts} facts`);
await target.flush(); // the bundle's job ledger covers its turns: nothing is derived again

const before = await source.messages(session.id);
const after = await target.messages(session.id);
console.log('\nturns, exported -> imported (id, seq):');
for (const [i, turn] of before.entries()) {
  const copy = after[i];
  console.log(`  ${turn.id} #${turn.seq} -> ${copy?.id} #${copy?.seq} ${copy?.role}: ${copy?.content}`);
}
const sameTurns = JSON.stringify(before) === JSON.stringify(after);
console.log(`imported turns equal the exported ones (ids, seqs, times, text): ${sameTurns}`);

const facts = async (memory: typeof source) => (await memory.facts.list({ namespace: 'ana', includeSuperseded: true })).map((f) => `${f.id} ${f.text}`).sort();
console.log(`imported facts equal the exported ones: ${JSON.stringify(await facts(source)) === JSON.stringify(await facts(target))}`);

const again = JSON.parse(await target.export(session.id, { format: 'json' })) as ExportBundle;
const sameBundle = JSON.stringify({ ...again, exportedAt: '' }) === JSON.stringify({ ...bundle, exportedAt: '' });
console.log(`exporting the imported session again gives the same bundle (summaries, facts, topics, thread links, job ledger): ${sameBundle}`);

const query = 'What should I cook for the dinner?';
const [contextA, contextB] = await Promise.all([source.getContext(session.id, { query, budgetTokens: 500 }), target.getContext(session.id, { query, budgetTokens: 500 })]);
console.log(`\ncontext for "${query}" in the second memory:`);
for (const message of contextB.messages) console.log(`  ${message.role}: ${message.content.replace(/\n/g, '\n    ')}`);
const sameContext = JSON.stringify(contextA.messages) === JSON.stringify(contextB.messages) && JSON.stringify(contextA.manifest) === JSON.stringify(contextB.manifest);
console.log(`the imported session's context equals the original's (messages and manifest): ${sameContext}`);

await Promise.all([source.close(), target.close()]);

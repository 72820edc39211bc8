// The knowledge base on a Chroma server: the vectors of turns, summaries and facts go to a Chroma collection, search finds a fact, and forgetting the session leaves none of its records there.
//
//   STRATA_CHROMA_URL=http://127.0.0.1:8765 node --import tsx --conditions=@strata/source examples/chroma.ts
//
// Sessions and lexical search stay in process (in-memory store). The collection is this run's
// own and is deleted at the end. Without Chroma the example says so and exits 0.
import { randomUUID } from 'node:crypto';
import { createMemory, HashingEmbeddings, StrataError, type KnowledgeBase } from '@strata/core';
import { collectionNameFor, createChromaKnowledgeBase } from '@strata/kb-chroma';

const url = process.env.STRATA_CHROMA_URL ?? 'http://127.0.0.1:8765';
const collectionPrefix = `strata-example-${randomUUID().slice(0, 8)}`;
// the collection is named after the embeddings model and its dimensions, which must be the memory's
const embeddings = new HashingEmbeddings();
const collection = collectionNameFor(collectionPrefix, embeddings.modelName, embeddings.dimensions);

/** Chroma's own REST API, to look at the collection behind strata's back. */
async function chroma(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const init = { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
  const response = await fetch(`${url}/api/v2/tenants/default_tenant/databases/default_database/collections/${path}`, init);
  if (!response.ok) throw new Error(`Chroma ${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.json();
}

let knowledge: KnowledgeBase;
try {
  knowledge = await createChromaKnowledgeBase({ url, collectionPrefix, embeddingModel: embeddings.modelName, dimensions: embeddings.dimensions });
} catch (error) {
  if (!(error instanceof StrataError && error.code === 'BACKEND_UNAVAILABLE')) throw error;
  console.log(`skipped, this example needs Chroma: ${error.message.split(' (')[0]}. Start it with bash scripts/services.sh up, or set STRATA_CHROMA_URL.`);
  process.exit(0);
}
type Records = { ids: string[]; metadatas: { kind: string }[]; documents: (string | null)[] };
const byKind = (records: Records) => ['turn', 'summary', 'fact'].map((kind) => `${kind} ${records.metadatas.filter((m) => m.kind === kind).length}`).join(', ');

// vector ranking on: turns are embedded into the knowledge base only then (summaries and facts always are)
const memory = await createMemory({ knowledge, embeddings, policy: { immediate: { maxMessages: 4, minMessages: 2 }, working: { batchMessages: 4 }, context: { vectorWeight: 1 } } });
try {
  const { id } = (await chroma('GET', collection)) as { id: string };
  const recordsOf = async (filter: { where: unknown } | { ids: string[] }) => (await chroma('POST', `${id}/get`, { ...filter, include: ['metadatas', 'documents'] })) as Records;
  console.log(`knowledge base: Chroma at ${url}, collection ${collection}`);
  const session = await memory.sessions.create({ namespace: 'ana', title: 'Travel' });
  await memory.append(session.id, [
    { role: 'user', content: 'I live in Porto and I work as an architect.' },
    { role: 'assistant', content: 'Porto has wonderful buildings to look at.' },
    { role: 'user', content: 'Next month I fly to Kyoto to see the temples.' },
    { role: 'assistant', content: 'Kyoto in spring is lovely. Book the temples early.' },
    { role: 'user', content: 'My partner Rui is coming too, he is a chef.' },
    { role: 'assistant', content: 'Rui will enjoy the food markets.' },
  ]);
  await memory.flush();

  const hits = await memory.search({ namespace: 'ana', query: 'Where do I live?', k: 3, kinds: ['fact'] });
  console.log('\nsearch "Where do I live?" (facts, BM25 + Chroma vectors):');
  for (const hit of hits) console.log(`  ${hit.score.toFixed(4)} ${hit.id}: ${hit.text}`);

  // the session's records: its turns and summaries (by sessionId) and the facts drawn from its turns
  const turnIds = (await memory.messages(session.id)).map((m) => m.id);
  const factIds = (await memory.facts.list({ namespace: 'ana', includeSuperseded: true })).filter((f) => f.sourceMessageIds.some((m) => turnIds.includes(m))).map((f) => f.id);
  const bySession = await recordsOf({ where: { sessionId: session.id } });
  const ids = [...bySession.ids, ...factIds];
  const records = await recordsOf({ ids });
  console.log(
    `\nChroma holds ${records.ids.length} records of session ${session.id}: ${byKind(records)}; ${records.documents.filter((d) => d !== null).length} of them hold text (strata sends ids, vectors and filter fields)`,
  );

  const report = await memory.forget({ sessionId: session.id });
  console.log(`\nforgot session ${session.id}: ${report.messages} turns, ${report.summaries} summaries, ${report.facts} facts`);
  const left = await recordsOf({ ids });
  console.log(
    `after forget, the Chroma collection holds ${left.ids.length} of the session's ${ids.length} records (${(await recordsOf({ where: { sessionId: session.id } })).ids.length} with its sessionId, ${await chroma('GET', `${id}/count`)} in all)`,
  );
} finally {
  await memory.close();
  await chroma('DELETE', collection);
  console.log(`deleted collection ${collection}`);
}

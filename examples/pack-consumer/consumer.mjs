// ESM consumer of the packed packages: run by examples/test/pack.int.test.ts in a temp project
// where the tarballs from `npm pack` are installed, so every import below resolves through the
// installed package's `exports`, from the files its `files` list put in the tarball.
//
//   node consumer.mjs DIR    (DIR: a directory for the SQLite file)
//
// Prints one JSON line: what came back from the memory, and the export count of each package.
import { join } from 'node:path';
import { createMemory, StrataError } from '@strata/core';
import { StrataError as StrataErrorOfSubpath } from '@strata/core/errors';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';

const dir = process.argv[2];
if (!dir) throw new Error('usage: node consumer.mjs DIR');
const path = join(dir, 'esm.sqlite');
const turns = [
  { role: 'user', content: 'My sister Ingrid keeps bees on a rooftop in Trondheim.' },
  { role: 'assistant', content: 'Rooftop bees in Trondheim sound like hard work in winter.' },
];

// the store and the knowledge base on the same file
const memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
const session = await memory.sessions.create({ namespace: 'pack-esm' });
for (const turn of turns) await memory.append(session.id, turn);
await memory.flush();
const context = await memory.getContext(session.id, { query: 'Where does Ingrid keep her bees?', budgetTokens: 500 });
await memory.close();

// the same file opened by URL: core imports @strata/store-sqlite (its optional peer) by name
const reopened = await createMemory({ store: `sqlite:${path}` });
const stored = await reopened.messages(session.id);
await reopened.close();

const exportCounts = {};
for (const name of [
  '@strata/core',
  '@strata/core/errors',
  '@strata/store-sqlite',
  '@strata/store-postgres',
  '@strata/kb-chroma',
  '@strata/worker',
  '@strata/langchain',
  '@strata/server',
  '@strata/client',
]) {
  exportCounts[name] = Object.keys(await import(name)).length;
}

console.log(
  JSON.stringify({
    consumer: 'esm',
    messages: context.messages.length,
    appendedTextFound: turns.every((turn) => context.messages.some((m) => m.content.includes(turn.content))),
    reopenedMessages: stored.length,
    sameStrataError: StrataError === StrataErrorOfSubpath,
    exportCounts,
  }),
);

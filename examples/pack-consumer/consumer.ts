// TypeScript consumer of the packed packages: type-checked (strict, NodeNext, declaration files
// included), compiled and run by examples/test/pack.int.test.ts in a temp project where the
// tarballs from `npm pack` are installed, so types and code come from each package's `types`,
// `exports` and `files`, as an app's would.
//
//   tsc --strict --module nodenext --moduleResolution nodenext --target es2022 --outDir out consumer.ts
//   node out/consumer.js DIR    (DIR: a directory for the SQLite file)
//
// Prints one JSON line: what came back from the memory, and the export count of each package.
import { join } from 'node:path';
import { createMemory, type ContextResult, type Memory, type MessageInput, type Session, StrataError } from '@strata/core';
import { StrataError as StrataErrorOfSubpath, type StrataErrorCode } from '@strata/core/errors';
import { createSqliteKnowledgeBase, createSqliteSessionStore, type SqliteSessionStore } from '@strata/store-sqlite';
import type { PostgresSessionStore } from '@strata/store-postgres';
import type { ChromaKnowledgeBase } from '@strata/kb-chroma';
import type { BullMqJobQueue } from '@strata/worker';
import type { StrataChatMessageHistory } from '@strata/langchain';
import { createStrataServer, startStrataServer } from '@strata/server';
import { createRemoteMemory } from '@strata/client';

/** Types of every package, named so that the checker must resolve them. */
export type PackedTypes = [SqliteSessionStore, PostgresSessionStore, ChromaKnowledgeBase, BullMqJobQueue, StrataChatMessageHistory, StrataErrorCode];

const dir = process.argv[2];
if (!dir) throw new Error('usage: node out/consumer.js DIR');
const path = join(dir, 'ts.sqlite');
const turns: MessageInput[] = [
  { role: 'user', content: 'My brother Tomas repairs clocks in a workshop in Ghent.' },
  { role: 'assistant', content: 'A clock workshop in Ghent must be full of ticking.' },
];

const memory: Memory = await createMemory({ store: await createSqliteSessionStore({ path }), knowledge: await createSqliteKnowledgeBase({ path }) });
const session: Session = await memory.sessions.create({ namespace: 'pack-ts' });
for (const turn of turns) await memory.append(session.id, turn);
await memory.flush();
const context: ContextResult = await memory.getContext(session.id, { query: 'Where does Tomas repair clocks?', budgetTokens: 500 });
await memory.close();

// the same file opened by URL, served over HTTP, and read back through the remote client
const reopened: Memory = await createMemory({ store: `sqlite:${path}` });
const server = await startStrataServer({ app: createStrataServer({ memory: reopened }), host: '127.0.0.1', port: 0, onClose: () => reopened.close() });
const remote = createRemoteMemory({ url: server.url });
const stored = await remote.messages(session.id);
await remote.close();
await server.close();

const exportCounts: Record<string, number> = {
  '@strata/core': Object.keys(await import('@strata/core')).length,
  '@strata/core/errors': Object.keys(await import('@strata/core/errors')).length,
  '@strata/store-sqlite': Object.keys(await import('@strata/store-sqlite')).length,
  '@strata/store-postgres': Object.keys(await import('@strata/store-postgres')).length,
  '@strata/kb-chroma': Object.keys(await import('@strata/kb-chroma')).length,
  '@strata/worker': Object.keys(await import('@strata/worker')).length,
  '@strata/langchain': Object.keys(await import('@strata/langchain')).length,
  '@strata/server': Object.keys(await import('@strata/server')).length,
  '@strata/client': Object.keys(await import('@strata/client')).length,
};

const contents: string[] = context.messages.map((m) => m.content);
console.log(
  JSON.stringify({
    consumer: 'ts',
    messages: context.messages.length,
    appendedTextFound: turns.every((turn) => contents.some((c) => c.includes(turn.content))),
    reopenedMessages: stored.length,
    sameStrataError: StrataError === StrataErrorOfSubpath,
    exportCounts,
  }),
);

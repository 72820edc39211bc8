// Embedded chat memory on one SQLite file: a few turns, the context for a question and why each item is in it, then the memory read back after a close and reopen.
//
//   node --import tsx --conditions=@strata/source examples/embedded-chat.ts
//
// Sessions, turns, summaries, facts, topics and vectors all live in one file, here in a temp
// directory that the example removes at the end. No server, no key.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemory, type ContextResult, type Memory } from '@strata/core';
import { createSqliteKnowledgeBase, createSqliteSessionStore } from '@strata/store-sqlite';

const dir = mkdtempSync(join(tmpdir(), 'strata-embedded-chat-'));
const path = join(dir, 'memory.sqlite');

/** The store (turns, BM25) and the knowledge base (vectors) on the same file. */
async function open(): Promise<Memory> {
  return createMemory({
    store: await createSqliteSessionStore({ path }),
    knowledge: await createSqliteKnowledgeBase({ path }),
    // a small immediate tier, so that this short chat already has a summary in the working tier
    policy: { immediate: { maxMessages: 4, minMessages: 2 }, working: { batchMessages: 4 } },
  });
}

function show(title: string, context: ContextResult): void {
  console.log(`\n${title} (query "${context.query}", ${context.tokens}/${context.budgetTokens} tokens)`);
  for (const message of context.messages) console.log(`  ${message.role}: ${message.content.replace(/\n/g, '\n    ')}`);
  console.log('  manifest, included items:');
  for (const item of context.manifest.filter((m) => m.included)) console.log(`    ${item.kind} (${item.tier}): ${item.reason}`);
}

try {
  const memory = await open();
  const session = await memory.sessions.create({ namespace: 'ana', title: 'Moving house' });
  const turns = [
    { role: 'user' as const, content: 'I moved to Lisbon last month and I work as a nurse at the Santa Maria hospital.' },
    { role: 'assistant' as const, content: 'Welcome to Lisbon! Night shifts at a hospital can be hard.' },
    { role: 'user' as const, content: 'They are. My cat Miso hates the new flat, she hides under the sofa.' },
    { role: 'assistant' as const, content: 'Cats take a few weeks to settle. Give Miso a quiet corner.' },
    { role: 'user' as const, content: 'Good idea. I am also learning Portuguese on the tram.' },
    { role: 'assistant' as const, content: 'Boa sorte! The tram is a fine classroom.' },
  ];
  for (const turn of turns) {
    const [stored] = await memory.append(session.id, turn);
    console.log(`appended #${stored?.seq} ${turn.role}: ${turn.content}`);
  }
  // derivation (summaries, facts, topics) runs in the background; flush waits for it
  await memory.flush();
  show('context before closing', await memory.getContext(session.id, { query: 'Where do I work?', budgetTokens: 400 }));
  await memory.close();
  console.log(`\nclosed ${path} (${statSync(path).size} bytes)`);

  const reopened = await open();
  const [again] = await reopened.sessions.list({ namespace: 'ana' });
  console.log(`reopened: session ${again?.id} "${again?.title}", ${(await reopened.messages(session.id)).length} turns`);
  console.log(`facts: ${(await reopened.facts.list({ namespace: 'ana' })).map((f) => f.text).join(' | ')}`);
  const context = await reopened.getContext(session.id, { query: 'What is my cat called?', budgetTokens: 400 });
  show('context after reopening', context);
  const earlier = context.messages.some((m) => m.content.includes('Miso hates the new flat'));
  console.log(`\nthe reopened memory's context holds a turn from before the close: ${earlier ? 'yes' : 'no'}`);
  await reopened.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
  console.log(`removed ${dir}`);
}

// The topic and thread views of a conversation that switches topics and comes back: topics with their access counts and decay, the conversation tree as Mermaid, and a search hit with its thread path.
//
//   node --import tsx --conditions=@strata/source examples/topics-and-threads.ts
//
// The clock is the example's own, so that it can let days pass. In process, offline models.
import { createMemory, SimilarityThreadSelector } from '@strata/core';

const DAY = 86_400_000;
let now = Date.UTC(2026, 10, 20, 10, 0, 0);
const memory = await createMemory({
  clock: { now: () => now },
  // a user turn continues the newest reply of the most similar topic (default: the newest reply)
  threadSelector: new SimilarityThreadSelector({ minSimilarity: 0.2 }),
  policy: { topics: { similarityThreshold: 0.2 } },
});
const session = await memory.sessions.create({ namespace: 'ana', title: 'Weekend' });

const turns = [
  { role: 'user' as const, content: 'Are the bike lanes in Berlin good for cycling to work?' },
  { role: 'assistant' as const, content: 'Berlin bike lanes are wide; cycling to work along the canal bike lanes is popular.' },
  { role: 'user' as const, content: 'Give me a lasagna recipe with spinach and ricotta.' },
  { role: 'assistant' as const, content: 'Layer lasagna sheets with spinach, ricotta and tomato sauce, then bake the lasagna.' },
  { role: 'user' as const, content: 'Back to the Berlin bike lanes: is cycling in winter ok?' },
  { role: 'assistant' as const, content: 'Yes, the main bike lanes in Berlin are cleared of snow in winter.' },
];
for (const turn of turns) {
  now += 60_000;
  const [stored] = await memory.append(session.id, turn);
  console.log(`#${stored?.seq} ${turn.role}: ${turn.content}`);
  // topics and threads are placed after ingestion, in the background; in a chat that lands while
  // the model writes its reply, here flush waits for it before the next turn
  await memory.flush();
}

async function showTopics(when: string): Promise<void> {
  console.log(`\ntopics ${when}:`);
  for (const t of await memory.topics.list(session.id)) {
    const state = t.isActive ? 'active' : `cold, ${t.compressedMessages} turns compressed (${t.storedBytes} of ${t.textBytes} bytes)`;
    console.log(
      `  "${t.title}": ${t.activeMessages + t.compressedMessages} turns, accessed ${t.accessCount}x, priority ${t.priority.toFixed(3)}, half-life ${t.halfLifeMs / DAY} d, ${t.memoryType}, ${state}`,
    );
  }
}

const [hit] = await memory.search({ namespace: 'ana', query: 'cycling in winter', k: 1, kinds: ['turn'], contextDepth: 1 });
const seqOf = new Map((await memory.messages(session.id)).map((m) => [m.id, m.seq]));
console.log(`\nsearch "cycling in winter" with contextDepth 1, best turn: #${seqOf.get(hit?.id ?? '')} ${hit?.text}`);
for (const step of hit?.thread ?? []) console.log(`  thread path: it follows #${step.seq} ${step.role}: ${step.content}`);
await showTopics('after the chat and that search (each return to a topic, and each search hit, is an access)');

console.log('\nconversation tree (Mermaid; #5 returns to the bike lanes, so it follows #2, not #4):');
console.log((await memory.toMermaid(session.id)).trimEnd());

// Five days later: priority = importance x 0.5^(age / half-life); under the floor a topic goes cold
now += 5 * DAY;
const report = await memory.topics.decay({ sessionId: session.id });
console.log(`\nfive days later, decay cooled ${report.cooled.length} topic(s) and compressed ${report.compressed} turn(s); the topic of the newest turn stays active`);
await showTopics('after decay');
const lasagna = await memory.search({ namespace: 'ana', query: 'lasagna ricotta', k: 1, kinds: ['turn'] });
console.log(`\na search still finds the cold turn verbatim: "${lasagna[0]?.text}"`);
await showTopics('after that search (an access restores the topic)');
await memory.close();

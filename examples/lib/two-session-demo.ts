import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage } from '@langchain/core/messages';
import type { ContextResult } from '@strata/core';
import { createMemory } from '@strata/core';
import { createStrataMiddleware } from '@strata/langchain';
import { createAgent } from 'langchain';

/**
 * The conversation both examples run: the user says where they live in one session, and asks
 * in a later session. The agent has no history of its own: strata's middleware hands the model
 * the facts, recalled turns and recent turns that matter for each question.
 */
export async function runTwoSessionDemo(model: BaseChatModel): Promise<void> {
  const memory = await createMemory();
  let lastContext: ContextResult | undefined;
  const agent = createAgent({
    model,
    tools: [],
    systemPrompt: 'You are a friendly assistant. Answer in one short sentence.',
    middleware: [
      await createStrataMiddleware({
        memory,
        // One agent serves every session: each run names its session as LangGraph's thread id.
        sessionId: (runtime) => String(runtime.configurable?.thread_id ?? ''),
        budgetTokens: 1500,
        onContext: (context) => (lastContext = context),
      }),
    ],
  });
  const say = async (sessionId: string, text: string) => {
    const result = await agent.invoke({ messages: [new HumanMessage(text)] }, { configurable: { thread_id: sessionId } });
    const answer = result.messages.at(-1)?.text ?? '';
    console.log(`user: ${text}\nassistant: ${answer}`);
    return answer;
  };

  const monday = await memory.sessions.create({ namespace: 'demo-user', title: 'Monday' });
  console.log(`--- session 1 (${monday.id})`);
  await say(monday.id, 'Hi! I live in Lisbon and I work as a nurse.');
  // Facts are extracted in the background; wait for them before the next session starts.
  await memory.flush();

  const friday = await memory.sessions.create({ namespace: 'demo-user', title: 'Friday' });
  console.log(`--- session 2 (${friday.id})`);
  const answer = await say(friday.id, 'Where do I live?');
  console.log(`\nanswer: ${answer}`);
  if (lastContext) printManifest(lastContext);
  await memory.close();
}

/** What strata considered for the last prompt, kept or cut, and why. */
function printManifest(context: ContextResult): void {
  console.log(`\ncontext manifest (query "${context.query}", ${context.tokens}/${context.budgetTokens} tokens):`);
  for (const item of context.manifest) {
    console.log(`  ${item.included ? 'included' : 'cut     '} ${item.tier.padEnd(9)} ${item.kind.padEnd(7)} ${String(item.tokens).padStart(4)} tok  ${item.reason}`);
  }
}

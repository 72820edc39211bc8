/**
 * A LangChain retrieval chain over strata: `StrataRetriever` searches one user's memory
 * (turns, summaries and facts of every past session; BM25 + vectors), the documents are
 * formatted into the prompt with their ids, and the model answers from them. Prints each
 * retrieved document with its provenance (kind, id, session, source messages, date) and the
 * answer.
 *
 *   node --import tsx --conditions=@strata/source examples/retrieval-chain.ts
 *
 * Offline by default, no key needed: the example starts the project's OpenAI-compatible stub
 * (`startOpenAiStub` from @strata/testkit, a devDependency of this private workspace; an app
 * would not ship it) to play the model, answering only from what the prompt holds.
 * For a real model, set STRATA_LLM_BASE_URL, STRATA_LLM_MODEL and OPENAI_API_KEY (README.md).
 */
import type { Document } from '@langchain/core/documents';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence, type Runnable } from '@langchain/core/runnables';
import { createMemory } from '@strata/core';
import { StrataRetriever, type StrataDocumentMetadata } from '@strata/langchain';
import type { ChatCompletionRequest } from '@strata/testkit';
import { connectChatModel } from './lib/connect-chat-model.js';
import { readChatRequest } from './lib/read-chat-request.js';

/** The stub's script: it answers with a memory from the prompt (a fact when there is one), citing it. */
function scriptedModel(request: ChatCompletionRequest): string {
  const memories = readChatRequest(request).memoryLines.flatMap((line) => {
    const match = /^\[(\w+) (\S+)\] (.*)$/.exec(line);
    return match ? [match] : [];
  });
  const [, kind, id, text] = memories.find((m) => m[1] === 'fact') ?? memories[0] ?? [];
  return text ? `${text} [${kind} ${id}]` : 'I have no memory of that.';
}

const { model, endpoint, close } = await connectChatModel('retrieval-chain', scriptedModel);
console.log(`model: ${endpoint}`);

// What earlier conversations of user "ana" left in strata (an app appends them as they happen).
const memory = await createMemory();
await memory.sessions.create({ namespace: 'ana', id: 'dinner-plans', title: 'Dinner plans' });
await memory.append('dinner-plans', [
  { role: 'user', content: "I'm hosting a dinner on Saturday. I'm allergic to peanuts, so no satay please." },
  { role: 'assistant', content: 'Noted: a peanut-free menu for Saturday.' },
]);
await memory.sessions.create({ namespace: 'ana', id: 'moving-house', title: 'Moving house' });
await memory.append('moving-house', [
  { role: 'user', content: 'I moved to Lisbon in May and I work as a nurse.' },
  { role: 'assistant', content: 'Welcome to Lisbon!' },
]);
// Facts are filed in the background; wait for them so the retriever can find them too.
await memory.flush();

const retriever = new StrataRetriever({ memory, namespace: 'ana', k: 4 });
const formatDocuments = (documents: Document<StrataDocumentMetadata>[]) => documents.map((d) => `- [${d.metadata.kind} ${d.metadata.id}] ${d.pageContent}`).join('\n');
const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'Answer in one sentence from these memories of the user, and cite the [kind id] you used:\n{memories}'],
  ['human', '{question}'],
]);
// question -> { question, documents } -> { question, documents, answer }: the chain hands back what it retrieved.
const chain: Runnable<string, { question: string; documents: Document<StrataDocumentMetadata>[]; answer: string }> = RunnableSequence.from([
  { question: new RunnablePassthrough<string>(), documents: retriever },
  RunnablePassthrough.assign({
    answer: RunnableSequence.from([
      (input: { question: string; documents: Document<StrataDocumentMetadata>[] }) => ({ question: input.question, memories: formatDocuments(input.documents) }),
      prompt,
      model,
      new StringOutputParser(),
    ]),
  }),
]);

const question = 'What am I allergic to?';
const { documents, answer } = await chain.invoke(question);
console.log(`question: ${question}\nretrieved ${documents.length} documents, best first:`);
for (const [i, { pageContent, metadata: m }] of documents.entries()) {
  const day = new Date(m.createdAt).toISOString().slice(0, 10);
  // A turn or summary belongs to a session; a fact to the whole namespace, and names the messages it came from.
  const where = m.sessionId === null ? `namespace ana, valid since ${day}` : `session ${m.sessionId}, ${day}`;
  console.log(`  ${i + 1}. ${m.kind} ${m.id} | score ${m.score.toFixed(4)} | ${where} | from ${m.messageIds.join(', ')}`);
  console.log(`     ${pageContent}`);
}
console.log(`answer: ${answer}`);

await memory.close();
await close();

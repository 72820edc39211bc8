import { afterEach, describe, expect, it } from 'vitest';
import { createMemory, type BackgroundError, type Memory } from '@strata/core';
import { promptText, type ChatCompletionRequest, type OpenAiStub, type StubChatReply } from '@strata/testkit';
import { LlmFactExtractor } from '../../src/models/llm-fact-extractor.js';
import { chatRequests, startStubModel } from '../langchain/openai-stub-model.js';

// A model's answer, good or bad, read by LlmFactExtractor through ChatOpenAI over real HTTP
// (the testkit's OpenAI stub): what is kept, what is reported, what is asked again.

/** The conversation: five user turns, one durable fact each, and what the model files for each. */
const FACTS = [
  { says: 'I live in Lisbon.', predicate: 'lives_in', object: 'Lisbon' },
  { says: 'I work at Acme as a nurse.', predicate: 'employer', object: 'Acme' },
  { says: 'My sister is called Mia.', predicate: 'sister_name', object: 'Mia' },
  { says: 'I play the cello on Sundays.', predicate: 'plays', object: 'cello' },
  { says: 'I have a dog called Rex.', predicate: 'dog_name', object: 'Rex' },
];

type Item = Record<string, unknown>;

/** The facts a good model files for the turns in `request`: `turn` is the seq the prompt shows for each. */
function modelFacts(request: ChatCompletionRequest): Item[] {
  const prompt = promptText(request);
  return FACTS.flatMap(({ says, predicate, object }) => {
    const seq = new RegExp(`\\[#(\\d+) [^\\]]*\\] user: ${says.replace('.', '\\.')}`).exec(prompt)?.[1];
    return seq ? [{ turn: Number(seq), subject: 'user', predicate, object, text: `MODEL: user ${predicate} ${object}.`, confidence: 0.9 }] : [];
  });
}

const isExtraction = (request: ChatCompletionRequest) => /durable facts/.test(promptText(request));

let stub: OpenAiStub | undefined;
let memory: Memory | undefined;
afterEach(async () => {
  await memory?.close();
  await stub?.close();
  memory = undefined;
  stub = undefined;
});

/** Appends the conversation to a memory whose extractor asks the stub, answering each extraction with `answer`; flushes. */
async function converse(answer: (facts: Item[], call: number) => StubChatReply) {
  let call = 0;
  const started = await startStubModel({ chat: (request) => (isExtraction(request) ? answer(modelFacts(request), call++) : 'ok') });
  stub = started.stub;
  const reported: BackgroundError[] = [];
  memory = await createMemory({ extractor: new LlmFactExtractor({ model: started.model }), onError: (event) => reported.push(event) });
  const session = await memory.sessions.create({ namespace: 'ana' });
  await memory.append(
    session.id,
    FACTS.flatMap(({ says }) => [
      { role: 'user' as const, content: says },
      { role: 'assistant' as const, content: 'Noted.' },
    ]),
  );
  await memory.flush();
  const facts = await memory.facts.list({ namespace: 'ana' });
  const fromModel = facts.filter((f) => f.text.startsWith('MODEL:') && !f.degraded).map((f) => f.object);
  return { facts, fromModel: fromModel.sort(), reported, stats: memory.stats().derivation, requests: chatRequests(stub).filter(isExtraction) };
}

const toolCall = (args: Record<string, unknown>, name = 'facts'): StubChatReply => ({ toolCalls: [{ name, args }] });
const ALL = FACTS.map((f) => f.object).sort();

describe('reading a model answer (LlmFactExtractor over HTTP)', () => {
  it('valid: every fact from the model, one call, nothing reported', async () => {
    const run = await converse((facts) => toolCall({ facts }));
    expect(run.fromModel).toEqual(ALL);
    expect(run.requests).toHaveLength(1);
    expect(run.reported).toEqual([]);
    expect(run.stats).toMatchObject({ degradedResults: 0, droppedItems: 0 });
  });

  it('fenced JSON wrapped in prose, no tool call: every fact from the model, no second call', async () => {
    const run = await converse((facts) => ({ content: `Sure! Here are the facts:\n\`\`\`json\n${JSON.stringify({ facts }, null, 2)}\n\`\`\`\nLet me know if you need more.` }));
    expect(run.fromModel).toEqual(ALL);
    expect(run.requests).toHaveLength(1);
  });

  it('truncated JSON (cut three characters short): its facts are read', async () => {
    const run = await converse((facts) => ({ content: JSON.stringify({ facts }).slice(0, -3) }));
    expect(run.fromModel).toEqual(ALL);
    expect(run.requests).toHaveLength(1);
  });

  it('one malformed item among five: the four valid facts are stored from the model, the fifth reported', async () => {
    const run = await converse((facts) => toolCall({ facts: facts.map((f, i) => (i === 2 ? { ...f, object: { nested: true } } : f)) }));
    expect(run.fromModel).toEqual(ALL.filter((o) => o !== 'Mia'));
    expect(run.requests).toHaveLength(1);
    expect(run.stats).toMatchObject({ degradedResults: 0, droppedItems: 1 });
    const [event] = run.reported;
    expect(run.reported).toHaveLength(1);
    expect(event).toMatchObject({ kind: 'model-output', error: { code: 'INTERNAL' } });
    expect(String((event?.error as Error | undefined)?.message)).toMatch(/facts\[2\].*object/);
  });

  it('wrong types (confidence as a string or a word, turn as a string): coerced, every fact kept', async () => {
    const words = ['0.9', 'high', '80%', 'medium', 'low'];
    const run = await converse((facts) => toolCall({ facts: facts.map((f, i) => ({ ...f, turn: String(f.turn), confidence: words[i] })) }));
    expect(run.fromModel).toEqual(ALL);
    expect(run.stats.droppedItems).toBe(0);
    const confidence = Object.fromEntries(run.facts.map((f) => [f.object, f.confidence]));
    expect(confidence).toMatchObject({ Lisbon: 0.9, Acme: 0.9, Mia: 0.8, cello: 0.6, Rex: 0.3 });
  });

  it('a missing required field drops only that item', async () => {
    const run = await converse((facts) => toolCall({ facts: facts.map(({ text, ...rest }, i) => (i === 4 ? rest : { ...rest, text })) }));
    expect(run.fromModel).toEqual(ALL.filter((o) => o !== 'Rex'));
    expect(run.stats.droppedItems).toBe(1);
    expect(String((run.reported[0]?.error as Error | undefined)?.message)).toMatch(/facts\[4\].*text/);
  });

  it('plain prose with no tool call: asked once more with the error, and the second answer is kept', async () => {
    const run = await converse((facts, call) => (call === 0 ? 'The user lives in Lisbon and works at Acme.' : toolCall({ facts })));
    expect(run.fromModel).toEqual(ALL);
    expect(run.requests).toHaveLength(2);
    const retry = run.requests[1]?.messages ?? [];
    expect(retry.at(-2)).toMatchObject({ role: 'assistant', content: 'The user lives in Lisbon and works at Acme.' });
    expect(promptText({ ...run.requests[1]!, messages: retry.slice(-1) })).toMatch(/could not be used/);
  });

  it('prose twice: two calls at most, then the offline extractor (degraded), nothing lost', async () => {
    const run = await converse(() => 'I am not sure what to extract here.');
    expect(run.requests).toHaveLength(2);
    expect(run.fromModel).toEqual([]);
    expect(run.stats.degradedResults).toBeGreaterThan(0);
    expect(run.facts.length).toBeGreaterThan(0);
    expect(run.facts.every((f) => f.degraded)).toBe(true);
  });

  it('a tool call under another name: its arguments are read', async () => {
    const run = await converse((facts) => toolCall({ facts }, 'record_facts'));
    expect(run.fromModel).toEqual(ALL);
    expect(run.requests).toHaveLength(1);
  });
});

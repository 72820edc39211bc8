import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { asSchema, generateText, stepCountIs, type Tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createMemory, type Memory } from '@strata/core';
import { MEMORY_NOTE_KEY, notesSessionId, strataTools } from '../src/strata-tools.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type CallOptions = MockLanguageModelV3['doGenerateCalls'][number];

const usage: GenerateResult['usage'] = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** One model step that calls a tool. */
function toolCallStep(toolName: string, input: Record<string, unknown>, toolCallId = `call_${toolName}`): GenerateResult {
  return { content: [{ type: 'tool-call', toolCallId, toolName, input: JSON.stringify(input) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
}

/** One model step that answers. */
function textStep(text: string): GenerateResult {
  return { content: [{ type: 'text', text }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
}

/** The tool results a model call was sent (the tool messages of its prompt). */
function toolResultsSent(call: CallOptions | undefined) {
  return (call?.prompt ?? []).flatMap((m) => (m.role === 'tool' ? m.content : []));
}

/** Runs a tool's execute as the AI SDK does after validating the input. */
async function run<INPUT>(tool: Tool<INPUT, string>, input: INPUT, toolCallId = 'call_1'): Promise<string> {
  const output = await tool.execute?.(input, { toolCallId, messages: [] });
  if (typeof output !== 'string') throw new Error(`expected a string result, got ${String(output)}`);
  return output;
}

/** What a tool threw, or a failure when it did not throw. */
async function failureOf(result: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await result;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the tool to fail');
}

let memory: Memory;
afterEach(async () => memory?.close());

async function memoryOf(...namespaces: string[]) {
  memory = await createMemory();
  return namespaces.map((namespace) => strataTools({ memory, namespace }));
}

/** Everything stored for a namespace, to show that a refused call changed nothing. */
async function snapshot(namespace: string) {
  const sessions = await memory.sessions.list({ namespace });
  return {
    facts: await memory.facts.list({ namespace, includeSuperseded: true }),
    messages: await Promise.all(sessions.map((s) => memory.messages(s.id))),
  };
}

describe('strataTools', () => {
  it('remember stores a marked user turn in the namespace notes session and reports the fact filed from it', async () => {
    const [tools] = await memoryOf('ana');
    const answer = await run(tools!.remember, { text: 'I live in Lisbon.' }, 'call_7');
    const notesId = await notesSessionId('ana');
    expect(await memory.sessions.get(notesId)).toMatchObject({ namespace: 'ana', title: 'Notes of the memory tools' });
    const [note, ...more] = await memory.messages(notesId);
    expect(more).toEqual([]);
    expect(note).toMatchObject({ role: 'user', content: 'I live in Lisbon.', metadata: { [MEMORY_NOTE_KEY]: { tool: 'remember', toolCallId: 'call_7' } } });
    const facts = await memory.facts.list({ namespace: 'ana' });
    expect(facts.map((f) => ({ text: f.text, sources: f.sourceMessageIds }))).toEqual([{ text: 'User lives in Lisbon.', sources: [note!.id] }]);
    expect(answer).toBe(`Remembered as ${note!.id}. strata filed 1 fact from it:\n- [fact ${facts[0]!.id}] User lives in Lisbon.`);
  });

  it('remember says when no fact was filed', async () => {
    const [tools] = await memoryOf('ana');
    const answer = await run(tools!.remember, { text: 'Prefers answers without emoji.' });
    const [note] = await memory.messages(await notesSessionId('ana'));
    expect(answer).toBe(`Remembered as ${note!.id}. No fact was filed from it: the note is stored and recall finds it by its words.`);
  });

  it('remember writes to the sessionId given, creating it in the namespace, and refuses one of another namespace', async () => {
    memory = await createMemory();
    await run(strataTools({ memory, namespace: 'ana', sessionId: 'chat-9' }).remember, { text: 'My sister is called Mia.' });
    expect(await memory.sessions.get('chat-9')).toMatchObject({ namespace: 'ana' });
    expect((await memory.messages('chat-9')).map((m) => m.content)).toEqual(['My sister is called Mia.']);
    const error = await failureOf(run(strataTools({ memory, namespace: 'bob', sessionId: 'chat-9' }).remember, { text: 'I live in Oslo.' }));
    expect(error.code).toBe('CONFLICT');
    expect((await memory.messages('chat-9')).map((m) => m.content)).toEqual(['My sister is called Mia.']);
    expect(await memory.facts.list({ namespace: 'bob' })).toEqual([]);
  });

  it('a namespace too long for the notes session id gets one named by its SHA-256, as @strata/langchain names it', async () => {
    const namespace = `tenant-${'x'.repeat(240)}`;
    const [tools] = await memoryOf(namespace);
    await run(tools!.remember, { text: 'I live in Lisbon.' });
    const expected = `memory-notes:${createHash('sha256').update(namespace).digest('hex')}`;
    expect(await notesSessionId(namespace)).toBe(expected);
    expect((await memory.messages(expected)).map((m) => m.content)).toEqual(['I live in Lisbon.']);
    expect(await notesSessionId('ana')).toBe('memory-notes:ana');
  });

  it('recall finds what remember stored, one line per hit with its kind and id', async () => {
    const [tools] = await memoryOf('ana');
    expect(await run(tools!.recall, { query: 'where does the user live', k: 5 })).toBe('Nothing in memory matches this query.');
    await run(tools!.remember, { text: 'I live in Lisbon.' });
    const [fact] = await memory.facts.list({ namespace: 'ana' });
    const [note] = await memory.messages(await notesSessionId('ana'));
    const lines = (await run(tools!.recall, { query: 'where does the user live', k: 5 })).split('\n');
    const hits = await memory.search({ namespace: 'ana', query: 'where does the user live', k: 5 });
    expect(lines.map((line) => /^- \[(\w+) (\S+) \| \d{4}-\d\d-\d\d\] /.exec(line)?.slice(1))).toEqual(hits.map((h) => [h.kind, h.id]));
    expect(lines).toEqual(
      expect.arrayContaining([expect.stringMatching(`^- \\[fact ${fact!.id} \\| .*\\] User lives in Lisbon\\.$`), expect.stringMatching(`^- \\[turn ${note!.id} \\| .*\\] I live in Lisbon\\.$`)]),
    );
  });

  it('recall stays in its namespace', async () => {
    const [ana, bob] = await memoryOf('ana', 'bob');
    await run(ana!.remember, { text: 'I live in Lisbon.' });
    expect(await run(bob!.recall, { query: 'Lisbon', k: 5 })).toBe('Nothing in memory matches this query.');
  });

  it('forget of a fact removes it with the note it came from, and recall no longer finds it', async () => {
    const [tools] = await memoryOf('ana');
    await run(tools!.remember, { text: 'I live in Lisbon.' });
    await run(tools!.remember, { text: 'I work as a nurse.' });
    const lisbon = (await memory.facts.list({ namespace: 'ana' })).find((f) => f.text === 'User lives in Lisbon.');
    expect(await run(tools!.recall, { query: 'Lisbon', k: 5 })).toContain(lisbon!.id);
    const answer = await run(tools!.forget, { id: lisbon!.id });
    expect(answer).toBe(`Forgot fact ${lisbon!.id} and the 1 message it came from. Derived from it: 1 fact deleted, 0 kept with other sources, 0 summaries to redo.`);
    expect((await memory.facts.list({ namespace: 'ana' })).map((f) => f.text)).toEqual(['User works as a nurse.']);
    expect((await memory.messages(await notesSessionId('ana'))).map((m) => m.content)).toEqual(['I work as a nurse.']);
    expect(await run(tools!.recall, { query: 'Lisbon', k: 5 })).toBe('Nothing in memory matches this query.');
  });

  it('forget of a note by its id removes the note and the facts only it stated', async () => {
    const [tools] = await memoryOf('ana');
    await run(tools!.remember, { text: 'I live in Lisbon.' });
    const [note] = await memory.messages(await notesSessionId('ana'));
    expect(await run(tools!.forget, { id: note!.id })).toBe(`Forgot message ${note!.id}. Derived from it: 1 fact deleted, 0 kept with other sources, 0 summaries to redo.`);
    expect(await memory.facts.list({ namespace: 'ana' })).toEqual([]);
    expect(await memory.messages(await notesSessionId('ana'))).toEqual([]);
  });

  it('forget refuses an id of another namespace exactly as an unknown id, and changes nothing', async () => {
    const [ana, bob] = await memoryOf('ana', 'bob');
    await run(ana!.remember, { text: 'I live in Lisbon.' });
    const [fact] = await memory.facts.list({ namespace: 'ana' });
    const [note] = await memory.messages(await notesSessionId('ana'));
    const before = await snapshot('ana');
    const shape = (error: Error & { code?: string }, id: string) => ({ name: error.name, code: error.code, message: error.message.replaceAll(id, '<id>') });
    const unknownFact = shape(await failureOf(run(bob!.forget, { id: 'fact_0000000000' })), 'fact_0000000000');
    const unknownMessage = shape(await failureOf(run(bob!.forget, { id: 'msg_0000000000' })), 'msg_0000000000');
    expect(unknownFact).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringMatching(/^no turn, note or fact with id "<id>" in memory; nothing was forgotten \(NOT_FOUND\)\. Pass an id that recall or remember returned/),
    });
    expect(unknownMessage).toEqual(unknownFact);
    expect(shape(await failureOf(run(bob!.forget, { id: fact!.id })), fact!.id)).toEqual(unknownFact);
    expect(shape(await failureOf(run(bob!.forget, { id: note!.id })), note!.id)).toEqual(unknownFact);
    expect(await snapshot('ana')).toEqual(before);
    expect(before.facts).toHaveLength(1);
  });

  it('the input schemas reject empty or blank text, query and id, and accept the rest', async () => {
    const [tools] = await memoryOf('ana');
    const validate = async (tool: Tool, input: unknown) => (await asSchema(tool.inputSchema).validate?.(input))?.success;
    expect(await validate(tools!.remember, { text: '' })).toBe(false);
    expect(await validate(tools!.remember, { text: '   ' })).toBe(false);
    expect(await validate(tools!.remember, {})).toBe(false);
    expect(await validate(tools!.remember, { text: 'I live in Lisbon.' })).toBe(true);
    expect(await validate(tools!.recall, { query: ' ' })).toBe(false);
    expect(await validate(tools!.recall, { query: 'Lisbon', k: 0 })).toBe(false);
    expect(await asSchema(tools!.recall.inputSchema).validate?.({ query: ' Lisbon ' })).toEqual({ success: true, value: { query: 'Lisbon', k: 5 } });
    expect(await validate(tools!.forget, { id: '' })).toBe(false);
    expect(await validate(tools!.forget, { id: 'fact_1' })).toBe(true);
  });

  it('refuses options without a memory or a namespace', async () => {
    memory = await createMemory();
    expect(() => strataTools({ memory, namespace: '' })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
    expect(() => strataTools({ memory: {} as Memory, namespace: 'ana' })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});

describe('strataTools in a generateText tool loop', () => {
  it('executes remember and passes its result back to the model, which then answers', async () => {
    const [tools] = await memoryOf('ana');
    const model = new MockLanguageModelV3({ doGenerate: [toolCallStep('remember', { text: 'I live in Lisbon.' }), textStep('Noted: you live in Lisbon.')] });
    const result = await generateText({ model, tools: tools!, stopWhen: stepCountIs(3), prompt: 'Remember that I live in Lisbon.' });
    expect(result.text).toBe('Noted: you live in Lisbon.');
    expect(result.steps).toHaveLength(2);
    const [fact] = await memory.facts.list({ namespace: 'ana' });
    expect(fact?.text).toBe('User lives in Lisbon.');
    const [note] = await memory.messages(await notesSessionId('ana'));
    const expected = `Remembered as ${note!.id}. strata filed 1 fact from it:\n- [fact ${fact!.id}] User lives in Lisbon.`;
    expect(result.steps[0]?.toolResults).toMatchObject([{ toolName: 'remember', toolCallId: 'call_remember', output: expected }]);
    expect(model.doGenerateCalls[0]?.tools?.map((t) => t.name)).toEqual(['remember', 'recall', 'forget']);
    expect(toolResultsSent(model.doGenerateCalls[1])).toMatchObject([{ type: 'tool-result', toolCallId: 'call_remember', toolName: 'remember', output: { type: 'text', value: expected } }]);
  });

  it('a strata error comes back to the model as an error result with its hint, and the loop goes on', async () => {
    const [tools] = await memoryOf('ana');
    const model = new MockLanguageModelV3({ doGenerate: [toolCallStep('forget', { id: 'fact_unknown' }), textStep('I found nothing to forget.')] });
    const result = await generateText({ model, tools: tools!, stopWhen: stepCountIs(3), prompt: 'Forget fact_unknown.' });
    expect(result.text).toBe('I found nothing to forget.');
    const [toolError] = result.steps[0]?.content.filter((part) => part.type === 'tool-error') ?? [];
    expect(toolError).toMatchObject({ toolName: 'forget', error: { name: 'StrataError', code: 'NOT_FOUND', cause: { code: 'NOT_FOUND' } } });
    expect(toolResultsSent(model.doGenerateCalls[1])).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'call_forget',
        toolName: 'forget',
        output: {
          type: 'error-text',
          value:
            'no turn, note or fact with id "fact_unknown" in memory; nothing was forgotten (NOT_FOUND). Pass an id that recall or remember returned (a summary goes with the turns it summarises).',
        },
      },
    ]);
  });

  it('an empty note is rejected by the schema before remember runs, and the model is told', async () => {
    const [tools] = await memoryOf('ana');
    const model = new MockLanguageModelV3({ doGenerate: [toolCallStep('remember', { text: ' ' }), textStep('Sorry, there was nothing to remember.')] });
    const result = await generateText({ model, tools: tools!, stopWhen: stepCountIs(3), prompt: 'Remember this.' });
    expect(result.text).toBe('Sorry, there was nothing to remember.');
    expect(result.steps[0]?.content.filter((part) => part.type === 'tool-error')).toMatchObject([{ toolName: 'remember', error: expect.stringMatching(/^Invalid input for tool remember: /) }]);
    expect(toolResultsSent(model.doGenerateCalls[1])).toMatchObject([{ toolName: 'remember', output: { type: 'error-text', value: expect.stringMatching(/Invalid input for tool remember/) } }]);
    expect(await memory.sessions.list({ namespace: 'ana' })).toEqual([]);
  });
});

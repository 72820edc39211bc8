import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { convertToModelMessages, validateUIMessages, type UIMessage } from 'ai';
import { createMemory, StrataError, type Memory, type StoredMessage } from '@strata/core';
import { loadUIMessages, saveUIMessages } from '../src/ui-messages.js';

let memory: Memory;
beforeAll(async () => {
  memory = await createMemory();
});
afterAll(async () => {
  await memory.close();
});

let sessions = 0;
/** A session id no test used yet: one memory serves every test and property run. */
const newSessionId = () => `chat-${++sessions}`;

/** The UI message ids of appended turns, in order. */
const savedIds = (turns: StoredMessage[]) => turns.map((turn) => ((turn.metadata.aiSdk as { ui: UIMessage }).ui as UIMessage).id);

/** The error `promise` rejects with (fails when it resolves). */
async function rejection(promise: Promise<unknown>): Promise<StrataError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!StrataError.is(error)) throw new Error(`expected a StrataError, got ${String(error)}`);
  return error;
}

// Arbitrary valid UIMessages: every part kind and tool state of `ai`'s UIMessage schema.
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('', 'héllo 👋🏽\nwörld', '👩‍👩‍👧‍👦 family\n\n', 'line 1\r\n\tline 2', '日本語のテキスト 🚀'),
);
// strata refuses the key "__proto__" (plainJsonProblem: copying would lose it), which fc.string() likes to produce
const key = fc.string({ maxLength: 6 }).filter((k) => k !== '__proto__');
const json = fc.anything({ key, values: [fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), text, fc.constant(null)], maxDepth: 2, maxKeys: 3 });
const providerMetadata = fc.dictionary(fc.constantFrom('openai', 'anthropic', 'google'), fc.dictionary(key, json, { maxKeys: 2 }), { maxKeys: 2 });
const name = fc.stringMatching(/^[a-zA-Z][\w-]{0,10}$/);
const approvalId = fc.string({ minLength: 1, maxLength: 8 });

const invocation = fc.oneof(
  fc.record({ state: fc.constant('input-streaming'), input: json, rawInput: fc.string(), inputEncoding: fc.constantFrom('json', 'text') }, { requiredKeys: ['state'] }),
  fc.record({ state: fc.constant('input-available'), input: json, callProviderMetadata: providerMetadata }, { requiredKeys: ['state', 'input'] }),
  fc.record({ state: fc.constant('approval-requested'), input: json, approval: fc.record({ id: approvalId, signature: fc.string() }, { requiredKeys: ['id'] }) }),
  fc.record({ state: fc.constant('approval-responded'), input: json, approval: fc.record({ id: approvalId, approved: fc.boolean(), reason: text }, { requiredKeys: ['id', 'approved'] }) }),
  fc.record(
    {
      state: fc.constant('output-available'),
      input: json,
      output: json,
      preliminary: fc.boolean(),
      resultProviderMetadata: providerMetadata,
      approval: fc.record({ id: approvalId, approved: fc.constant(true) }),
    },
    { requiredKeys: ['state', 'input', 'output'] },
  ),
  fc.record({ state: fc.constant('output-error'), input: json, rawInput: json, errorText: text }, { requiredKeys: ['state', 'errorText'] }),
  fc.record({ state: fc.constant('output-denied'), input: json, approval: fc.record({ id: approvalId, approved: fc.constant(false), reason: text }, { requiredKeys: ['id', 'approved'] }) }),
);
const toolCommon = fc.record(
  { toolCallId: fc.string({ maxLength: 10 }), title: text, providerExecuted: fc.boolean(), toolMetadata: fc.dictionary(key, json, { maxKeys: 2 }) },
  { requiredKeys: ['toolCallId'] },
);
const toolPart = fc.tuple(name, toolCommon, invocation).map(([tool, common, state]) => ({ type: `tool-${tool}`, ...common, ...state }));
const dynamicToolPart = fc.tuple(name, toolCommon, invocation, fc.boolean()).map(([toolName, common, state, normalized]) => ({
  type: 'dynamic-tool',
  toolName,
  ...(normalized ? { dynamic: false } : {}),
  ...common,
  ...state,
}));
const part = fc.oneof(
  fc.record({ type: fc.constant('text'), text, state: fc.constantFrom('streaming', 'done'), providerMetadata }, { requiredKeys: ['type', 'text'] }),
  fc.record({ type: fc.constant('reasoning'), id: fc.string(), text, state: fc.constantFrom('streaming', 'done'), providerMetadata }, { requiredKeys: ['type', 'text'] }),
  toolPart,
  dynamicToolPart,
  fc.record({ type: fc.constant('source-url'), sourceId: fc.string(), url: fc.webUrl(), title: text, providerMetadata }, { requiredKeys: ['type', 'sourceId', 'url'] }),
  fc.record(
    { type: fc.constant('source-document'), sourceId: fc.string(), mediaType: fc.constantFrom('application/pdf', 'text/plain'), title: text, filename: fc.string(), providerMetadata },
    { requiredKeys: ['type', 'sourceId', 'mediaType', 'title'] },
  ),
  fc.record(
    {
      type: fc.constant('file'),
      mediaType: fc.constantFrom('image/png', 'application/pdf', 'text/plain'),
      filename: text,
      url: fc.oneof(
        fc.webUrl(),
        fc.base64String({ maxLength: 24 }).map((data) => `data:image/png;base64,${data}`),
      ),
      providerMetadata,
    },
    { requiredKeys: ['type', 'mediaType', 'url'] },
  ),
  fc.constant({ type: 'step-start' }),
  fc.record({ type: name.map((data) => `data-${data}`), id: fc.string(), data: json }, { requiredKeys: ['type', 'data'] }),
);
const message = (id: fc.Arbitrary<string>) =>
  fc
    .record({ id, role: fc.constantFrom('user', 'assistant', 'system'), metadata: json, parts: fc.array(part, { maxLength: 4 }) }, { requiredKeys: ['id', 'role', 'parts'] })
    // the AI SDK requires a part in user and system messages
    .map((m) => (m.parts.length === 0 ? { ...m, role: 'assistant' } : m) as unknown as UIMessage);
const chat = fc.uniqueArray(message(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 })), { selector: (m) => m.id, minLength: 1, maxLength: 6 });

describe('saveUIMessages / loadUIMessages: lossless', () => {
  it('any chat reads back deep-equal and valid for the AI SDK, and saving it again (or a prefix of it first) stores each message once', async () => {
    await fc.assert(
      fc.asyncProperty(chat, fc.nat(), async (messages, seed) => {
        const sessionId = newSessionId();
        const cut = seed % (messages.length + 1);
        const prefix = messages.slice(0, cut);
        expect(savedIds(await saveUIMessages({ memory, sessionId, namespace: 'property', messages: prefix }))).toEqual(prefix.map((m) => m.id));
        expect(await saveUIMessages({ memory, sessionId, messages: prefix })).toEqual([]);
        expect(savedIds(await saveUIMessages({ memory, sessionId, messages }))).toEqual(messages.slice(cut).map((m) => m.id));
        expect(await saveUIMessages({ memory, sessionId, messages })).toEqual([]);

        const loaded = await loadUIMessages({ memory, sessionId });
        // plain JSON is what a chat is made of: -0 reads back as 0, as through useChat's own requests
        expect(loaded).toStrictEqual(JSON.parse(JSON.stringify(messages)));
        await expect(validateUIMessages({ messages: loaded })).resolves.toHaveLength(messages.length);
        expect(await memory.messages(sessionId)).toHaveLength(messages.length);
      }),
      { numRuns: 200 },
    );
  });

  it('whatever chat replaces a stored one reads back as the new chat (supersede), unless it keeps none of it (CONFLICT)', async () => {
    // few ids, so that the second chat often reuses, changes, drops and reorders messages of the first
    const smallChat = fc.uniqueArray(message(fc.constantFrom('a', 'b', 'c', 'd', 'e')), { selector: (m) => m.id, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(smallChat, fc.nat(4), smallChat, async (first, keep, tail) => {
        const ids = new Set(first.slice(0, keep).map((m) => m.id));
        const second = [...first.slice(0, keep), ...tail.filter((m) => !ids.has(m.id))];
        const sessionId = newSessionId();
        await saveUIMessages({ memory, sessionId, namespace: 'property', messages: first });
        const before = (await memory.messages(sessionId)).length;
        if (first.length > 0 && second[0]?.id !== first[0]?.id) {
          expect((await rejection(saveUIMessages({ memory, sessionId, messages: second }))).code).toBe('CONFLICT');
          expect(await memory.messages(sessionId)).toHaveLength(before);
          return;
        }
        const appended = await saveUIMessages({ memory, sessionId, messages: second });
        expect(await loadUIMessages({ memory, sessionId })).toStrictEqual(JSON.parse(JSON.stringify(second)));
        let same = 0;
        while (same < Math.min(first.length, second.length) && JSON.stringify(first[same]) === JSON.stringify(second[same])) same += 1;
        // what changed, plus at most the message the chat continues from
        expect(appended.length).toBeLessThanOrEqual(second.length - same + 1);
        expect(await saveUIMessages({ memory, sessionId, messages: second })).toEqual([]);
      }),
      { numRuns: 100 },
    );
  });

  it('drops undefined fields (JSON has none) and then recognises the message as stored', async () => {
    const sessionId = newSessionId();
    const messages = [{ id: 'u1', role: 'user', metadata: undefined, parts: [{ type: 'text', text: 'Hi', state: undefined }] }] as UIMessage[];
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages });
    expect(await loadUIMessages({ memory, sessionId })).toStrictEqual([{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hi' }] }]);
    expect(await saveUIMessages({ memory, sessionId, messages })).toEqual([]);
  });

  it('refuses a message that is not plain JSON, naming it and the path, and stores none of the chat', async () => {
    const sessionId = newSessionId();
    const good: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Weather?' }] };
    const withFunction = {
      id: 'a1',
      role: 'assistant',
      parts: [{ type: 'tool-weather', toolCallId: 'c1', state: 'output-available', input: {}, output: { format: () => '21°C' } }],
    } as UIMessage;
    const error = await rejection(saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [good, withFunction] }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toBe('messages[1] (id "a1") cannot be stored: messages[1].parts[0].output.format is a function (not JSON)');
    expect(await memory.sessions.get(sessionId)).toBeNull();

    const withDate = { ...good, metadata: { createdAt: new Date(0) } } as UIMessage;
    const dated = await rejection(saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [withDate] }));
    expect(dated.message).toMatch(/^messages\[0\] \(id "u1"\) cannot be stored: messages\[0\]\.metadata\.createdAt is a Date/);
  });

  it('refuses a chat with two messages of one id, an empty id, and what is no UIMessage', async () => {
    const sessionId = newSessionId();
    const twice = [
      { id: 'x', role: 'user', parts: [{ type: 'text', text: 'a' }] },
      { id: 'x', role: 'assistant', parts: [] },
    ] as UIMessage[];
    const duplicate = await rejection(saveUIMessages({ memory, sessionId, namespace: 'ana', messages: twice }));
    expect([duplicate.code, duplicate.message]).toEqual(['INVALID_INPUT', 'messages[1] has the id "x" of messages[0]']);
    const notUi = await rejection(saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [{ id: 'y', role: 'tool', parts: [] }] as unknown as UIMessage[] }));
    expect([notUi.code, notUi.message.startsWith('messages[0] is not a UIMessage')]).toEqual(['INVALID_INPUT', true]);
    // a reply streamed without generateMessageId: useChat shows it under another id, so it could never be recognised
    const noId = await rejection(saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [{ id: '', role: 'assistant', parts: [] }] }));
    expect([noId.code, noId.message, noId.hint]).toEqual([
      'INVALID_INPUT',
      'messages[0] has an empty id, so it cannot be recognised when the chat is saved again',
      expect.stringContaining('generateMessageId'),
    ]);
    expect(await memory.sessions.get(sessionId)).toBeNull();
  });

  it("stores nothing when strata's limits refuse one message of the batch, and names it", async () => {
    const sessionId = newSessionId();
    const small: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Look at this' }] };
    const huge: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url: `data:image/png;base64,${'A'.repeat(70_000)}` }] };
    const error = await rejection(saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [small, huge] }));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.message).toMatch(/turns \[0\] "u1", \[1\] "u2"\): message is invalid:[\s\S]*metadata is \d+ bytes as JSON, more than the limit of 65536/);
    expect(await memory.messages(sessionId)).toEqual([]);
  });
});

describe('saveUIMessages: sessions', () => {
  const hello: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Hello' }] };

  it('an unknown session without namespace is NOT_FOUND, and nothing is created', async () => {
    const sessionId = newSessionId();
    expect((await rejection(saveUIMessages({ memory, sessionId, messages: [hello] }))).code).toBe('NOT_FOUND');
    expect(await memory.sessions.get(sessionId)).toBeNull();
  });

  it('an unknown session with a namespace is created there, one turn per message', async () => {
    const sessionId = newSessionId();
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [hello] });
    expect((await memory.sessions.get(sessionId))?.namespace).toBe('ana');
    const [turn, ...rest] = await memory.messages(sessionId);
    expect(rest).toEqual([]);
    expect([turn?.role, turn?.content, turn?.metadata]).toEqual(['user', 'Hello', { aiSdk: { ui: hello } }]);
  });

  it('a session of another namespace is a CONFLICT', async () => {
    const sessionId = newSessionId();
    await memory.sessions.create({ namespace: 'ben', id: sessionId });
    expect((await rejection(saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [hello] }))).code).toBe('CONFLICT');
    expect(await memory.messages(sessionId)).toEqual([]);
  });

  it('loading an unknown session gives an empty chat', async () => {
    expect(await loadUIMessages({ memory, sessionId: newSessionId() })).toEqual([]);
    expect(await loadUIMessages({ memory, sessionId: newSessionId(), namespace: 'ana' })).toEqual([]);
  });

  it("loading with a namespace refuses another namespace's session (CONFLICT)", async () => {
    const sessionId = newSessionId();
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [hello] });
    expect(await loadUIMessages({ memory, sessionId, namespace: 'ana' })).toEqual([hello]);
    expect((await rejection(loadUIMessages({ memory, sessionId, namespace: 'ben' }))).code).toBe('CONFLICT');
  });
});

describe('saveUIMessages: the content strata retrieves and derives from', () => {
  it('is the text, a line per tool call, file and source, and never empty', async () => {
    const sessionId = newSessionId();
    const messages: UIMessage[] = [
      {
        id: 'u1',
        role: 'user',
        parts: [
          { type: 'text', text: 'What is this?' },
          { type: 'file', mediaType: 'image/png', filename: 'cat.png', url: 'https://x.test/cat.png' },
        ],
      },
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'step-start' },
          { type: 'reasoning', text: 'Let me look it up.' },
          { type: 'tool-search', toolCallId: 'c1', state: 'output-available', input: { q: 'cat' }, output: ['Felis catus'] },
          { type: 'dynamic-tool', toolName: 'lookup', toolCallId: 'c2', state: 'output-error', input: { id: 7 }, errorText: 'timeout' },
          { type: 'tool-delete', toolCallId: 'c3', state: 'approval-requested', input: {}, approval: { id: 'ap1' } },
          { type: 'source-url', sourceId: 's1', url: 'https://en.wikipedia.org/wiki/Cat', title: 'Cat' },
          { type: 'text', text: 'A cat. 🐈' },
          { type: 'data-status', data: { busy: false } },
        ],
      },
      { id: 'a2', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'data-status', data: {} }] },
      { id: 'a3', role: 'assistant', parts: [] },
      { id: 'a4', role: 'assistant', parts: [{ type: 'tool-echo', toolCallId: 'c4', state: 'output-available', input: { s: 'x'.repeat(300) }, output: null }] },
    ];
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages });
    const contents = (await memory.messages(sessionId)).map((turn) => turn.content);
    expect(contents).toEqual([
      'What is this?\n[file cat.png (image/png)]',
      '[tool search({"q":"cat"}) → ["Felis catus"]]\n[tool lookup({"id":7}) → error: timeout]\n[tool delete({}) awaiting approval]\n[source Cat https://en.wikipedia.org/wiki/Cat]\nA cat. 🐈',
      '[step-start, data-status]',
      '[empty assistant message]',
      `[tool echo({"s":"${'x'.repeat(194)}…) → null]`,
    ]);
  });
});

describe('saveUIMessages: a changed message supersedes the stored one', () => {
  const u1: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Delete my account' }] };
  const pending: UIMessage = {
    id: 'a1',
    role: 'assistant',
    parts: [{ type: 'step-start' }, { type: 'tool-deleteAccount', toolCallId: 'c1', state: 'approval-requested', input: {}, approval: { id: 'ap1' } }],
  };
  const done: UIMessage = {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'tool-deleteAccount', toolCallId: 'c1', state: 'output-available', input: {}, output: 'deleted', approval: { id: 'ap1', approved: true } },
      { type: 'step-start' },
      { type: 'text', text: 'Your account is deleted.' },
    ],
  };

  it('useChat continuing the last assistant message (after an approval): one more turn, the new version in its place', async () => {
    const sessionId = newSessionId();
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [u1, pending] });
    const appended = await saveUIMessages({ memory, sessionId, messages: [u1, done] });
    expect(savedIds(appended)).toEqual(['a1']);
    expect(await loadUIMessages({ memory, sessionId })).toEqual([u1, done]);
    // the history stays: strata's turns are append-only
    expect((await memory.messages(sessionId)).map((turn) => turn.content)).toEqual([
      'Delete my account',
      '[tool deleteAccount({}) awaiting approval]',
      '[tool deleteAccount({}) → "deleted"]\nYour account is deleted.',
    ]);
  });

  it('an edited user message (sendMessage({ messageId })) drops the stored replies after it', async () => {
    const sessionId = newSessionId();
    const u2: UIMessage = { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And my data?' }] };
    const a2: UIMessage = { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'Gone too.' }] };
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [u1, done, u2, a2] });
    const edited: UIMessage = { ...u2, parts: [{ type: 'text', text: 'And my photos?' }] };
    const a3: UIMessage = { id: 'a3', role: 'assistant', parts: [{ type: 'text', text: 'Kept for 30 days.' }] };
    expect(savedIds(await saveUIMessages({ memory, sessionId, messages: [u1, done, edited, a3] }))).toEqual(['u2', 'a3']);
    expect(await loadUIMessages({ memory, sessionId })).toEqual([u1, done, edited, a3]);
  });

  it('a regenerated answer (regenerate()) replaces the old one: the message it follows is stored again', async () => {
    const sessionId = newSessionId();
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [u1, done] });
    const again: UIMessage = { id: 'a9', role: 'assistant', parts: [{ type: 'text', text: 'Are you sure?' }] };
    expect(savedIds(await saveUIMessages({ memory, sessionId, messages: [u1, again] }))).toEqual(['u1', 'a9']);
    expect(await loadUIMessages({ memory, sessionId })).toEqual([u1, again]);
    expect(await saveUIMessages({ memory, sessionId, messages: [u1, again] })).toEqual([]);
  });

  it('a chat that keeps none of the stored messages is a CONFLICT, and nothing is stored', async () => {
    const sessionId = newSessionId();
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [u1, done] });
    const other: UIMessage = { id: 'z1', role: 'user', parts: [{ type: 'text', text: 'Another chat' }] };
    const error = await rejection(saveUIMessages({ memory, sessionId, messages: [other] }));
    expect([error.code, error.message]).toEqual(['CONFLICT', `the chat passed for session "${sessionId}" keeps none of its 2 stored messages (it starts with "z1", the stored chat with "u1")`]);
    expect((await rejection(saveUIMessages({ memory, sessionId, messages: [] }))).code).toBe('CONFLICT');
    expect(await memory.messages(sessionId)).toHaveLength(2);
  });

  it('two saves racing with the same new messages read back once', async () => {
    const sessionId = newSessionId();
    await saveUIMessages({ memory, sessionId, namespace: 'ana', messages: [u1] });
    await Promise.all([saveUIMessages({ memory, sessionId, messages: [u1, done] }), saveUIMessages({ memory, sessionId, messages: [u1, done] })]);
    expect(await loadUIMessages({ memory, sessionId })).toEqual([u1, done]);
  });
});

describe('loadUIMessages: turns not saved as UIMessages, best-effort', () => {
  it('plain strata turns: text, and an assistant turn with its tool turns and final answer as ONE message', async () => {
    const sessionId = newSessionId();
    await memory.sessions.create({ namespace: 'ana', id: sessionId });
    const turns = await memory.append(sessionId, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'weather', args: { city: 'Paris' } },
          { id: 'c2', name: 'weather', args: { city: 'Rome' } },
        ],
      },
      { role: 'tool', toolCallId: 'c1', name: 'weather', content: '21°C' },
      { role: 'tool', toolCallId: 'c2', name: 'weather', content: '25°C' },
      { role: 'assistant', content: 'Paris 21°C, Rome 25°C.' },
      { role: 'assistant', content: 'Anything else?' },
    ]);
    const id = (i: number) => turns[i]!.id;
    const loaded = await loadUIMessages({ memory, sessionId });
    expect(loaded).toEqual([
      { id: id(0), role: 'system', parts: [{ type: 'text', text: 'Be brief.' }] },
      { id: id(1), role: 'user', parts: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
      {
        id: id(2),
        role: 'assistant',
        parts: [
          { type: 'tool-weather', toolCallId: 'c1', state: 'output-available', input: { city: 'Paris' }, output: '21°C' },
          { type: 'tool-weather', toolCallId: 'c2', state: 'output-available', input: { city: 'Rome' }, output: '25°C' },
          { type: 'step-start' },
          { type: 'text', text: 'Paris 21°C, Rome 25°C.' },
        ],
      },
      // an assistant turn after one that called no tools is a new reply
      { id: id(6), role: 'assistant', parts: [{ type: 'text', text: 'Anything else?' }] },
    ]);
    await expect(validateUIMessages({ messages: loaded })).resolves.toHaveLength(4);
    const model = await convertToModelMessages(loaded);
    expect(model.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'assistant']);

    // what was loaded, saved back with a new message, stores only the new message
    const next: UIMessage = { id: 'u9', role: 'user', parts: [{ type: 'text', text: 'No, thanks.' }] };
    expect(savedIds(await saveUIMessages({ memory, sessionId, messages: [...loaded, next] }))).toEqual(['u9']);
    expect(await loadUIMessages({ memory, sessionId })).toEqual([...loaded, next]);
  });

  it('turns the middleware stored (aiSdk.message): files, reasoning, tool results and errors', async () => {
    const sessionId = newSessionId();
    await memory.sessions.create({ namespace: 'ana', id: sessionId });
    const turns = await memory.append(sessionId, [
      {
        role: 'user',
        content: 'What is in this picture?',
        metadata: {
          aiSdk: {
            message: {
              role: 'user',
              content: [
                { type: 'text', text: 'What is in this picture?' },
                { type: 'file', mediaType: 'image/png', filename: 'a.png', data: { __strata_bytes__: 'iVBORw0KGgo=' } },
                { type: 'file', mediaType: 'application/pdf', data: 'https://x.test/doc.pdf' },
              ],
            },
          },
        },
      },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c1', name: 'vision', args: { detail: 'high' } },
          { id: 'c2', name: 'search', args: { q: 'cat' } },
        ],
        metadata: {
          aiSdk: {
            message: {
              role: 'assistant',
              content: [
                { type: 'reasoning', text: 'I should look closely.' },
                { type: 'tool-call', toolCallId: 'c1', toolName: 'vision', input: { detail: 'high' } },
                { type: 'tool-call', toolCallId: 'c2', toolName: 'search', input: { q: 'cat' } },
              ],
            },
          },
        },
      },
      {
        role: 'tool',
        toolCallId: 'c1',
        name: 'vision',
        content: '{"label":"cat"}',
        metadata: { aiSdk: { message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'vision', output: { type: 'json', value: { label: 'cat' } } }] } } },
      },
      {
        role: 'tool',
        toolCallId: 'c2',
        name: 'search',
        content: 'rate limited',
        metadata: { aiSdk: { message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c2', toolName: 'search', output: { type: 'error-text', value: 'rate limited' } }] } } },
      },
      { role: 'assistant', content: 'A cat.', metadata: { aiSdk: { message: { role: 'assistant', content: [{ type: 'text', text: 'A cat.' }] } } } },
    ]);
    const loaded = await loadUIMessages({ memory, sessionId });
    expect(loaded).toEqual([
      {
        id: turns[0]!.id,
        role: 'user',
        parts: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'file', mediaType: 'image/png', filename: 'a.png', url: 'data:image/png;base64,iVBORw0KGgo=' },
          { type: 'file', mediaType: 'application/pdf', url: 'https://x.test/doc.pdf' },
        ],
      },
      {
        id: turns[1]!.id,
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'I should look closely.' },
          { type: 'tool-vision', toolCallId: 'c1', state: 'output-available', input: { detail: 'high' }, output: { label: 'cat' } },
          { type: 'tool-search', toolCallId: 'c2', state: 'output-error', input: { q: 'cat' }, errorText: 'rate limited' },
          { type: 'step-start' },
          { type: 'text', text: 'A cat.' },
        ],
      },
    ]);
    await expect(validateUIMessages({ messages: loaded })).resolves.toHaveLength(2);
    expect((await convertToModelMessages(loaded)).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a saved UIMessage among other turns comes back exactly, in order', async () => {
    const sessionId = newSessionId();
    await memory.sessions.create({ namespace: 'ana', id: sessionId });
    const [plain] = await memory.append(sessionId, { role: 'user', content: 'from the CLI' });
    const saved: UIMessage = { id: 'a1', role: 'assistant', metadata: { model: 'x' }, parts: [{ type: 'text', text: 'from the chat', state: 'done' }] };
    await saveUIMessages({ memory, sessionId, messages: [{ id: plain!.id, role: 'user', parts: [{ type: 'text', text: 'from the CLI' }] }, saved] });
    expect(await loadUIMessages({ memory, sessionId })).toEqual([{ id: plain!.id, role: 'user', parts: [{ type: 'text', text: 'from the CLI' }] }, saved]);
    expect(await memory.messages(sessionId)).toHaveLength(2);
  });
});

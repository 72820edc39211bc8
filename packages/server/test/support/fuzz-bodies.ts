import fc from 'fast-check';
import { anyBodyId, anyJson, anyNamespace, anyText } from './fuzz-values.js';

/** Real ids the shaped bodies may name. */
export interface FuzzIds {
  sessions: string[];
  messages: string[];
  facts: string[];
}

const number = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, 1e308, 2 ** 53 + 1), anyJson);
const optional = <T>(model: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.record(model, { requiredKeys: [] });

/** A message the memory accepts, so that appends also succeed and later reads have something to return. */
const validMessage = fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.string({ minLength: 1, maxLength: 200 }) });

function messageInput(ids: FuzzIds) {
  const anyMessage = optional({
    role: fc.oneof(fc.constantFrom('user', 'assistant', 'system', 'tool'), anyText, anyJson),
    content: fc.oneof({ arbitrary: anyText, weight: 4 }, anyJson),
    id: fc.oneof(anyBodyId(ids.messages), fc.constant(undefined)),
    name: anyText,
    toolCalls: fc.oneof(fc.array(optional({ id: anyText, name: anyText, args: anyJson }), { maxLength: 3 }), anyJson),
    toolCallId: anyText,
    createdAt: fc.oneof(
      number,
      fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      anyText,
    ),
    metadata: anyJson,
  });
  return fc.oneof({ arbitrary: validMessage, weight: 2 }, anyMessage);
}

/**
 * JSON bodies of the right shape and of wrong ones, by route (keyed like the route table's
 * names): each field is sometimes valid, sometimes of another type or out of range.
 */
export function shapedBodies(ids: FuzzIds): Record<string, fc.Arbitrary<unknown>> {
  const forgetTargets = fc.oneof(
    optional({ messageIds: fc.oneof(fc.array(anyBodyId(ids.messages), { maxLength: 3 }), anyJson), namespace: anyNamespace }),
    optional({ factIds: fc.oneof(fc.array(anyBodyId(ids.facts), { maxLength: 3 }), anyJson), namespace: anyNamespace }),
    optional({ sessionId: anyBodyId(ids.sessions) }),
    optional({ namespace: anyNamespace, sessionId: anyBodyId(ids.sessions), messageIds: fc.array(anyBodyId(ids.messages), { maxLength: 2 }) }),
    anyJson,
  );
  return {
    'POST /v1/sessions': fc.oneof(optional({ namespace: anyNamespace, id: anyBodyId(ids.sessions), title: fc.oneof(anyText, anyJson), metadata: anyJson }), anyJson),
    'PATCH /v1/sessions/{id}': fc.oneof(optional({ title: fc.oneof(anyText, anyJson) }), anyJson),
    'POST /v1/sessions/{id}/messages': fc.oneof({ arbitrary: optional({ messages: fc.oneof(fc.array(messageInput(ids), { maxLength: 4 }), anyJson) }), weight: 4 }, anyJson),
    'POST /v1/sessions/{id}/context': fc.oneof(optional({ query: fc.oneof(anyText, anyJson), budgetTokens: number, systemPrompt: fc.oneof(anyText, anyJson) }), anyJson),
    'POST /v1/search': fc.oneof(
      optional({
        namespace: anyNamespace,
        query: fc.oneof(anyText, anyJson),
        k: number,
        kinds: fc.oneof(fc.array(fc.constantFrom('turn', 'summary', 'fact', 'topic', ''), { maxLength: 4 }), anyJson),
      }),
      anyJson,
    ),
    'POST /v1/forget': forgetTargets,
    'POST /v1/import': fc.oneof(anyJson, optional({ format: fc.oneof(fc.constant('strata-export'), anyText), version: number, session: anyJson, messages: anyJson, facts: anyJson })),
    'POST /v1/flush': anyJson,
    'POST /mcp': fc.oneof(
      optional({
        jsonrpc: fc.oneof(fc.constant('2.0'), anyJson),
        id: anyJson,
        method: fc.oneof(fc.constantFrom('initialize', 'tools/list', 'tools/call', 'resources/read'), anyText),
        params: anyJson,
      }),
      anyJson,
    ),
  };
}

/** Sequences no UTF-8 decoder may accept: stray continuation bytes, overlong forms, surrogates, code points above U+10FFFF, truncations. */
const BAD_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0x80],
  [0xc0, 0xaf],
  [0xc1, 0xbf],
  [0xe0, 0x80, 0xaf],
  [0xed, 0xa0, 0x80],
  [0xed, 0xbf, 0xbf],
  [0xf4, 0x90, 0x80, 0x80],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0xe2, 0x82],
  [0xc3],
];

const BAD_JSON = [
  '{',
  '}',
  '{"messages":',
  '[1,2,',
  '{"a":1}}',
  "{'messages':[]}",
  'nul',
  'NaN',
  '{"a":NaN}',
  '{"a":Infinity}',
  '{"a":1,}',
  '\u0000',
  '\ufeff{}',
  '{"__proto__":{"isAdmin":true},"messages":[{"role":"user","content":"hi"}]}',
  '{"constructor":{"prototype":{"polluted":1}},"namespace":"acme"}',
  '"a string"',
  '12',
  'true',
  'null',
  '[]',
  '{"messages":[{"role":"user","content":"\\ud800"}]}',
  '{"messages":[{"role":"user","content":"\\u0000"}]}',
  '{"namespace":"acme","namespace":"globex"}',
  ' ',
  '\n\n',
];

/** Where a hostile fragment goes: at the top, or inside a field every route reads. */
const FRAMES: [string, string][] = [
  ['', ''],
  ['{"messages":[{"role":"user","content":"', '"}]}'],
  ['{"namespace":"acme","title":"', '"}'],
  ['{"query":"', '","namespace":"acme"}'],
  ['{"title":"', '"}'],
];

const deepNesting = fc
  .tuple(
    fc.integer({ min: 50, max: 12_000 }),
    fc.constantFrom<[string, string]>(['[', ']'], ['{"a":', '}']),
    fc.constantFrom<[string, string]>(['', ''], ['{"messages":[{"role":"user","content":"x","metadata":', '}]}'], ['{"namespace":"acme","metadata":', '}'], ['{"query":', '}']),
  )
  .map(([depth, [open, close], [before, after]]) => `${before}${open.repeat(depth)}1${close.repeat(depth)}${after}`);

/** Raw bodies, as bytes: bad JSON, deep nesting, large strings, bad UTF-8, random bytes, form and multipart bodies, nothing. */
export const hostileBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(...BAD_JSON),
  fc.string({ maxLength: 200 }),
  deepNesting,
  fc.integer({ min: 1_000, max: 30_000 }).map((n) => JSON.stringify({ messages: [{ role: 'user', content: 'é'.repeat(n) }] })),
  fc.tuple(fc.constantFrom(...BAD_UTF8), fc.constantFrom(...FRAMES)).map(([bytes, [before, after]]) => Buffer.concat([Buffer.from(before), Buffer.from(bytes), Buffer.from(after)])),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)),
  fc.constantFrom('', 'namespace=acme&title=x', '--xyz\r\nContent-Disposition: form-data; name="namespace"\r\n\r\nacme\r\n--xyz--\r\n'),
);

/** Content types right, wrong, odd or absent (undefined sends none). */
export const anyContentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'Application/JSON',
  undefined,
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  'text/plain; charset=utf-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/problem+json',
  'application/merge-patch+json',
  '*/*',
  'application/jsonx',
  'json',
  '',
);

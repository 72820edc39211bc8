import fc from 'fast-check';

/** Printable ASCII, safe in a header value. */
export const printable = (maxLength: number) => fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes every byte of the UTF-8 form of `text` but the unreserved ones. */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => (UNRESERVED.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0').toUpperCase()}`)).join('');
}

const fullwidth = (text: string) => text.replace(/[\x21-\x7e]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
const cyrillic = (text: string) => text.replace(/[aeosc]/g, (c) => ({ a: 'а', e: 'е', o: 'о', s: 'ѕ', c: 'с' })[c] ?? c);

/** Path segments meant to escape, confuse or imitate an id; each is already safe to put in a request line. */
const TRAVERSALS = [
  '..',
  '../..',
  '../../../etc/passwd',
  '..%2f..%2fetc%2fpasswd',
  '%2e%2e%2f%2e%2e%2f',
  '%2e%2e',
  '%252e%252e%252f',
  '..%5c..%5c',
  '%00',
  'ses_%00',
  '%00%00..%00',
  '%',
  '%zz',
  '%ff%fe',
  '%c0%af',
  '%ed%a0%80',
  '%e2%80',
  '.',
  '%2f',
  '%20',
  ';jsessionid=1',
  'a#fragment',
  '%E2%80%AE',
];

/** An id for a path: a real one, one that imitates a real one (look-alikes, U+200B, case), a traversal, an overlong or a random one. */
export function hostileId(real: string[]): fc.Arbitrary<string> {
  const id = fc.constantFrom(...real);
  return fc.oneof(
    { arbitrary: id, weight: 3 },
    fc.constantFrom(...TRAVERSALS),
    id.map((v) => percentEncode(cyrillic(v))),
    id.map((v) => percentEncode(fullwidth(v))),
    id.map((v) => percentEncode(`${v}\u200b`)),
    id.map((v) => percentEncode(`\u200b${v}`)),
    id.map((v) => percentEncode(`${v}\u0000`)),
    id.map((v) => v.toUpperCase()),
    id.map((v) => `${v}/..`),
    id.map((v) => `${v}%2f..%2f${v}`),
    fc.integer({ min: 257, max: 6_000 }).map((n) => 'a'.repeat(n)),
    fc.string({ unit: 'binary', maxLength: 40 }).map(percentEncode),
    printable(40).map(percentEncode),
  );
}

/** Any JSON value, kept small. */
export const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Text of every kind a client may send: empty, random, any code point, control and invisible characters, lone surrogates, large. */
export const anyText = fc.oneof(
  { arbitrary: fc.string({ maxLength: 60 }), weight: 4 },
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.constantFrom('', ' ', '\u0000', '\ud800', 'a\udfffb', '\u200b', '\u202e', 'acme\u0000', '<script>alert(1)</script>', "' OR 1=1 --", '$' + '{jndi:ldap://x}', '{{7*7}}'),
  fc.integer({ min: 1_000, max: 40_000 }).map((n) => 'x'.repeat(n)),
);

/** A namespace: the key's own, another tenant's, a prefix, or anything. */
export const anyNamespace = fc.oneof(
  { arbitrary: fc.constant('acme'), weight: 4 },
  fc.constantFrom('globex', 'team/a', 'teamx', 'acme/', 'ACME', 'аcme', 'acme\u200b', ' acme', '*', '%', ''),
  anyText,
  anyJson,
);

/** An id in a body: a real one or anything. */
export const anyBodyId = (real: string[]) => fc.oneof(fc.constantFrom(...real), anyText, anyJson);

/**
 * The texts at a LangGraph index path in a value, as InMemoryStore extracts them for its
 * `index.fields` and put's `index` argument (@langchain/langgraph does not export it):
 * `$` is the whole value as JSON; `a.b` a field; `a[2]`, `a[-1]`, `a[*]` array items; `*` every
 * field or item; `{a,b.c}` several fields. A scalar gives its text, an object or array its JSON.
 * @example
 * textsAtPath({ chapters: [{ title: 'One' }, { title: 'Two' }] }, 'chapters[*].title'); // ['One', 'Two']
 */
export function textsAtPath(value: unknown, path: string): string[] {
  if (!path || path === '$') return [JSON.stringify(value, null, 2)];
  return extract(value, tokenizePath(path), 0);
}

function leafTexts(value: unknown): string[] {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  if (value === null || value === undefined || typeof value !== 'object') return [];
  return [JSON.stringify(value, null, 2)];
}

function extract(value: unknown, tokens: readonly string[], pos: number): string[] {
  const token = tokens[pos];
  if (token === undefined) return leafTexts(value);
  if (token.startsWith('[') && token.endsWith(']')) {
    if (!Array.isArray(value)) return [];
    const index = token.slice(1, -1);
    if (index === '*') return value.flatMap((item) => extract(item, tokens, pos + 1));
    const n = Number.parseInt(index, 10);
    const at = n < 0 ? value.length + n : n;
    return Number.isNaN(n) || at < 0 || at >= value.length ? [] : extract(value[at], tokens, pos + 1);
  }
  if (typeof value !== 'object' || value === null) return [];
  if (token.startsWith('{') && token.endsWith('}')) {
    return token
      .slice(1, -1)
      .split(',')
      .flatMap((field) => fieldTexts(value, tokenizePath(field.trim())));
  }
  if (token === '*') return Object.values(value).flatMap((item) => extract(item, tokens, pos + 1));
  return token in value ? extract((value as Record<string, unknown>)[token], tokens, pos + 1) : [];
}

/** One field of a `{a,b.c}` selection: a plain path of names, its scalar text or JSON. */
function fieldTexts(value: object, names: readonly string[]): string[] {
  let current: unknown = value;
  for (const name of names) {
    if (typeof current !== 'object' || current === null || !(name in current)) return [];
    current = (current as Record<string, unknown>)[name];
  }
  return names.length === 0 ? [] : leafTexts(current);
}

/** `a.b[*].c` -> ['a', 'b', '[*]', 'c']; brackets and braces stay whole, with what they hold. */
function tokenizePath(path: string): string[] {
  const tokens: string[] = [];
  let current = '';
  for (let i = 0; i < path.length; i++) {
    const char = path[i] ?? '';
    const close = char === '[' ? ']' : char === '{' ? '}' : undefined;
    if (close !== undefined) {
      if (current) tokens.push(current);
      current = '';
      let depth = 0;
      let group = '';
      for (; i < path.length; i++) {
        const c = path[i] ?? '';
        group += c;
        if (c === char) depth++;
        else if (c === close && --depth === 0) break;
      }
      tokens.push(group);
    } else if (char === '.') {
      if (current) tokens.push(current);
      current = '';
    } else current += char;
  }
  if (current) tokens.push(current);
  return tokens;
}

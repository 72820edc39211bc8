import type { BaseStore, Item } from '@langchain/langgraph';

/**
 * The behaviour a LangGraph store shows, as a table: the items it starts from, what a case
 * does, and what it observes. Every observation is a plain value that does not depend on an
 * order the store leaves unspecified (keys are sorted; a query reports its first hit only).
 */
export interface StoreCase {
  name: string;
  /** Items put (in this order) before the case runs, instead of the FIXTURE. */
  given?: Put[];
  act: (store: BaseStore) => Promise<unknown>;
  expected: unknown;
}

export type Put = [namespace: string[], key: string, value: Record<string, unknown>, index?: false | string[]];

export const FIXTURE: Put[] = [
  [['users', 'u1', 'prefs'], 'theme', { kind: 'pref', text: 'Prefers dark mode in every editor', rank: 3 }],
  [['users', 'u1', 'prefs'], 'language', { kind: 'pref', text: 'Speaks Portuguese at home', rank: 1 }],
  [['users', 'u1', 'notes'], 'trip', { kind: 'note', text: 'Planning a hiking trip to the Alps in June', rank: 5, 'profile.lang': 'en' }],
  [['users', 'u2', 'prefs'], 'theme', { kind: 'pref', text: 'Prefers light mode', rank: 2, tags: ['ui'] }],
  [['docs'], 'ramen', { kind: 'doc', text: 'My favourite food is ramen with miso broth', rank: 4, meta: { lang: 'en' } }],
];

const ALL = ['docs#ramen', 'users/u1/notes#trip', 'users/u1/prefs#language', 'users/u1/prefs#theme', 'users/u2/prefs#theme'];

/** Sorted `a/b#key` names of items. */
export const keys = (items: readonly Item[]) => items.map(nameOf).sort();
const nameOf = (item: Item) => `${item.namespace.join('/')}#${item.key}`;
const view = (item: Item | null) => (item === null ? null : { namespace: item.namespace, key: item.key, value: item.value });
const sortNs = (namespaces: string[][]) => namespaces.map((ns) => ns.join('/')).sort();
/** The error's class name, or 'resolved'. */
const rejection = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: Error) => error.name,
  );
const search = (store: BaseStore, prefix: string[], options: Parameters<BaseStore['search']>[1] = {}) => store.search(prefix, options).then(keys);
const filtered = (filter: Record<string, unknown>) => (store: BaseStore) => search(store, [], { filter });
const firstHit = async (store: BaseStore, prefix: string[], options: Parameters<BaseStore['search']>[1]) => {
  const hits = await store.search(prefix, options);
  return { first: hits[0] && nameOf(hits[0]), scored: typeof hits[0]?.score === 'number', allUnder: hits.every((h) => prefix.every((label, i) => h.namespace[i] === label)) };
};
const pages = async (read: (offset: number) => Promise<string[]>, total: number) => {
  const [first, second, beyond] = [await read(0), await read(2), await read(total)];
  return { sizes: [first.length, second.length, beyond.length], union: [...first, ...second].sort(), disjoint: first.every((k) => !second.includes(k)) };
};
/** Returns once the clock reads later than `ms`, so what is written next gets a later time. */
const clockPast = async (ms: number) => {
  while (Number.isFinite(ms) && Date.now() <= ms) await new Promise((resolve) => setImmediate(resolve));
};

export const CASES: StoreCase[] = [
  // get, put, update, delete
  {
    name: 'get returns the value under its namespace and key',
    act: async (s) => view(await s.get(['users', 'u1', 'prefs'], 'theme')),
    expected: { namespace: ['users', 'u1', 'prefs'], key: 'theme', value: FIXTURE[0]?.[2] },
  },
  { name: 'get of an unknown key is null', act: (s) => s.get(['users', 'u1', 'prefs'], 'font'), expected: null },
  { name: 'get in an unknown namespace is null', act: (s) => s.get(['users', 'u3', 'prefs'], 'theme'), expected: null },
  { name: "namespaces are exact: a parent does not hold its children's items", act: (s) => s.get(['users', 'u1'], 'theme'), expected: null },
  {
    name: 'the same key in two namespaces is two items',
    act: async (s) => [(await s.get(['users', 'u1', 'prefs'], 'theme'))?.value.text, (await s.get(['users', 'u2', 'prefs'], 'theme'))?.value.text],
    expected: ['Prefers dark mode in every editor', 'Prefers light mode'],
  },
  {
    name: 'a value comes back equal: nested objects, arrays, null, numbers, booleans, any text',
    given: [[['kinds'], 'all', { s: 'Olá, 世界 🌍', n: -1.5, t: true, f: false, z: null, list: [1, 'two', { three: [3] }], deep: { a: { b: { c: 'd' } } } }]],
    act: async (s) => (await s.get(['kinds'], 'all'))?.value,
    expected: { s: 'Olá, 世界 🌍', n: -1.5, t: true, f: false, z: null, list: [1, 'two', { three: [3] }], deep: { a: { b: { c: 'd' } } } },
  },
  {
    name: 'a put of an existing key replaces its value, still one item',
    act: async (s) => {
      await s.put(['users', 'u1', 'prefs'], 'theme', { kind: 'pref', text: 'Prefers solarized' });
      return [(await s.get(['users', 'u1', 'prefs'], 'theme'))?.value, await search(s, ['users', 'u1', 'prefs'])];
    },
    expected: [{ kind: 'pref', text: 'Prefers solarized' }, ['users/u1/prefs#language', 'users/u1/prefs#theme']],
  },
  {
    name: 'an update keeps createdAt and moves updatedAt on',
    act: async (s) => {
      // times read at once: InMemoryStore hands out its stored item, which an update changes in place
      const before = await s.get(['docs'], 'ramen').then((i) => ({ created: i?.createdAt.getTime(), updated: i?.updatedAt.getTime() ?? Infinity }));
      await clockPast(before.updated);
      await s.put(['docs'], 'ramen', { kind: 'doc', text: 'Ramen, then udon' });
      const after = await s.get(['docs'], 'ramen');
      return {
        dates: after?.createdAt instanceof Date && after.updatedAt instanceof Date,
        createdKept: after?.createdAt.getTime() === before.created,
        updatedLater: (after?.updatedAt.getTime() ?? 0) > before.updated,
        createdFirst: (after?.createdAt.getTime() ?? 0) <= (after?.updatedAt.getTime() ?? 0),
      };
    },
    expected: { dates: true, createdKept: true, updatedLater: true, createdFirst: true },
  },
  {
    name: 'delete removes the item from get and search',
    act: async (s) => {
      await s.delete(['users', 'u1', 'prefs'], 'theme');
      return [await s.get(['users', 'u1', 'prefs'], 'theme'), await search(s, ['users', 'u1'])];
    },
    expected: [null, ['users/u1/notes#trip', 'users/u1/prefs#language']],
  },
  {
    name: 'delete of an absent key or namespace changes nothing',
    act: async (s) => {
      await s.delete(['users', 'u1', 'prefs'], 'font');
      await s.delete(['nowhere'], 'x');
      return search(s, []);
    },
    expected: ALL,
  },
  {
    name: 'a deleted key can be put again',
    act: async (s) => {
      await s.delete(['docs'], 'ramen');
      await s.put(['docs'], 'ramen', { text: 'Back again' });
      return (await s.get(['docs'], 'ramen'))?.value;
    },
    expected: { text: 'Back again' },
  },

  // search without a query: prefix, filter, limit and offset
  { name: 'search [] lists every item', act: (s) => search(s, []), expected: ALL },
  {
    name: 'search lists the items under a prefix, at any depth',
    act: async (s) => [await search(s, ['users']), await search(s, ['users', 'u1', 'prefs'])],
    expected: [ALL.slice(1), ['users/u1/prefs#language', 'users/u1/prefs#theme']],
  },
  { name: 'a prefix matches whole labels only', act: async (s) => [await search(s, ['users', 'u']), await search(s, ['docs', 'x'])], expected: [[], []] },
  {
    name: 'filter: equal values, every entry must hold',
    act: async (s) => [await filtered({ kind: 'pref' })(s), await filtered({ kind: 'pref', rank: 3 })(s), await filtered({ missing: 'x' })(s)],
    expected: [['users/u1/prefs#language', 'users/u1/prefs#theme', 'users/u2/prefs#theme'], ['users/u1/prefs#theme'], []],
  },
  {
    name: 'filter: $eq and $ne',
    act: async (s) => [await filtered({ kind: { $eq: 'note' } })(s), await filtered({ kind: { $ne: 'pref' } })(s)],
    expected: [['users/u1/notes#trip'], ['docs#ramen', 'users/u1/notes#trip']],
  },
  {
    name: 'filter: $gt, $gte, $lt, $lte',
    act: async (s) => Promise.all([{ $gt: 3 }, { $gte: 3 }, { $lt: 2 }, { $lte: 2 }].map((rank) => filtered({ rank })(s))),
    expected: [['docs#ramen', 'users/u1/notes#trip'], ['docs#ramen', 'users/u1/notes#trip', 'users/u1/prefs#theme'], ['users/u1/prefs#language'], ['users/u1/prefs#language', 'users/u2/prefs#theme']],
  },
  { name: 'filter: operators combine (a range)', act: filtered({ rank: { $gte: 2, $lte: 3 } }), expected: ['users/u1/prefs#theme', 'users/u2/prefs#theme'] },
  {
    name: 'filter: $in and $nin',
    act: async (s) => [await filtered({ kind: { $in: ['note', 'doc'] } })(s), await filtered({ kind: { $nin: ['pref'] } })(s)],
    expected: [
      ['docs#ramen', 'users/u1/notes#trip'],
      ['docs#ramen', 'users/u1/notes#trip'],
    ],
  },
  {
    name: 'filter: a dotted name is a literal top-level field, not a path',
    act: async (s) => [await filtered({ 'profile.lang': 'en' })(s), await filtered({ 'meta.lang': 'en' })(s)],
    expected: [['users/u1/notes#trip'], []],
  },
  { name: 'filter: an object value is not compared field by field', act: filtered({ meta: { lang: 'en' } }), expected: [] },
  { name: 'filter applies under a prefix', act: (s) => search(s, ['users'], { filter: { kind: 'pref', rank: { $gt: 1 } } }), expected: ['users/u1/prefs#theme', 'users/u2/prefs#theme'] },
  {
    name: 'limit and offset page through the items, each once',
    act: (s) => pages((offset) => search(s, ['users'], { limit: 2, offset }), 4),
    expected: { sizes: [2, 2, 0], union: ALL.slice(1), disjoint: true },
  },
  {
    name: 'search returns at most 10 items unless asked for more',
    given: Array.from({ length: 12 }, (_, i): Put => [['bulk'], `k${i}`, { text: `item ${i}` }]),
    act: async (s) => [(await s.search(['bulk'])).length, (await s.search(['bulk'], { limit: 20 })).length],
    expected: [10, 12],
  },

  // listNamespaces
  { name: 'listNamespaces lists every namespace that holds items', act: async (s) => sortNs(await s.listNamespaces()), expected: ['docs', 'users/u1/notes', 'users/u1/prefs', 'users/u2/prefs'] },
  {
    name: 'listNamespaces: prefix, suffix, both, and * for any label',
    act: async (s) =>
      Promise.all(
        [{ prefix: ['users', 'u1'] }, { suffix: ['prefs'] }, { prefix: ['users'], suffix: ['notes'] }, { prefix: ['users', '*', 'prefs'] }, { suffix: ['*', 'notes'] }].map(async (o) =>
          sortNs(await s.listNamespaces(o)),
        ),
      ),
    expected: [['users/u1/notes', 'users/u1/prefs'], ['users/u1/prefs', 'users/u2/prefs'], ['users/u1/notes'], ['users/u1/prefs', 'users/u2/prefs'], ['users/u1/notes']],
  },
  {
    name: 'listNamespaces: maxDepth cuts and merges',
    act: async (s) => [sortNs(await s.listNamespaces({ maxDepth: 1 })), sortNs(await s.listNamespaces({ maxDepth: 2 })), sortNs(await s.listNamespaces({ prefix: ['users'], maxDepth: 2 }))],
    expected: [
      ['docs', 'users'],
      ['docs', 'users/u1', 'users/u2'],
      ['users/u1', 'users/u2'],
    ],
  },
  {
    name: 'listNamespaces: limit and offset page, each once',
    act: (s) => pages(async (offset) => sortNs(await s.listNamespaces({ limit: 2, offset })), 4),
    expected: { sizes: [2, 2, 0], union: ['docs', 'users/u1/notes', 'users/u1/prefs', 'users/u2/prefs'], disjoint: true },
  },

  // batch
  {
    name: 'a batch answers its reads from the state before it, then applies its puts',
    act: async (s) => {
      const results = await s.batch([
        { namespace: ['fresh'], key: 'a', value: { text: 'new' } },
        { namespace: ['fresh'], key: 'a' },
        { namespace: ['docs'], key: 'ramen' },
        { namespacePrefix: ['docs'], limit: 10, offset: 0 },
        { matchConditions: [{ matchType: 'prefix', path: ['fresh'] }], limit: 10, offset: 0 },
        { namespace: ['docs'], key: 'ramen', value: null },
      ]);
      const [put, getNew, getOld, found, listed, del] = results as unknown[];
      const during = [put ?? null, getNew, (getOld as Item | null)?.value.text, keys(found as Item[]), listed, del ?? null];
      return { during, after: [(await s.get(['fresh'], 'a'))?.value, await s.get(['docs'], 'ramen')] };
    },
    expected: { during: [null, null, 'My favourite food is ramen with miso broth', ['docs#ramen'], [], null], after: [{ text: 'new' }, null] },
  },
  {
    name: 'the last put of a key in a batch wins',
    act: async (s) => {
      await s.batch([
        { namespace: ['b'], key: 'x', value: { n: 1 } },
        { namespace: ['b'], key: 'x', value: { n: 2 } },
        { namespace: ['b'], key: 'y', value: { n: 1 } },
        { namespace: ['b'], key: 'y', value: null },
      ]);
      return [(await s.get(['b'], 'x'))?.value, await s.get(['b'], 'y')];
    },
    expected: [{ n: 2 }, null],
  },

  // search with a query
  { name: 'a query ranks the matching item first, with a score', act: (s) => firstHit(s, [], { query: 'favourite food ramen' }), expected: { first: 'docs#ramen', scored: true, allUnder: true } },
  {
    name: 'a query searches under its prefix only',
    act: (s) => firstHit(s, ['users'], { query: 'hiking trip to the Alps' }),
    expected: { first: 'users/u1/notes#trip', scored: true, allUnder: true },
  },
  {
    name: 'a query ranks among the items the filter keeps',
    act: async (s) => {
      const hits = await s.search([], { query: 'dark mode editor', filter: { kind: 'pref' } });
      return [hits[0] && `${hits[0].namespace.join('/')}#${hits[0].key}`, hits.every((h) => h.value.kind === 'pref')];
    },
    expected: ['users/u1/prefs#theme', true],
  },
  { name: 'a query returns at most limit items', act: async (s) => (await s.search([], { query: 'prefers mode', limit: 1 })).length <= 1, expected: true },
  {
    name: 'an item put with index false is never a scored query hit',
    given: [...FIXTURE, [['docs'], 'secret', { text: 'The secret ramen recipe' }, false]],
    act: async (s) => {
      const hits = await s.search(['docs'], { query: 'secret ramen recipe' });
      return [hits[0]?.key, hits.filter((h) => h.key === 'secret').every((h) => h.score === undefined), (await s.get(['docs'], 'secret'))?.value.text];
    },
    expected: ['ramen', true, 'The secret ramen recipe'],
  },
  {
    name: "a put's index fields are what a query searches",
    given: [
      [['guides'], 'alpine', { title: 'Alpine hiking', body: 'ramen noodles at the hut' }, ['title']],
      [['guides'], 'noodles', { title: 'Ramen guide', body: 'hiking boots' }, ['title']],
    ],
    act: (s) => firstHit(s, ['guides'], { query: 'ramen' }),
    expected: { first: 'guides#noodles', scored: true, allUnder: true },
  },

  // what LangGraph rejects (InvalidNamespaceError), the same through every entry point
  {
    name: 'put rejects an empty namespace, an empty label, ".", ":" and the reserved root',
    act: (s) => Promise.all([[], ['a', ''], ['a.b'], ['a:b'], ['langgraph', 'x']].map((ns) => rejection(s.put(ns, 'k', { v: 1 })))),
    expected: Array(5).fill('InvalidNamespaceError'),
  },
  {
    name: 'get, delete, search and listNamespaces reject a label with "."',
    act: (s) => Promise.all([s.get(['a.b'], 'k'), s.delete(['a.b'], 'k'), s.search(['a.b']), s.listNamespaces({ prefix: ['a.b'] })].map(rejection)),
    expected: Array(4).fill('InvalidNamespaceError'),
  },
  {
    name: 'batch rejects what put and get reject',
    act: (s) => Promise.all([s.batch([{ namespace: ['a.b'], key: 'k' }]), s.batch([{ namespace: [], key: 'k', value: { v: 1 } }]), s.batch([{ namespacePrefix: ['a:b'] }])].map(rejection)),
    expected: Array(3).fill('InvalidNamespaceError'),
  },
];

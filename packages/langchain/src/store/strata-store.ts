import { BaseStore, type Item, type ListNamespacesOperation, type Operation, type OperationResults, type PutOperation, type SearchOperation } from '@langchain/langgraph';
import { nameProblem, parseWith, StrataError, type MemoryApi } from '@strata/core';
import { z } from 'zod';
import { ItemCache } from './item-cache.js';
import { matchesFilter } from './match-filter.js';
import { isUnder, matchNamespaces } from './match-namespaces.js';
import { rankItems, type PlacedItem } from './rank-items.js';
import { checkOperations } from './store-input.js';
import { ensureStoreSession, labelsOf, storeSessionId } from './store-session.js';
import { writeItems, type ItemWrite } from './write-items.js';

/**
 * Options of {@link StrataStore}: the memory, the strata namespace that holds the store's items,
 * and which fields of an item a query searches. Invalid options throw CONFIG_INVALID.
 */
export interface StrataStoreOptions {
  memory: MemoryApi;
  /**
   * The strata namespace that holds the store: one session per LangGraph namespace, one turn
   * per item. Best one of its own: a query searches the whole namespace and keeps the store's
   * items, so other conversations there only take room in the hits.
   */
  namespace: string;
  /**
   * What a query searches, as in InMemoryStore's index config (strata embeds with the
   * memory's own models, so there are no `dims` or `embeddings`): `fields` are LangGraph paths
   * (`text`, `a.b`, `tags[*]`, `$` for the whole value as JSON). A put's `index` argument
   * overrides it for that item (`false`: not searchable by query).
   * @defaultValue every string, number and boolean of the value, as `path: text` lines
   */
  index?: { fields?: string[] };
}

/** An item with the relevance a query gave it (LangGraph's SearchItem, which it does not re-export). */
export type StrataSearchItem = Item & { score?: number };

const optionsSchema = z.object({
  memory: z.custom<MemoryApi>((m) => typeof m === 'object' && m !== null && typeof (m as MemoryApi).append === 'function' && typeof (m as MemoryApi).search === 'function', {
    error: 'memory must be a strata MemoryApi (from createMemory())',
  }),
  namespace: z
    .string({ error: 'namespace must be a string' })
    .min(1, 'namespace must be a non-empty string')
    .superRefine((value, ctx) => {
      const problem = nameProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `namespace ${problem}` });
    }),
  index: z
    .object({ fields: z.array(z.string().min(1)).min(1).optional() })
    .strict()
    .optional(),
});

/**
 * A LangGraph store (`BaseStore`) kept in strata: LangGraph's long-term memory for agents and
 * graphs, searchable with strata's hybrid retrieval. Each LangGraph namespace is a session of
 * one strata namespace, each item a turn of it (its text to search as content, the item in
 * metadata); an update appends the new version and forgets the old turn, a delete forgets it.
 * Items take part in strata like any turn: they are summarised, facts are extracted from them,
 * and `memory.search` finds them.
 *
 * Behaves as LangGraph's InMemoryStore does (the same table of cases passes on both): a batch
 * answers its reads from the state before it and then applies its puts, the last put of a
 * key winning. Differences: values must be plain JSON (returned as copies); a query ranks with
 * strata and returns only the items it reaches (InMemoryStore also returns every other
 * candidate, unscored), which may include, scored lower, items written next to a strong match
 * (strata credits a turn's neighbours); listing without a query is newest update first; and
 * `listNamespaces` lists only namespaces that hold an item.
 *
 * Reads are answered from a per-store copy of the items it has read, checked against their
 * session first (one session lookup), so another StrataStore over the same memory sees every
 * write at once (see ItemCache for what that costs after another store's delete).
 * @example
 * const store = new StrataStore({ memory, namespace: 'agent-memories' });
 * const agent = createAgent({ model, tools, store });
 * // in a tool or node: await store.put(['user-42', 'memories'], 'food', { text: 'Loves ramen' });
 * const [best] = await store.search(['user-42'], { query: 'favourite food' }); // best.score
 */
export class StrataStore extends BaseStore {
  private readonly memory: MemoryApi;
  private readonly namespace: string;
  private readonly fields: string[] | undefined;
  private readonly cache: ItemCache;
  /** Batches run one at a time: a write plans from what it read, and no other batch of this store runs in between. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(options: StrataStoreOptions) {
    super();
    const parsed = parseWith(
      optionsSchema,
      options,
      'StrataStore options',
      "Pass { memory, namespace, index?: { fields?: string[] } }: the memory from createMemory() and a strata namespace for the store's items. Strata embeds with the memory's own models: drop dims and embeddings.",
      'CONFIG_INVALID',
    );
    this.memory = parsed.memory;
    this.namespace = parsed.namespace;
    this.fields = parsed.index?.fields;
    this.cache = new ItemCache(parsed.memory);
  }

  /**
   * Runs get, search, put and listNamespaces operations; results in operation order (null for
   * a put). Reads see the store as it was before the batch; puts are applied after them, the
   * last put of each key winning.
   * @throws InvalidNamespaceError for a namespace LangGraph rejects; StrataError INVALID_INPUT for
   * input strata cannot take: the batch then does nothing, except for a value that only
   * strata's append refuses (not plain JSON deep inside, too large): the namespaces of the
   * batch written before that one's stay written.
   */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const classified = await checkOperations(operations);
    return this.exclusive(async () => {
      const results: unknown[] = [];
      for (const { kind, op } of classified) {
        if (kind === 'get') results.push(await this.getItem(op.namespace, op.key));
        else if (kind === 'search') results.push(await this.searchItems(op));
        else if (kind === 'list') results.push(await this.listNamespacesWithItems(op));
        else results.push(null);
      }
      await this.applyPuts(classified.flatMap((c) => (c.kind === 'put' ? [c.op] : [])));
      return results as OperationResults<Op>;
    });
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async getItem(labels: string[], key: string): Promise<Item | null> {
    const item = (await this.cache.read(storeSessionId(this.namespace, labels)))?.get(key);
    return item === undefined ? null : toItem({ labels, item });
  }

  private async searchItems(op: SearchOperation): Promise<StrataSearchItem[]> {
    const candidates = (await this.itemsUnder(op.namespacePrefix)).filter((c) => matchesFilter(c.item.value, op.filter ?? undefined));
    const page = { offset: op.offset ?? 0, limit: op.limit ?? 10 };
    if (op.query?.trim()) {
      const ranked = await rankItems(this.memory, this.namespace, op.query, candidates, page);
      return ranked.map((r) => ({ ...toItem(r), score: r.score }));
    }
    return candidates
      .sort((a, b) => b.item.updatedAt - a.item.updatedAt || compareText(a.labels.join(':'), b.labels.join(':')) || compareText(a.item.key, b.item.key))
      .slice(page.offset, page.offset + page.limit)
      .map(toItem);
  }

  /** Every item of the LangGraph namespaces under `prefix`. */
  private async itemsUnder(prefix: string[]): Promise<PlacedItem[]> {
    const placed: PlacedItem[] = [];
    for (const session of await this.memory.sessions.list({ namespace: this.namespace })) {
      const labels = labelsOf(session);
      if (labels === undefined || !isUnder(labels, prefix)) continue;
      const items = await this.cache.read(session.id);
      for (const item of items?.items() ?? []) placed.push({ labels, item });
    }
    return placed;
  }

  private async listNamespacesWithItems(op: ListNamespacesOperation): Promise<string[][]> {
    const held: string[][] = [];
    for (const session of await this.memory.sessions.list({ namespace: this.namespace })) {
      const labels = labelsOf(session);
      if (labels !== undefined && (await this.cache.hasItems(session.id))) held.push(labels);
    }
    return matchNamespaces(held, op);
  }

  /** The batch's puts, the last of each key, namespace by namespace. */
  private async applyPuts(puts: PutOperation[]): Promise<void> {
    const last = new Map(puts.map((op) => [JSON.stringify([op.namespace, op.key]), op]));
    const byNamespace = new Map<string, { labels: string[]; writes: ItemWrite[] }>();
    for (const op of last.values()) {
      const id = JSON.stringify(op.namespace);
      const group = byNamespace.get(id) ?? { labels: [...op.namespace], writes: [] };
      group.writes.push({ key: op.key, value: op.value, index: op.index === false ? false : (op.index ?? undefined) });
      byNamespace.set(id, group);
    }
    for (const { labels, writes } of byNamespace.values()) {
      const hasValues = writes.some((w) => w.value !== null);
      const sessionId = hasValues ? await ensureStoreSession(this.memory, this.namespace, labels) : storeSessionId(this.namespace, labels);
      const items = await this.cache.read(sessionId);
      if (items === undefined && hasValues) {
        throw new StrataError('CONFLICT', `the session of namespace ${JSON.stringify(labels)} was forgotten while this put ran`, {
          hint: "Something forgot the store's sessions (memory.forget) at the same moment; put again.",
        });
      }
      // deletes in a namespace that was never written change nothing
      if (items !== undefined) await writeItems(this.memory, sessionId, items, writes, this.fields, labels);
    }
  }
}

function toItem({ labels, item }: PlacedItem): Item {
  return { namespace: [...labels], key: item.key, value: structuredClone(item.value), createdAt: new Date(item.createdAt), updatedAt: new Date(item.updatedAt) };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

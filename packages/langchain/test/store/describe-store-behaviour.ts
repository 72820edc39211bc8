import { afterEach, describe, expect, it } from 'vitest';
import type { BaseStore } from '@langchain/langgraph';
import { CASES, FIXTURE } from './store-cases.js';

export interface StoreBehaviourOptions {
  /** A new, empty store. */
  create: () => Promise<BaseStore>;
  /** Releases what `create` made. */
  destroy?: (store: BaseStore) => Promise<void>;
}

/**
 * Runs the table of store behaviour (store-cases.ts) against one LangGraph store: each case
 * on a fresh store holding its items, observing exactly what the table expects.
 */
export function describeStoreBehaviour(name: string, options: StoreBehaviourOptions): void {
  describe(`${name} behaves as a LangGraph store`, () => {
    let store: BaseStore | undefined;
    afterEach(async () => {
      if (store) await options.destroy?.(store);
      store = undefined;
    });

    for (const row of CASES) {
      it(row.name, async () => {
        store = await options.create();
        for (const [namespace, key, value, index] of row.given ?? FIXTURE) await store.put(namespace, key, value, index);
        expect(await row.act(store)).toEqual(row.expected);
      });
    }
  });
}

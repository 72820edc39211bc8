import { afterEach, beforeEach, describe, it } from 'vitest';
import type { LexicalIndex, SessionStore } from '@strata/core';
import type { Define } from './session-store-contract/fixtures.js';
import { describeJobUsage } from './session-store-contract/job-usage-cases.js';
import { describeLexicalSearch } from './session-store-contract/lexical-cases.js';
import { describeLifecycle } from './session-store-contract/lifecycle-cases.js';
import { describeReads } from './session-store-contract/read-cases.js';
import { describeWrites } from './session-store-contract/write-cases.js';

export interface SessionStoreContractOptions<S extends SessionStore = SessionStore> {
  /** A fresh, empty store for each test. */
  create: () => Promise<S>;
  /** Releases what `create` made (delete a temp file). `close()` is called first. */
  destroy?: (store: S) => Promise<void>;
  /**
   * The {@link LexicalIndex} over the store's records, which the lexical cases search.
   * Required when the store does not implement `LexicalIndex` itself.
   * @defaultValue the store
   */
  lexicalOf?: (store: S) => LexicalIndex;
  /** Test title -> reason: known gaps of this adapter, shown in the skipped test's name. */
  skip?: Record<string, string>;
}

/**
 * The behaviour every {@link SessionStore} adapter must have: the rules of the port's doc
 * comments, checked through the port only, so any adapter runs it unchanged. Its lexical
 * cases check the {@link LexicalIndex} over the store's records (the store itself unless
 * `lexicalOf` is given).
 *
 * @example
 * ```ts
 * describeSessionStoreContract('SqliteSessionStore', {
 *   create: () => createSqliteSessionStore({ path: ':memory:' }),
 * });
 * ```
 */
export function describeSessionStoreContract<S extends SessionStore & LexicalIndex>(name: string, options: SessionStoreContractOptions<S>): void;
export function describeSessionStoreContract<S extends SessionStore>(name: string, options: SessionStoreContractOptions<S> & { lexicalOf: (store: S) => LexicalIndex }): void;
export function describeSessionStoreContract(name: string, options: SessionStoreContractOptions): void {
  // The overloads require `lexicalOf` for a store that is no LexicalIndex itself.
  const lexicalOf = options.lexicalOf ?? ((target: SessionStore) => target as SessionStore & LexicalIndex);
  describe(`SessionStore contract: ${name}`, () => {
    let store: SessionStore | undefined;
    const current = (): SessionStore => {
      if (store === undefined) throw new Error('No store: create() has not run for this test.');
      return store;
    };
    const lexical = (): LexicalIndex => lexicalOf(current());
    const test: Define = (title, body) => {
      const reason = options.skip?.[title];
      if (reason === undefined) it(title, body);
      else it.skip(`${title} (skipped: ${reason})`, body);
    };

    beforeEach(async () => {
      store = await options.create();
    });
    afterEach(async () => {
      const finished = store;
      store = undefined;
      if (finished === undefined) return;
      await finished.close();
      await options.destroy?.(finished);
    });

    describeWrites(test, current, lexical);
    describeReads(test, current);
    describeJobUsage(test, current);
    describeLifecycle(test, current, lexical);
    describeLexicalSearch(test, current, lexical);
  });
}

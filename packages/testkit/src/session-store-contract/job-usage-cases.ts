import { expect } from 'vitest';
import type { JobUsage } from '@strata/core';
import type { CurrentStore, Define } from './fixtures.js';
import { job } from './fixtures.js';

/** A job's token usage in the ledger: kept exactly, absent when absent, and copied on read. */
export function describeJobUsage(test: Define, store: CurrentStore): void {
  const usage = (): JobUsage => ({
    inputTokens: 1_530,
    outputTokens: 212,
    calls: 3,
    byModel: {
      'gpt-4o-mini': { inputTokens: 1_200, outputTokens: 180, calls: 2 },
      'text-embedding-3-small': { inputTokens: 330, outputTokens: 0, calls: 1 },
    },
  });

  test('a job recorded with usage reads back with exactly that usage, per model too', async () => {
    const recorded = job('sum:s1:1-2', 's1', [1, 2], { usage: usage() });
    const noModels = job('ing:s1:1-2', 's1', [1, 2], { type: 'ingest', usage: { inputTokens: 40, outputTokens: 8, calls: 1 } });
    await store().write({ ops: [{ type: 'recordJobs', jobs: [recorded, noModels] }] });
    expect(await store().jobs({ sessionId: 's1' })).toStrictEqual([noModels, recorded]);
    expect(await store().jobs({ sessionId: 's1', type: 'summarize', last: 1 })).toStrictEqual([recorded]);
    // the ledger keeps what was recorded first: recording the key again changes nothing
    await store().write({ ops: [{ type: 'recordJobs', jobs: [{ ...recorded, usage: { inputTokens: 1, outputTokens: 1, calls: 1 } }] }] });
    expect(await store().jobs({ sessionId: 's1', type: 'summarize' })).toStrictEqual([recorded]);
  });

  test('model names in usage are kept exactly, whatever text they hold', async () => {
    const names = ['provider/model:v1', 'emoji 🤖 مرحبا', 'nul\u0000inside', 'u+ffff \uFFFF0', '__proto__', 'constructor'];
    const byModel = Object.fromEntries(names.map((name, i) => [name, { inputTokens: i + 1, outputTokens: i, calls: 1 }]));
    const recorded = job('sum:s1:1-2', 's1', [1, 2], { usage: { inputTokens: 21, outputTokens: 15, calls: names.length, byModel } });
    await store().write({ ops: [{ type: 'recordJobs', jobs: [recorded] }] });
    const [read] = await store().jobs({ sessionId: 's1' });
    // toEqual: toStrictEqual compares the `constructor` properties, here two model entries, by identity
    expect(read).toEqual(recorded);
    expect(Object.keys(read?.usage?.byModel ?? {}).sort()).toEqual([...names].sort());
    expect(Object.getPrototypeOf(read?.usage?.byModel)).toBe(Object.prototype);
  });

  test('a job recorded without usage reads back with no usage key', async () => {
    const recorded = job('sum:s1:1-2', 's1', [1, 2]);
    await store().write({ ops: [{ type: 'recordJobs', jobs: [recorded, job('sum:s1:3-4', 's1', [3, 4], { usage: usage() })] }] });
    const [read] = await store().jobs({ sessionId: 's1', last: 2 });
    expect(read).toStrictEqual(recorded);
    expect(read !== undefined && 'usage' in read).toBe(false);
  });

  test('usage read or written is a copy: mutating it afterwards does not change the store', async () => {
    const recorded = job('sum:s1:1-2', 's1', [1, 2], { usage: usage() });
    await store().write({ ops: [{ type: 'recordJobs', jobs: [recorded] }] });
    const written = recorded.usage;
    if (written?.byModel?.['gpt-4o-mini'] === undefined) throw new Error('the fixture has no per-model usage');
    written.calls = 0;
    written.byModel['gpt-4o-mini'].inputTokens = 0;
    const [read] = await store().jobs({ sessionId: 's1' });
    const model = read?.usage?.byModel?.['gpt-4o-mini'];
    if (read?.usage?.byModel === undefined || model === undefined) throw new Error('the job was read back without its usage');
    read.usage.inputTokens = -1;
    model.outputTokens = -1;
    read.usage.byModel.other = { inputTokens: 1, outputTokens: 1, calls: 1 };
    expect(await store().jobs({ sessionId: 's1' })).toStrictEqual([{ ...recorded, usage: usage() }]);
  });
}

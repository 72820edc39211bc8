import { describe, expect, it } from 'vitest';
import type { Environment } from '../lib/environment.js';
import { renderMarkdown, resultFileName } from '../lib/write-results.js';

const environment: Environment = { cpu: 'cpu', cores: 2, totalMemoryGb: 4, node: 'v20.20.2', platform: 'linux', commit: 'abc1234', isDirty: false, date: '2026-11-27T00:00:00.000Z' };

describe('bench results', () => {
  it('names a run under NODE_OPTIONS after them, so it sits beside the default run', () => {
    expect(resultFileName({ name: 'scale', environment })).toBe('scale');
    expect(resultFileName({ name: 'scale', environment: { ...environment, nodeOptions: '--v8-pool-size=1' } })).toBe('scale.v8-pool-size-1');
    expect(resultFileName({ name: 'scale', environment: { ...environment, nodeOptions: '--v8-pool-size=1  --max-semi-space-size=64' } })).toBe('scale.v8-pool-size-1-max-semi-space-size-64');
  });

  it('says in the header which NODE_OPTIONS the run had', () => {
    const markdown = (nodeOptions?: string): string =>
      renderMarkdown({ name: 'scale', isQuick: false, environment: { ...environment, ...(nodeOptions ? { nodeOptions } : {}) }, latencies: [], figures: [] });
    expect(markdown('--v8-pool-size=1')).toContain('- node: v20.20.2 (NODE_OPTIONS=--v8-pool-size=1)\n');
    expect(markdown()).toContain('- node: v20.20.2\n');
  });
});

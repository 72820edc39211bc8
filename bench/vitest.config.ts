import { defineProject } from 'vitest/config';

// The benchmark's pure parts (data set generator, metrics, baselines); `npm test` runs them.
export default defineProject({
  ssr: { resolve: { conditions: ['@strata/source'] } },
  resolve: { conditions: ['@strata/source'] },
  test: {
    name: 'bench',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
  },
});

import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@strata/source'] } },
  resolve: { conditions: ['@strata/source'] },
  test: {
    name: 'worker',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 60_000,
    // cleanup closes queues and stops worker processes and a Redis of the test's own
    hookTimeout: 60_000,
  },
});

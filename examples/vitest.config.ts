import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@strata/source'] } },
  resolve: { conditions: ['@strata/source'] },
  test: {
    name: 'examples',
    include: ['test/**/*.test.ts'],
    // Each test spawns a fresh node + tsx process that compiles the sources on the fly.
    testTimeout: 60_000,
  },
});

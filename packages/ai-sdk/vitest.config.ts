import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@strata/source'] } },
  resolve: { conditions: ['@strata/source'] },
  test: {
    name: 'ai-sdk',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    testTimeout: 30_000,
  },
});

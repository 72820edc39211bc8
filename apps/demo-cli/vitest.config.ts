import { defineProject } from 'vitest/config';

export default defineProject({
  ssr: { resolve: { conditions: ['@strata/source'] } },
  resolve: { conditions: ['@strata/source'] },
  test: {
    name: 'demo-cli',
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // Tests spawn the CLI several times; under a full parallel run on two cores that takes a while.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // The CLI tests spawn the built `strata`: build it (and what it imports) once, first.
    globalSetup: ['test/support/build-cli.ts'],
  },
});

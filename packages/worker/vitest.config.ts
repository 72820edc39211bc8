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
    // Its fault tests stop and restart a Redis of their own and time reconnects: they run one
    // file at a time, after the other projects (which run three files at once), so that no
    // other file competes for the 2 cores while they wait on a reconnect.
    maxWorkers: 1,
    sequence: { groupOrder: 1 },
  },
});

import { defineConfig } from 'vitest/config';

// One vitest project per workspace package, named after its folder.
// CI sets STRATA_TEST_REPORT to also write a JSON report it can count.
const report = process.env.STRATA_TEST_REPORT;

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'examples', 'bench'],
    // Vitest's default is one worker per core but one: a single worker on a 2-core host, so the
    // many files that wait on child processes, PostgreSQL, Redis or Chroma ran one at a time.
    // Three files at once halves the suite's wall time there; each file isolates its data.
    maxWorkers: 3,
    reporters: report ? ['default', ['json', { outputFile: report }]] : ['default'],
  },
});

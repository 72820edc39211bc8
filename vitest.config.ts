import { defineConfig } from 'vitest/config';

// One vitest project per workspace package, named after its folder.
// CI sets STRATA_TEST_REPORT to also write a JSON report it can count.
const report = process.env.STRATA_TEST_REPORT;

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'examples', 'bench'],
    reporters: report ? ['default', ['json', { outputFile: report }]] : ['default'],
  },
});

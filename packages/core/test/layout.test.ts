import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The most source files one folder of src/ may hold; colocated tests (`*.test.ts`) do not count. */
const MAX_SOURCES = 12;
const src = join(dirname(fileURLToPath(import.meta.url)), '..', 'src');

/** Every folder from `dir` down, with the number of source files it holds itself. */
function sourceCounts(dir: string): { folder: string; sources: number }[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  const sources = entries.filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')).length;
  const below = entries.filter((entry) => entry.isDirectory()).flatMap((entry) => sourceCounts(join(dir, entry.name)));
  return [{ folder: relative(src, dir) || '.', sources }, ...below];
}

describe('the layout of packages/core/src', () => {
  it(`has no folder of more than ${MAX_SOURCES} source files`, () => {
    const counts = sourceCounts(src);
    expect(counts.find((count) => count.folder === 'services')?.sources).toBeGreaterThan(0);
    const crowded = counts.filter((count) => count.sources > MAX_SOURCES).map((count) => `${count.folder}: ${count.sources} source files`);
    expect(crowded, `split these folders by concern, into rooms of at most ${MAX_SOURCES} source files`).toEqual([]);
  });
});

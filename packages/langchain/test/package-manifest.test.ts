import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(packageDir, '../..');
const LANGCHAIN = ['@langchain/core', '@langchain/langgraph', 'langchain'];

interface NpmTree {
  version?: string;
  dependencies?: Record<string, NpmTree>;
}

function versionsOf(name: string, tree: NpmTree, found = new Set<string>()): Set<string> {
  for (const [dep, child] of Object.entries(tree.dependencies ?? {})) {
    if (dep === name && child.version) found.add(child.version);
    versionsOf(name, child, found);
  }
  return found;
}

describe('@strata/langchain as a dependency of a LangChain app', () => {
  it('takes LangChain as peer dependencies with version ranges, never as its own dependencies', () => {
    const manifest = JSON.parse(readFileSync(resolve(packageDir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; peerDependencies: Record<string, string> };
    for (const name of LANGCHAIN) {
      expect(manifest.peerDependencies[name]).toMatch(/^\^\d+\.\d+\.\d+$/);
      expect(manifest.dependencies?.[name]).toBeUndefined();
    }
  });

  it('leaves one copy of @langchain/core in the workspace (one class identity for messages)', () => {
    const tree = JSON.parse(execFileSync('npm', ['ls', '@langchain/core', '--all', '--json'], { cwd: root, encoding: 'utf8' })) as NpmTree;
    expect([...versionsOf('@langchain/core', tree)]).toHaveLength(1);
  }, 60_000);
});

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, root } from './support/cli.js';

const sandbox = createSandbox('start-up');
afterAll(() => sandbox.dispose());

const shim = join(root, 'apps/demo-cli/bin/strata.js');
const recorder = fileURLToPath(new URL('./support/record-imports.mjs', import.meta.url));

/** esbuild's record of the bundle: which sources each file of dist/ holds. */
interface BundleMeta {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}
const meta = JSON.parse(readFileSync(join(root, 'apps/demo-cli/dist/meta.json'), 'utf8')) as BundleMeta;

/**
 * Runs `strata ARGS` and returns the URLs of every ES module it imported, with each file of
 * the bundle replaced by the sources it holds (as /work/.../packages/core/dist/... paths).
 */
function importsOf(args: string[]): string[] {
  const file = join(sandbox.dir, `imports-${args.join('-')}.txt`);
  const child = spawnSync(process.execPath, ['--import', recorder, shim, ...args], { cwd: root, env: { ...sandbox.env, STRATA_RECORD_IMPORTS: file }, encoding: 'utf8' });
  expect(child.status, child.stderr).toBe(0);
  return [...new Set(readFileSync(file, 'utf8').trim().split('\n'))].flatMap(sourcesOf);
}

function sourcesOf(url: string): string[] {
  const bundled = /\/apps\/demo-cli\/(dist\/[^/]+\.js)$/.exec(url)?.[1];
  const output = bundled === undefined ? undefined : meta.outputs[bundled];
  if (output === undefined) return [url];
  const sources = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0);
  return [url, ...sources.map(([input]) => `file://${join(root, 'apps/demo-cli', input)}`)];
}

const loads = (urls: string[], pattern: RegExp): string[] => urls.filter((url) => pattern.test(url));
/** Any of core but its errors module (the light `@strata/core/errors` entry every command may use). */
const CORE = /\/packages\/core\/dist\/(?!errors\/)/;
/** Terminal widths (string-width, and the older copy cli-progress uses): some 60 ms to load. */
const STRING_WIDTH = /\/node_modules\/string-width\//;
const WIRING = /\/node_modules\/(better-sqlite3|gpt-tokenizer|chrono-node|wink-nlp|chromadb|bullmq|ioredis|@langchain)\//;

describe('strata starts without loading what a command does not use', () => {
  it('--help loads neither strata itself, the config schemas, nor any store or model', () => {
    const urls = importsOf(['--help']);
    expect(urls.some((url) => url.includes('/apps/demo-cli/dist/bin.js'))).toBe(true);
    expect(loads(urls, /\/apps\/demo-cli\/src\/bin\.ts$/)).toHaveLength(1);
    expect(loads(urls, CORE)).toEqual([]);
    expect(loads(urls, /\/node_modules\/zod\//)).toEqual([]);
    expect(loads(urls, WIRING)).toEqual([]);
    expect(loads(urls, /\/packages\/(store-sqlite|kb-chroma|worker|langchain)\//)).toEqual([]);
    expect(loads(urls, /\/node_modules\/(string-width|cli-progress|yocto-spinner|@bomb\.sh\/tab)\//)).toEqual([]);
  });

  it('config reads the config without opening the memory, and prints its ASCII table without string-width', () => {
    const urls = importsOf(['config']);
    expect(loads(urls, CORE)).toEqual([]);
    expect(loads(urls, WIRING)).toEqual([]);
    expect(loads(urls, STRING_WIDTH)).toEqual([]);
  });

  it('sessions opens the session store: no tokenizer, Chroma, BullMQ, LangChain or string-width', () => {
    const urls = importsOf(['sessions']);
    expect(loads(urls, /\/packages\/store-sqlite\/dist\/sqlite-session-store\.js$/)).toHaveLength(1);
    expect(loads(urls, /\/node_modules\/(gpt-tokenizer|chromadb|bullmq|ioredis|@langchain)\//)).toEqual([]);
    expect(loads(urls, STRING_WIDTH)).toEqual([]);
  });

  it('a table with text beyond ASCII loads string-width to measure it', () => {
    const urls = importsOf(['--namespace', '東京', 'config']);
    expect(loads(urls, STRING_WIDTH).length).toBeGreaterThan(0);
  });
});

describe('running strata from the repository', () => {
  it('npx strata --help works in the repository after npm ci', () => {
    const child = spawnSync('npx', ['--no-install', 'strata', '--help'], { cwd: root, env: sandbox.env, encoding: 'utf8' });
    expect(child.status, child.stderr).toBe(0);
    expect(child.stdout).toMatch(/^Usage: strata /);
  });

  it('a global install of apps/demo-cli puts strata on PATH', () => {
    const prefix = mkdtempSync(join(tmpdir(), 'strata-global-'));
    try {
      const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', './apps/demo-cli'], {
        cwd: root,
        env: sandbox.env,
        encoding: 'utf8',
      });
      expect(install.status, install.stderr).toBe(0);
      const strata = join(prefix, 'bin', 'strata');
      expect(existsSync(strata)).toBe(true);
      const help = spawnSync(strata, ['sessions', '--help'], { cwd: sandbox.dir, env: sandbox.env, encoding: 'utf8' });
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^Usage: strata sessions/);
    } finally {
      rmSync(prefix, { recursive: true, force: true });
    }
  });
});

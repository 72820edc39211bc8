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

/** Runs `strata ARGS` and returns the URLs of every ES module it imported. */
function importsOf(args: string[]): string[] {
  const file = join(sandbox.dir, `imports-${args.join('-')}.txt`);
  const child = spawnSync(process.execPath, ['--import', recorder, shim, ...args], { cwd: root, env: { ...sandbox.env, STRATA_RECORD_IMPORTS: file }, encoding: 'utf8' });
  expect(child.status, child.stderr).toBe(0);
  return readFileSync(file, 'utf8').trim().split('\n');
}

const loads = (urls: string[], pattern: RegExp): string[] => urls.filter((url) => pattern.test(url));
const CORE_INDEX = /\/packages\/core\/(dist|src)\/index\.(js|ts)$/;
const WIRING = /\/node_modules\/(better-sqlite3|gpt-tokenizer|chrono-node|wink-nlp|chromadb|bullmq|ioredis|@langchain)\//;

describe('strata starts without loading what a command does not use', () => {
  it('--help loads neither strata itself, the config schemas, nor any store or model', () => {
    const urls = importsOf(['--help']);
    expect(urls.some((url) => url.includes('/apps/demo-cli/dist/bin.js'))).toBe(true);
    expect(loads(urls, CORE_INDEX)).toEqual([]);
    expect(loads(urls, /\/node_modules\/zod\//)).toEqual([]);
    expect(loads(urls, WIRING)).toEqual([]);
    expect(loads(urls, /\/packages\/(store-sqlite|kb-chroma|worker|langchain)\//)).toEqual([]);
  });

  it('config reads the config without opening the memory', () => {
    const urls = importsOf(['config']);
    expect(loads(urls, CORE_INDEX)).toEqual([]);
    expect(loads(urls, WIRING)).toEqual([]);
  });

  it('sessions opens the SQLite file, but loads no tokenizer, Chroma, BullMQ or LangChain', () => {
    const urls = importsOf(['sessions']);
    expect(loads(urls, /\/packages\/store-sqlite\//).length).toBeGreaterThan(0);
    expect(loads(urls, /\/node_modules\/(gpt-tokenizer|chromadb|bullmq|ioredis|@langchain)\//)).toEqual([]);
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
      const install = spawnSync('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--ignore-scripts', './apps/demo-cli'], { cwd: root, env: sandbox.env, encoding: 'utf8' });
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

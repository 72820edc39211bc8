import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const coreDir = resolve(here, '..');
const rootModules = resolve(coreDir, '../../node_modules');
const work = mkdtempSync(join(tmpdir(), 'strata-core-alone-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * An app directory that holds @strata/core (built from source) and the packages installed at
 * the root, less every LangChain package: what a user of core without LangChain has.
 */
function appWithoutLangChain(): string {
  const app = join(work, 'app');
  const modules = join(app, 'node_modules');
  mkdirSync(join(modules, '@strata'), { recursive: true });
  for (const name of readdirSync(rootModules)) {
    if (name === 'langchain' || name === '@langchain' || name === '@strata' || name.startsWith('.')) continue;
    symlinkSync(join(rootModules, name), join(modules, name));
  }
  const core = join(modules, '@strata', 'core');
  mkdirSync(join(core, 'node_modules'), { recursive: true });
  // core's own nested installs (a version the root does not hoist)
  const nested = join(coreDir, 'node_modules');
  for (const name of existsSync(nested) ? readdirSync(nested) : []) if (!name.startsWith('.')) symlinkSync(join(nested, name), join(core, 'node_modules', name));
  cpSync(join(coreDir, 'package.json'), join(core, 'package.json'));
  execFileSync(process.execPath, [
    join(rootModules, 'typescript/bin/tsc'),
    '-p',
    join(coreDir, 'tsconfig.build.json'),
    '--outDir',
    join(core, 'dist'),
    '--declaration',
    'false',
    '--declarationMap',
    'false',
    '--sourceMap',
    'false',
  ]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  return app;
}

describe('@strata/core without any LangChain package', () => {
  it('declares no @langchain dependency, installs beside none, and runs a conversation', () => {
    const manifest = JSON.parse(readFileSync(join(coreDir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const declared = ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {}));
    expect(declared.filter((name) => name === 'langchain' || name.startsWith('@langchain/'))).toEqual([]);

    const app = appWithoutLangChain();
    const script = `
      import { createMemory } from '@strata/core';
      let langchain = 'absent';
      try { await import('@langchain/core/messages'); langchain = 'present'; } catch {}
      const memory = await createMemory();
      const session = await memory.sessions.create({ namespace: 'u1' });
      await memory.append(session.id, [{ role: 'user', content: 'I live in Lisbon and I work as a nurse.' }, { role: 'assistant', content: 'Noted.' }]);
      await memory.flush();
      const context = await memory.getContext(session.id, { query: 'Where do I live?', systemPrompt: 'Be brief.' });
      console.log(JSON.stringify({ langchain, roles: context.messages.map((m) => m.role), first: context.messages[0].content.slice(0, 9) }));
      await memory.close();
    `;
    writeFileSync(join(app, 'main.mjs'), script);
    const out = JSON.parse(execFileSync(process.execPath, ['main.mjs'], { cwd: app, encoding: 'utf8' })) as { langchain: string; roles: string[]; first: string };
    expect(out).toEqual({ langchain: 'absent', roles: ['system', 'user', 'assistant'], first: 'Be brief.' });
  }, 120_000);
});

// The published packages as a user gets them: `npm pack` each public package, install the
// tarballs into a new project outside the workspace, check that every file their `exports`,
// `types` and modules name is in the tarball, then run an ESM consumer and type-check, compile
// and run a TypeScript consumer (examples/pack-consumer/) against them. Nothing here resolves
// through the workspace: no symlink, no `@strata/source` condition, no hoisted node_modules.
//
// Needs the npm registry (the packages' dependencies are installed from it): skipped with the
// reason when it does not answer, unless STRATA_REQUIRE_SERVICES=1 (then it fails).
//
// The SQLite drivers' native addons are not compiled again: with no prebuilt binary to fetch
// (only the registry answers here), their install scripts compiled both from source, 5-9
// minutes of both cores, most of this file's time and a fifth of the CI run's. The consumer
// installs without install scripts, takes the addons the workspace's own install built (same
// driver version, same Node, same machine; a driver at another version is built as before),
// then runs the other install scripts it allows.
// Building a driver is its package's business; what is ours is tested as before.
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireService } from '@strata/testkit';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const consumerSources = fileURLToPath(new URL('../pack-consumer/', import.meta.url));
const tsc = join(repoRoot, 'node_modules/typescript/bin/tsc');
const INSTALL_TIMEOUT_MS = 900_000;
const RUN_TIMEOUT_MS = 120_000;

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  main?: string;
  types?: string;
  typings?: string;
  exports?: unknown;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}

interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

function readJson<T>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** The environment of every command run here: the workspace's source condition must not leak into the consumer. */
function consumerEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return env;
}

/** Runs a command without blocking this process (vitest keeps reporting while an install compiles). */
function run(command: string, args: string[], cwd: string, timeout: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: consumerEnv(), timeout, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, stdout, stderr: signal ? `${stderr}\nkilled by ${signal} (timeout ${timeout} ms)` : stderr }));
  });
}

/** Native addons the workspace's install built, taken as they are instead of compiled again (see the top of this file). */
const PREBUILT_ADDONS = ['better-sqlite3', 'better-sqlite3-multiple-ciphers'];

/**
 * After an install without scripts: each of PREBUILT_ADDONS the project holds at the version
 * the workspace built gets the workspace's build of it; the other packages whose install
 * scripts are allowed (an addon at another version among them: its binary would not fit) run
 * them (`npm rebuild`).
 */
async function finishInstall(project: string, allowed: string[]): Promise<void> {
  const installedHere = (name: string) => join(project, 'node_modules', name);
  const versionOf = (dir: string) => readJson<PackageJson>(join(dir, 'package.json')).version;
  const taken = new Set<string>();
  for (const name of PREBUILT_ADDONS.filter((addon) => existsSync(installedHere(addon)))) {
    const workspaceCopy = join(repoRoot, 'node_modules', name);
    if (versionOf(installedHere(name)) !== versionOf(workspaceCopy)) continue;
    cpSync(join(workspaceCopy, 'build', 'Release'), join(installedHere(name), 'build', 'Release'), { recursive: true });
    taken.add(name);
  }
  const others = allowed.filter((name) => !taken.has(name) && existsSync(installedHere(name)));
  if (others.length === 0) return;
  const rebuilt = await run('npm', ['rebuild', ...others, '--loglevel=error'], project, INSTALL_TIMEOUT_MS);
  if (rebuilt.code !== 0) throw new Error(describeFailure(`npm rebuild ${others.join(' ')}`, rebuilt));
}

function describeFailure(what: string, result: RunResult): string {
  return `${what} exited ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/** The packages a user can install: every packages/* that is not private, core first (the others build on it). */
function publicPackages(): { dir: string; manifest: PackageJson }[] {
  const all = readdirSync(join(repoRoot, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(repoRoot, 'packages', entry.name, 'package.json')))
    .map((entry) => ({ dir: join(repoRoot, 'packages', entry.name), manifest: readJson<PackageJson>(join(repoRoot, 'packages', entry.name, 'package.json')) }))
    .filter((pkg) => pkg.manifest.private !== true);
  return all.sort((a, b) => Number(b.manifest.name === '@strata/core') - Number(a.manifest.name === '@strata/core') || a.manifest.name.localeCompare(b.manifest.name));
}

/**
 * The files an `exports` map points at, by condition path (`@strata/source`, which only the
 * workspace sets, included: the TypeScript sources ship for the source maps).
 */
function exportTargets(value: unknown, at: string, out: { at: string; target: string }[] = []): { at: string; target: string }[] {
  if (typeof value === 'string') out.push({ at, target: value });
  else if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) exportTargets(v, `${at}[${i}]`, out);
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) exportTargets(v, `${at}[${JSON.stringify(key)}]`, out);
  }
  return out;
}

/** The source a compiled file comes from: `dist/a/b.js`, `.d.ts` or their maps -> `src/a/b.ts`. */
function sourceOf(file: string): string {
  return file.replace(/^dist\//, 'src/').replace(/(\.d)?\.(js|ts)(\.map)?$/, '.ts');
}

/** The `sources` of every source map in the tarball that do not resolve to a file of the tarball. */
function unresolvedMapSources(installed: string, files: Set<string>): string[] {
  const missing: string[] = [];
  for (const map of [...files].filter((file) => file.endsWith('.map'))) {
    const { sources } = readJson<{ sources: string[] }>(join(installed, map));
    for (const source of sources) {
      const resolved = posix.normalize(posix.join(posix.dirname(map), source));
      if (!files.has(resolved)) missing.push(`${map} -> ${source}`);
    }
  }
  return missing;
}

/** Whether `target` (`./dist/x.js`, or a pattern `./dist/*.js`) names a file of the tarball. */
function inTarball(files: Set<string>, target: string): boolean {
  const path = posix.normalize(target);
  if (!path.includes('*')) return files.has(path);
  const pattern = new RegExp(
    `^${path
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+')}$`,
  );
  return [...files].some((file) => pattern.test(file));
}

function stripComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
}

const RELATIVE_MODULE = /['"`](\.{1,2}\/[^'"`\s]+\.(?:js|mjs|cjs|json))['"`]/g;
// a static import or re-export statement (possibly over several lines), or a bare `import 'x'`
const FROM_SPECIFIER = /^\s*(?:(?:import|export)\s[^;]*?\sfrom\s*|import\s*)['"]([^'"]+)['"]/gm;
const DECLARATION_OF: Record<string, string> = { '.js': '.d.ts', '.mjs': '.d.mts', '.cjs': '.d.cts', '.json': '.json' };

/**
 * What the tarball's own modules name and the tarball lacks: relative modules (and, from a
 * declaration file, their declarations) that are not in it, and packages imported statically
 * that are neither built in nor declared in `dependencies` or `peerDependencies`.
 */
function missingReferences(root: string, files: Set<string>, manifest: PackageJson): string[] {
  const declared = new Set([manifest.name, ...Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies })]);
  const missing: string[] = [];
  for (const file of files) {
    const declaration = /\.d\.[cm]?ts$/.test(file);
    if (!declaration && !/\.[cm]?js$/.test(file)) continue;
    const code = stripComments(readFileSync(join(root, file), 'utf8'));
    for (const [, specifier] of code.matchAll(RELATIVE_MODULE)) {
      const target = posix.join(posix.dirname(file), specifier!);
      const wanted = declaration ? target.replace(/\.(js|mjs|cjs|json)$/, (ext) => DECLARATION_OF[ext]!) : target;
      if (!files.has(wanted)) missing.push(`${file} names ${specifier}: ${wanted} is not in the tarball`);
    }
    for (const [, specifier] of code.matchAll(FROM_SPECIFIER)) {
      if (specifier!.startsWith('.') || specifier!.startsWith('node:') || builtinModules.includes(specifier!)) continue;
      const name = specifier!
        .split('/')
        .slice(0, specifier!.startsWith('@') ? 2 : 1)
        .join('/');
      if (!declared.has(name)) missing.push(`${file} imports ${specifier}: ${name} is not in dependencies or peerDependencies`);
    }
  }
  return missing;
}

/** One JSON line a consumer printed. */
interface ConsumerReport {
  consumer: string;
  messages: number;
  appendedTextFound: boolean;
  reopenedMessages: number;
  sameStrataError: boolean;
  exportCounts: Record<string, number>;
}

/** Checks the last line a consumer printed: the turns it appended came back, every package loaded. */
function expectConsumerReport(stdout: string, consumer: string): void {
  const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ConsumerReport;
  // '@strata/core' and '@strata/core/errors' load one module, not two copies of StrataError
  expect(report, stdout).toMatchObject({ consumer, appendedTextFound: true, reopenedMessages: 2, sameStrataError: true });
  expect(report.messages, stdout).toBeGreaterThanOrEqual(2);
  expect(Object.keys(report.exportCounts).sort()).toEqual(
    ['@strata/client', '@strata/core', '@strata/core/errors', '@strata/kb-chroma', '@strata/langchain', '@strata/server', '@strata/store-postgres', '@strata/store-sqlite', '@strata/worker'].sort(),
  );
  for (const [name, count] of Object.entries(report.exportCounts)) expect(count, name).toBeGreaterThan(0);
}

/**
 * tsc's errors, split by where they are: in the consumer or a strata package (a failure of this
 * test), or in a third-party package's declarations (reported, not ours to fix).
 */
function splitDiagnostics(output: string): { ours: string[]; thirdParty: string[] } {
  const diagnostics: string[] = [];
  for (const line of output.split('\n')) {
    if (!line.trim()) continue;
    if (/^\s/.test(line) && diagnostics.length > 0) diagnostics[diagnostics.length - 1] += `\n${line}`;
    else diagnostics.push(line);
  }
  const thirdParty = diagnostics.filter((d) => d.startsWith('node_modules/') && !d.startsWith('node_modules/@strata/'));
  return { ours: diagnostics.filter((d) => !thirdParty.includes(d)), thirdParty };
}

const registryDown = await requireService('npm registry', async () => {
  const ping = await run('npm', ['ping', '--fetch-timeout=10000', '--fetch-retries=0', '--loglevel=error', '--logs-max=0'], tmpdir(), 30_000);
  if (ping.code === 0) return;
  const lines = ping.stderr
    .split('\n')
    .map((line) => line.replace(/^npm error\s*/, '').trim())
    .filter(Boolean);
  throw new Error(`npm ping exited ${ping.code}: ${lines.find((line) => /reason:/.test(line)) ?? lines[0] ?? 'no output'}`);
});

describe.skipIf(registryDown !== null)(`packed packages installed outside the workspace${registryDown ? ` (skipped: ${registryDown})` : ''}`, () => {
  const packages = publicPackages();
  let tmp: string | undefined;
  let consumer = '';
  let aiConsumer = '';
  const packed = new Map<string, { filename: string; files: Set<string> }>();

  // two installed projects: removing them took more than the default 10 s on a loaded 2-core host
  afterAll(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  }, RUN_TIMEOUT_MS);

  beforeAll(
    async () => {
      tmp = mkdtempSync(join(tmpdir(), 'strata-pack-'));
      const tarballs = join(tmp, 'tarballs');
      consumer = join(tmp, 'consumer');
      mkdirSync(tarballs);
      mkdirSync(consumer);

      const started = performance.now();
      // The tarball holds this checkout's build only, as each package's prepack (clean, build)
      // makes it: every dist is removed, then turbo builds them all in one run. Turbo keys its
      // cache by the sources, so a build the workspace has just made (CI's install does) is
      // restored rather than compiled again, and anything else is built. The packs skip prepack.
      for (const { dir } of packages) rmSync(join(dir, 'dist'), { recursive: true, force: true });
      const filters = packages.map(({ manifest }) => `--filter=${manifest.name}`);
      const build = await run('npx', ['turbo', 'run', 'build', '--output-logs=errors-only', ...filters], repoRoot, packages.length * RUN_TIMEOUT_MS);
      if (build.code !== 0) throw new Error(describeFailure('turbo run build', build));
      for (const { dir, manifest } of packages) {
        const pack = await run('npm', ['pack', '--json', '--ignore-scripts', '--loglevel=error', '--pack-destination', tarballs], dir, RUN_TIMEOUT_MS);
        if (pack.code !== 0) throw new Error(describeFailure(`npm pack (${manifest.name})`, pack));
        const [report] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
        if (!report) throw new Error(`npm pack (${manifest.name}) reported no tarball`);
        packed.set(manifest.name, { filename: report.filename, files: new Set(report.files.map((f) => f.path)) });
      }

      // The peers of @strata/langchain, and the types a TypeScript app has, at the versions the
      // repository builds and tests with.
      const langchain = readJson<PackageJson>(join(repoRoot, 'packages/langchain/package.json'));
      const aiSdk = readJson<PackageJson>(join(repoRoot, 'packages/ai-sdk/package.json'));
      const root = readJson<PackageJson>(join(repoRoot, 'package.json'));
      const pinned = (from: PackageJson, name: string): string => {
        const version = from.devDependencies?.[name];
        if (!version) throw new Error(`${from.name} has no devDependency ${name}`);
        return version;
      };
      const dependencies: Record<string, string> = {};
      for (const [name, { filename }] of packed) dependencies[name] = `file:../tarballs/${filename}`;
      for (const peer of Object.keys(langchain.peerDependencies ?? {}).filter((name) => !name.startsWith('@strata/'))) dependencies[peer] = pinned(langchain, peer);
      for (const peer of Object.keys(aiSdk.peerDependencies ?? {}).filter((name) => !name.startsWith('@strata/'))) dependencies[peer] ??= pinned(aiSdk, peer);
      dependencies['@types/node'] = pinned(root, '@types/node');
      writeFileSync(
        join(consumer, 'package.json'),
        `${JSON.stringify({ name: 'strata-pack-consumer', private: true, type: 'module', dependencies, allowScripts: root.allowScripts ?? {} }, null, 2)}\n`,
      );
      const packedAt = performance.now();

      // An app on the AI SDK: @strata/core and @strata/ai-sdk from their tarballs, `ai` and zod, no LangChain.
      aiConsumer = join(tmp, 'ai-sdk-consumer');
      mkdirSync(aiConsumer);
      const aiDependencies: Record<string, string> = { '@types/node': pinned(root, '@types/node') };
      for (const name of ['@strata/core', '@strata/ai-sdk']) aiDependencies[name] = `file:../tarballs/${packed.get(name)?.filename ?? name}`;
      for (const peer of Object.keys(aiSdk.peerDependencies ?? {}).filter((name) => !name.startsWith('@strata/'))) aiDependencies[peer] = pinned(aiSdk, peer);
      writeFileSync(join(aiConsumer, 'package.json'), `${JSON.stringify({ name: 'strata-ai-sdk-consumer', private: true, type: 'module', dependencies: aiDependencies }, null, 2)}\n`);

      // Both consumers install at once; `--prefer-offline` takes what the workspace's own install
      // cached (the same pinned versions) without asking the registry again, and fetches the rest.
      const installArgs = ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', '--ignore-scripts'];
      const [install, aiInstall] = await Promise.all([run('npm', installArgs, consumer, INSTALL_TIMEOUT_MS), run('npm', installArgs, aiConsumer, INSTALL_TIMEOUT_MS)]);
      if (install.code !== 0) throw new Error(describeFailure('npm install (consumer)', install));
      if (aiInstall.code !== 0) throw new Error(describeFailure('npm install (AI SDK consumer)', aiInstall));
      for (const project of [consumer, aiConsumer]) await finishInstall(project, Object.keys(root.allowScripts ?? {}));
      for (const file of ['consumer.mjs', 'consumer.ts']) copyFileSync(join(consumerSources, file), join(consumer, file));
      for (const file of ['consumer.mjs', 'consumer.ts']) copyFileSync(join(consumerSources, 'ai-sdk', file), join(aiConsumer, file));
      // where the time goes (this file is the longest of the CI run)
      console.log(`pack: ${packages.length} packages packed in ${Math.round((packedAt - started) / 1000)} s, both consumers installed in ${Math.round((performance.now() - packedAt) / 1000)} s`);
    },
    INSTALL_TIMEOUT_MS + packages.length * RUN_TIMEOUT_MS,
  );

  // soft: one run lists the problems of every package
  it('packs every public package, and each tarball holds what its exports, types and modules name', () => {
    expect([...packed.keys()].sort()).toEqual([
      '@strata/ai-sdk',
      '@strata/client',
      '@strata/core',
      '@strata/kb-chroma',
      '@strata/langchain',
      '@strata/server',
      '@strata/store-postgres',
      '@strata/store-sqlite',
      '@strata/worker',
    ]);
    for (const { manifest } of packages) {
      const { files } = packed.get(manifest.name)!;
      const installed = join(consumer, 'node_modules', manifest.name);
      const shipped = readJson<PackageJson>(join(installed, 'package.json'));
      const targets = [...exportTargets(shipped.exports, 'exports'), ...(['main', 'types', 'typings'] as const).flatMap((field) => (shipped[field] ? [{ at: field, target: shipped[field] }] : []))];
      expect.soft(targets.length, `${manifest.name} names no entry point`).toBeGreaterThan(0);
      const absent = targets.filter(({ target }) => !inTarball(files, target)).map(({ at, target }) => `${at}: ${target}`);
      expect.soft(absent, `${manifest.name}: entry points not in the tarball`).toEqual([]);
      // every entry point has its declarations: a "types" condition beside each "default"
      const conditions = exportTargets(shipped.exports, 'exports').map(({ at }) => at);
      const untyped = conditions.filter((at) => at.endsWith('["default"]') && !conditions.includes(at.replace(/\["default"\]$/, '["types"]')));
      expect.soft(untyped, `${manifest.name}: exports without a "types" condition`).toEqual([]);
      expect.soft(missingReferences(installed, files, shipped), `${manifest.name}: modules the tarball lacks`).toEqual([]);
      // no stale build output: every compiled file comes from a source the tarball holds
      const orphans = [...files].filter((file) => file.startsWith('dist/') && !files.has(sourceOf(file)));
      expect.soft(orphans, `${manifest.name}: compiled files without their source`).toEqual([]);
      expect.soft(unresolvedMapSources(installed, files), `${manifest.name}: source maps naming files the tarball lacks`).toEqual([]);
      const tests = [...files].filter((file) => file.endsWith('.test.ts'));
      expect.soft(tests, `${manifest.name}: tests shipped`).toEqual([]);
    }
  });

  it('an ESM app imports every package by name and gets back from getContext what it appended (SQLite store)', async () => {
    const result = await run(process.execPath, ['consumer.mjs', tmp!], consumer, RUN_TIMEOUT_MS);
    expect(result.code, describeFailure('node consumer.mjs', result)).toBe(0);
    expectConsumerReport(result.stdout, 'esm');
  });

  it(
    'a TypeScript app type-checks against the packed declarations (strict, NodeNext), compiles and runs',
    async () => {
      const flags = ['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--pretty', 'false'];
      // Declaration files checked too (skipLibCheck off): an error in a strata package's .d.ts fails here.
      const check = await run(process.execPath, [tsc, '--noEmit', ...flags, '--skipLibCheck', 'false', 'consumer.ts'], consumer, RUN_TIMEOUT_MS);
      const { ours, thirdParty } = splitDiagnostics(check.stdout);
      expect(ours, describeFailure('tsc --noEmit --skipLibCheck false', check)).toEqual([]);
      if (thirdParty.length > 0) console.info(`tsc found ${thirdParty.length} error(s) in third-party declarations, not strata's:\n${thirdParty.join('\n')}`);
      expect(check.code === 0 || thirdParty.length > 0, describeFailure('tsc --noEmit', check)).toBe(true);

      // Compiled as an app that skips third-party declarations would: no error at all.
      const compile = await run(process.execPath, [tsc, ...flags, '--skipLibCheck', '--outDir', 'out', 'consumer.ts'], consumer, RUN_TIMEOUT_MS);
      expect(compile.code, describeFailure('tsc --outDir out', compile)).toBe(0);
      expect(compile.stdout).toBe('');

      const result = await run(process.execPath, [join('out', 'consumer.js'), tmp!], consumer, RUN_TIMEOUT_MS);
      expect(result.code, describeFailure('node out/consumer.js', result)).toBe(0);
      expectConsumerReport(result.stdout, 'ts');
      // two full type checks of every package's declarations (the server's bring hono's and the MCP SDK's), a compile and a run
    },
    3 * RUN_TIMEOUT_MS,
  );

  it('@strata/ai-sdk installs beside `ai` alone: npm ls lists no @langchain package', async () => {
    const list = await run('npm', ['ls', '--all', '--parseable', '--loglevel=error'], aiConsumer, RUN_TIMEOUT_MS);
    expect(list.code, describeFailure('npm ls --all', list)).toBe(0);
    const installed = list.stdout.split('\n').map((line) => line.slice(line.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(installed).toEqual(expect.arrayContaining(['@strata/ai-sdk', '@strata/core', 'ai']));
    expect(installed.filter((name) => name.startsWith('@langchain/') || name === 'langchain')).toEqual([]);
  });

  it(
    'an app on the AI SDK runs @strata/ai-sdk as ESM, and as TypeScript type-checked against the packed declarations',
    async () => {
      const expectReport = (stdout: string, consumerName: string) =>
        expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toMatchObject({
          consumer: consumerName,
          text: 'Hello from the model.',
          stored: ['user: Hi there', 'assistant: Hello from the model.'],
          systems: 1,
          uiRoundTrip: true,
          tools: ['forget', 'recall', 'remember'],
        });
      const esm = await run(process.execPath, ['consumer.mjs'], aiConsumer, RUN_TIMEOUT_MS);
      expect(esm.code, describeFailure('node consumer.mjs (AI SDK)', esm)).toBe(0);
      expectReport(esm.stdout, 'esm');

      const flags = ['--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--pretty', 'false'];
      const check = await run(process.execPath, [tsc, '--noEmit', ...flags, '--skipLibCheck', 'false', 'consumer.ts'], aiConsumer, RUN_TIMEOUT_MS);
      const { ours, thirdParty } = splitDiagnostics(check.stdout);
      expect(ours, describeFailure('tsc --noEmit (AI SDK consumer)', check)).toEqual([]);
      expect(check.code === 0 || thirdParty.length > 0, describeFailure('tsc --noEmit (AI SDK consumer)', check)).toBe(true);
      const compile = await run(process.execPath, [tsc, ...flags, '--skipLibCheck', '--outDir', 'out', 'consumer.ts'], aiConsumer, RUN_TIMEOUT_MS);
      expect(compile.code, describeFailure('tsc --outDir out (AI SDK consumer)', compile)).toBe(0);
      const ts = await run(process.execPath, [join('out', 'consumer.js')], aiConsumer, RUN_TIMEOUT_MS);
      expect(ts.code, describeFailure('node out/consumer.js (AI SDK)', ts)).toBe(0);
      expectReport(ts.stdout, 'ts');
    },
    3 * RUN_TIMEOUT_MS,
  );
});

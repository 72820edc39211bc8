// Builds the `strata` command into dist/ with esbuild: the CLI and the strata packages it uses,
// minified and split at every dynamic import, so a command compiles and runs only its own code.
// Node 20 spends most of a CLI's start-up resolving, reading and compiling ES modules (about
// 250 of them unbundled). Bundled, and with string-width, the spinners and completion loaded on
// use, `strata sessions` starts in about 216 ms where the unbundled build took 368
// (bench/results/cli-startup.md). Type checking stays with `npm run typecheck` (tsc).
//
// Left outside the bundle, loaded from node_modules when a command needs them: native addons
// (better-sqlite3), the servers' clients (Chroma, BullMQ, Redis), LangChain, the NLP models and
// tokenizer tables (large data that core loads on first use), and what the web app serves as
// files (mermaid, htmx).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const app = join(here, '..');
const require = createRequire(import.meta.url);

/** core starts its derive thread from `./derive-thread-entry.js` beside its own module: the bundle puts one there. */
const deriveThreadEntry = join(dirname(require.resolve('@strata/core')), 'adapters', 'queues', 'derive-thread-entry.js');

/**
 * zod's main entry re-exports its error messages in some 60 languages (`z.locales`), about half
 * of zod's code; strata validates in English only (zod's default), so the bundle keeps `en`.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, () => ({ contents: "export { default as en } from './en.js';", loader: 'js' }));
  },
};

/**
 * core loads its tokenizer tables, date parser and tagger model with a require() made from its
 * own module's URL; bundled, that URL is a file of dist/, from which core's dependencies may not
 * resolve (npm can install them under packages/core/node_modules). The bundled copy resolves
 * them from where `@strata/core` itself is installed.
 */
const coreRequireFromCore = {
  name: 'core-require-from-core',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]core[\\/]dist[\\/]shared[\\/]load-on-first-use\.js$/ }, async ({ path }) => {
      const source = await readFile(path, 'utf8');
      const own = 'createRequire(import.meta.url)';
      if (!source.includes(own)) throw new Error(`${path} no longer makes its require from ${own}: update ${fileURLToPath(import.meta.url)}`);
      return { contents: source.replace(own, "createRequire(createRequire(import.meta.url).resolve('@strata/core'))"), loader: 'js' };
    });
  },
};

const dist = join(app, 'dist');
rmSync(dist, { recursive: true, force: true });
const result = await build({
  absWorkingDir: app,
  entryPoints: { bin: 'src/bin.ts', 'derive-thread-entry': deriveThreadEntry },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  // a stack under --debug maps back to the sources (the bin shim turns source maps on)
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
  external: [
    'better-sqlite3',
    'better-sqlite3-multiple-ciphers',
    'chromadb',
    '@chroma-core/*',
    'bullmq',
    'ioredis',
    '@langchain/*',
    'wink-nlp',
    'wink-eng-lite-web-model',
    'gpt-tokenizer',
    'chrono-node',
    'mermaid',
    'htmx.org',
    'playwright-core',
    'tsx',
  ],
  // CommonJS dependencies in the bundle (commander's, picocolors') call require() for Node's own modules
  banner: { js: "import { createRequire as __strataRequire } from 'node:module'; const require = __strataRequire(import.meta.url);" },
  plugins: [zodEnglishOnly, coreRequireFromCore],
});
// Which sources went into which file: the start-up test reads it to tell what a command loaded.
writeFileSync(join(dist, 'meta.json'), JSON.stringify(result.metafile));

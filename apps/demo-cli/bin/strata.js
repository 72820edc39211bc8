#!/usr/bin/env node
// The `strata` command. npm links this file at install, before anything is built; the CLI
// itself is bundled into dist/ by `npm run build` (run by `npm ci` in the repository).
import { existsSync } from 'node:fs';

// Under --debug a stack names the TypeScript sources, not the minified bundle.
if (process.argv.includes('--debug')) process.setSourceMapsEnabled(true);

const built = new URL('../dist/bin.js', import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('error: the strata CLI is not built yet\nhint: Run `npm run build` in the strata repository (npm ci runs it), then try again.\n');
  process.exitCode = 1;
}

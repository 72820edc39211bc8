import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * Vitest global setup: the CLI tests run the built `strata` (dist/bin.js) as a user would,
 * so build it and the packages it imports first (turbo; cached when nothing changed).
 * STRATA_CLI_BUILT=1 skips this when the caller has just built everything.
 */
export default function buildCli(): void {
  if (process.env.STRATA_CLI_BUILT === '1') return;
  const root = fileURLToPath(new URL('../../../..', import.meta.url));
  execFileSync('npx', ['turbo', 'run', 'build', '--filter=@strata/demo-cli', '--output-logs=errors-only'], {
    cwd: root,
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'ignore', 'inherit'],
    timeout: 300_000,
  });
}

import { spawn, spawnSync } from 'node:child_process';
import { bin } from './cli.js';

/** util-linux `script` gives the CLI a pseudo-terminal without native addons. */
export const hasScript = spawnSync('script', ['--version']).status === 0;

/**
 * Runs `strata ARGS` on a pseudo-terminal and types `keys` one entry at a time, each after
 * the next `you>` prompt appears (a reply has been printed). Resolves with everything the
 * terminal showed and the exit code once the CLI has exited.
 */
export function runInTerminal(args: string[], env: NodeJS.ProcessEnv, keys: string[], timeoutMs = 60_000): Promise<{ code: number | null; screen: string }> {
  return new Promise((resolve, reject) => {
    const command = [process.execPath, bin, ...args].map((a) => `'${a.replace(/'/g, "'\\''")}'`).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...env, TERM: 'xterm-256color' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let screen = '';
    let typed = 0;
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    const onOutput = (chunk: Buffer) => {
      screen += chunk.toString();
      const prompts = screen.split('you>').length - 1;
      if (prompts > typed && typed < keys.length) child.stdin.write(keys[typed++]!);
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, screen });
    });
  });
}

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import { pc } from '../format/colors.js';
import { print } from '../format/output.js';
import { withMemory } from '../run-command.js';

interface UiOptions {
  host: string;
  port: number;
  demo?: boolean;
}

/** commander's parser of a `--port` value: an integer from 0 (a free one) to 65535. */
export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError('It must be a port number (0 for a free one).');
  return n;
}

/** `strata ui`: the web app on 127.0.0.1, with a random access token in the printed URL. */
export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .description('open the web app: chat with memory, sessions and their timelines, facts and their history, the context explorer, topic diagrams')
    .option('--host <host>', 'interface to listen on (other machines reach it only if you choose one they can)', '127.0.0.1')
    .option('--port <n>', 'port to listen on (0: a free one)', port, 0)
    .option('--demo', "show the demo's data (strata demo writes it): its file and namespace")
    .action(async (options: UiOptions, command: Command) => {
      if (options.demo) {
        const { DEMO_FILE, DEMO_NAMESPACE } = await import('./demo.js');
        const { configOf } = await import('../run-command.js');
        const { config } = await configOf(command);
        const file = join(config.dataDir, DEMO_FILE);
        if (!existsSync(file))
          throw new StrataError('NOT_FOUND', `no demo data at ${file}`, { hint: 'Run `strata demo` first (with the same --data-dir): it writes the file the web app then shows.' });
        command.setOptionValueWithSource('db', file, 'cli');
        command.setOptionValueWithSource('namespace', DEMO_NAMESPACE, 'cli');
      }
      await withMemory(command, async (memory, { config, wiring }) => {
        const { newToken } = await import('../ui/ui-app.js');
        const { startUi } = await import('../ui/ui-server.js');
        const ui = await startUi(
          { memory, assistant: wiring.assistant, config, path: wiring.path, token: newToken(), countMessages: wiring.countMessages },
          { host: options.host, port: options.port },
        );
        print(`strata ui: ${pc.bold(ui.url)}`);
        print(pc.dim(`memory: ${wiring.storage} · namespace ${config.namespace} · Ctrl-C stops it`));
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await ui.close();
        print('strata ui: stopped');
      });
    });
}

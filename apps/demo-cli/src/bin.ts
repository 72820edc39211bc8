#!/usr/bin/env node
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { registerChatCommand } from './commands/chat.js';
import { registerConfigCommand } from './commands/config.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerUiCommand } from './commands/ui.js';
import { registerExportCommand } from './commands/export.js';
import { registerForgetCommands } from './commands/forget.js';
import { registerImportCommand } from './commands/import.js';
import { registerInspectCommand } from './commands/inspect.js';
import { registerKeysCommands } from './commands/keys.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerSearchCommands } from './commands/search.js';
import { registerServeCommand } from './commands/serve.js';
import { registerSessionCommands } from './commands/sessions.js';
import { registerWorkerCommand } from './commands/worker.js';
import { configOf } from './run-command.js';
import { reportError, usageReport } from './report-error.js';

// `strata demo | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const CONFIG_HELP = `
Config (flags > env > config file > defaults):
  config file   --config FILE, STRATA_CONFIG, else $XDG_CONFIG_HOME/strata/config.json (~/.config/strata/config.json)
                JSON: { "dataDir", "db", "store", "namespace", "chromaUrl", "redisUrl", "redisPrefix",
                        "llm": { "baseUrl", "model", "apiKey" },
                        "embeddings": { "baseUrl", "model", "apiKey", "dimensions" } }
  env           STRATA_DATA_DIR, STRATA_DB, STRATA_STORE, STRATA_NAMESPACE, STRATA_CHROMA_URL, STRATA_REDIS_URL, STRATA_REDIS_PREFIX,
                STRATA_LLM_BASE_URL, STRATA_LLM_MODEL, OPENAI_API_KEY,
                STRATA_EMBEDDINGS_BASE_URL, STRATA_EMBEDDINGS_MODEL, STRATA_EMBEDDINGS_API_KEY,
                STRATA_EMBEDDINGS_DIMENSIONS
  defaults      SQLite file in $XDG_DATA_HOME/strata (~/.local/share/strata), in-process queue,
                offline models; \`strata config\` shows the effective values.

Exit codes: 0 ok, 1 usage or input error (with a hint), 2 backend unavailable.`;

const { version } = createRequire(import.meta.url)('../package.json') as { version: string };

// Read before parsing, so that an error commander itself reports follows them too.
const given = ((args) => (args.includes('--') ? args.slice(0, args.indexOf('--')) : args))(process.argv.slice(2));
const asJson = given.includes('--json');
const debug = given.includes('--debug');

const program = new Command()
  .name('strata')
  .description('strata: multi-tier memory for LLM agents')
  .version(version)
  .option('--config <file>', 'config file (JSON)')
  .option('--data-dir <dir>', 'directory of the SQLite files (env STRATA_DATA_DIR)')
  .option('--db <file>', "the SQLite file to use instead of DATA_DIR/memory.sqlite, e.g. the demo's demo.sqlite (env STRATA_DB)")
  .option('--store <url>', 'keep sessions on a PostgreSQL server shared by many processes, postgres://user@host:5432/db[?schema=name] (needs --chroma-url; env STRATA_STORE)')
  .option('-n, --namespace <ns>', 'namespace of sessions, search and facts (env STRATA_NAMESPACE; default "default")')
  .option('--chroma-url <url>', 'keep the knowledge base on a Chroma server (env STRATA_CHROMA_URL)')
  .option('--redis-url <url>', 'run derivation on BullMQ over Redis (env STRATA_REDIS_URL)')
  .option('--redis-prefix <prefix>', 'Redis key prefix, one per memory file (env STRATA_REDIS_PREFIX; default "strata")')
  .option('--llm-base-url <url>', 'OpenAI-compatible endpoint for chat, summaries, facts (env STRATA_LLM_BASE_URL)')
  .option('--llm-model <name>', 'model at that endpoint (env STRATA_LLM_MODEL)')
  .option('--debug', 'on failure, also print the stack')
  .addHelpText('after', CONFIG_HELP)
  .showHelpAfterError()
  // under --json, stderr carries one JSON error and nothing else: commander's own text is replaced below
  .configureOutput(asJson ? { writeErr: () => undefined, outputError: () => undefined } : {})
  .exitOverride();

program
  .command('demo')
  .description('run a scripted, offline conversation that shows the memory tiers at work')
  .action(async (_options: unknown, command: Command) => (await import('./commands/demo.js')).runDemo((await configOf(command)).config));
registerChatCommand(program);
registerSessionCommands(program);
registerSearchCommands(program);
registerInspectCommand(program);
registerExportCommand(program);
registerImportCommand(program);
registerForgetCommands(program);
registerWorkerCommand(program);
registerConfigCommand(program);
registerDoctorCommand(program);
registerUiCommand(program);
registerServeCommand(program);
registerKeysCommands(program);
registerMcpCommand(program);
// `strata completion bash|zsh|fish|powershell` prints a script; the shell then asks `strata complete -- ARGS` (hidden) at each TAB.
// The completion library is loaded only when either word is given (after global options too); otherwise a stand-in lists it in --help.
if (given.includes('complete') || given.includes('completion')) {
  const { default: tab } = await import('@bomb.sh/tab/commander');
  tab(program, { completionCommandName: 'completion' });
} else {
  program.command('completion <shell>').description('Generate shell completion scripts (bash, zsh, fish, powershell)');
}

// One handler for every failure: a message and a CLI hint (JSON on stderr under --json), the
// stack only under --debug; exit 0 ok, 1 the user's mistake, 2 a backend is unavailable.
program.parseAsync(process.argv).catch((error: unknown) => {
  if (isCommanderExit(error)) {
    if (error.exitCode !== 0 && asJson) {
      const report = usageReport(error.message, program.commands.find((c) => given.includes(c.name()))?.name() ?? '');
      process.stderr.write(`${JSON.stringify({ error: { code: report.code, message: report.message, hint: report.hint } })}\n`);
    }
    process.exit(error.exitCode);
  }
  process.exit(reportError(error, { json: asJson, debug }));
});

function isCommanderExit(error: unknown): error is { exitCode: number; message: string } {
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string' && (error as { code: string }).code.startsWith('commander.');
}

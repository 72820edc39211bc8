import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import type { ExportBundle, ExportFormat, Memory } from '@strata/core';
import { note } from '../format/output.js';
import { startProgress } from '../format/progress.js';
import { requireSession, withMemory, type MemoryContext } from '../run-command.js';
import { mergeBundles } from '../transfer/merge-bundles.js';

/** The CLI's short format names and the memory's. */
export const EXPORT_FORMATS: Record<string, ExportFormat> = { json: 'json', jsonl: 'jsonl', md: 'markdown', markdown: 'markdown', txt: 'text', text: 'text' };

interface ExportOptions {
  format: string;
  output?: string;
  all?: boolean;
}

/** `strata export ID --format json|jsonl|md|txt [--output FILE]`, or `--all` sessions. */
export function registerExportCommand(program: Command): void {
  program
    .command('export [id]')
    .description('export a session (or --all): json (lossless, for strata import), jsonl (OpenAI messages), md, txt')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['json', 'jsonl', 'md', 'txt']).default('json'))
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .option('--all', 'every session (of --namespace, if given) in one file: a backup that strata import restores')
    .action(async (id: string | undefined, options: ExportOptions, command: Command) =>
      withMemory(command, async (memory, context) => {
        if ((id === undefined) === (options.all !== true)) {
          throw new StrataError('INVALID_INPUT', 'export needs a session id or --all (not both)', { hint: 'e.g. strata export ses_123 --format md, or strata export --all -o backup.json' });
        }
        const format = EXPORT_FORMATS[options.format]!;
        const text = id === undefined ? await exportAll(memory, context, format) : await exportOne(memory, id, format);
        if (!options.output) return void process.stdout.write(text);
        writeFileSync(options.output, text, { mode: 0o600 });
        note(`wrote ${options.output} (${options.format}, ${Buffer.byteLength(text)} bytes)`);
      }),
    );
}

async function exportOne(memory: Memory, id: string, format: ExportFormat): Promise<string> {
  await requireSession(memory, id);
  return memory.export(id, { format });
}

/** Session by session, with progress; json merges the bundles so that one import restores them all. */
async function exportAll(memory: Memory, { config, isNamespaceChosen }: MemoryContext, format: ExportFormat): Promise<string> {
  const sessions = await memory.sessions.list(isNamespaceChosen ? { namespace: config.namespace } : {});
  const progress = await startProgress('exporting', sessions.length, 'sessions');
  const parts: string[] = [];
  try {
    for (const session of [...sessions].reverse()) {
      parts.push(await memory.export(session.id, { format }));
      progress.increment(1);
    }
  } finally {
    progress.stop();
  }
  if (format !== 'json') return parts.join(format === 'markdown' ? '\n' : '');
  return `${JSON.stringify(
    mergeBundles(
      parts.map((p) => JSON.parse(p) as ExportBundle),
      new Date().toISOString(),
    ),
    null,
    2,
  )}\n`;
}

import { writeFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { ExportFormat } from '@strata/core';
import { note } from '../format/output.js';
import { requireSession, withMemory } from '../run-command.js';

/** The CLI's short format names and the memory's. */
export const EXPORT_FORMATS: Record<string, ExportFormat> = { json: 'json', jsonl: 'jsonl', md: 'markdown', markdown: 'markdown', txt: 'text', text: 'text' };

/** `strata export ID --format json|jsonl|md|txt [--output FILE]`. */
export function registerExportCommand(program: Command): void {
  program
    .command('export <id>')
    .description('export a session: json (lossless, for strata import), jsonl (OpenAI messages), md, txt')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['json', 'jsonl', 'md', 'txt']).default('json'))
    .option('-o, --output <file>', 'write to a file instead of stdout')
    .action(async (id: string, options: { format: string; output?: string }, command: Command) =>
      withMemory(command, async (memory) => {
        await requireSession(memory, id);
        const text = await memory.export(id, { format: EXPORT_FORMATS[options.format]! });
        if (!options.output) return void process.stdout.write(text);
        writeFileSync(options.output, text);
        note(`wrote ${options.output} (${options.format}, ${Buffer.byteLength(text)} bytes)`);
      }),
    );
}

import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { UTF8_HINT } from '../chat/utf8-lines.js';
import { basename } from 'node:path';
import type { Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import type { ExportBundle, ImportOptions, ImportReport, Memory } from '@strata/core';
import { count, print, printJson } from '../format/output.js';
import { startDerivationBar, startProgress } from '../format/progress.js';
import { withMemory } from '../run-command.js';
import { readTranscript } from '../transfer/read-transcript.js';
import { inFileTerms, isBundle, splitBundle } from '../transfer/split-bundle.js';

/** For a bundle the library rejects: its own hint speaks of the API. */
const BUNDLE_HINT = 'Import the JSON that strata export wrote, unchanged; the path above names the record and field at fault.';

/** Turns appended per write when importing a transcript. */
const APPEND_BATCH = 200;

/** `strata import FILE`: a strata JSON bundle, or a JSONL transcript into a new session. */
export function registerImportCommand(program: Command): void {
  program
    .command('import <file>')
    .description('import a JSON bundle from `strata export` (sessions keep their ids), or a JSONL transcript as a new session')
    .option('--title <title>', 'title of the new session (JSONL only; default: the file name)')
    .option('--merge', 'skip sessions and facts that exist already (a current fact is superseded by a newer one of its slot)')
    .option('--json', 'print the report as JSON')
    .addHelpText('after', '\nWith -n/--namespace, a bundle is imported into that namespace instead of its own.')
    .action(async (file: string, options: { title?: string; json?: boolean; merge?: boolean }, command: Command) =>
      withMemory(command, async (memory, { config }) => {
        const text = readInput(file);
        const trimmed = text.trimStart();
        const parsed = trimmed.startsWith('{') && !trimmed.includes('\n{') ? parseJson(trimmed, file) : undefined;
        // a bundle keeps its namespace unless one is named on the command line
        const into = (command.parent ?? command).getOptionValueSource('namespace') === 'cli' ? { namespace: config.namespace } : {};
        const report = isBundle(parsed)
          ? await importBundle(memory, parsed, { merge: options.merge === true, ...into })
          : await importTranscript(memory, readTranscript(text, file), { namespace: config.namespace, title: options.title ?? basename(file) });
        if (options.json) return printJson(report);
        print(`imported ${count(report.sessions, 'session')}, ${count(report.messages, 'message')}, ${count(report.summaries, 'summary', 'summaries')}, ${count(report.facts, 'fact')}`);
        if (report.skipped.sessions + report.skipped.facts > 0) print(`skipped (exist already): ${count(report.skipped.sessions, 'session')}, ${count(report.skipped.facts, 'fact')}`);
        if (report.superseded > 0) print(`superseded by a newer fact of the same slot: ${count(report.superseded, 'fact')}`);
        if ('sessionId' in report) print(`session ${report.sessionId}`);
      }),
    );
}

/** Sessions one by one (progress per session); every id is checked first, so a clash writes nothing. */
async function importBundle(memory: Memory, bundle: ExportBundle, options: ImportOptions): Promise<ImportReport> {
  for (const { session } of options.merge ? [] : bundle.sessions) {
    if (await memory.sessions.get(session.id)) {
      throw new StrataError('CONFLICT', `session ${session.id} already exists; nothing was imported`, {
        hint: `Pass --merge to skip what exists, forget it first (strata forget --session ${session.id}), or import into another data dir (--data-dir).`,
      });
    }
  }
  const parts = splitBundle(bundle);
  const progress = await startProgress(
    'importing',
    bundle.sessions.reduce((n, s) => n + s.messages.length, 0),
    'messages',
  );
  const total: ImportReport = { sessions: 0, sessionIds: [], messages: 0, summaries: 0, facts: 0, skipped: { sessions: 0, facts: 0 }, superseded: 0 };
  const imported = total.sessionIds; // what undoImport forgets if a later part fails
  try {
    for (const part of parts) {
      const report = await memory.import(part.bundle, options).catch((error: unknown) => {
        throw StrataError.is(error) && error.code === 'INVALID_INPUT' ? new StrataError(error.code, inFileTerms(error.message, part), { hint: BUNDLE_HINT, cause: error }) : error;
      });
      imported.push(...report.sessionIds);
      for (const key of ['sessions', 'messages', 'summaries', 'facts', 'superseded'] as const) total[key] += report[key];
      total.skipped.sessions += report.skipped.sessions;
      total.skipped.facts += report.skipped.facts;
      progress.increment(report.messages);
    }
  } catch (error) {
    throw await undoImport(memory, imported, error);
  } finally {
    progress.stop();
  }
  // A bundle carries its derivation; whatever it lacks is derived in the background, followed here.
  await flushWithBar(memory);
  return total;
}

/**
 * A bundle is imported session by session and a transcript batch by batch, so a failure
 * part way would leave part of the file stored: forget what this import wrote, then report.
 */
async function undoImport(memory: Memory, sessionIds: string[], error: unknown): Promise<StrataError> {
  const cause = StrataError.is(error) ? error : new StrataError('INTERNAL', error instanceof Error ? error.message : String(error), { hint: 'Report this with the file that failed.', cause: error });
  try {
    for (const sessionId of sessionIds) await memory.forget({ sessionId });
  } catch (undoError) {
    return new StrataError(
      cause.code,
      `${cause.message}; undoing the partial import failed too (${undoError instanceof Error ? undoError.message : String(undoError)}): sessions ${sessionIds.join(', ')} may be partly stored`,
      {
        hint: `${cause.hint} Then remove them with strata forget --session ID.`,
        cause: error,
      },
    );
  }
  return new StrataError(cause.code, `${cause.message}; nothing from this file was kept`, { hint: cause.hint, cause: error });
}

/** A transcript becomes a new session, appended in batches; derivation then runs to completion. */
async function importTranscript(memory: Memory, messages: ReturnType<typeof readTranscript>, target: { namespace: string; title: string }): Promise<ImportReport & { sessionId: string }> {
  if (!messages.length) throw new StrataError('INVALID_INPUT', 'the file holds no messages', { hint: 'Pass a JSON bundle from strata export, or a JSONL file with one {"role","content"} per line.' });
  const session = await memory.sessions.create(target);
  const progress = await startProgress('importing', messages.length, 'messages');
  try {
    for (let i = 0; i < messages.length; i += APPEND_BATCH) {
      const batch = messages.slice(i, i + APPEND_BATCH);
      await memory.append(session.id, batch);
      progress.increment(batch.length);
    }
  } catch (error) {
    throw await undoImport(memory, [session.id], error);
  } finally {
    progress.stop();
  }
  await flushWithBar(memory);
  const bundle = JSON.parse(await memory.export(session.id, { format: 'json' })) as ExportBundle;
  return {
    sessions: 1,
    sessionIds: [session.id],
    messages: messages.length,
    summaries: bundle.sessions[0]?.summaries.length ?? 0,
    facts: bundle.facts.length,
    skipped: { sessions: 0, facts: 0 },
    superseded: 0,
    sessionId: session.id,
  };
}

/** Waits for derivation (summaries, facts) to catch up, with a "deriving" bar on a terminal. */
async function flushWithBar(memory: Memory): Promise<void> {
  const bar = await startDerivationBar('deriving');
  try {
    await memory.flush({ onProgress: (progress) => bar.update(progress) });
  } finally {
    bar.stop();
  }
}

function readInput(file: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    throw new StrataError('INVALID_INPUT', `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)})`, {
      hint: 'Pass the path of a file written by strata export.',
      cause: error,
    });
  }
  // decoding would silently put U+FFFD where bytes are not UTF-8
  if (!isUtf8(bytes)) throw new StrataError('INVALID_INPUT', `${file} is not valid UTF-8; nothing was imported`, { hint: UTF8_HINT });
  return bytes.toString('utf8');
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StrataError('INVALID_INPUT', `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)})`, {
      hint: 'Pass the JSON written by strata export --format json, or a JSONL transcript.',
      cause: error,
    });
  }
}

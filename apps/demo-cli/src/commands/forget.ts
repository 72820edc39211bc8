import type { Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import type { ForgetReport, ForgetTarget } from '@strata/core';
import { confirm } from '../format/confirm.js';
import { count, print, printJson } from '../format/output.js';
import { startSpinner } from '../format/progress.js';
import { renderTable } from '../format/table.js';
import { positiveInt, requireSession, withMemory } from '../run-command.js';

interface ForgetOptions {
  session?: string;
  message?: string[];
  namespace?: string;
  yes?: boolean;
  json?: boolean;
}

/** `strata forget ...`, `strata prune --days N` and `strata reindex`. */
export function registerForgetCommands(program: Command): void {
  registerForget(program);
  registerPrune(program);
  registerReindex(program);
}

function registerForget(program: Command): void {
  program
    .command('forget')
    .description('delete a session, some messages or a whole namespace, and everything derived from them')
    .option('--session <id>', 'one session')
    .option('--message <id...>', 'these messages (summaries built from them are re-derived)')
    .option('--all-of-namespace <ns>', 'every session and fact of a namespace')
    .option('--yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
    .option('--json', 'print the report as JSON')
    .action(async (options: ForgetOptions & { allOfNamespace?: string }, command: Command) => {
      const target = toTarget({ ...options, ...(options.allOfNamespace ? { namespace: options.allOfNamespace } : {}) });
      await withMemory(command, async (memory) => {
        if ('sessionId' in target) await requireSession(memory, target.sessionId);
        if (options.yes !== true) await confirm(`Forget ${describeTarget(target)} and everything derived from it, for good?`);
        const report = await memory.forget(target);
        await memory.flush();
        if (options.json) return printJson(report);
        print(await renderForget(report));
      });
    });
}

function registerPrune(program: Command): void {
  program
    .command('prune')
    .description('forget sessions not updated for N days (every namespace unless --namespace is given)')
    .requiredOption('--days <n>', 'age in days', positiveInt)
    .option('--dry-run', 'list what would be forgotten, change nothing')
    .option('--yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
    .option('--json', 'print JSON')
    .action(async (options: { days: number; dryRun?: boolean; yes?: boolean; json?: boolean }, command: Command) =>
      withMemory(command, async (memory, { config, isNamespaceChosen }) => {
        const scope = isNamespaceChosen ? { namespace: config.namespace } : {};
        const cutoff = Date.now() - options.days * 86_400_000;
        if (!options.dryRun && options.yes !== true) {
          const stale = (await memory.sessions.list(scope)).filter((s) => s.updatedAt < cutoff).length;
          await confirm(
            `Forget ${count(stale, 'session')} not updated for ${count(options.days, 'day')}${isNamespaceChosen ? ` in namespace "${config.namespace}"` : ' in every namespace'}, for good?`,
          );
        }
        const sessions = options.dryRun
          ? (await memory.sessions.list(scope)).filter((s) => s.updatedAt < cutoff).map((s) => s.id)
          : (await memory.sessions.prune({ olderThanDays: options.days, ...scope })).sessions;
        if (options.json) return printJson({ dryRun: options.dryRun === true, sessions });
        const verb = options.dryRun ? 'would forget' : 'forgot';
        print(`${verb} ${count(sessions.length, 'session')} not updated for ${count(options.days, 'day')}${sessions.length ? `: ${sessions.join(', ')}` : ''}`);
      }),
    );
}

function registerReindex(program: Command): void {
  program
    .command('reindex')
    .description('rebuild the vector index from the session store (e.g. after changing the embeddings model)')
    .option('--json', 'print the report as JSON')
    .action(async (options: { json?: boolean }, command: Command) =>
      withMemory(command, async (memory) => {
        const spinner = await startSpinner('re-embedding turns, summaries and facts');
        const report = await memory.reindex().catch((error: unknown) => {
          spinner.fail('reindex failed');
          throw error;
        });
        spinner.succeed('reindexed');
        if (options.json) return printJson(report);
        const turns = report.turnVectors ? `${report.turns} turns` : 'no turns (vector ranking is off with the offline hashing embeddings; set context.vectorWeight to embed them)';
        print(`reindexed ${turns}, ${report.summaries} summaries, ${report.facts} facts`);
      }),
    );
}

function toTarget(options: ForgetOptions): ForgetTarget {
  const given = [options.session, options.message, options.namespace].filter((v) => v !== undefined).length;
  if (given !== 1) {
    throw new StrataError('INVALID_INPUT', `forget needs exactly one of --session, --message, --all-of-namespace (got ${given})`, {
      hint: 'e.g. strata forget --session ses_123, or strata forget --message msg_1 msg_2',
    });
  }
  if (options.session) return { sessionId: options.session };
  if (options.message) return { messageIds: options.message };
  return { namespace: options.namespace! };
}

function describeTarget(target: ForgetTarget): string {
  if ('sessionId' in target) return `session ${target.sessionId}`;
  if ('messageIds' in target) return count(target.messageIds.length, 'message');
  return `every session and fact of namespace "${target.namespace}"`;
}

async function renderForget(r: ForgetReport): Promise<string> {
  return await renderTable(
    ['forgotten', 'count'],
    [
      ['sessions', String(r.sessions)],
      ['messages', String(r.messages)],
      ['summaries', String(r.summaries)],
      ['facts', String(r.facts)],
      ['facts trimmed', String(r.factsTrimmed)],
      ['facts restored', String(r.factsRestored)],
    ],
  );
}

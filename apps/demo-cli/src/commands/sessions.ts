import type { Command } from 'commander';
import type { Memory, Session, StoredMessage } from '@strata/core';
import { pc } from '../format/colors.js';
import { confirm } from '../format/confirm.js';
import { count, formatTime, print, printJson } from '../format/output.js';
import { clip, renderTable } from '../format/table.js';
import { positiveInt, requireSession, withMemory, withSessionStore } from '../run-command.js';
import { withMessageCounts } from '../session-counts.js';

/** Sessions `strata sessions` lists unless told otherwise. */
const DEFAULT_PAGE = 50;

/** `strata sessions [list]`, `strata sessions prune --empty` and `strata show ID`. */
export function registerSessionCommands(program: Command): void {
  const sessions = program.command('sessions').description('list sessions (the default) or prune empty ones');
  sessions
    .command('list', { isDefault: true })
    .description('list sessions, most recently updated first (every namespace unless --namespace is given)')
    .option('--limit <n>', 'at most N sessions', positiveInt, DEFAULT_PAGE)
    .option('--all', 'every session, however many')
    .option('--json', 'print JSON: { sessions, total, more }')
    .action(async (options: { limit: number; all?: boolean; json?: boolean }, command: Command) =>
      // the store alone: a listing needs neither the models, the knowledge base nor the queue
      withSessionStore(command, async (store, { config, isNamespaceChosen }) => {
        const all = await store.sessions(isNamespaceChosen ? { namespace: config.namespace } : {});
        const page = options.all ? all : all.slice(0, options.limit);
        const counted = await withMessageCounts((ids) => store.countMessages(ids), page);
        const more = all.length - page.length;
        if (options.json) return printJson({ sessions: counted, total: all.length, more });
        if (!counted.length) return print(`No sessions yet. Start one with ${pc.bold('strata chat')}.`);
        print(
          await renderTable(
            ['id', 'namespace', 'title', 'messages', 'updated'],
            counted.map((s) => [s.id, s.namespace, clip(s.title ?? '', 40), String(s.messages), formatTime(s.updatedAt)]),
          ),
        );
        if (more > 0) print(pc.dim(`${count(more, 'more session')} (${all.length} in all): --limit ${Math.min(all.length, options.limit * 2)} or --all shows more`));
      }),
    );
  sessions
    .command('prune')
    .description('forget sessions that hold no message (a chat opened and left, or whose messages were all forgotten)')
    .requiredOption('--empty', 'the sessions to prune: those without messages (the only kind for now)')
    .option('--dry-run', 'list them, change nothing')
    .option('--yes', 'do not ask for confirmation (needed when stdin is not a terminal)')
    .option('--json', 'print JSON')
    .action(async (options: { dryRun?: boolean; yes?: boolean; json?: boolean }, command: Command) =>
      withMemory(command, async (memory, { config, isNamespaceChosen }) => {
        const scope = isNamespaceChosen ? ` in namespace "${config.namespace}"` : '';
        const listed = await memory.sessions.list(isNamespaceChosen ? { namespace: config.namespace } : {});
        const empty = (await Promise.all(listed.map(async (s) => ((await hasMessages(memory, s.id)) ? [] : [s.id])))).flat();
        if (!options.dryRun && empty.length > 0 && options.yes !== true) await confirm(`Forget ${count(empty.length, 'empty session')}${scope}?`);
        if (!options.dryRun) for (const sessionId of empty) await memory.forget({ sessionId });
        if (options.json) return printJson({ dryRun: options.dryRun === true, sessions: empty });
        print(`${options.dryRun ? 'would forget' : 'forgot'} ${count(empty.length, 'empty session')}${scope}${empty.length ? `: ${empty.join(', ')}` : ''}`);
      }),
    );

  program
    .command('show <id>')
    .description("print a session's messages, verbatim")
    .option('--last <n>', 'only the last N messages', positiveInt)
    .option('--ids', 'show message ids (for strata forget --message)')
    .option('--json', 'print JSON')
    .option('--mermaid', 'print the conversation tree (threads grouped by topic) as a Mermaid flowchart')
    .action(async (id: string, options: { last?: number; ids?: boolean; json?: boolean; mermaid?: boolean }, command: Command) =>
      withMemory(command, async (memory) => {
        if (options.mermaid) return print((await memory.toMermaid((await requireSession(memory, id)).id)).trimEnd());
        const { session, messages } = await readSession(memory, id, options.last);
        if (options.json) return printJson({ session, messages });
        print(`${pc.bold(session.title ?? session.id)} ${pc.dim(`${session.id} · namespace ${session.namespace} · created ${formatTime(session.createdAt)}`)}`);
        if (!messages.length) print(pc.dim('(no messages)'));
        for (const m of messages) print(options.ids ? `${pc.dim(m.id)} ${renderMessage(m)}` : renderMessage(m));
      }),
    );
}

async function readSession(memory: Memory, id: string, last?: number): Promise<{ session: Session; messages: StoredMessage[] }> {
  const session = await requireSession(memory, id);
  return { session, messages: await memory.messages(id, last ? { last } : {}) };
}

/** `#3 2026-10-05 18:02 user: text`, continuation lines indented. */
export function renderMessage(m: StoredMessage): string {
  const role = m.role === 'user' ? pc.cyan(m.role) : m.role === 'assistant' ? pc.green(m.role) : pc.yellow(m.role);
  return `${pc.dim(`#${m.seq} ${formatTime(m.createdAt)}`)} ${role}: ${m.content.split('\n').join('\n    ')}`;
}

async function hasMessages(memory: Memory, sessionId: string): Promise<boolean> {
  return (await memory.messages(sessionId, { last: 1 })).length > 0;
}

/** The most recently updated session of the namespace that holds a message, if any. */
export async function latestWithMessages(memory: Memory, namespace: string): Promise<Session | undefined> {
  for (const session of await memory.sessions.list({ namespace })) if (await hasMessages(memory, session.id)) return session;
  return undefined;
}

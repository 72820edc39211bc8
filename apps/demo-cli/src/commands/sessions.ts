import type { Command } from 'commander';
import type { Memory, Session, StoredMessage } from '@strata/core';
import { pc } from '../format/colors.js';
import { formatTime, print, printJson } from '../format/output.js';
import { clip, renderTable } from '../format/table.js';
import { positiveInt, requireSession, withMemory } from '../run-command.js';

/** `strata sessions` and `strata show ID`. */
export function registerSessionCommands(program: Command): void {
  program
    .command('sessions')
    .description('list sessions, most recently updated first (every namespace unless --namespace is given)')
    .option('--limit <n>', 'at most N sessions', positiveInt, 50)
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; json?: boolean }, command: Command) =>
      withMemory(command, async (memory, { config, isNamespaceChosen }) => {
        const sessions = await memory.sessions.list({ limit: options.limit, ...(isNamespaceChosen ? { namespace: config.namespace } : {}) });
        const counted = await Promise.all(sessions.map(async (s) => ({ ...s, messages: (await memory.messages(s.id)).length })));
        if (options.json) return printJson(counted);
        if (!counted.length) return print(`No sessions yet. Start one with ${pc.bold('strata chat')}.`);
        print(renderTable(['id', 'namespace', 'title', 'messages', 'updated'], counted.map((s) => [s.id, s.namespace, clip(s.title ?? '', 40), String(s.messages), formatTime(s.updatedAt)])));
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

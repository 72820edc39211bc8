import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { StrataError } from '@strata/core/errors';
import { EXPORT_FORMATS } from '../commands/export.js';
import { renderMessage } from '../commands/sessions.js';
import { renderTiers, reportTiers } from '../commands/inspect.js';
import { pc } from '../format/colors.js';
import { renderFacts } from '../format/facts.js';
import { count, formatDay, formatTime } from '../format/output.js';
import { clip, renderTable } from '../format/table.js';
import { draftSession, type ChatState } from './chat-state.js';

type Handler = (state: ChatState, arg: string) => Promise<void> | Promise<'exit'>;

const COMMANDS: Record<string, { usage: string; help: string; run: Handler }> = {
  help: { usage: '/help', help: 'this list', run: async (s) => showHelp(s) },
  sessions: { usage: '/sessions', help: 'sessions of this namespace, newest first', run: listSessions },
  load: { usage: '/load ID', help: 'continue another session', run: loadSession },
  new: { usage: '/new [TITLE]', help: 'start a new session', run: async (s, title) => switchTo(s, draftSession(s.config, title || undefined), 'new session', false) },
  save: { usage: '/save', help: 'finish pending summaries and facts; everything is stored as you type', run: save },
  history: { usage: '/history [N]', help: 'the last N messages of this session (default 20)', run: showHistory },
  memory: { usage: '/memory', help: 'what each tier holds, the facts, pending work', run: showMemory },
  search: { usage: '/search QUERY', help: 'search this namespace', run: search },
  forget: { usage: '/forget [yes]', help: 'delete this session and what was derived from it, then start a new one (asks first)', run: forgetSession },
  clear: { usage: '/clear [yes]', help: 'clear the screen and start fresh; what is stored stays (asks first)', run: clear },
  export: { usage: '/export json|jsonl|md|txt [FILE]', help: 'export this session (default file in the data dir)', run: exportSession },
  exit: { usage: '/exit', help: 'save and quit (also Ctrl-D, Ctrl-C)', run: async (): Promise<'exit'> => 'exit' },
};
const ALIASES: Record<string, string> = { quit: 'exit', q: 'exit', h: 'help', '?': 'help' };

/** True for `/cmd` and `!cmd` lines. */
export function isCommand(line: string): boolean {
  return /^[/!]\S/.test(line);
}

/** Runs a `/cmd args` (or `!cmd args`) line. Resolves 'exit' when the chat should end. */
export async function runCommand(state: ChatState, line: string): Promise<'exit' | undefined> {
  const [, rawName = '', arg = ''] = /^[/!](\S+)\s*([\s\S]*)$/.exec(line.trim()) ?? [];
  const name = ALIASES[rawName.toLowerCase()] ?? rawName.toLowerCase();
  const command = COMMANDS[name];
  if (!command) {
    throw new StrataError('INVALID_INPUT', `unknown command /${rawName}`, { hint: 'Type /help for the list (! works as well as /).' });
  }
  return (await command.run(state, arg.trim())) === 'exit' ? 'exit' : undefined;
}

async function showHelp(state: ChatState): Promise<void> {
  state.print(
    await renderTable(
      ['command', 'does'],
      Object.values(COMMANDS).map((c) => [c.usage, c.help]),
    ),
  );
  state.print(pc.dim('Every command also works with ! instead of / (e.g. !memory).'));
}

async function listSessions(state: ChatState): Promise<void> {
  const sessions = await state.memory.sessions.list({ namespace: state.session.namespace, limit: 20 });
  const rows = sessions.map((s) => [s.id === state.session.id ? pc.green('*') : '', s.id, clip(s.title ?? '', 40), formatTime(s.updatedAt)]);
  state.print(await renderTable(['', 'id', 'title', 'updated'], rows));
}

async function loadSession(state: ChatState, id: string): Promise<void> {
  if (!id) throw new StrataError('INVALID_INPUT', '/load needs a session id', { hint: 'Type /sessions to list them, then /load ID.' });
  const session = await state.memory.sessions.get(id);
  if (!session) throw new StrataError('NOT_FOUND', `no session with id ${JSON.stringify(id)}`, { hint: 'Type /sessions to list the sessions of this namespace.' });
  switchTo(state, session, 'continuing', true);
  const recent = await state.memory.messages(session.id, { last: 4 });
  for (const m of recent) state.print(renderMessage(m));
}

function switchTo(state: ChatState, session: ChatState['session'], verb: string, isStored: boolean): void {
  state.session = session;
  state.isSessionStored = isStored;
  state.print(`${verb} ${pc.bold(session.title ?? session.id)} ${pc.dim(`(${session.id}, namespace ${session.namespace}${isStored ? '' : '; stored with its first message'})`)}`);
}

/** What a command about this session says while it is a draft. */
function isDraft(state: ChatState, doing: string): boolean {
  if (state.isSessionStored) return false;
  state.print(pc.dim(`nothing to ${doing}: this session is stored with its first message`));
  return true;
}

async function save(state: ChatState): Promise<void> {
  await state.memory.flush();
  if (isDraft(state, 'save yet')) return;
  const messages = await state.memory.messages(state.session.id);
  state.print(`saved: session ${state.session.id} (${count(messages.length, 'message')}) in ${state.path}`);
}

async function showHistory(state: ChatState, arg: string): Promise<void> {
  const last = arg ? Number(arg) : 20;
  if (!Number.isInteger(last) || last <= 0) throw new StrataError('INVALID_INPUT', `/history takes a positive number (got ${JSON.stringify(arg)})`, { hint: 'e.g. /history 50' });
  if (isDraft(state, 'show yet')) return;
  const messages = await state.memory.messages(state.session.id, { last });
  if (!messages.length) return state.print(pc.dim('(no messages in this session yet)'));
  for (const m of messages) state.print(renderMessage(m));
}

async function showMemory(state: ChatState): Promise<void> {
  const { memory, session } = state;
  if (!state.isSessionStored) {
    const facts = await memory.facts.list({ namespace: session.namespace, includeSuperseded: true });
    state.print(pc.dim('this session has no message yet'));
    if (facts.length) state.print(`\n${pc.bold('Facts')} (namespace ${session.namespace})\n${await renderFacts(facts)}`);
    return;
  }
  const context = await memory.getContext(session.id, { budgetTokens: 100_000, query: '', touch: false });
  state.print(await renderTiers(await reportTiers(memory, session, context)));
  const facts = await memory.facts.list({ namespace: session.namespace, includeSuperseded: true });
  if (facts.length) state.print(`\n${pc.bold('Facts')} (namespace ${session.namespace})\n${await renderFacts(facts)}`);
}

async function search(state: ChatState, query: string): Promise<void> {
  if (!query) throw new StrataError('INVALID_INPUT', '/search needs a query', { hint: 'e.g. /search hiking' });
  const hits = await state.memory.search({ namespace: state.session.namespace, query, k: 8, touch: false });
  if (!hits.length) return state.print(pc.dim('nothing found'));
  state.print(
    await renderTable(
      ['kind', 'date', 'text'],
      hits.map((h) => [h.kind, formatDay(h.createdAt), clip(h.text, 80)]),
    ),
  );
}

/**
 * Runs `action` at once when the command was given `yes`, else asks: the next line answers
 * (y or yes runs it, anything else changes nothing).
 */
async function confirmed(state: ChatState, arg: string, question: string, action: () => Promise<void>): Promise<void> {
  if (/^(-{0,2}yes|y)$/i.test(arg)) return action();
  state.pendingConfirmation = { run: action };
  state.print(`${question} [y/N]`);
}

/** Answers a pending confirmation with `line`; false when none was pending. */
export async function answerConfirmation(state: ChatState, line: string): Promise<boolean> {
  const pending = state.pendingConfirmation;
  if (pending === undefined) return false;
  state.pendingConfirmation = undefined;
  if (/^y(es)?$/i.test(line.trim())) await pending.run();
  else state.print(pc.dim('not confirmed: nothing changed'));
  return true;
}

async function forgetSession(state: ChatState, arg: string): Promise<void> {
  if (isDraft(state, 'forget')) return;
  const messages = (await state.memory.messages(state.session.id)).length;
  await confirmed(state, arg, `Forget session ${state.session.id} (${count(messages, 'message')}) and everything derived from it, for good?`, () => forgetNow(state));
}

async function forgetNow(state: ChatState): Promise<void> {
  const gone = state.session;
  const report = await state.memory.forget({ sessionId: gone.id });
  state.print(`forgot session ${gone.id}: ${count(report.messages, 'message')}, ${count(report.summaries, 'summary', 'summaries')}, ${count(report.facts, 'fact')}`);
  switchTo(state, draftSession(state.config), 'new session', false);
}

async function clear(state: ChatState, arg: string): Promise<void> {
  await confirmed(state, arg, 'Clear the screen and start a new session? (what is stored stays)', () => clearNow(state));
}

async function clearNow(state: ChatState): Promise<void> {
  if (state.isInteractive) process.stdout.write('\u001b[2J\u001b[3J\u001b[H');
  switchTo(state, draftSession(state.config), 'fresh start:', false);
  state.print(pc.dim('earlier sessions stay stored (/sessions, /load ID); facts still inform answers'));
}

async function exportSession(state: ChatState, arg: string): Promise<void> {
  const [format = '', file] = arg.split(/\s+/);
  const resolved = EXPORT_FORMATS[format];
  if (!resolved) throw new StrataError('INVALID_INPUT', `/export needs a format: json, jsonl, md or txt (got ${JSON.stringify(format)})`, { hint: 'e.g. /export md' });
  if (isDraft(state, 'export yet')) return;
  const text = await state.memory.export(state.session.id, { format: resolved });
  const target = file ?? join(state.config.dataDir, 'exports', `${state.session.id}.${format}`);
  mkdirSync(join(target, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(target, text, { mode: 0o600 });
  state.print(`exported to ${target}`);
}

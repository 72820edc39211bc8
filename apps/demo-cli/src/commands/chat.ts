import type { Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import type { Memory, Session } from '@strata/core';
import { draftSession, type ChatState } from '../chat/chat-state.js';
import { latestWithMessages, renderMessage } from './sessions.js';
import type { CliConfig } from '../config.js';
import { pc } from '../format/colors.js';
import { print } from '../format/output.js';
import { positiveInt, requireSession, withMemory } from '../run-command.js';

const CHAT_HELP = `
Global options apply too, e.g. strata chat --namespace work --continue.

In the chat (each also with ! instead of /):
  /help /sessions /load ID /new [TITLE] /save /history [N] /memory /search QUERY
  /forget (this session) /clear (fresh session, stored data stays) /export json|jsonl|md|txt [FILE] /exit
/exit, Ctrl-D and Ctrl-C wait for pending summaries and facts, then quit.`;

interface ChatOptions {
  session?: string;
  continue?: boolean;
  budget: number;
}

/** `strata chat [--session ID | --continue] [--namespace NS]`. */
export function registerChatCommand(program: Command): void {
  program
    .command('chat')
    .description('chat with memory: every turn is stored; an LLM answers when one is configured, else an offline assistant answers from memory')
    .option('--session <id>', 'continue this session')
    .option('-c, --continue', 'continue the most recent session of the namespace')
    .option('--budget <tokens>', 'token budget of the context sent to the model', positiveInt, 2000)
    .addHelpText('after', CHAT_HELP)
    .action(async (options: ChatOptions, command: Command) => {
      if (options.session && options.continue) {
        throw new StrataError('INVALID_INPUT', '--session and --continue exclude each other', { hint: 'Pass --session ID for a given session, or --continue for the latest one.' });
      }
      await withMemory(command, async (memory, { config, wiring }) => {
        const { session, isResumed } = await resolveSession(memory, config, options);
        const state: ChatState = {
          memory,
          assistant: wiring.assistant,
          config,
          path: wiring.path,
          session,
          isSessionStored: isResumed,
          budgetTokens: options.budget,
          print,
          isInteractive: process.stdin.isTTY === true,
        };
        await printBanner(state, isResumed);
        const { runChatLoop } = await import('../chat/chat-loop.js');
        await runChatLoop(state);
      });
    });
}

async function resolveSession(memory: Memory, config: CliConfig, options: ChatOptions): Promise<{ session: Session; isResumed: boolean }> {
  if (options.session) {
    return { session: await requireSession(memory, options.session), isResumed: true };
  }
  if (options.continue) {
    const latest = await latestWithMessages(memory, config.namespace);
    if (latest) return { session: latest, isResumed: true };
  }
  return { session: draftSession(config), isResumed: false };
}

async function printBanner(state: ChatState, isResumed: boolean): Promise<void> {
  const { session, assistant } = state;
  const recent = isResumed ? await state.memory.messages(session.id, { last: 4 }) : [];
  print(
    `${pc.bold('strata chat')} ${pc.dim(`· ${isResumed ? 'continuing' : 'new session'} ${session.id} "${session.title ?? ''}" · namespace ${session.namespace}${isResumed ? '' : ' (stored with its first message)'}`)}`,
  );
  print(pc.dim(`assistant: ${assistant.label}${assistant.isOffline ? '; its replies are shown, not stored' : ''}`));
  print(pc.dim(`memory: ${state.path}`));
  for (const m of recent) print(renderMessage(m));
  print(pc.dim('Type a message, or /help for commands. /exit, Ctrl-D or Ctrl-C saves and quits.'));
}

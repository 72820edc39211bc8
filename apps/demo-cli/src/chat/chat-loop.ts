import { createInterface } from 'node:readline';
import { StrataError } from '@strata/core';
import { pc } from '../format/colors.js';
import { count } from '../format/output.js';
import { startSpinner } from '../format/progress.js';
import { isCommand, runCommand } from './chat-commands.js';
import type { ChatState } from './chat-state.js';
import { runTurn } from './chat-turn.js';

/**
 * Reads lines until /exit, end of input (Ctrl-D, or a pipe that ends) or Ctrl-C / SIGINT /
 * SIGTERM, one at a time, then waits for pending derivation so that the next process finds
 * summaries and facts in place. A failing line prints its error and the chat goes on.
 */
export async function runChatLoop(state: ChatState, input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<void> {
  const rl = createInterface({ input, output: process.stdout, terminal: state.isInteractive, prompt: `${pc.cyan('you>')} ` });
  const stop = () => rl.close();
  rl.on('SIGINT', stop); // Ctrl-C on a terminal
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  if (state.isInteractive) rl.prompt();
  try {
    for await (const line of rl) {
      if ((await handleLine(state, line)) === 'exit') break;
      if (state.isInteractive) rl.prompt();
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    rl.close();
  }
  const spinner = startSpinner('finishing summaries and facts');
  await state.memory.flush();
  spinner.succeed('memory up to date');
  const messages = await state.memory.messages(state.session.id);
  state.print(`\nsaved session ${state.session.id} (${count(messages.length, 'message')}) in ${state.path}`);
  state.print(pc.dim(`continue it with: strata chat --continue${state.config.namespace === 'default' ? '' : ` --namespace ${state.config.namespace}`}  (or --session ${state.session.id})`));
}

async function handleLine(state: ChatState, raw: string): Promise<'exit' | void> {
  const line = raw.trim();
  if (!line) return;
  try {
    return isCommand(line) ? await runCommand(state, line) : await runTurn(state, line);
  } catch (error) {
    if (!StrataError.is(error) || error.code === 'CLOSED' || error.code === 'INTERNAL') throw error;
    state.print(`${pc.red('error:')} ${error.message}\n${pc.dim(`hint: ${error.hint}`)}`);
  }
}

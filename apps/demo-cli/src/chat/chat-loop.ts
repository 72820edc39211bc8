import { createInterface } from 'node:readline';
import { StrataError } from '@strata/core/errors';
import { pc } from '../format/colors.js';
import { count } from '../format/output.js';
import { startSpinner } from '../format/progress.js';
import { answerConfirmation, isCommand, runCommand } from './chat-commands.js';
import type { ChatState } from './chat-state.js';
import { runTurn } from './chat-turn.js';
import { UTF8_HINT, utf8Lines, type InputLine } from './utf8-lines.js';

/**
 * Reads lines until /exit, end of input (Ctrl-D, or a pipe that ends) or Ctrl-C (on an empty
 * line; a typed line is kept) / SIGINT / SIGTERM, one at a time, then waits for pending derivation so that the next process finds
 * summaries and facts in place. A failing line prints its error and the chat goes on.
 */
export async function runChatLoop(state: ChatState, input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): Promise<void> {
  if (state.isInteractive) await readTerminal(state, input);
  else await readPipe(state, input);
  const spinner = await startSpinner('finishing summaries and facts');
  await state.memory.flush();
  spinner.succeed('memory up to date');
  if (!state.isSessionStored) return state.print('\nnothing was stored: no message was sent');
  const messages = await state.memory.messages(state.session.id);
  state.print(`\nsaved session ${state.session.id} (${count(messages.length, 'message')}) in ${state.path}`);
  state.print(pc.dim(`continue it with: strata chat --continue${state.config.namespace === 'default' ? '' : ` --namespace ${state.config.namespace}`}  (or --session ${state.session.id})`));
}

/** A terminal: readline, with its prompt and line editing (the terminal decodes what is typed). */
async function readTerminal(state: ChatState, input: NodeJS.ReadableStream): Promise<void> {
  const rl = createInterface({ input, output: process.stdout, terminal: true, prompt: `${pc.cyan('you>')} ` });
  const stop = () => rl.close();
  // Ctrl-C on a terminal: quits on an empty line; a typed line is kept, shown again, not lost
  rl.on('SIGINT', () => {
    if (rl.line.trim() === '') return stop();
    state.print(`\n${pc.dim('Ctrl-C: your unsent line is kept; Enter sends it, Ctrl-C on an empty line quits')}`);
    rl.prompt(true);
  });
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  rl.prompt();
  try {
    for await (const line of rl) {
      // readline puts U+FFFD where the terminal sent bytes that are not UTF-8
      if (line.includes('\uFFFD')) state.print(`${pc.red('error:')} the line holds bytes that are not UTF-8; it was not read\n${pc.dim(`hint: ${UTF8_HINT}`)}`);
      else if ((await handleLine(state, line)) === 'exit') break;
      rl.prompt();
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    rl.close();
  }
}

/** A pipe: lines checked as UTF-8 byte by byte; one that is not is reported and skipped. */
async function readPipe(state: ChatState, input: NodeJS.ReadableStream): Promise<void> {
  const lines = utf8Lines(input as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  // a signal ends the chat even while the pipe stays open with no next line
  let stop = (): void => undefined;
  const stopped = new Promise<'stopped'>((resolve) => (stop = () => resolve('stopped')));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let reading: Promise<IteratorResult<InputLine>> | undefined;
  try {
    for (;;) {
      reading = lines.next();
      const next = await Promise.race([reading, stopped]);
      if (next === 'stopped' || next.done === true) break;
      reading = undefined;
      const line = next.value;
      if ('invalid' in line) state.print(`${pc.red('error:')} ${line.invalid}\n${pc.dim(`hint: ${UTF8_HINT}`)}`);
      else if ((await handleLine(state, line.text)) === 'exit') break;
    }
  } finally {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    // stopped with the pipe still open: close our end, so it no longer keeps the process alive
    // (the read in flight then fails, and nobody needs its line)
    if (reading !== undefined) {
      reading.catch(() => undefined);
      (input as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
    }
  }
}

async function handleLine(state: ChatState, raw: string): Promise<'exit' | undefined> {
  const line = raw.trim();
  try {
    if (await answerConfirmation(state, line)) return;
    if (!line) return;
    if (isCommand(line)) return await runCommand(state, line);
    await runTurn(state, line);
  } catch (error) {
    if (!StrataError.is(error) || error.code === 'CLOSED' || error.code === 'INTERNAL') throw error;
    state.print(`${pc.red('error:')} ${error.message}\n${pc.dim(`hint: ${error.hint}`)}`);
  }
}

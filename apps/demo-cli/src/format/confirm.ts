import { createInterface } from 'node:readline/promises';
import { StrataError } from '@strata/core/errors';

/**
 * Asks on the terminal; without one (a pipe, a script) there is nobody to ask, so the
 * command stops unless --yes was given: forgetting cannot be undone.
 */
export async function confirm(question: string): Promise<void> {
  if (process.stdin.isTTY !== true) {
    throw new StrataError('INVALID_INPUT', `${question.replace(/\?$/, '')}: needs confirmation, and stdin is not a terminal`, { hint: 'Add --yes to confirm (forgetting cannot be undone).' });
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    if (!/^y(es)?$/i.test(answer.trim())) throw new StrataError('INVALID_INPUT', 'nothing was forgotten (not confirmed)', { hint: 'Answer y to confirm, or pass --yes.' });
  } finally {
    rl.close();
  }
}

import picocolors from 'picocolors';

/**
 * Colour only when stdout is a terminal (and NO_COLOR is not set); FORCE_COLOR=1 forces it.
 * picocolors' own detection also colours under CI=1 even when piped, which scripts would read.
 */
function isColorWanted(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '' && env.FORCE_COLOR !== '0') return true;
  return process.stdout.isTTY === true && env.TERM !== 'dumb';
}

export const pc = picocolors.createColors(isColorWanted());

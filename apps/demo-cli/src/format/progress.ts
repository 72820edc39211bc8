import cliProgress from 'cli-progress';
import yoctoSpinner from 'yocto-spinner';
import type { DerivationProgress } from '@strata/core';

/** Long work shows a spinner on a terminal (stderr), and nothing when piped. */
export interface Spinner {
  succeed(text: string): void;
  fail(text: string): void;
  /** Removes the spinner line, leaving nothing behind. */
  clear(): void;
}

export function startSpinner(text: string): Spinner {
  if (!process.stderr.isTTY) return { succeed: () => undefined, fail: () => undefined, clear: () => undefined };
  const spinner = yoctoSpinner({ text, stream: process.stderr, handleSignals: false }).start();
  return { succeed: (done) => spinner.success(done), fail: (failed) => spinner.error(failed), clear: () => void spinner.stop() };
}

/** Waits this long before showing a spinner: a wait shorter than that needs no feedback. */
const SPINNER_AFTER_MS = 300;

/**
 * Awaits `work`, showing a spinner with `text` on a terminal (stderr) if it takes longer than
 * 300 ms (the first search of a large file loads its index: seconds), and removing it after.
 */
export async function whileWaiting<T>(text: string, work: Promise<T>, stream: NodeJS.WriteStream = process.stderr): Promise<T> {
  if (!stream.isTTY) return work;
  let spinner: ReturnType<typeof yoctoSpinner> | undefined;
  const timer = setTimeout(() => (spinner = yoctoSpinner({ text, stream, handleSignals: false }).start()), SPINNER_AFTER_MS);
  try {
    return await work;
  } finally {
    clearTimeout(timer);
    spinner?.stop();
  }
}

export interface Progress {
  increment(by: number): void;
  stop(): void;
}

/** A progress bar on stderr when it is a terminal; silent otherwise. */
export function startProgress(label: string, total: number, unit: string): Progress {
  if (!process.stderr.isTTY) return { increment: () => undefined, stop: () => undefined };
  const bar = new cliProgress.SingleBar(
    { format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | eta {eta}s`, stream: process.stderr, hideCursor: true, clearOnComplete: false },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  return { increment: (by) => bar.increment(by), stop: () => bar.stop() };
}

/** Follows `memory.flush({ onProgress })`: pass `update` as the listener, call `stop` when flush settles. */
export interface DerivationBar {
  update(progress: DerivationProgress): void;
  stop(): void;
}

/**
 * A bar of turns derived (of the sessions the flush follows) and jobs left, on stderr when it
 * is a terminal; silent otherwise. It appears with the first event that shows work left, so
 * a flush with nothing to wait for draws nothing.
 */
export function startDerivationBar(label: string): DerivationBar {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  let bar: cliProgress.SingleBar | undefined;
  const update = (p: DerivationProgress): void => {
    const jobs = { jobs: p.failedJobs ? `${p.pendingJobs} jobs left, ${p.failedJobs} failed` : `${p.pendingJobs} jobs left` };
    if (!bar) {
      if (p.derivedTurns >= p.totalTurns && p.pendingJobs === 0) return;
      bar = new cliProgress.SingleBar(
        { format: `${label} [{bar}] {percentage}% | {value}/{total} turns | {jobs}`, stream: process.stderr, hideCursor: true, clearOnComplete: false },
        cliProgress.Presets.shades_classic,
      );
      bar.start(p.totalTurns, p.derivedTurns, jobs);
      return;
    }
    bar.setTotal(p.totalTurns);
    bar.update(p.derivedTurns, jobs);
  };
  return { update, stop: () => bar?.stop() };
}

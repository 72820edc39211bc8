import type cliProgress from 'cli-progress';
import type { DerivationProgress } from '@strata/core';

// The spinner and bar libraries are loaded when one is shown on a terminal: about 20 ms of
// start-up that a piped command, or one that never waits, does not pay.
const spinners = async () => (await import('yocto-spinner')).default;
const bars = async (): Promise<typeof cliProgress> => {
  // CommonJS: its exports are the module's default under Node, and also its named exports under a bundler
  const loaded = (await import('cli-progress')) as typeof cliProgress & { default?: typeof cliProgress };
  return loaded.default ?? loaded;
};

/** Long work shows a spinner on a terminal (stderr), and nothing when piped. */
export interface Spinner {
  succeed(text: string): void;
  fail(text: string): void;
  /** Removes the spinner line, leaving nothing behind. */
  clear(): void;
}

export async function startSpinner(text: string): Promise<Spinner> {
  if (!process.stderr.isTTY) return { succeed: () => undefined, fail: () => undefined, clear: () => undefined };
  const spinner = (await spinners())({ text, stream: process.stderr, handleSignals: false }).start();
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
  let isDone = false;
  let spinner: { stop(): unknown } | undefined;
  const show = async (): Promise<void> => {
    const made = (await spinners())({ text, stream, handleSignals: false });
    if (!isDone) spinner = made.start();
  };
  const timer = setTimeout(() => void show(), SPINNER_AFTER_MS);
  try {
    return await work;
  } finally {
    isDone = true;
    clearTimeout(timer);
    spinner?.stop();
  }
}

export interface Progress {
  increment(by: number): void;
  stop(): void;
}

/** A progress bar on stderr when it is a terminal; silent otherwise. */
export async function startProgress(label: string, total: number, unit: string): Promise<Progress> {
  if (!process.stderr.isTTY) return { increment: () => undefined, stop: () => undefined };
  const cliProgress = await bars();
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
export async function startDerivationBar(label: string): Promise<DerivationBar> {
  if (!process.stderr.isTTY) return { update: () => undefined, stop: () => undefined };
  const cliProgress = await bars();
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

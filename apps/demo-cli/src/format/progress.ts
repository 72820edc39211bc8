import cliProgress from 'cli-progress';
import yoctoSpinner from 'yocto-spinner';

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

/** Writes a line to stdout (the command's result; messages for people go to stderr). */
export function print(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Writes a value as JSON on stdout, for scripts (`--json`). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Writes a note for people on stderr, so that stdout stays parseable. */
export function note(line: string): void {
  process.stderr.write(`${line}\n`);
}

/** `2026-10-05 18:03` in UTC. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** `2026-10-05`. */
export function formatDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** `1 message`, `3 messages`. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

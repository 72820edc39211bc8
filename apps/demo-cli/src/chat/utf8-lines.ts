import { isUtf8 } from 'node:buffer';

/** One line of input: its text, or why it was not read. */
export type InputLine = { text: string } | { invalid: string };

/** Hint for a line that is not UTF-8. */
export const UTF8_HINT = 'strata reads UTF-8 only: convert the input first (e.g. iconv -f latin1 -t utf-8 file | strata chat), or set the terminal to UTF-8.';

/**
 * Lines of a byte stream (a pipe), each checked as UTF-8 before it is decoded: a line that is
 * not UTF-8 is reported, never read with replacement characters ("José" in Latin-1 must not
 * become "Jos\uFFFD"). Lines end at "\n" (a "\r" before it is dropped); the last line needs no end.
 */
export async function* utf8Lines(input: AsyncIterable<Buffer | string>): AsyncGenerator<InputLine> {
  let pending = Buffer.alloc(0);
  let number = 0;
  const lineOf = (bytes: Buffer): InputLine => {
    number++;
    const body = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
    return isUtf8(body) ? { text: body.toString('utf8') } : { invalid: `line ${number} of the input is not valid UTF-8 (${body.length} bytes); it was not read` };
  };
  for await (const chunk of input) {
    pending = Buffer.concat([pending, typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk]);
    for (let end = pending.indexOf(0x0a); end >= 0; end = pending.indexOf(0x0a)) {
      yield lineOf(pending.subarray(0, end));
      pending = pending.subarray(end + 1);
    }
  }
  if (pending.length > 0) yield lineOf(pending);
}

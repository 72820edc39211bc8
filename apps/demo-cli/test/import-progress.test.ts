import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, json, runCli } from './support/cli.js';
import { hasScript, runInTerminal } from './support/terminal.js';

const sandbox = createSandbox('import-progress');
afterAll(() => sandbox.dispose());

const TURNS = 2000;

/** A JSONL transcript long enough that derivation runs for a while after the writes. */
function writeTranscript(name: string): string {
  const lines = Array.from({ length: TURNS }, (_, i) => JSON.stringify({ role: i % 2 ? 'assistant' : 'user', content: `Turn ${i}: on day ${i} I went hiking near Lake Bled with Ana.` }));
  const file = join(sandbox.dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** The bar's lines as a terminal would show them last: cli-progress redraws in place with CSI 1G. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: cli-progress redraws with the ESC-led CSI 1G cursor move, one of the line breaks on its screen
const barLines = (screen: string, label: string) => screen.split(/\r|\n|\u001b\[1G/).filter((line) => line.startsWith(`${label} [`));

describe('strata import: the deriving bar', () => {
  it('with stderr piped, prints no bar and --json stays one valid JSON document', async () => {
    const result = await runCli(['import', writeTranscript('piped.jsonl'), '--json', '--namespace', 'piped'], { env: sandbox.env });
    const report = json<{ messages: number; summaries: number; sessionId: string }>(result);
    expect(report.messages).toBe(TURNS);
    expect(report.summaries).toBeGreaterThan(0);
    expect(result.stderr).not.toMatch(/deriving|importing/);
  });

  describe.skipIf(!hasScript)(`on a pseudo-terminal${hasScript ? '' : ' (skipped: util-linux script is not installed)'}`, () => {
    it('shows the write bar, then a deriving bar that climbs to every turn', async () => {
      const { code, screen } = await runInTerminal(['import', writeTranscript('tty.jsonl'), '--namespace', 'tty'], sandbox.env, []);
      expect(code).toBe(0);
      expect(barLines(screen, 'importing').at(-1)).toMatch(new RegExp(`100% \\| ${TURNS}/${TURNS} messages`));
      const deriving = barLines(screen, 'deriving');
      const counts = deriving.map((line) => Number(/\| (\d+)\/\d+ turns/.exec(line)?.[1]));
      expect(counts.length).toBeGreaterThan(2);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(deriving.at(-1)).toMatch(new RegExp(`100% \\| ${TURNS}/${TURNS} turns \\| 0 jobs left`));
      expect(screen.indexOf('deriving [')).toBeGreaterThan(screen.indexOf('importing ['));
      expect(screen).toMatch(new RegExp(`imported 1 session, ${TURNS} messages`));
    });
  });
});

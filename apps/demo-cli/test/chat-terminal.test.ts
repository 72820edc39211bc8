import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, readDb } from './support/cli.js';
import { hasScript, runInTerminal } from './support/terminal.js';

const sandbox = createSandbox('chat-tty');
afterAll(() => sandbox.dispose());
const CTRL_C = '\u0003';
const CTRL_D = '\u0004';
const storedTurns = () => readDb(sandbox.dataDir, (db) => db.prepare("SELECT content FROM messages WHERE role = 'user' ORDER BY created_at, seq").pluck().all());

describe.skipIf(!hasScript)(`strata chat on a pseudo-terminal${hasScript ? '' : ' (skipped: util-linux script is not installed)'}`, () => {
  it('prompts in colour, and Ctrl-C saves and exits cleanly', async () => {
    const { code, screen } = await runInTerminal(['chat'], sandbox.env, ['I live in Lima.\r', '/memory\r', CTRL_C]);
    expect(code).toBe(0);
    expect(screen).toContain('\u001b[36myou>\u001b[39m'); // the prompt, in colour: this is a terminal
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal screen holds ESC-led SGR codes; the test checks that the current fact is shown in green
    expect(screen).toMatch(/\u001b\[32mcurrent\u001b\[39m\s+user · lives_in\s+Lima/);
    expect(screen).toMatch(/saved session ses_\S+ \(1 message\)/);
    expect(storedTurns()).toEqual(['I live in Lima.']);
  });

  it('Ctrl-D at the prompt saves and exits cleanly; the next run continues and remembers', async () => {
    const first = await runInTerminal(['chat', '--continue'], sandbox.env, ['I work as a teacher at Colegio Roosevelt.\r', CTRL_D]);
    expect(first.code).toBe(0);
    expect(first.screen).toMatch(/saved session ses_\S+ \(2 messages\)/);
    const second = await runInTerminal(['chat', '--continue'], sandbox.env, ['Where do I live and where do I work?\r', '/exit\r']);
    expect(second.code).toBe(0);
    expect(second.screen).toMatch(/User lives in Lima\./);
    expect(second.screen).toMatch(/User works at Colegio Roosevelt\./);
    expect(storedTurns()).toEqual(['I live in Lima.', 'I work as a teacher at Colegio Roosevelt.', 'Where do I live and where do I work?']);
  });

  it('Ctrl-C keeps a typed line: it is shown again and Enter sends it; Ctrl-C on an empty line quits', async () => {
    const { code, screen } = await runInTerminal(['chat', '--continue'], sandbox.env, [`I have a dog named Pico.${CTRL_C}`, '\r', CTRL_C]);
    expect(code).toBe(0);
    expect(screen).toMatch(/Ctrl-C: your unsent line is kept; Enter sends it, Ctrl-C on an empty line quits/);
    expect(storedTurns()).toContain('I have a dog named Pico.');
    expect(screen).toMatch(/saved session ses_\S+ \(4 messages\)/);
  });

  it('/clear asks first, then clears the screen on a terminal and starts a new session', async () => {
    const { code, screen } = await runInTerminal(['chat'], sandbox.env, ['/clear\r', 'y\r', CTRL_D]);
    expect(screen).toMatch(/Clear the screen and start a new session\? \(what is stored stays\) \[y\/N\]/);
    expect(code).toBe(0);
    expect(screen).toContain('\u001b[2J');
    expect(screen).toMatch(/fresh start: .*Chat /);
  });
});

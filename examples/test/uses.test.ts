import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { firstLine, runExample } from './run-example.js';

/** The examples of the uses; worker-beside-app.ts and chroma.ts also run in uses.int.test.ts, with their servers. */
const USES = ['embedded-chat.ts', 'worker-beside-app.ts', 'import-export.ts', 'topics-and-threads.ts', 'chroma.ts'];

/** The part of `text` from the line that starts with `heading` on. */
function from(text: string, heading: string): string {
  const at = text.indexOf(heading);
  expect(at, `"${heading}" in the output`).toBeGreaterThanOrEqual(0);
  return text.slice(at);
}

describe('examples of the uses', () => {
  it.each(USES)('%s opens with its purpose on one comment line', (file) => {
    expect(firstLine(file)).toMatch(/^\/\/ [A-Z].{20,}\.$/);
  });

  it('embedded-chat.ts keeps the chat in one SQLite file: the reopened memory holds the turns and facts from before', async () => {
    const { code, stdout, stderr } = await runExample('embedded-chat.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('appended #6 assistant: Boa sorte! The tram is a fine classroom.\n');
    const before = from(stdout, 'context before closing (query "Where do I work?"');
    expect(before).toMatch(/^ {2}system: Memory of this user/m);
    expect(before).toMatch(/^ {4}summary \(working\): working tier: summary of turns no longer verbatim$/m);
    expect(before).toMatch(/^ {4}fact \(long-term\): /m);
    expect(before).toMatch(/^ {4}turn \(immediate\): current turn \(always sent\)$/m);
    const [, path] = /\nclosed (\S+memory\.sqlite) \([1-9]\d* bytes\)\n/.exec(stdout) ?? [];
    expect(path).toBeDefined();
    expect(stdout).toMatch(/\nreopened: session ses_\w+ "Moving house", 6 turns\n/);
    expect(stdout).toMatch(/\nfacts: .*User has a cat named Miso\./);
    // the reopened memory's context holds turns appended before the close, verbatim
    const after = from(stdout, 'context after reopening (query "What is my cat called?"');
    expect(after).toContain('User: They are. My cat Miso hates the new flat, she hides under the sofa.');
    expect(after).toContain('  user: Good idea. I am also learning Portuguese on the tram.\n');
    expect(stdout).toContain("the reopened memory's context holds a turn from before the close: yes\n");
    expect(stdout).toMatch(/\nremoved \S+\n$/);
    expect(existsSync(path!)).toBe(false);
  });

  it('import-export.ts imports the exported JSON losslessly: same turn ids and seqs, facts, bundle and context', async () => {
    const { code, stdout, stderr } = await runExample('import-export.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^exported session ses_\w+ as JSON: \d+ characters, bundle version 2, 4 turns, [1-9]\d* facts\n/);
    const markdown = from(stdout, '# Dinner plans');
    expect(markdown).toMatch(/## Messages\n\n\*\*user\*\* · \S+ · #1\n\nI'm hosting a dinner on Saturday\./);
    expect(markdown).toMatch(/## Facts\n\n(- .*\n)*- User is allergic to peanuts\. \(\d{4}-\d\d-\d\d, current\)\n/);
    expect(stdout).toMatch(/\nimported into a second memory: 1 session, 4 turns, \d+ summaries, [1-9]\d* facts\n/);
    const pairs = [...stdout.matchAll(/^ {2}(msg_\w+) #(\d+) -> (msg_\w+) #(\d+) /gm)].map(([, id, seq, copyId, copySeq]) => ({ id, seq, copyId, copySeq }));
    expect(pairs.map((p) => p.seq)).toEqual(['1', '2', '3', '4']);
    for (const pair of pairs) expect([pair.copyId, pair.copySeq]).toEqual([pair.id, pair.seq]);
    expect(stdout).toContain('imported turns equal the exported ones (ids, seqs, times, text): true\n');
    expect(stdout).toContain('imported facts equal the exported ones: true\n');
    expect(stdout).toContain('exporting the imported session again gives the same bundle (summaries, facts, topics, thread links, job ledger): true\n');
    expect(from(stdout, 'context for "What should I cook for the dinner?" in the second memory:')).toContain('- User is allergic to peanuts.');
    expect(stdout).toMatch(/the imported session's context equals the original's \(messages and manifest\): true\n$/);
  });

  it('topics-and-threads.ts lists the topics with their decay, draws the tree and gives a hit its thread path', async () => {
    const { code, stdout, stderr } = await runExample('topics-and-threads.ts');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const bikes = '"Are the bike lanes in Berlin good for …"';
    const lasagna = '"Give me a lasagna recipe with spinach and …"';
    // the return to the bike lanes branches the tree: #5 follows the bike reply #2, not #4
    expect(stdout).toContain('best turn: #5 Back to the Berlin bike lanes: is cycling in winter ok?\n  thread path: it follows #2 assistant: Berlin bike lanes are wide;');
    const topics = from(stdout, 'topics after the chat and that search');
    expect(topics).toContain(
      `  ${bikes}: 4 turns, accessed 2x, priority 0.500, half-life 1 d, short-term, active\n  ${lasagna}: 2 turns, accessed 0x, priority 0.500, half-life 1 d, short-term, active\n`,
    );
    const mermaid = from(stdout, 'conversation tree (Mermaid').split('\n').slice(1);
    expect(mermaid[0]).toBe('flowchart TD');
    expect(mermaid.filter((line) => line.startsWith('  subgraph '))).toHaveLength(2);
    expect(mermaid).toEqual(expect.arrayContaining(['  t1 --> t2', '  t2 --> t3', '  t3 --> t4', '  t2 --> t5', '  t5 --> t6']));
    expect(stdout).toContain('five days later, decay cooled 1 topic(s) and compressed 2 turn(s); the topic of the newest turn stays active\n');
    expect(from(stdout, 'topics after decay:')).toMatch(
      new RegExp(`^ {2}${lasagna}: 2 turns, accessed 0x, priority 0\\.016, half-life 1 d, short-term, cold, 2 turns compressed \\(\\d+ of \\d+ bytes\\)$`, 'm'),
    );
    expect(stdout).toContain('a search still finds the cold turn verbatim: "Give me a lasagna recipe with spinach and ricotta."\n');
    expect(from(stdout, 'topics after that search')).toContain(`  ${lasagna}: 2 turns, accessed 1x, priority 0.500, half-life 1 d, short-term, active\n`);
  });

  it.concurrent.each([
    ['worker-beside-app.ts', { STRATA_REDIS_URL: 'redis://127.0.0.1:1' }, /^skipped, this example needs Redis: Redis at redis:\/\/127\.0\.0\.1:1 is unreachable\. Start it with .*\n$/],
    ['chroma.ts', { STRATA_CHROMA_URL: 'http://127.0.0.1:1' }, /^skipped, this example needs Chroma: Chroma at http:\/\/127\.0\.0\.1:1 is unreachable\. Start it with .*\n$/],
  ])('%s says in one line that its server is unreachable, and exits 0', async (file, env, line) => {
    const { code, stdout, stderr } = await runExample(file, env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(line);
  });
});

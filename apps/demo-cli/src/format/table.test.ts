import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { clip, renderTable } from './table.js';

/** The text of the one cell of a table with one column and one row. */
async function clipped(text: string, max: number): Promise<string> {
  return (await renderTable(['x'], [[clip(text, max)]])).split('\n')[2] ?? '';
}

describe('renderTable and clip count terminal columns', () => {
  it('aligns CJK, emoji and combining marks by the columns they take', async () => {
    const table = await renderTable(
      ['title', 'n'],
      [
        ['東京の旅行', '1'],
        ['plain', '2'],
        ['café ☕', '3'],
        ['e\u0301te\u0301', '4'],
      ],
    );
    const lines = table.split('\n');
    // every "n" cell starts in the same terminal column
    const columnOfLastCell = lines.map((line) => stringWidth(line.slice(0, line.lastIndexOf(' ') + 1)));
    expect(new Set(columnOfLastCell).size).toBe(1);
    expect(lines[2]).toBe('東京の旅行  1');
  });

  it('clips to a width without cutting a character in two', async () => {
    expect(await clipped('東京の旅行について', 7)).toBe('東京の…');
    expect(stringWidth(await clipped('東京の旅行について', 7))).toBeLessThanOrEqual(7);
    expect(await clipped('👩‍👩‍👧 family trip', 4)).toBe('👩‍👩‍👧 …');
    expect(await clipped('short', 10)).toBe('short');
  });

  it('counts plain ASCII by length, colour codes aside, and clips it the same way', async () => {
    const table = await renderTable(
      ['id', 'state'],
      [
        ['a', '\u001b[32min\u001b[39m'],
        ['bbbb', 'out'],
      ],
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ESC-led SGR colour codes the table holds, to compare its plain text
    expect(table.split('\n').map((line) => line.replace(/\u001b\[[\d;]*m/g, ''))).toEqual(['id    state', '----  -----', 'a     in', 'bbbb  out']);
    expect(await clipped('a  long\n\nline of text', 9)).toBe('a long l…');
    expect(stringWidth(await clipped('abcdefghij', 5))).toBe(5);
  });
});

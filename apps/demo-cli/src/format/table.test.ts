import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { clip, renderTable } from './table.js';

describe('renderTable and clip count terminal columns', () => {
  it('aligns CJK, emoji and combining marks by the columns they take', () => {
    const table = renderTable(['title', 'n'], [['東京の旅行', '1'], ['plain', '2'], ['café ☕', '3'], ['e\u0301te\u0301', '4']]);
    const lines = table.split('\n');
    // every "n" cell starts in the same terminal column
    const columnOfLastCell = lines.map((line) => stringWidth(line.slice(0, line.lastIndexOf(' ') + 1)));
    expect(new Set(columnOfLastCell).size).toBe(1);
    expect(lines[2]).toBe('東京の旅行  1');
  });

  it('clips to a width without cutting a character in two', () => {
    expect(clip('東京の旅行について', 7)).toBe('東京の…');
    expect(stringWidth(clip('東京の旅行について', 7))).toBeLessThanOrEqual(7);
    expect(clip('👩‍👩‍👧 family trip', 4)).toBe('👩‍👩‍👧 …');
    expect(clip('short', 10)).toBe('short');
  });
});

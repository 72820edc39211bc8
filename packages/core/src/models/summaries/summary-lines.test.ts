import { describe, expect, it } from 'vitest';
import { formatDay, parseSummaryLines, renderSummaryLines, type SummaryLine } from './summary-lines.js';

describe('summary lines', () => {
  it.each([
    [Date.UTC(2023, 4, 8, 13, 56), '8 May 2023'],
    [Date.UTC(2026, 10, 20, 23, 59), '20 November 2026'],
    [Date.UTC(2024, 0, 1, 0, 0), '1 January 2024'],
  ])('formats %i as %s (UTC)', (ms, day) => {
    expect(formatDay(ms)).toBe(day);
  });

  const lines: SummaryLine[] = [
    { day: '3 March 2025', label: 'Priya', text: 'I started a pottery class.' },
    { day: '3 March 2025', label: 'Tomasz', text: 'Which studio?' },
    { day: '10 March 2025', label: 'Priya', text: 'The one on Elm Street.' },
    { day: undefined, label: undefined, text: 'No speaker here.' },
  ];
  const text = ['[3 March 2025] Priya: I started a pottery class.', 'Tomasz: Which studio?', '[10 March 2025] Priya: The one on Elm Street.', 'No speaker here.'].join('\n');

  it('writes the day once per run of lines on that day', () => {
    expect(renderSummaryLines(lines)).toBe(text);
  });

  it('reads back speakers and days, a line without a day being on the day before it', () => {
    expect(parseSummaryLines(text)).toEqual([...lines.slice(0, 3), { day: '10 March 2025', label: undefined, text: 'No speaker here.' }]);
  });

  it('reads summaries written before days were kept', () => {
    expect(parseSummaryLines('User: I love jazz.\n\n  plain line ')).toEqual([
      { day: undefined, label: 'User', text: 'I love jazz.' },
      { day: undefined, label: undefined, text: 'plain line' },
    ]);
  });
});

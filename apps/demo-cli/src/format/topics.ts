import type { TopicReport } from '@strata/core';
import { pc } from './colors.js';
import { clip, renderTable } from './table.js';

/** One row per topic: state, memory type, decay and storage (`strata inspect`). */
export async function renderTopics(topics: readonly TopicReport[]): Promise<string> {
  if (topics.length === 0) return pc.dim('(no topics yet: turns are placed in topics once ingested)');
  return await renderTable(
    ['topic', 'state', 'memory', 'half-life', 'priority', 'importance', 'accesses', 'active', 'compressed', 'stored / text'],
    topics.map((t) => [
      clip(t.title, 36),
      t.isActive ? 'active' : pc.dim('cold'),
      t.memoryType,
      formatDuration(t.halfLifeMs),
      t.priority.toFixed(3),
      t.importance.toFixed(2),
      String(t.accessCount),
      String(t.activeMessages),
      String(t.compressedMessages),
      `${t.storedBytes} / ${t.textBytes} B`,
    ]),
  );
}

/** `36h`, `4d`, `45m`: the largest unit that keeps the number readable. */
export function formatDuration(ms: number): string {
  const minutes = ms / 60_000;
  if (minutes < 120) return `${Math.round(minutes)}m`;
  const hours = minutes / 60;
  return hours < 72 ? `${Math.round(hours)}h` : `${Math.round(hours / 24)}d`;
}

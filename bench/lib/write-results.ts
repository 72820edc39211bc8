import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BenchResult, BenchTable, Figure, LatencyMetric } from './bench-result.js';

const RESULTS_DIR = fileURLToPath(new URL('../results/', import.meta.url));

/** Fixed precision: sub-millisecond latencies need it, and diffs between runs stay readable. */
function ms(value: number): string {
  return value.toFixed(3);
}

function formatFigure(figure: Figure): string {
  const digits = Number.isInteger(figure.value) ? 0 : 1;
  return `${figure.value.toFixed(digits)} ${figure.unit}`;
}

function latencyRow({ metric, summary }: LatencyMetric): string {
  return `| ${metric} | ${ms(summary.p50)} | ${ms(summary.p99)} | ${summary.n} |`;
}

function renderTable(table: BenchTable): string[] {
  return [
    `### ${table.title}`,
    '',
    `| ${table.header.join(' | ')} |`,
    `|${table.header.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`,
    ...table.rows.map((row) => `| ${row.join(' | ')} |`),
    '',
  ];
}

/** The Markdown report: environment header, latency table, single figures, then tables and notes. */
export function renderMarkdown(result: BenchResult): string {
  const env = result.environment;
  const latencies = result.latencies.length ? ['| metric | p50 ms | p99 ms | n |', '|---|---:|---:|---:|', ...result.latencies.map(latencyRow), ''] : [];
  return [
    `# ${result.name}${result.isQuick ? ' (quick)' : ''}`,
    '',
    `- machine: ${env.cpu}, ${env.cores} cores, ${env.totalMemoryGb} GB, ${env.platform}`,
    `- node: ${env.node}${env.nodeOptions === undefined ? '' : ` (NODE_OPTIONS=${env.nodeOptions})`}`,
    `- commit: ${env.commit}${env.isDirty ? ' (dirty tree)' : ''}`,
    `- date: ${env.date}`,
    ...(env.loadAverage === undefined ? [] : [`- load average at start (1, 5, 15 min): ${env.loadAverage.map((l) => l.toFixed(2)).join(', ')}`]),
    '',
    ...latencies,
    '| figure | value |',
    '|---|---:|',
    ...result.figures.map((f) => `| ${f.name} | ${formatFigure(f)} |`),
    '',
    ...(result.tables ?? []).flatMap(renderTable),
    ...(result.notes?.length ? ['## Notes', '', ...result.notes.map((n) => `- ${n}`), ''] : []),
  ].join('\n');
}

/**
 * The results' file name: the scenario's, and for a run under NODE_OPTIONS those options too
 * (`in-memory-latency.v8-pool-size-1`), so that a run with other Node flags sits beside the
 * default one instead of replacing it.
 */
export function resultFileName(result: Pick<BenchResult, 'name' | 'environment'>): string {
  const options = result.environment.nodeOptions;
  if (options === undefined) return result.name;
  const slug = options
    .replace(/^-+/, '')
    .replace(/[^A-Za-z0-9.]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${result.name}.${slug}`;
}

/**
 * Writes bench/results/<name>.json and <name>.md ({@link resultFileName}), replacing the
 * previous run: the files are the latest numbers, and their history is git's. Returns the Markdown.
 */
export async function writeResults(result: BenchResult): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const markdown = renderMarkdown(result);
  const name = resultFileName(result);
  await writeFile(`${RESULTS_DIR}${name}.json`, `${JSON.stringify(result, null, 2)}\n`);
  await writeFile(`${RESULTS_DIR}${name}.md`, markdown);
  return markdown;
}

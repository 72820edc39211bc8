import type { Environment } from './environment.js';
import type { LatencySummary } from './stats.js';

/** One latency metric: many timed calls of the same operation. */
export interface LatencyMetric {
  metric: string;
  summary: LatencySummary;
}

/** A single measured figure that has no distribution (a flush, a throughput, an RSS). */
export interface Figure {
  name: string;
  value: number;
  unit: string;
}

/** A table of results that are not latencies (e.g. retrieval quality per system and question type). */
export interface BenchTable {
  title: string;
  header: string[];
  rows: string[][];
}

/** What a benchmark run produced, as written to bench/results/<name>.json. */
export interface BenchResult {
  name: string;
  isQuick: boolean;
  environment: Environment;
  latencies: LatencyMetric[];
  figures: Figure[];
  tables?: BenchTable[];
  /** Free-form remarks printed under the tables (how a corpus was filled, why a peer is missing). */
  notes?: string[];
}

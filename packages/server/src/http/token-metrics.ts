import type { DerivationStats, MemoryApi, TokenUsage } from '@strata/core';
import { Counter, Registry } from 'prom-client';

/*
 * The token counters of `memory.stats().derivation`, mirrored at each scrape: they count from
 * the memory's creation (process-wide), so a restart resets them as Prometheus expects of a
 * counter. Label values are the models' and namespaces' own names; prom-client escapes them.
 */

type Entries = [labels: Record<string, string>, value: number][];

/** Sets a counter to `entries` (the memory's totals, which only grow). */
function mirror(counter: Counter<string>, entries: Entries): void {
  counter.reset();
  for (const [labels, value] of entries) counter.inc(labels, value);
}

const directions = (usage: TokenUsage, labels: Record<string, string>): Entries => [
  [{ direction: 'input', ...labels }, usage.inputTokens],
  [{ direction: 'output', ...labels }, usage.outputTokens],
];

/** Usage by model name, and the calls whose model gave no name under `model=""` (no model), so that each family sums to the totals. */
function byModel(stats: DerivationStats): [string, TokenUsage][] {
  const named = Object.entries(stats.byModel);
  const sum = (pick: (u: TokenUsage) => number) => named.reduce((total, [, usage]) => total + pick(usage), 0);
  const unnamed = { inputTokens: stats.inputTokens - sum((u) => u.inputTokens), outputTokens: stats.outputTokens - sum((u) => u.outputTokens), calls: stats.modelCalls - sum((u) => u.calls) };
  return unnamed.inputTokens || unnamed.outputTokens || unnamed.calls ? [...named, ['', unnamed]] : named;
}

/**
 * Registers, in `registry`, strata_model_tokens_total{direction,model},
 * strata_model_calls_total{model}, strata_model_tokens_by_job_total{direction,job_type} and
 * strata_derive_failed_tries_total, read from `memory.stats()` at each scrape.
 */
export function registerTokenMetrics(registry: Registry, memory: MemoryApi): void {
  const derivation = () => memory.stats().derivation;
  new Counter({
    name: 'strata_model_tokens_total',
    help: 'Tokens the models reported for applied derivation results, by direction (input, output) and model name (model="" when the model gave none).',
    labelNames: ['direction', 'model'],
    registers: [registry],
    collect() {
      mirror(
        this,
        byModel(derivation()).flatMap(([model, usage]) => directions(usage, { model })),
      );
    },
  });
  new Counter({
    name: 'strata_model_calls_total',
    help: 'Model calls that reported token usage for applied derivation results, by model name (model="" when the model gave none).',
    labelNames: ['model'],
    registers: [registry],
    collect() {
      mirror(
        this,
        byModel(derivation()).map(([model, usage]) => [{ model }, usage.calls]),
      );
    },
  });
  new Counter({
    name: 'strata_model_tokens_by_job_total',
    help: 'Tokens the models reported for applied derivation results, by direction and job type (ingest, summarize, consolidate).',
    labelNames: ['direction', 'job_type'],
    registers: [registry],
    collect() {
      mirror(
        this,
        Object.entries(derivation().byJobType).flatMap(([jobType, usage]) => directions(usage as TokenUsage, { job_type: jobType })),
      );
    },
  });
  new Counter({
    name: 'strata_derive_failed_tries_total',
    help: 'Tries of derivation jobs that failed (a model endpoint down, timing out or refusing; a store busy).',
    registers: [registry],
    collect() {
      mirror(this, [[{}, derivation().failedTries]]);
    },
  });
}

/**
 * strata_model_tokens_by_namespace_total{direction,namespace} of `byNamespace` (already narrowed
 * to a caller's reach), in a registry of its own: made for one scrape, since what it lists
 * depends on who asks.
 */
export function namespaceTokenMetrics(byNamespace: DerivationStats['byNamespace']): Registry {
  const registry = new Registry();
  const counter = new Counter({
    name: 'strata_model_tokens_by_namespace_total',
    help: 'Tokens the models reported for applied derivation results, by direction and namespace (only the namespaces in the key’s reach).',
    labelNames: ['direction', 'namespace'],
    registers: [registry],
  });
  mirror(
    counter,
    Object.entries(byNamespace).flatMap(([namespace, usage]) => directions(usage, { namespace })),
  );
  return registry;
}

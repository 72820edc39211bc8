import type { Command } from 'commander';
import { StrataError } from '@strata/core/errors';
import { pc } from '../format/colors.js';
import { formatDay, print, printJson } from '../format/output.js';
import { whileWaiting } from '../format/progress.js';
import { renderFacts } from '../format/facts.js';
import { clip, renderTable } from '../format/table.js';
import { positiveInt, withMemory } from '../run-command.js';

const KINDS = ['turn', 'summary', 'fact'] as const;
type Kind = (typeof KINDS)[number];

/** `strata search Q` and `strata facts`. */
export function registerSearchCommands(program: Command): void {
  program
    .command('search <query>')
    .description("search the namespace's turns, summaries and facts (BM25 + vectors), best first")
    .option('-k, --limit <n>', 'at most N hits', positiveInt, 10)
    .option('--kind <kind...>', `only these kinds: ${KINDS.join(', ')}`)
    .option('--touch', "count the turns found as used (their topics' access counts and decay), as an app's search does")
    .option('--json', 'print JSON')
    .action(async (query: string, options: { limit: number; kind?: string[]; touch?: boolean; json?: boolean }, command: Command) =>
      withMemory(command, async (memory, { config }) => {
        const kinds = parseKinds(options.kind);
        const hits = await whileWaiting(
          'searching (the first search loads the index)',
          memory.search({ namespace: config.namespace, query, k: options.limit, touch: options.touch === true, ...(kinds ? { kinds } : {}) }),
        );
        if (options.json) return printJson(hits);
        if (!hits.length) return print(`Nothing found in namespace "${config.namespace}".`);
        print(
          await renderTable(
            ['kind', 'score', 'date', 'session', 'text'],
            hits.map((h) => [h.kind, h.score.toFixed(4), formatDay(h.createdAt), h.sessionId ?? '', clip(h.text, 70)]),
          ),
        );
      }),
    );

  program
    .command('facts')
    .description("list the namespace's long-term facts")
    .option('--all', 'include superseded facts (history)')
    .option('--json', 'print JSON')
    .action(async (options: { all?: boolean; json?: boolean }, command: Command) =>
      withMemory(command, async (memory, { config }) => {
        const facts = await memory.facts.list({ namespace: config.namespace, includeSuperseded: options.all === true });
        if (options.json) return printJson(facts);
        if (!facts.length) return print(`No facts in namespace "${config.namespace}" yet.`);
        print(await renderFacts(facts));
        if (!options.all) print(pc.dim('current facts only; --all adds the superseded ones'));
      }),
    );
}

function parseKinds(kinds: string[] | undefined): Kind[] | undefined {
  if (!kinds) return undefined;
  const unknown = kinds.filter((k) => !(KINDS as readonly string[]).includes(k));
  if (unknown.length) {
    throw new StrataError('INVALID_INPUT', `unknown kind ${JSON.stringify(unknown[0])}`, { hint: `Pass --kind with one or more of ${KINDS.join(', ')}.` });
  }
  return kinds as Kind[];
}

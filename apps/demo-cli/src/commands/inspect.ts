import type { Command } from 'commander';
import type { ContextResult, Memory, Session } from '@strata/core';
import { pc } from '../format/colors.js';
import { count, print, printJson } from '../format/output.js';
import { whileWaiting } from '../format/progress.js';
import { renderTable } from '../format/table.js';
import { renderTopics } from '../format/topics.js';
import { coverageLine, formatCount, namespaceLine, noUsageLine, readSessionUsage, usageRows, type SessionUsage } from '../format/usage.js';
import { positiveInt, requireSession, withMemory } from '../run-command.js';

export interface TierReport {
  /** Turns kept verbatim in the context window. */
  immediate: number;
  /** Batch summaries and whether a rolling synopsis exists. */
  working: { summaries: number; synopsis: boolean };
  /** Facts of the namespace, current and superseded. */
  longTerm: { current: number; superseded: number };
  /** Every stored message of the session. */
  session: { messages: number };
  pending: ContextResult['pending'];
}

/** What each tier holds for a session (from a context assembled with a generous budget). */
export async function reportTiers(memory: Memory, session: Session, context: ContextResult): Promise<TierReport> {
  const [facts, messages] = await Promise.all([memory.facts.list({ namespace: session.namespace, includeSuperseded: true }), memory.messages(session.id)]);
  const count = (tier: string, kind: string) => context.manifest.filter((m) => m.tier === tier && m.kind === kind).length;
  const current = facts.filter((f) => f.validTo === undefined).length;
  return {
    immediate: count('immediate', 'turn'),
    working: { summaries: count('working', 'summary'), synopsis: count('working', 'synopsis') > 0 },
    longTerm: { current, superseded: facts.length - current },
    session: { messages: messages.length },
    pending: context.pending,
  };
}

/** One line per tier, for people. */
export async function renderTiers(t: TierReport): Promise<string> {
  const jobs = t.pending.jobs;
  return await renderTable(
    ['tier', 'holds'],
    [
      ['immediate', `${count(t.immediate, 'turn')} verbatim (watermark seq ${t.pending.watermarkSeq})`],
      ['working', `${count(t.working.summaries, 'summary', 'summaries')}${t.working.synopsis ? ' + rolling synopsis' : ''}`],
      ['long-term', `${t.longTerm.current} current facts, ${t.longTerm.superseded} superseded (namespace)`],
      ['session', `${count(t.session.messages, 'message')} stored`],
      ['pending', jobs.length ? jobs.map((j) => `${j.type} ${j.fromSeq}-${j.toSeq} (${j.state})`).join(', ') : 'nothing'],
    ],
  );
}

/**
 * What the models cost: the session's tokens by job type and by model, and the namespace's
 * total in one line; one line instead of a table when no job of the session called a model.
 */
export async function renderUsage({ session, namespace }: SessionUsage): Promise<string> {
  const none = noUsageLine(session);
  const lines = none
    ? [pc.dim(none)]
    : [
        pc.dim(coverageLine(session)),
        await renderTable(
          ['by', 'name', 'tokens in', 'tokens out', 'calls'],
          usageRows(session).map((r) => [r.by, r.name, formatCount(r.usage.inputTokens), formatCount(r.usage.outputTokens), formatCount(r.usage.calls)]),
        ),
      ];
  // the namespace line would only repeat the offline one
  if (namespace.jobsWithUsage > 0) lines.push(namespaceLine(namespace));
  return lines.join('\n');
}

/** Tokens used per tier by the included items. */
function budgetRows(context: ContextResult): string[][] {
  const used = new Map<string, number>();
  for (const m of context.manifest) if (m.included) used.set(m.tier, (used.get(m.tier) ?? 0) + m.tokens);
  const rows = [...used].map(([tier, tokens]) => [tier, String(tokens)]);
  return [...rows, ['total', `${context.tokens} of ${context.budgetTokens} (${Math.round((100 * context.tokens) / context.budgetTokens)}%)`]];
}

/** `strata inspect ID [--query Q]`. */
export function registerInspectCommand(program: Command): void {
  program
    .command('inspect <id>')
    .description("show a session's tiers, its topics (decay, active / compressed turns), and the context assembled for a query with its budget use and manifest")
    .option('-q, --query <text>', 'the query to assemble the context for (default: the last user turn)')
    .option('--budget <tokens>', 'token budget of the context', positiveInt, 2000)
    .option('--show-context', 'also print the assembled messages')
    .option('--touch', "count the turns in the context as used (their topics' access counts and decay), as an app's getContext does")
    .option('--json', 'print JSON')
    .action(async (id: string, options: { query?: string; budget: number; showContext?: boolean; touch?: boolean; json?: boolean }, command: Command) =>
      withMemory(command, async (memory) => {
        const session = await requireSession(memory, id);
        const context = await whileWaiting(
          'assembling the context',
          memory.getContext(id, { budgetTokens: options.budget, touch: options.touch === true, ...(options.query === undefined ? {} : { query: options.query }) }),
        );
        const tiers = await reportTiers(memory, session, context);
        const [topics, usage] = await Promise.all([memory.topics.list(session.id), readSessionUsage(memory, session)]);
        const { contextMessagesJson, renderContextMessages, renderManifest } = await import('../format/context.js');
        if (options.json) {
          return printJson({
            session,
            tiers,
            topics,
            usage,
            context: { query: context.query, budgetTokens: context.budgetTokens, tokens: context.tokens, messages: contextMessagesJson(context), manifest: context.manifest },
          });
        }
        print(`${pc.bold(session.title ?? session.id)} ${pc.dim(`${session.id} · namespace ${session.namespace}`)}\n`);
        print(await renderTiers(tiers));
        print(`\n${pc.bold('Topics')} (decay and cold storage)`);
        print(await renderTopics(topics));
        print(`\n${pc.bold('Model usage')} (tokens the models reported for the derivation jobs applied)`);
        print(await renderUsage(usage));
        print(`\n${pc.bold('Context for:')} "${context.query}"`);
        print(await renderTable(['budget', 'tokens'], budgetRows(context)));
        if (options.showContext) print(`\n${renderContextMessages(context)}`);
        print(`\n${pc.bold('Manifest')} (every candidate, in or out, and why)`);
        print(await renderManifest(context));
      }),
    );
}

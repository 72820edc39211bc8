import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { StrataError } from '@strata/core/errors';
import type { ContextResult, ExportBundle, Memory, Session } from '@strata/core';
import { DEMO_QUESTION, FIRST_SESSION, SECOND_SESSION } from '../demo/script.js';
import { pc } from '../format/colors.js';
import { renderContextMessages, renderManifest } from '../format/context.js';
import { renderFacts } from '../format/facts.js';
import { count } from '../format/output.js';
import { wireMemory } from '../wiring.js';
import type { CliConfig } from '../config.js';

/** The demo writes its own file, started afresh on every run, beside the user's memory. */
export const DEMO_FILE = 'demo.sqlite';

function removeDemoFile(config: CliConfig): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(join(config.dataDir, `${DEMO_FILE}${suffix}`), { force: true });
}

/** A small window so that promotion shows within a short scripted conversation. */
const DEMO_POLICY = {
  immediate: { maxMessages: 6, minMessages: 2 },
  working: { batchMessages: 4, maxSummaries: 2 },
};
/** The namespace of the demo's conversation. */
export const DEMO_NAMESPACE = 'maya';
type Print = (line?: string) => void;

/**
 * `strata demo`: a scripted two-session conversation, offline, showing the tiers filling,
 * promotion, fact extraction and supersession, and a query-aware context with its manifest.
 */
export async function runDemo(config: CliConfig, print: Print = (line = '') => process.stdout.write(`${line}\n`)): Promise<void> {
  if (config.db !== undefined) {
    throw new StrataError('INVALID_INPUT', 'the demo writes its own file (demo.sqlite in the data dir), afresh on every run; it does not take --db', {
      hint: 'Drop --db (or STRATA_DB); pass --data-dir DIR to put the demo file elsewhere. Afterwards, strata --db DIR/demo.sqlite sessions opens it.',
    });
  }
  removeDemoFile(config);
  const { memory, storage, path } = await wireMemory(config, { file: DEMO_FILE, policy: DEMO_POLICY, offline: true });
  try {
    print(pc.bold('strata demo') + pc.dim(' - offline: extractive summaries, heuristic facts, hashing embeddings'));
    const first = await memory.sessions.create({ namespace: DEMO_NAMESPACE, title: 'First chat' });
    await playSession(memory, first, FIRST_SESSION, print);
    const second = await memory.sessions.create({ namespace: DEMO_NAMESPACE, title: 'Three weeks later' });
    await playSession(memory, second, SECOND_SESSION, print);
    await printFacts(memory, print);
    await memory.append(second.id, DEMO_QUESTION);
    const context = await memory.getContext(second.id, { budgetTokens: 600 });
    await printContext(context, print);
    print(`\n${pc.bold('Where the data lives:')} ${storage}`);
    print(pc.dim(`  explore it: strata --db ${path} sessions (then show, inspect, search, chat --continue)`));
    print(pc.dim('  or open it with any SQLite client, e.g. sqlite3 <file> "select seq, role, content from messages"'));
  } finally {
    await memory.close();
  }
}

async function playSession(memory: Memory, session: Session, turns: typeof FIRST_SESSION, print: Print): Promise<void> {
  print(`\n${pc.bold(`Session "${session.title}"`)} ${pc.dim(session.id)}: ${turns.length} turns`);
  const seen = new Set<string>((await memory.facts.list({ namespace: DEMO_NAMESPACE, includeSuperseded: true })).map((f) => f.id));
  for (const [index, turn] of turns.entries()) {
    await memory.append(session.id, turn);
    if (index % 4 === 3 || index === turns.length - 1) {
      await memory.flush();
      await printTiers(memory, session, index + 1, print);
      await printPromotions(memory, session, seen, print);
    }
  }
}

async function printTiers(memory: Memory, session: Session, turns: number, print: Print): Promise<void> {
  const context = await memory.getContext(session.id, { budgetTokens: 4000, query: '' });
  const tally = (tier: string, kind?: string) => context.manifest.filter((m) => m.tier === tier && (!kind || m.kind === kind)).length;
  const facts = await memory.facts.list({ namespace: DEMO_NAMESPACE });
  print(
    `  after ${String(turns).padStart(2)} turns: immediate ${tally('immediate')} verbatim | working ${count(tally('working', 'summary'), 'summary', 'summaries')}` +
      `${tally('working', 'synopsis') ? ' + synopsis' : ''} | long-term ${count(facts.length, 'fact')} | watermark seq ${context.pending.watermarkSeq}`,
  );
}

/** What landed since the last checkpoint: summaries (promotion), the synopsis, new facts. */
async function printPromotions(memory: Memory, session: Session, seen: Set<string>, print: Print): Promise<void> {
  const bundle = JSON.parse(await memory.export(session.id, { format: 'json' })) as ExportBundle;
  const summaries = bundle.sessions.flatMap((s) => s.summaries).filter((s) => !seen.has(s.id));
  for (const s of summaries) {
    seen.add(s.id);
    print(pc.dim(s.level === 'batch' ? `      promoted turns ${s.fromSeq}-${s.toSeq} into a working-tier summary` : `      consolidated turns ${s.fromSeq}-${s.toSeq} into the rolling synopsis`));
  }
  const all = await memory.facts.list({ namespace: DEMO_NAMESPACE, includeSuperseded: true });
  const facts = all.filter((f) => !seen.has(f.id));
  const replaced = (id: string) => all.find((old) => old.supersededBy === id);
  for (const f of facts) seen.add(f.id);
  const describe = (f: (typeof all)[number]) => `${f.text.replace(/\.$/, '')}${replaced(f.id) ? ` (supersedes ${replaced(f.id)!.object})` : ''}`;
  if (facts.length) print(pc.dim(`      new facts: ${facts.map(describe).join('; ')}`));
}

async function printFacts(memory: Memory, print: Print): Promise<void> {
  const facts = await memory.facts.list({ namespace: DEMO_NAMESPACE, includeSuperseded: true });
  print(`\n${pc.bold('Long-term facts')} (namespace "${DEMO_NAMESPACE}", with history)`);
  print(await renderFacts(facts));
}

async function printContext(context: ContextResult, print: Print): Promise<void> {
  print(`\n${pc.bold('Context for:')} "${context.query}"`);
  print(pc.dim(`budget ${context.budgetTokens} tokens, used ${context.tokens}, ${context.messages.length} messages`));
  print(renderContextMessages(context));
  print(`\n${pc.bold('Manifest')} (every candidate, in or out, and why)`);
  print(await renderManifest(context));
}

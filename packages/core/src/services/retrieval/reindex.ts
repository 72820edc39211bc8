import type { KnowledgeEntry } from '../../ports/knowledge-base.js';
import type { MemoryDeps } from '../deps.js';

/** What `Memory.reindex` rebuilt: how many turns, summaries and facts it embedded and indexed. */
export interface ReindexReport {
  /** Turns embedded: none when vector ranking is off (`turnVectors: false`). */
  turns: number;
  /** Whether turns are embedded at all (`indexesTurnVectors`). */
  turnVectors: boolean;
  summaries: number;
  facts: number;
}

const BATCH = 256;

/**
 * Rebuilds the knowledge base from the store (the truth): clears it, then embeds and
 * indexes every turn (when vector ranking is on: `indexesTurnVectors`), summary and fact. Use after changing the embeddings model or losing
 * the KB. With deterministic embeddings the rebuilt index answers exactly as before.
 */
export async function reindex(deps: MemoryDeps): Promise<ReindexReport> {
  await deps.knowledge.delete({ filter: {} });
  const report: ReindexReport = { turns: 0, turnVectors: indexesTurnVectors(deps), summaries: 0, facts: 0 };
  for (const session of await deps.store.sessions({})) {
    const messages = indexesTurnVectors(deps) ? (await deps.store.messages({ sessionId: session.id })).filter((m) => m.content.trim().length > 0) : [];
    report.turns += await indexTexts(
      deps,
      messages.map((m) => ({ id: m.id, text: m.content, kind: 'turn', namespace: m.namespace, sessionId: m.sessionId, current: true, createdAt: m.createdAt })),
    );
    const summaries = await deps.store.summaries({ sessionId: session.id });
    report.summaries += await indexTexts(
      deps,
      summaries.map((s) => ({ id: s.id, text: s.text, kind: 'summary', namespace: s.namespace, sessionId: s.sessionId, current: true, createdAt: s.createdAt })),
    );
  }
  const facts = await deps.store.facts({ includeSuperseded: true });
  report.facts = await indexTexts(
    deps,
    facts.map((f) => ({ id: f.id, text: f.text, kind: 'fact', namespace: f.namespace, sessionId: null, current: f.validTo === undefined, createdAt: f.createdAt })),
  );
  return report;
}

type Indexable = Omit<KnowledgeEntry, 'vector'> & { text: string };

/**
 * Whether turns are embedded into the knowledge base. Only vector ranking reads them: with
 * `vectorWeight` 0 (the offline hashing default) they would take about 1 KB a turn for
 * nothing. Set `vectorWeight` and run `reindex()` to add them.
 */
export function indexesTurnVectors(deps: Pick<MemoryDeps, 'policy'>): boolean {
  return (deps.policy.context.vectorWeight ?? 0) > 0;
}

/** Embeds and upserts items in batches. */
export async function indexTexts(deps: Pick<MemoryDeps, 'embeddings' | 'knowledge'>, items: Indexable[]): Promise<number> {
  for (let i = 0; i < items.length; i += BATCH) {
    const batch = items.slice(i, i + BATCH);
    const vectors = await deps.embeddings.embedDocuments(batch.map((b) => b.text));
    await deps.knowledge.upsert(batch.map(({ text: _text, ...rest }, j) => ({ ...rest, vector: vectors[j] ?? [] })).filter((e) => e.vector.length > 0));
  }
  return items.length;
}

// Kept in one file: export and import of one bundle format, so that what export writes is what import reads back.
import { parseWith } from '../../config/parse.js';
import { NAME_HINT, newNamespaceSchema } from '../input-schemas.js';
import { bundleSchema, confinementProblems, intoNamespace, namespaceOf, type ParsedBundle } from './bundle-schema.js';
import type { Fact, JobRecord, Summary } from '../../domain/derived.js';
import type { StoredMessage } from '../../domain/message.js';
import type { Session } from '../../domain/session.js';
import type { Topic, TurnLink } from '../../domain/topic.js';
import { StrataError } from '../../errors/strata-error.js';
import type { MemoryDeps } from '../deps.js';
import { indexTexts, indexesTurnVectors } from '../retrieval/reindex.js';
import { formatDay, isoTime } from '../retrieval/text-format.js';
import { withTurnTokensInSlices } from '../turn-tokens.js';

/** The `format` tag of an {@link ExportBundle}; `import` rejects JSON without it. */
export const BUNDLE_FORMAT = 'strata-bundle';
/** Version 2 adds topics and the conversation tree; version 1 bundles still import. */
export const BUNDLE_VERSION = 2;

/** A lossless, versioned export of sessions with every tier and its provenance. */
export interface ExportBundle {
  format: typeof BUNDLE_FORMAT;
  /** What `export` writes is BUNDLE_VERSION; version 1 (no topics) is still read. */
  version: 1 | typeof BUNDLE_VERSION;
  exportedAt: string;
  sessions: { session: Session; messages: StoredMessage[]; summaries: Summary[]; jobs: JobRecord[]; topics?: Topic[]; links?: TurnLink[] }[];
  /** Facts derived from these sessions' messages, current and superseded. */
  facts: Fact[];
}

/**
 * A format of `Memory.export`: `json` is the lossless bundle that `import` reads back; `jsonl`
 * one OpenAI chat message per line, `markdown` and `text` for people (messages, and in
 * markdown the summaries and facts too).
 */
export type ExportFormat = 'json' | 'jsonl' | 'markdown' | 'text';

/** Reads one session with everything derived from it. */
export async function collectBundle(deps: MemoryDeps, session: Session, now: number): Promise<ExportBundle> {
  const [messages, summaries, jobs, topics, links] = await Promise.all([
    deps.store.messages({ sessionId: session.id }),
    deps.store.summaries({ sessionId: session.id }),
    deps.store.jobs({ sessionId: session.id }),
    deps.topics.topics({ sessionId: session.id }),
    deps.topics.links({ sessionId: session.id }),
  ]);
  const facts = messages.length ? await deps.store.facts({ sourceMessageIds: messages.map((m) => m.id), includeSuperseded: true }) : [];
  return { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: new Date(now).toISOString(), sessions: [{ session, messages, summaries, jobs, topics, links }], facts };
}

/** Renders a bundle in one of the export formats. */
export function renderBundle(bundle: ExportBundle, format: ExportFormat): string {
  switch (format) {
    case 'json':
      return `${JSON.stringify(bundle, null, 2)}\n`;
    case 'jsonl':
      return `${bundle.sessions.flatMap((s) => s.messages.map(toOpenAiLine)).join('\n')}\n`;
    case 'markdown':
      return renderMarkdown(bundle);
    case 'text':
      return `${bundle.sessions.flatMap((s) => s.messages.map((m) => `[${isoTime(m.createdAt)}] ${m.role}${m.name ? ` (${m.name})` : ''}: ${m.content}`)).join('\n')}\n`;
  }
}

/** One OpenAI chat message per line, with strata's id, seq and time alongside. */
function toOpenAiLine(m: StoredMessage): string {
  return JSON.stringify({
    role: m.role,
    content: m.content,
    ...(m.name ? { name: m.name } : {}),
    ...(m.toolCalls?.length ? { tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })) } : {}),
    ...(m.toolCallId ? { tool_call_id: m.toolCallId } : {}),
    id: m.id,
    seq: m.seq,
    created_at: isoTime(m.createdAt),
  });
}

function renderMarkdown(bundle: ExportBundle): string {
  const out: string[] = [];
  for (const { session, messages, summaries } of bundle.sessions) {
    out.push(`# ${session.title ?? session.id}`, '', `- session: \`${session.id}\``, `- namespace: \`${session.namespace}\``, `- created: ${isoTime(session.createdAt)}`, '');
    const synopsis = summaries.find((s) => s.level === 'synopsis');
    if (synopsis) out.push('## Synopsis', '', synopsis.text, '');
    const batches = summaries.filter((s) => s.level === 'batch');
    if (batches.length) out.push('## Summaries', '', ...batches.map((s) => `- turns ${s.fromSeq}-${s.toSeq}: ${s.text}`), '');
    out.push('## Messages', '');
    for (const m of messages) out.push(`**${m.role}${m.name ? ` (${m.name})` : ''}** · ${isoTime(m.createdAt)} · #${m.seq}`, '', m.content, '');
  }
  if (bundle.facts.length) {
    out.push('## Facts', '', ...bundle.facts.map((f) => `- ${f.text} (${formatDay(f.validFrom)}${f.validTo ? ` – ${formatDay(f.validTo)}, superseded` : ', current'})`), '');
  }
  return out.join('\n');
}

/** What `Memory.import` wrote: counts per record kind, what `merge` skipped, and facts superseded. */
export interface ImportReport {
  sessions: number;
  /** Ids of the imported sessions, in bundle order. */
  sessionIds: string[];
  messages: number;
  summaries: number;
  facts: number;
  /** What `merge` skipped because it exists already: sessions by id (with all their records), facts by id. */
  skipped: { sessions: number; facts: number };
  /** Current facts (stored or imported) that a newer fact of the same slot superseded. */
  superseded: number;
}

/** Options of `Memory.import`: skip what exists already (`merge`), or import into another namespace. */
export interface ImportOptions {
  /** Skip sessions and facts that exist already instead of failing with CONFLICT. */
  merge?: boolean;
  /** Import every record into this namespace instead of the bundle's. */
  namespace?: string;
}

const BUNDLE_HINT = `Pass the JSON produced by memory.export(sessionId, { format: 'json' }) (strata export --format json), unchanged.`;

/**
 * Imports a bundle all or nothing: every record is checked (fields, times, provenance, and
 * that it belongs to the bundle's one namespace and its own session) before the first write;
 * the store's part is one transaction, and should the topics or the knowledge base then fail,
 * what was written is taken back. Ids, seqs, times and provenance are kept, so export ->
 * import into an empty memory is lossless. A current fact whose slot already has one (in the
 * store or the bundle) is superseded by the newer of the two (by `validFrom`), as derivation does.
 * @throws StrataError INVALID_INPUT naming the record and field; CONFLICT when a session or
 *   message id exists already (unless `merge`; nothing is written then).
 */
export async function importBundle(deps: MemoryDeps, input: unknown, options: ImportOptions = {}): Promise<ImportReport> {
  const raw = typeof input === 'string' ? parseJson(input) : input;
  let bundle: ParsedBundle = parseWith(bundleSchema, raw, 'import bundle', BUNDLE_HINT);
  if (options.namespace !== undefined) bundle = intoNamespace(bundle, options.namespace);
  const namespace = namespaceOf(bundle);
  if (bundle.sessions.length === 0 && bundle.facts.length === 0) return { sessions: 0, sessionIds: [], messages: 0, summaries: 0, facts: 0, skipped: { sessions: 0, facts: 0 }, superseded: 0 };
  parseWith(newNamespaceSchema, namespace, 'import namespace', `${NAME_HINT} To import under another name, pass the namespace option (strata import --namespace NAME).`);
  const problems = confinementProblems(bundle);
  if (problems.length > 0) {
    throw new StrataError(
      'INVALID_INPUT',
      `import bundle is invalid: ${problems.length} record(s) point outside it:\n${problems
        .slice(0, 20)
        .map((p) => `  - ${p}`)
        .join('\n')}${problems.length > 20 ? `\n  (and ${problems.length - 20} more)` : ''}`,
      {
        hint: `${BUNDLE_HINT} To import into another namespace, pass the namespace option (--namespace) instead of editing records.`,
      },
    );
  }
  const existing = new Set((await deps.store.sessions({ ids: bundle.sessions.map((e) => e.session.id) })).map((s) => s.id));
  if (existing.size > 0 && options.merge !== true) {
    const [first] = existing;
    throw new StrataError('CONFLICT', `session ${first} already exists; import would overwrite it`, {
      hint: 'Pass the merge option (strata import --merge) to skip what exists, forget the existing session first, or import into another namespace (--namespace).',
    });
  }
  const entries = bundle.sessions.filter((e) => !existing.has(e.session.id));
  const messageIds = entries.flatMap((e) => e.messages.map((m) => m.id));
  const [taken] = messageIds.length > 0 ? await deps.store.messages({ ids: messageIds }) : [];
  if (taken !== undefined) {
    throw new StrataError('CONFLICT', `message ${taken.id} already exists (session ${taken.sessionId}); nothing was imported`, {
      hint: 'A message id is unique across sessions: forget the existing message first, or import into another memory.',
    });
  }
  const known = new Set((await deps.store.facts({ ids: bundle.facts.map((f) => f.id), includeSuperseded: true })).map((f) => f.id));
  const slots = await supersedeByTime(deps, namespace, bundle.facts.filter((f) => !known.has(f.id)) as Fact[]);
  const sessions = entries.map((e) => ({
    ...e,
    session: e.session as Session,
    messages: e.messages as StoredMessage[],
    summaries: e.summaries as Summary[],
    jobs: e.jobs as JobRecord[],
    topics: e.topics as Topic[] | undefined,
    links: e.links as TurnLink[] | undefined,
  }));
  // thousands of turns are counted a slice at a time, as a large append's are
  const counted: StoredMessage[][] = [];
  for (const s of sessions) counted.push(await withTurnTokensInSlices(deps, s.messages));
  // one step of each kind for the whole bundle, sessions first: each session still comes before
  // its records, and a store writes each kind in one go instead of a few statements per session
  await deps.store.write({
    ops: [
      ...sessions.map((s) => ({ type: 'putSession' as const, session: s.session })),
      { type: 'insertMessages', messages: counted.flat() },
      { type: 'putSummaries', summaries: sessions.flatMap((s) => s.summaries) },
      { type: 'recordJobs', jobs: sessions.flatMap((s) => s.jobs) },
      { type: 'putFacts', facts: [...slots.imported, ...slots.updated] },
    ],
  });
  const written: ExportBundle = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: bundle.exportedAt, sessions, facts: slots.imported };
  try {
    await importTopics(deps, written);
    await indexBundle(deps, written);
    if (slots.updated.length > 0) await deps.knowledge.setCurrent(slots.updated.map((f) => ({ id: f.id, current: false })));
  } catch (error) {
    await takeBack(deps, written, slots.previous);
    throw error;
  }
  return {
    sessions: sessions.length,
    sessionIds: sessions.map((s) => s.session.id),
    messages: sessions.reduce((n, s) => n + s.messages.length, 0),
    summaries: sessions.reduce((n, s) => n + s.summaries.length, 0),
    facts: slots.imported.length,
    skipped: { sessions: existing.size, facts: known.size },
    superseded: slots.superseded,
  };
}

/** Slot reads an import has in flight at once (below a PostgreSQL pool's default size of 10). */
const SLOT_READS_AT_ONCE = 8;

/**
 * One current fact per slot, the newest by `validFrom` (ties: the stored one stays): the
 * imported facts as they are to be written, the stored facts they supersede (updated, and as
 * they were, to take back), and how many facts lost their current state.
 */
async function supersedeByTime(deps: MemoryDeps, namespace: string, facts: Fact[]): Promise<{ imported: Fact[]; updated: Fact[]; previous: Fact[]; superseded: number }> {
  const imported = facts.map((f) => ({ ...f }));
  const updated: Fact[] = [];
  const previous: Fact[] = [];
  let superseded = 0;
  const bySlot = new Map<string, Fact[]>();
  for (const fact of imported) {
    if (fact.validTo !== undefined) continue;
    const key = JSON.stringify([fact.subject, fact.predicate]);
    bySlot.set(key, [...(bySlot.get(key) ?? []), fact]);
  }
  const slots = [...bySlot.values()];
  // each slot's current facts, a few slots' reads at a time (a bundle has thousands of slots, and a
  // store over the network answers them in parallel)
  const storedOf: Fact[][] = [];
  for (let start = 0; start < slots.length; start += SLOT_READS_AT_ONCE) {
    const part = slots.slice(start, start + SLOT_READS_AT_ONCE);
    storedOf.push(...(await Promise.all(part.map((current) => deps.store.facts({ namespace, subject: (current[0] as Fact).subject, predicate: (current[0] as Fact).predicate })))));
  }
  for (const [i, current] of slots.entries()) {
    const stored = storedOf[i] ?? [];
    const all = [...stored.map((f) => ({ fact: f, stored: true })), ...current.map((f) => ({ fact: f, stored: false }))];
    all.sort((a, b) => b.fact.validFrom - a.fact.validFrom || Number(b.stored) - Number(a.stored));
    const [newest, ...older] = all;
    for (const { fact, stored: isStored } of older) {
      superseded++;
      const ended = { ...fact, validTo: Math.max(fact.validFrom, newest?.fact.validFrom ?? fact.validFrom), supersededBy: newest?.fact.id ?? fact.id };
      if (isStored) {
        previous.push(fact);
        updated.push(ended);
      } else Object.assign(fact, { validTo: ended.validTo, supersededBy: ended.supersededBy });
    }
  }
  return { imported, updated, previous, superseded };
}

/** Undoes an import whose store part was written: its sessions and facts go, superseded stored facts come back as they were. */
async function takeBack(deps: MemoryDeps, written: ExportBundle, previous: Fact[]): Promise<void> {
  const sessions = written.sessions.map((s) => s.session.id);
  await deps.store.write({
    ops: [
      { type: 'delete', sessions, facts: written.facts.map((f) => f.id) },
      { type: 'putFacts', facts: previous },
    ],
  });
  await deps.knowledge.delete({ ids: [...written.sessions.flatMap((s) => [...s.messages.map((m) => m.id), ...s.summaries.map((x) => x.id)]), ...written.facts.map((f) => f.id)] });
  if (previous.length > 0) await deps.knowledge.setCurrent(previous.map((f) => ({ id: f.id, current: f.validTo === undefined })));
}

/** Topics and links of the bundle; the turns of cold topics are stored compressed again. */
async function importTopics(deps: MemoryDeps, bundle: ExportBundle): Promise<void> {
  const topics = bundle.sessions.flatMap((s) => s.topics ?? []);
  const links = bundle.sessions.flatMap((s) => s.links ?? []);
  if (topics.length === 0 && links.length === 0) return;
  const cold = new Set(topics.filter((t) => t.coldSince !== undefined).map((t) => t.id));
  await deps.topics.writeTopics([
    { type: 'putTopics', topics },
    { type: 'putLinks', links },
    { type: 'compress', messageIds: links.filter((l) => cold.has(l.topicId)).map((l) => l.messageId) },
  ]);
}

async function indexBundle(deps: MemoryDeps, bundle: ExportBundle): Promise<void> {
  for (const { messages, summaries } of bundle.sessions) {
    if (indexesTurnVectors(deps))
      await indexTexts(
        deps,
        messages.filter((m) => m.content.trim()).map((m) => ({ id: m.id, text: m.content, kind: 'turn', namespace: m.namespace, sessionId: m.sessionId, current: true, createdAt: m.createdAt })),
      );
    await indexTexts(
      deps,
      summaries.map((s) => ({ id: s.id, text: s.text, kind: 'summary', namespace: s.namespace, sessionId: s.sessionId, current: true, createdAt: s.createdAt })),
    );
  }
  await indexTexts(
    deps,
    bundle.facts.map((f) => ({ id: f.id, text: f.text, kind: 'fact', namespace: f.namespace, sessionId: null, current: f.validTo === undefined, createdAt: f.createdAt })),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new StrataError('INVALID_INPUT', `import bundle is not valid JSON (${error instanceof Error ? error.message : String(error)})`, {
      hint: "Pass the text written by memory.export(sessionId, { format: 'json' }), or the parsed object.",
      cause: error,
    });
  }
}

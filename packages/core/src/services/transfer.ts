import { z } from 'zod';
import { parseWith } from '../config/parse.js';
import type { Fact, JobRecord, Summary } from '../domain/derived.js';
import type { StoredMessage } from '../domain/message.js';
import type { Session } from '../domain/session.js';
import type { Topic, TurnLink } from '../domain/topic.js';
import { StrataError } from '../errors/strata-error.js';
import type { MemoryDeps } from './deps.js';
import { indexTexts, indexesTurnVectors } from './reindex.js';
import { formatDay, isoTime } from './text-format.js';
import { withTurnTokens } from './turn-tokens.js';

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
      return bundle.sessions.flatMap((s) => s.messages.map(toOpenAiLine)).join('\n') + '\n';
    case 'markdown':
      return renderMarkdown(bundle);
    case 'text':
      return bundle.sessions.flatMap((s) => s.messages.map((m) => `[${isoTime(m.createdAt)}] ${m.role}${m.name ? ` (${m.name})` : ''}: ${m.content}`)).join('\n') + '\n';
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

const looseRecord = z.record(z.string(), z.unknown());
const bundleSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.union([z.literal(1), z.literal(BUNDLE_VERSION)]),
  exportedAt: z.string(),
  sessions: z.array(z.object({
    session: looseRecord.and(z.object({ id: z.string().min(1), namespace: z.string().min(1), lastSeq: z.number() })),
    messages: z.array(looseRecord.and(z.object({ id: z.string().min(1), seq: z.number().int().positive(), sessionId: z.string(), content: z.string() }))),
    summaries: z.array(looseRecord),
    jobs: z.array(looseRecord),
    topics: z.array(looseRecord.and(z.object({ id: z.string().min(1), sessionId: z.string() }))).optional(),
    links: z.array(looseRecord.and(z.object({ messageId: z.string().min(1), topicId: z.string() }))).optional(),
  })),
  facts: z.array(looseRecord.and(z.object({ id: z.string().min(1), namespace: z.string().min(1) }))),
});

export interface ImportReport {
  sessions: number;
  /** Ids of the imported sessions, in bundle order. */
  sessionIds: string[];
  messages: number;
  summaries: number;
  facts: number;
}

/**
 * Imports a bundle in one store transaction (all or nothing), then indexes it. Ids, seqs,
 * times and provenance are kept, so export -> import into an empty memory is lossless.
 * @throws StrataError INVALID_INPUT for a malformed bundle; CONFLICT when a session or
 *   message id already exists (nothing is written then).
 */
export async function importBundle(deps: MemoryDeps, input: unknown): Promise<ImportReport> {
  const raw = typeof input === 'string' ? parseJson(input) : input;
  const bundle = parseWith(bundleSchema, raw, 'import bundle', `Pass the JSON produced by memory.export(sessionId, { format: 'json' }) (format '${BUNDLE_FORMAT}', version 1 or ${BUNDLE_VERSION}).`) as unknown as ExportBundle;
  for (const { session } of bundle.sessions) {
    const [existing] = await deps.store.sessions({ ids: [session.id] });
    if (existing) {
      throw new StrataError('CONFLICT', `session ${session.id} already exists; import would overwrite it`, { hint: 'Forget the existing session first (memory.forget({ sessionId })) or import into another memory.' });
    }
  }
  await deps.store.write({
    ops: [
      ...bundle.sessions.flatMap((s) => [
        { type: 'putSession' as const, session: s.session },
        { type: 'insertMessages' as const, messages: s.messages.map((m) => withTurnTokens(deps, m)) },
        { type: 'putSummaries' as const, summaries: s.summaries },
        { type: 'recordJobs' as const, jobs: s.jobs },
      ]),
      { type: 'putFacts', facts: bundle.facts },
    ],
  });
  await importTopics(deps, bundle);
  await indexBundle(deps, bundle);
  return {
    sessions: bundle.sessions.length,
    sessionIds: bundle.sessions.map((s) => s.session.id),
    messages: bundle.sessions.reduce((n, s) => n + s.messages.length, 0),
    summaries: bundle.sessions.reduce((n, s) => n + s.summaries.length, 0),
    facts: bundle.facts.length,
  };
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
    if (indexesTurnVectors(deps)) await indexTexts(deps, messages.filter((m) => m.content.trim()).map((m) => ({ id: m.id, text: m.content, kind: 'turn', namespace: m.namespace, sessionId: m.sessionId, current: true, createdAt: m.createdAt })));
    await indexTexts(deps, summaries.map((s) => ({ id: s.id, text: s.text, kind: 'summary', namespace: s.namespace, sessionId: s.sessionId, current: true, createdAt: s.createdAt })));
  }
  await indexTexts(deps, bundle.facts.map((f) => ({ id: f.id, text: f.text, kind: 'fact', namespace: f.namespace, sessionId: null, current: f.validTo === undefined, createdAt: f.createdAt })));
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

import { z } from 'zod';
import { MAX_EPOCH_MS, plainJsonProblem, textProblem } from '../../config/text-rules.js';

/**
 * The records of an import bundle, field by field: a bundle is a whole namespace's history
 * handed to the store at once, so it is checked as strictly as an append (times a Date can
 * hold, well-formed text, plain JSON metadata, provenance present), before anything is
 * written. Unknown fields (a newer version's) are dropped.
 */

const time = z.number().finite().min(-MAX_EPOCH_MS).max(MAX_EPOCH_MS);
const count = z.number().int().nonnegative();
const seq = z.number().int().positive();
const text = z.string().superRefine((value, ctx) => {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const id = text.pipe(z.string().min(1).max(1024));
const plain = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
  const problem = plainJsonProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `not plain JSON: ${problem}` });
});
const role = z.enum(['user', 'assistant', 'system', 'tool']);

const sessionRecord = z.object({ id, namespace: z.string().min(1), title: text.optional(), metadata: plain.default({}), createdAt: time, updatedAt: time, lastSeq: count });
const messageRecord = z.object({
  id,
  sessionId: id,
  namespace: z.string(),
  seq,
  role,
  content: text,
  name: text.optional(),
  toolCalls: z.array(z.object({ id, name: id, args: plain.default({}) })).optional(),
  toolCallId: id.optional(),
  createdAt: time,
  metadata: plain.default({}),
  tokens: z.unknown().optional(),
});
const summaryRecord = z
  .object({
    id,
    sessionId: id,
    namespace: z.string(),
    level: z.enum(['batch', 'synopsis']),
    fromSeq: seq,
    toSeq: seq,
    text,
    sourceMessageIds: z.array(id),
    createdAt: time,
    degraded: z.boolean().default(false),
  })
  .refine((s) => s.toSeq >= s.fromSeq, { message: 'toSeq must be at least fromSeq', path: ['toSeq'] });
const tokens = z.int().min(0);
const tokenUsage = z.object({ inputTokens: tokens, outputTokens: tokens, calls: tokens });
const jobUsage = tokenUsage.extend({ byModel: z.record(z.string().min(1), tokenUsage).optional() });
const jobRecord = z.object({ key: id, type: z.enum(['ingest', 'summarize', 'consolidate']), sessionId: id, fromSeq: seq, toSeq: seq, appliedAt: time, usage: jobUsage.optional() });
const topicRecord = z.object({
  id,
  sessionId: id,
  namespace: z.string(),
  title: text,
  importance: z.number().min(0).max(1),
  accessCount: count,
  lastActiveAt: time,
  createdAt: time,
  centroid: z.array(z.number().finite()),
  vectorCount: count,
  coldSince: time.optional(),
});
const linkRecord = z.object({ messageId: id, sessionId: id, namespace: z.string(), seq, role, parentId: id.nullable(), topicId: id });
const factRecord = z.object({
  id,
  namespace: z.string(),
  subject: text.pipe(z.string().min(1)),
  predicate: text.pipe(z.string().min(1)),
  object: text,
  text,
  sourceMessageIds: z.array(id),
  validFrom: time,
  validTo: time.optional(),
  supersededBy: id.optional(),
  confidence: z.number().min(0).max(1),
  createdAt: time,
  degraded: z.boolean().default(false),
});

export const bundleSchema = z.object({
  format: z.literal('strata-bundle'),
  version: z.union([z.literal(1), z.literal(2)], {
    error: (issue) => `version ${JSON.stringify(issue.input)} is not one this strata reads (1 or 2): the bundle was written by another version of strata`,
  }),
  exportedAt: z.string(),
  sessions: z.array(
    z.object({
      session: sessionRecord,
      messages: z.array(messageRecord),
      summaries: z.array(summaryRecord),
      jobs: z.array(jobRecord),
      topics: z.array(topicRecord).optional(),
      links: z.array(linkRecord).optional(),
    }),
  ),
  facts: z.array(factRecord),
});

export type ParsedBundle = z.output<typeof bundleSchema>;

/**
 * Where a bundle's records point outside it, as paths and reasons (empty when it is
 * confined): every record belongs to the bundle's one namespace ({@link namespaceOf}) and to
 * its own session; message ids are unique and seqs within the session;
 * a link names a turn and a topic of its session. An import writes nothing unless this is empty.
 */
export function confinementProblems(bundle: ParsedBundle): string[] {
  const problems: string[] = [];
  const namespace = namespaceOf(bundle);
  const messageIds = new Set<string>();
  bundle.sessions.forEach((entry, s) => {
    const at = `sessions[${s}]`;
    const { session } = entry;
    if (session.namespace !== namespace) problems.push(`${at}.session.namespace is ${JSON.stringify(session.namespace)}, not the bundle's ${JSON.stringify(namespace)} (one namespace per bundle)`);
    const own = (path: string, record: { sessionId: string; namespace: string }): void => {
      if (record.sessionId !== session.id) problems.push(`${path}.sessionId is ${JSON.stringify(record.sessionId)}, not its session's ${JSON.stringify(session.id)}`);
      if (record.namespace !== namespace) problems.push(`${path}.namespace is ${JSON.stringify(record.namespace)}, not the bundle's ${JSON.stringify(namespace)}`);
    };
    const seqs = new Set<number>();
    entry.messages.forEach((m, i) => {
      own(`${at}.messages[${i}]`, m);
      if (messageIds.has(m.id)) problems.push(`${at}.messages[${i}].id ${JSON.stringify(m.id)} appears twice`);
      messageIds.add(m.id);
      if (seqs.has(m.seq)) problems.push(`${at}.messages[${i}].seq ${m.seq} appears twice in the session`);
      seqs.add(m.seq);
      if (m.seq > session.lastSeq) problems.push(`${at}.messages[${i}].seq ${m.seq} is past the session's lastSeq ${session.lastSeq}`);
    });
    entry.summaries.forEach((summary, i) => {
      own(`${at}.summaries[${i}]`, summary);
    });
    entry.jobs.forEach((job, i) => {
      if (job.sessionId !== session.id) problems.push(`${at}.jobs[${i}].sessionId is ${JSON.stringify(job.sessionId)}, not its session's ${JSON.stringify(session.id)}`);
    });
    const topicIds = new Set((entry.topics ?? []).map((t) => t.id));
    (entry.topics ?? []).forEach((topic, i) => {
      own(`${at}.topics[${i}]`, topic);
    });
    const turns = new Set(entry.messages.map((m) => m.id));
    (entry.links ?? []).forEach((link, i) => {
      own(`${at}.links[${i}]`, link);
      if (!turns.has(link.messageId)) problems.push(`${at}.links[${i}].messageId ${JSON.stringify(link.messageId)} is not a message of the session`);
      if (!topicIds.has(link.topicId)) problems.push(`${at}.links[${i}].topicId ${JSON.stringify(link.topicId)} is not a topic of the session`);
    });
  });
  bundle.facts.forEach((fact, i) => {
    if (fact.namespace !== namespace) problems.push(`facts[${i}].namespace is ${JSON.stringify(fact.namespace)}, not the bundle's ${JSON.stringify(namespace)}`);
  });
  return problems;
}

/** The namespace a bundle's records belong to: its sessions' (a bundle of facts alone: its facts'). */
export function namespaceOf(bundle: ParsedBundle): string {
  return bundle.sessions[0]?.session.namespace ?? bundle.facts[0]?.namespace ?? '';
}

/** The bundle with every record moved to `namespace` (import under another name). */
export function intoNamespace(bundle: ParsedBundle, namespace: string): ParsedBundle {
  const move = <R extends { namespace: string }>(records: R[]): R[] => records.map((r) => ({ ...r, namespace }));
  return {
    ...bundle,
    sessions: bundle.sessions.map((entry) => ({
      ...entry,
      session: { ...entry.session, namespace },
      messages: move(entry.messages),
      summaries: move(entry.summaries),
      ...(entry.topics ? { topics: move(entry.topics) } : {}),
      ...(entry.links ? { links: move(entry.links) } : {}),
    })),
    facts: move(bundle.facts),
  };
}

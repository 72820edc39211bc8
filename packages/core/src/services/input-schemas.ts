import { z } from 'zod';
import type { DerivationProgressListener } from './derivation/derivation-progress.js';
import type { Policy } from '../config/policy.js';
import { MAX_EPOCH_MS, nameProblem, plainJsonProblem, textProblem } from '../config/text-rules.js';

type Limits = Policy['limits'];

/** Hint for a name (namespace, id) rejected by {@link nameProblem}. */
export const NAME_HINT =
  "Names are compared exactly and never normalised: pass the same string every time, without surrounding whitespace, control or invisible characters, in Unicode NFC (name.normalize('NFC')).";

/** A namespace or record id: exact, visible, NFC (see text-rules). */
const exactName = (what: string, max = 256) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, `${what} must be a non-empty string`)
    .max(max, `${what} must be at most ${max} characters`)
    .superRefine((value, ctx) => {
      const problem = nameProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: `${what} ${problem}` });
    });

/** Free text (content, titles, queries): any characters but lone surrogates, at most `maxBytes` of UTF-8. */
const text = (what: string, maxBytes: number) =>
  z.string({ error: `${what} must be a string` }).superRefine((value, ctx) => {
    const problem = textProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: `${what} ${problem}` });
    const bytes = Buffer.byteLength(value, 'utf8');
    if (bytes > maxBytes) ctx.addIssue({ code: 'custom', message: `${what} is ${bytes} bytes, more than the limit of ${maxBytes} (policy.limits)` });
  });

/**
 * A plain JSON object of at most `maxBytes` (metadata, tool-call args), given to every store
 * as its JSON round trip: a property set to undefined is left out, as JSON does.
 */
const plainObject = (what: string, maxBytes: number) =>
  z.record(z.string(), z.unknown(), { error: `${what} must be an object` }).transform((value, ctx) => {
    const problem = plainJsonProblem(value);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: `${what} is not plain JSON: ${problem.replace(/^\$/, what)}` });
      return z.NEVER;
    }
    const json = JSON.stringify(value);
    const bytes = Buffer.byteLength(json, 'utf8');
    if (bytes > maxBytes) {
      ctx.addIssue({ code: 'custom', message: `${what} is ${bytes} bytes as JSON, more than the limit of ${maxBytes} (policy.limits.metadataBytes)` });
      return z.NEVER;
    }
    return JSON.parse(json) as Record<string, unknown>;
  });

/** A time as epoch milliseconds, a Date or an ISO string, within what a Date can hold. */
const timeSchema = z.union([
  z.number().finite().nonnegative().max(MAX_EPOCH_MS, `createdAt must be at most ${MAX_EPOCH_MS} (the latest time a Date holds)`),
  z.date().refine((d) => !Number.isNaN(d.getTime()), 'createdAt must be a valid date'),
  z
    .string()
    .refine((s) => !Number.isNaN(Date.parse(s)), 'createdAt must be an ISO date string')
    .refine((s) => Date.parse(s) >= 0, 'createdAt must not be before 1970'),
]);

/**
 * A name to look up: compared exactly, so a name no record can have finds nothing (NOT_FOUND
 * or empty), and names stored before the rules tightened stay reachable.
 */
const lookupName = (what: string) =>
  z
    .string({ error: `${what} must be a string` })
    .min(1, `${what} must be a non-empty string`)
    .max(1024);

export const sessionIdSchema = lookupName('sessionId');
/** A namespace to read, search or forget (creating a session checks it with {@link newNamespaceSchema}). */
export const namespaceSchema = lookupName('namespace');
/** The namespace of a new session. */
export const newNamespaceSchema = exactName('namespace');

/** The schemas of the inputs that `policy.limits` bounds, built once per memory. */
export function limitedInputSchemas(limits: Limits) {
  const toolCall = z.object({
    id: exactName('toolCalls[].id'),
    name: exactName('toolCalls[].name'),
    args: plainObject('toolCalls[].args', limits.metadataBytes).default({}),
  });
  const message = z
    .object({
      role: z.enum(['user', 'assistant', 'system', 'tool'], {
        error: "role must be one of 'user', 'assistant', 'system', 'tool'",
      }),
      content: text('content', limits.messageBytes),
      id: exactName('id').optional(),
      name: text('name', 1024).pipe(z.string().max(256, 'name must be at most 256 characters')).optional(),
      toolCalls: z.array(toolCall).max(128).optional(),
      toolCallId: exactName('toolCallId').optional(),
      createdAt: timeSchema.optional(),
      metadata: plainObject('metadata', limits.metadataBytes).optional(),
    })
    .refine((m) => m.role !== 'tool' || m.toolCallId !== undefined, {
      message: "a 'tool' message needs toolCallId (the id of the tool call it answers)",
      path: ['toolCallId'],
    })
    .refine((m) => m.content.length > 0 || (m.toolCalls?.length ?? 0) > 0, {
      message: 'content must not be empty (unless the message carries toolCalls)',
      path: ['content'],
    });
  return {
    message,
    messages: z.array(message).min(1, 'append needs at least one message').max(10_000),
    createSession: z.object({
      namespace: newNamespaceSchema,
      id: exactName('id').optional(),
      title: titleSchema.optional(),
      metadata: plainObject('metadata', limits.metadataBytes).optional(),
    }),
    getContext: z.object({
      query: text('query', limits.queryBytes).optional(),
      budgetTokens: z.number().int().positive().max(2_000_000).optional(),
      systemPrompt: text('systemPrompt', limits.messageBytes).optional(),
      touch: z.boolean().optional(),
    }),
    search: z.object({
      namespace: namespaceSchema,
      query: text('query', limits.queryBytes),
      k: z.number().int().positive().max(1000).default(10),
      kinds: z
        .array(z.enum(['turn', 'summary', 'fact']))
        .min(1)
        .optional(),
      /** Turns of each turn hit's thread path to return (its ancestors); none when absent. */
      contextDepth: z.number().int().min(0).max(50).optional(),
      touch: z.boolean().optional(),
    }),
  };
}

/** The validated shape of one appended message. */
export type MessageInputParsed = z.output<ReturnType<typeof limitedInputSchemas>['message']>;

/** A session title: visible text on one line, at most 500 characters. */
export const titleSchema = text('title', 2_000)
  .pipe(z.string().max(500, 'title must be at most 500 characters'))
  .superRefine((value, ctx) => {
    if (/[\p{Cc}\p{Zl}\p{Zp}]/u.test(value)) ctx.addIssue({ code: 'custom', message: 'title must be one line without control characters' });
  });

export const usageFilterSchema = z.object({
  namespace: namespaceSchema,
  sessionId: sessionIdSchema.optional(),
});

export const factsListSchema = z.object({
  namespace: namespaceSchema,
  includeSuperseded: z.boolean().default(false),
});

export const forgetSchema = z.union([
  z.object({ messageIds: z.array(lookupName('messageIds[]')).min(1).max(100_000), namespace: namespaceSchema.optional() }).strict(),
  z.object({ factIds: z.array(lookupName('factIds[]')).min(1).max(100_000), namespace: namespaceSchema.optional() }).strict(),
  z.object({ sessionId: sessionIdSchema }).strict(),
  z.object({ namespace: namespaceSchema }).strict(),
]);

export const listSessionsSchema = z.object({
  namespace: namespaceSchema.optional(),
  limit: z.number().int().positive().max(100_000).optional(),
  updatedBefore: z.number().int().optional(),
});

export const importOptionsSchema = z.object({
  merge: z.boolean().optional(),
  namespace: newNamespaceSchema.optional(),
});

export const exportSchema = z.object({
  format: z.enum(['json', 'jsonl', 'markdown', 'text']),
});

export const pruneSchema = z.object({
  olderThanDays: z.number().positive().max(100_000),
  namespace: namespaceSchema.optional(),
});

export const listMessagesSchema = z.object({
  fromSeq: z.number().int().positive().optional(),
  toSeq: z.number().int().positive().optional(),
  last: z.number().int().positive().optional(),
});

/** Options of `memory.flush()`. */
export const flushSchema = z.object({
  /** Called with each progress event while derivation catches up; see `DerivationProgress`. */
  onProgress: z.custom<DerivationProgressListener>((value) => typeof value === 'function', { error: 'onProgress must be a function' }).optional(),
  /**
   * How often progress is measured while `onProgress` is set (one ledger read per followed session).
   * @defaultValue 200
   */
  progressIntervalMs: z.number().int().min(10).max(60_000).default(200),
});

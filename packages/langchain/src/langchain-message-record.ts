import { z } from 'zod';
import { StrataError, type StoredMessage, type ToolCall } from '@strata/core';
import { fromLosslessJson } from './lossless-json.js';

/** The metadata key of a stored turn that keeps what strata's own fields cannot hold of its LangChain message. */
export const LANGCHAIN_METADATA_KEY = 'langchain';

/**
 * What a stored turn keeps of its LangChain message beyond role, content (the text), name,
 * tool calls and tool call id, under `metadata.langchain`. Only fields that carry something
 * are written; values that JSON cannot hold (undefined, Date, Uint8Array, ...) are tagged by
 * `toLosslessJson`. Every field is optional: a turn appended without it reads back as the
 * message its role names.
 */
export interface LangChainMessageRecord {
  /** 'generic' for a ChatMessage; other kinds follow from the strata role. */
  type?: 'generic';
  /** The ChatMessage role (any string, e.g. 'critic'). */
  role?: string;
  /** The message was a chunk class (AIMessageChunk, ...): it reads back as one. */
  chunk?: true;
  /** The LangChain message id (strata keeps its own message id). */
  id?: string;
  /** The LangChain name when strata stores another one (null: the message had none). */
  name?: string | null;
  /** The original content (string or content blocks) when it is not the stored text. */
  content?: unknown;
  /** Tool calls when strata's `toolCalls` (id, name, args) do not say all of them. */
  tool_calls?: unknown;
  invalid_tool_calls?: unknown;
  tool_call_chunks?: unknown;
  usage_metadata?: unknown;
  response_metadata?: unknown;
  additional_kwargs?: unknown;
  /** ToolMessage status, artifact and metadata. */
  status?: 'success' | 'error';
  artifact?: unknown;
  metadata?: unknown;
}

const recordSchema = z.object({
  type: z.literal('generic').optional(),
  role: z.string().optional(),
  chunk: z.literal(true).optional(),
  id: z.string().optional(),
  name: z.string().nullable().optional(),
  content: z.unknown().optional(),
  tool_calls: z.unknown().optional(),
  invalid_tool_calls: z.unknown().optional(),
  tool_call_chunks: z.unknown().optional(),
  usage_metadata: z.unknown().optional(),
  response_metadata: z.unknown().optional(),
  additional_kwargs: z.unknown().optional(),
  status: z.enum(['success', 'error']).optional(),
  artifact: z.unknown().optional(),
  metadata: z.unknown().optional(),
});

/**
 * The record a stored turn keeps, its values decoded, or undefined when it has none.
 * @throws StrataError INVALID_INPUT when `metadata.langchain` is not such a record.
 */
export function readLangChainRecord(message: StoredMessage): LangChainMessageRecord | undefined {
  const raw = message.metadata[LANGCHAIN_METADATA_KEY];
  if (raw === undefined) return undefined;
  const parsed = recordSchema.safeParse(raw);
  if (!parsed.success) {
    throw new StrataError('INVALID_INPUT', `message ${JSON.stringify(message.id)} has metadata.${LANGCHAIN_METADATA_KEY} that is not a LangChain message record:\n${z.prettifyError(parsed.error)}`, {
      hint: `metadata.${LANGCHAIN_METADATA_KEY} is written by toMessageInput; append LangChain messages through it, and keep other metadata under another key.`,
      cause: parsed.error,
    });
  }
  return fromLosslessJson(parsed.data) as LangChainMessageRecord;
}

/** The tool calls as `toLangChainMessage` rebuilds them from strata's fields. */
export function restoredToolCalls(toolCalls: readonly ToolCall[] | undefined) {
  return (toolCalls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args, type: 'tool_call' as const }));
}

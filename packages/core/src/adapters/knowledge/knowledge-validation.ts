import { StrataError } from '../../errors/strata-error.js';
import type { KnowledgeEntry, KnowledgeFilter, KnowledgeQuery } from '../../ports/knowledge-base.js';

// The input rules every KnowledgeBase adapter applies, in one place, so that all adapters
// refuse the same input with the same codes and messages.

const KINDS: ReadonlySet<unknown> = new Set(['turn', 'summary', 'fact']);
/** Vectors are stored as float32: a larger magnitude would come back as Infinity. */
const FLOAT32_MAX = 3.4028234663852886e38;

/** The fix for a dimension mismatch: the vectors come from another embeddings model. */
export const REINDEX_HINT =
  'The embeddings model probably changed. Run memory.reindex() into a fresh knowledge base (a new file or collection), ' + 'or configure the embeddings model that built this index.';

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** Bad arguments: fixing the call is the only cure, so the error is not retryable. */
export function invalidKnowledgeInput(message: string): StrataError {
  return new StrataError('INVALID_INPUT', message, {
    hint: 'Build entries and filters from stored records (ids and namespaces are non-empty strings) and vectors from your embeddings.',
  });
}

/** CONFIG_INVALID, not INVALID_INPUT: the call is fine, the embeddings model does not match the file. */
export function knowledgeDimensionMismatch(what: string, got: number, expected: number): StrataError {
  const message = `${what} has ${got} dimensions; this knowledge base holds ${expected}-dimensional vectors.`;
  return new StrataError('CONFIG_INVALID', message, { hint: REINDEX_HINT });
}

/** `undefined` leaves the dimension to the file, or to the first upsert of a new file. */
export function validateDimensionsOption(dimensions: unknown): number | undefined {
  if (dimensions === undefined || (Number.isInteger(dimensions) && (dimensions as number) > 0)) {
    return dimensions as number | undefined;
  }
  throw new StrataError('CONFIG_INVALID', `dimensions must be a positive integer (got ${show(dimensions)}).`, {
    hint: 'Pass the output size of your embeddings model, or omit it to take it from the file or the first upsert.',
  });
}

/** Validates a whole batch before anything is written; returns the dimension it implies (null: empty batch, unknown dimension). */
export function validateEntries(entries: KnowledgeEntry[], dimensions: number | null): number | null {
  if (!Array.isArray(entries)) throw invalidKnowledgeInput(`upsert expects an array of entries (got ${typeof entries}).`);
  let expected = dimensions;
  for (const [index, entry] of entries.entries()) {
    const at = `entries[${index}]`;
    validateEntry(entry, at);
    expected ??= entry.vector.length;
    if (entry.vector.length !== expected) throw knowledgeDimensionMismatch(`${at} (id "${entry.id}")`, entry.vector.length, expected);
  }
  return expected;
}

function validateEntry(entry: KnowledgeEntry, at: string): void {
  if (typeof entry !== 'object' || entry === null) throw invalidKnowledgeInput(`${at} must be an object (got ${String(entry)}).`);
  assertNonEmpty(entry.id, `${at}.id`);
  assertNonEmpty(entry.namespace, `${at}.namespace`);
  if (!KINDS.has(entry.kind)) throw invalidKnowledgeInput(`${at}.kind must be 'turn', 'summary' or 'fact' (got ${show(entry.kind)}).`);
  if (entry.sessionId !== null && typeof entry.sessionId !== 'string') {
    throw invalidKnowledgeInput(`${at}.sessionId must be a string or null (got ${show(entry.sessionId)}).`);
  }
  if (typeof entry.current !== 'boolean') throw invalidKnowledgeInput(`${at}.current must be a boolean (got ${show(entry.current)}).`);
  if (typeof entry.createdAt !== 'number' || !Number.isFinite(entry.createdAt)) {
    throw invalidKnowledgeInput(`${at}.createdAt must be a finite number (got ${show(entry.createdAt)}).`);
  }
  assertVector(entry.vector, `${at}.vector`);
}

/** Only the namespace: some adapters need it before they can check the rest. */
export function validateQueryNamespace(query: KnowledgeQuery): string {
  const namespace: unknown = query?.filter?.namespace;
  assertNonEmpty(namespace, 'query.filter.namespace');
  return namespace;
}

/** A whole query: namespace, k, and a vector of the index's dimension. Returns k. */
export function validateQuery(query: KnowledgeQuery, dimensions: number | null): number {
  validateQueryNamespace(query);
  if (!Number.isInteger(query.k) || query.k < 0) throw invalidKnowledgeInput(`query.k must be a non-negative integer (got ${String(query.k)}).`);
  assertVector(query.vector, 'query.vector');
  if (dimensions !== null && query.vector.length !== dimensions) throw knowledgeDimensionMismatch('the query vector', query.vector.length, dimensions);
  return query.k;
}

/** Filters reach SQL as bound parameters, so a wrong type is refused here rather than by the driver. */
export function validateFilter(filter: KnowledgeFilter, at: string): void {
  if (typeof filter !== 'object' || filter === null) throw invalidKnowledgeInput(`${at} must be an object (got ${show(filter)}).`);
  const { namespace, kinds, sessionId, currentOnly } = filter;
  if (namespace !== undefined && typeof namespace !== 'string') throw invalidKnowledgeInput(`${at}.namespace must be a string (got ${show(namespace)}).`);
  if (kinds !== undefined && !(Array.isArray(kinds) && kinds.every((kind) => typeof kind === 'string'))) {
    throw invalidKnowledgeInput(`${at}.kinds must be an array of kinds (got ${show(kinds)}).`);
  }
  if (sessionId !== undefined && typeof sessionId !== 'string') throw invalidKnowledgeInput(`${at}.sessionId must be a string (got ${show(sessionId)}).`);
  if (currentOnly !== undefined && typeof currentOnly !== 'boolean') {
    throw invalidKnowledgeInput(`${at}.currentOnly must be a boolean (got ${show(currentOnly)}).`);
  }
}

/** Ids need only be strings: an unknown or empty id simply matches nothing. */
export function validateIds(ids: unknown, at: string): asserts ids is string[] {
  if (!Array.isArray(ids)) throw invalidKnowledgeInput(`${at} must be an array of ids (got ${show(ids)}).`);
  const bad = ids.findIndex((id) => typeof id !== 'string');
  if (bad !== -1) throw invalidKnowledgeInput(`${at}[${bad}] must be a string (got ${show(ids[bad])}).`);
}

/** Each change needs a string id and a boolean `current`; unknown ids are ignored later, as the port says. */
export function validateChanges(changes: { id: string; current: boolean }[]): void {
  if (!Array.isArray(changes)) throw invalidKnowledgeInput(`setCurrent expects an array of changes (got ${show(changes)}).`);
  const badId = changes.findIndex((change) => typeof change?.id !== 'string');
  if (badId !== -1) throw invalidKnowledgeInput(`changes[${badId}].id must be a string (got ${show(changes[badId]?.id)}).`);
  const bad = changes.findIndex((change) => typeof change.current !== 'boolean');
  if (bad !== -1) throw invalidKnowledgeInput(`changes[${bad}].current must be a boolean (got ${show(changes[bad]?.current)}).`);
}

function assertNonEmpty(value: unknown, at: string): asserts value is string {
  if (typeof value !== 'string' || value === '') throw invalidKnowledgeInput(`${at} must be a non-empty string (got ${show(value)}).`);
}

function assertVector(vector: unknown, at: string): asserts vector is number[] {
  if (!Array.isArray(vector) || vector.length === 0) throw invalidKnowledgeInput(`${at} must be a non-empty array of numbers.`);
  const bad = vector.findIndex((value) => typeof value !== 'number' || !(Math.abs(value) <= FLOAT32_MAX));
  if (bad !== -1) {
    throw invalidKnowledgeInput(`${at}[${bad}] must be a finite number within the float32 range (got ${String(vector[bad])}).`);
  }
}

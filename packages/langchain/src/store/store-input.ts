import { BaseStore, type GetOperation, type ListNamespacesOperation, type Operation, type OperationResults, type PutOperation, type SearchOperation } from '@langchain/langgraph';
import { nameProblem, plainJsonProblem, StrataError } from '@strata/core';

/**
 * LangGraph's own namespace rules, with LangGraph's own error (InvalidNamespaceError): BaseStore's
 * `get` and `put` check the namespace before they call `batch`, so a store whose batch does
 * nothing applies them. (@langchain/langgraph re-exports neither `validateNamespace` nor the
 * error class, and this package does not depend on @langchain/langgraph-checkpoint.)
 */
class LangGraphRules extends BaseStore {
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    return operations.map(() => null) as OperationResults<Op>;
  }
}
const langGraph = new LangGraphRules();

const NAME_HINT = "Labels and keys are compared exactly: pass the same text every time, without surrounding whitespace, control or invisible characters, in Unicode NFC (label.normalize('NFC')).";

function invalid(message: string, hint: string): StrataError {
  return new StrataError('INVALID_INPUT', message, { hint });
}

/** Which operation it is, told apart as InMemoryStore does (a put is the one with a value). */
export type Classified = { kind: 'get'; op: GetOperation } | { kind: 'put'; op: PutOperation } | { kind: 'search'; op: SearchOperation } | { kind: 'list'; op: ListNamespacesOperation };

export function classify(op: Operation): Classified {
  if ('namespacePrefix' in op) return { kind: 'search', op };
  if ('value' in op) return { kind: 'put', op };
  if ('key' in op && 'namespace' in op) return { kind: 'get', op };
  if ('matchConditions' in op || 'limit' in op) return { kind: 'list', op };
  throw invalid(
    `unknown store operation ${JSON.stringify(op)}`,
    'Pass get ({ namespace, key }), put ({ namespace, key, value }), search ({ namespacePrefix, ... }) or listNamespaces ({ matchConditions, limit, offset }) operations.',
  );
}

/**
 * Checks a whole batch before any of it runs, so a bad operation fails the batch and writes
 * nothing: LangGraph's rules as InMemoryStore applies them (InvalidNamespaceError), then
 * strata's (StrataError INVALID_INPUT).
 */
export async function checkOperations(ops: readonly Operation[]): Promise<Classified[]> {
  const classified = ops.map(classify);
  for (const { kind, op } of classified) {
    if (kind === 'get' || kind === 'put') await checkNamespace(op.namespace, 'namespace');
    if (kind === 'put') checkPut(op);
    if (kind === 'search') {
      if (!Array.isArray(op.namespacePrefix) || op.namespacePrefix.length > 0) await checkNamespace(op.namespacePrefix, 'namespacePrefix');
      checkSearch(op);
    }
    if (kind === 'list') checkList(op);
  }
  return classified;
}

/**
 * Rejects a namespace InMemoryStore's batch rejects, with LangGraph's InvalidNamespaceError:
 * empty, or a label that is empty, not a string, or holds '.', ':' or NUL. (`put` also
 * refuses the reserved root label "langgraph", through BaseStore, before batch.)
 */
async function checkNamespace(namespace: unknown, what: string): Promise<void> {
  if (!Array.isArray(namespace)) throw invalid(`${what} must be an array of labels (got ${JSON.stringify(namespace) ?? String(namespace)})`, 'Pass a namespace tuple such as ["users", "u42"].');
  if (namespace.length === 0) await langGraph.put([], 'key', {});
  await langGraph.get(namespace as string[], 'key');
}

/** Rejects a put strata cannot store as given (beyond LangGraph's namespace rules). */
function checkPut(op: PutOperation): void {
  const problems = op.namespace.map((label) => nameProblem(label)).filter((p) => p !== undefined);
  if (problems.length) throw invalid(`namespace ${JSON.stringify(op.namespace)} has a label that ${problems[0] ?? ''}`, NAME_HINT);
  if (typeof op.key !== 'string' || op.key.length === 0)
    throw invalid(`key must be a non-empty string (got ${JSON.stringify(op.key) ?? String(op.key)})`, 'Pass the key of the item, e.g. store.put(["users", "u42"], "preferences", { theme: "dark" }).');
  const keyProblem = nameProblem(op.key);
  if (keyProblem) throw invalid(`key ${JSON.stringify(op.key)} ${keyProblem}`, NAME_HINT);
  if (op.value !== null && !isPlainObject(op.value)) {
    throw invalid(
      `the value of ${JSON.stringify(op.key)} must be a plain object or null (got ${describe(op.value)})`,
      'Store an object such as { text: "..." } (wrap a string or array in one); null deletes the item.',
    );
  }
  // checked for every put of a batch before any is written: a batch is stored whole or not at all
  const notJson = op.value === null ? undefined : plainJsonProblem(op.value);
  if (notJson)
    throw invalid(
      `the value of ${JSON.stringify(op.key)} cannot be stored: ${notJson}`,
      'Store plain JSON data: objects, arrays, strings, finite numbers, booleans and null (turn a Date into an ISO string).',
    );
  const { index } = op;
  if (index !== undefined && index !== null && index !== false && !(Array.isArray(index) && index.every((f) => typeof f === 'string' && f.length > 0))) {
    throw invalid(
      `index must be false or an array of field paths (got ${JSON.stringify(index)})`,
      'Pass false (not searchable by query), field paths such as ["text", "tags[*]"], or nothing for the store default.',
    );
  }
}

/** Rejects search options strata cannot answer. */
function checkSearch(op: SearchOperation): void {
  checkPage(op.limit, op.offset);
  if (op.filter !== undefined && op.filter !== null && !isPlainObject(op.filter))
    throw invalid(`filter must be an object (got ${describe(op.filter)})`, 'Pass { field: value } or { field: { $gt: 3 } } (operators $eq, $ne, $gt, $gte, $lt, $lte, $in, $nin).');
  if (op.query !== undefined && op.query !== null && typeof op.query !== 'string') throw invalid(`query must be a string (got ${describe(op.query)})`, 'Pass the text to search for.');
}

/** Rejects listNamespaces options strata cannot answer. */
function checkList(op: ListNamespacesOperation): void {
  checkPage(op.limit, op.offset);
  if (op.maxDepth !== undefined && !(Number.isInteger(op.maxDepth) && op.maxDepth > 0))
    throw invalid(`maxDepth must be a positive integer (got ${JSON.stringify(op.maxDepth)})`, 'Pass how many leading labels to keep, e.g. 2.');
  for (const condition of op.matchConditions ?? []) {
    if ((condition.matchType !== 'prefix' && condition.matchType !== 'suffix') || !Array.isArray(condition.path)) {
      throw invalid(`match condition ${JSON.stringify(condition)} is not { matchType: 'prefix' | 'suffix', path: string[] }`, 'Use store.listNamespaces({ prefix, suffix, maxDepth, limit, offset }).');
    }
  }
}

function checkPage(limit: unknown, offset: unknown): void {
  for (const [name, n] of [
    ['limit', limit],
    ['offset', offset],
  ] as const) {
    if (n !== undefined && !(Number.isInteger(n) && (n as number) >= 0))
      throw invalid(`${name} must be a non-negative integer (got ${JSON.stringify(n) ?? String(n)})`, 'Page with limit (how many) and offset (how many to skip).');
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value === null) return 'null';
  if (typeof value === 'object') return `a ${(value as { constructor?: { name?: string } }).constructor?.name ?? 'non-plain object'}`;
  return `${typeof value} ${JSON.stringify(value) ?? String(value)}`;
}

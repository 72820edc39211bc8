/**
 * LangGraph's `search` filter, exactly as InMemoryStore applies it (its `compareValues`, which
 * @langchain/langgraph does not export): every filter entry must hold for the value's top-level
 * field of that name. An entry is a value compared with `===`, or an object of operators
 * (`$eq`, `$ne`, `$gt`, `$gte`, `$lt`, `$lte`, `$in`, `$nin`); `$gt`..`$lte` compare as numbers.
 * A dotted name is a literal field name, not a path, and an object value is compared by
 * identity, so it never matches a stored object: the same answers as InMemoryStore.
 */
export function matchesFilter(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  if (filter === undefined) return true;
  return Object.entries(filter).every(([field, expected]) => compareValues(value[field], expected));
}

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin']);

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.keys(value).every((key) => OPERATORS.has(key));
}

function compareValues(actual: unknown, expected: unknown): boolean {
  if (!isOperatorObject(expected)) return actual === expected;
  return Object.entries(expected).every(([op, operand]) => {
    switch (op) {
      case '$eq':
        return actual === operand;
      case '$ne':
        return actual !== operand;
      case '$gt':
        return Number(actual) > Number(operand);
      case '$gte':
        return Number(actual) >= Number(operand);
      case '$lt':
        return Number(actual) < Number(operand);
      case '$lte':
        return Number(actual) <= Number(operand);
      case '$in':
        return Array.isArray(operand) ? operand.includes(actual) : false;
      case '$nin':
        return Array.isArray(operand) ? !operand.includes(actual) : true;
      default:
        return false;
    }
  });
}

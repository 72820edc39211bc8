import { textsAtPath } from './text-at-path.js';

/**
 * The text strata indexes an item under (its turn's content): the texts at `fields`, one per
 * line, when the store or the put names index fields (LangGraph paths, see textsAtPath);
 * otherwise every string, number and boolean in the value as `path: text`, one per line, so
 * that field names are searchable too (`city: Lisbon`). Empty when the value holds no text.
 * @example
 * searchableText({ name: 'Ana', home: { city: 'Lisbon' } }, undefined); // 'name: Ana\nhome.city: Lisbon'
 */
export function searchableText(value: Record<string, unknown>, fields: readonly string[] | undefined): string {
  const lines = fields === undefined ? scalarLines(value, '') : fields.flatMap((field) => textsAtPath(value, field));
  return lines.filter((line) => line.trim().length > 0).join('\n');
}

function scalarLines(value: unknown, path: string): string[] {
  if (typeof value === 'string' && value.trim() === '') return [];
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return [path ? `${path}: ${String(value)}` : String(value)];
  if (Array.isArray(value)) return value.flatMap((item) => scalarLines(item, path));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, item]) => scalarLines(item, path ? `${path}.${name}` : name));
}

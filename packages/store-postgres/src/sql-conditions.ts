/* Building a statement's WHERE clause and LIMIT from the filter fields that are set. */

/** WHERE conditions and their parameters ($1, $2, ...), added only for the filter fields that are set. */
export class Conditions {
  readonly params: unknown[] = [];
  private readonly clauses: string[] = [];

  /** `clause` names its parameter `?`, replaced by its number. */
  add(clause: string, value: unknown): this {
    if (value === undefined) return this;
    this.params.push(value);
    this.clauses.push(clause.replace('?', `$${this.params.length}`));
    return this;
  }

  addClause(clause: string): this {
    this.clauses.push(clause);
    return this;
  }

  /** The next parameter's placeholder, for a value added after the conditions (LIMIT). */
  next(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  where(): string {
    return this.clauses.length === 0 ? '' : ` WHERE ${this.clauses.join(' AND ')}`;
  }
}

/** A LIMIT like `Array.slice` reads it: truncated, at least 0; none for an infinite one. */
export function countOf(value: number | undefined): number | undefined {
  if (value === undefined || value === Infinity) return undefined;
  const count = Math.trunc(value);
  return Number.isNaN(count) || count < 0 ? 0 : count;
}

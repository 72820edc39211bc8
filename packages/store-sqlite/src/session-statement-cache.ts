import type Database from 'better-sqlite3';

/**
 * Read statements, prepared on first use and kept: a read's SQL depends on which filter
 * fields are set, so there are a bounded number of shapes, each prepared once per store.
 */
export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

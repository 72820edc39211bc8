import type Database from 'better-sqlite3';
import { decodeLexicalDump, lexicalRulesFingerprint } from '@strata/core';
import type { LexicalImage, StoreOp } from '@strata/core';

/** The largest rowid of each table a snapshot holds the rows of. */
export interface SnapshotMarks {
  messages: number;
  summaries: number;
  facts: number;
}

export interface RestoredSnapshot {
  dump: LexicalImage;
  marks: SnapshotMarks;
}

interface SnapshotRow {
  rules: string;
  messages_rowid: number;
  summaries_rowid: number;
  facts_rowid: number;
  data: Buffer;
}

/**
 * Persisted lexical indexes, one row per namespace (`lexical_snapshots`). A snapshot holds
 * the index of every row up to its marks; a reader restores it and adds the rows written
 * after (rowids only grow, and a summary or fact replaced by id gets a new row). Rows that
 * disappeared are found by comparing ids: summaries and facts are few next to turns.
 * Deleting turns or sessions drops the namespace's snapshot in the same transaction, so
 * forgotten words do not outlive their rows in the file.
 */
export class LexicalSnapshots {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    this.statements = {
      read: db.prepare<[string], SnapshotRow>('SELECT rules, messages_rowid, summaries_rowid, facts_rowid, data FROM lexical_snapshots WHERE namespace = ?'),
      write: db.prepare(`
        INSERT INTO lexical_snapshots (namespace, rules, messages_rowid, summaries_rowid, facts_rowid, documents, data, saved_at)
        VALUES (@namespace, @rules, @messages, @summaries, @facts, @documents, @data, @savedAt)
        ON CONFLICT (namespace) DO UPDATE SET rules = excluded.rules, messages_rowid = excluded.messages_rowid,
          summaries_rowid = excluded.summaries_rowid, facts_rowid = excluded.facts_rowid, documents = excluded.documents,
          data = excluded.data, saved_at = excluded.saved_at`),
      marks: db.prepare<[], SnapshotMarks>(`SELECT
          (SELECT coalesce(max(rowid), 0) FROM messages) AS messages,
          (SELECT coalesce(max(rowid), 0) FROM summaries) AS summaries,
          (SELECT coalesce(max(rowid), 0) FROM facts) AS facts`),
      dropForMessages: db.prepare<[string]>('DELETE FROM lexical_snapshots WHERE namespace IN (SELECT namespace FROM messages WHERE id IN (SELECT value FROM json_each(?)))'),
      dropForSessions: db.prepare<[string]>('DELETE FROM lexical_snapshots WHERE namespace IN (SELECT namespace FROM sessions WHERE id IN (SELECT value FROM json_each(?)))'),
    };
  }

  /** The namespace's snapshot, unless there is none or it was taken under other lexical rules. */
  read(namespace: string): RestoredSnapshot | undefined {
    const row = this.statements.read.get(namespace);
    if (row === undefined || row.rules !== lexicalRulesFingerprint()) return undefined;
    try {
      return { dump: decodeLexicalDump(row.data), marks: { messages: row.messages_rowid, summaries: row.summaries_rowid, facts: row.facts_rowid } };
    } catch {
      // A damaged snapshot is only a lost shortcut: the caller rebuilds from the rows.
      return undefined;
    }
  }

  /**
   * Stores an encoded dump (`encodeLexicalDump`) as the namespace's snapshot, marked with the
   * tables' current largest rowids. Call only inside a write transaction in which the dump
   * matches the file's rows.
   */
  write(namespace: string, encoded: Uint8Array, documents: number): void {
    const marks = this.statements.marks.get() as SnapshotMarks;
    this.statements.write.run({
      namespace,
      rules: lexicalRulesFingerprint(),
      ...marks,
      documents,
      data: Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength),
      savedAt: Date.now(),
    });
  }

  /** Inside a write's transaction, before its ops: drops the snapshots of namespaces whose turns or sessions it deletes. */
  dropBeforeDeletes(ops: readonly StoreOp[]): void {
    for (const op of ops) {
      if (op.type !== 'delete') continue;
      if (op.messages?.length) this.statements.dropForMessages.run(JSON.stringify(op.messages));
      if (op.sessions?.length) this.statements.dropForSessions.run(JSON.stringify(op.sessions));
    }
  }

  /** Runs `save` in an immediate transaction. */
  transaction<T>(save: () => T): T {
    return this.db.transaction(save).immediate();
  }
}

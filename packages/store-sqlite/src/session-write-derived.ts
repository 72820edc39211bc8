import { StrataError } from '@strata/core';
import type { Fact, JobRecord, StoreOp, Summary } from '@strata/core';
import { factRow, jobRow, summaryRow } from './session-rows.js';
import type { WriteStatements } from './session-statements.js';

/*
 * Write steps for derived records (summaries, facts), the job ledger and deletes. Every
 * change to a summary or fact keeps its provenance rows in step, in the same transaction.
 */

type DeleteOp = Extract<StoreOp, { type: 'delete' }>;
type SourceKind = 'summary' | 'fact';

/** Inserts or replaces each summary by id. */
export function putSummaries(statements: WriteStatements, summaries: readonly Summary[]): void {
  for (const summary of summaries) {
    assertSessionExists(statements, summary);
    statements.deleteSummary.run(summary.id);
    statements.deleteSources.run('summary', summary.id);
    statements.insertSummary.run(summaryRow(summary));
    insertSources(statements, 'summary', summary.id, summary.sourceMessageIds);
  }
}

/** Inserts or replaces each fact by id; superseded facts stay stored, searches skip them. */
export function putFacts(statements: WriteStatements, facts: readonly Fact[]): void {
  for (const fact of facts) {
    statements.deleteFact.run(fact.id);
    statements.deleteSources.run('fact', fact.id);
    statements.insertFact.run(factRow(fact));
    insertSources(statements, 'fact', fact.id, fact.sourceMessageIds);
  }
}

/** The ledger records when a job was first applied; recording it again changes nothing. */
export function recordJobs(statements: WriteStatements, jobs: readonly JobRecord[]): void {
  for (const job of jobs) statements.insertJob.run(jobRow(job));
}

/** Deletes by id; unknown ids are ignored. */
export function deleteRecords(statements: WriteStatements, op: DeleteOp): void {
  for (const id of op.sessions ?? []) deleteSession(statements, id);
  for (const id of op.messages ?? []) statements.deleteMessage.run(id);
  for (const id of op.summaries ?? []) {
    statements.deleteSummary.run(id);
    statements.deleteSources.run('summary', id);
  }
  for (const id of op.facts ?? []) {
    statements.deleteFact.run(id);
    statements.deleteSources.run('fact', id);
  }
  for (const key of op.jobs ?? []) statements.deleteJob.run(key);
}

/**
 * Messages and summaries go by ON DELETE CASCADE; what the foreign keys cannot reach (the
 * summaries' provenance, the job ledger) goes first, while the rows that name it still
 * exist. Facts are kept: they belong to the namespace, core trims them.
 */
function deleteSession(statements: WriteStatements, sessionId: string): void {
  statements.deleteSessionSummarySources.run(sessionId);
  statements.deleteSessionJobs.run(sessionId);
  statements.deleteSession.run(sessionId);
}

function insertSources(statements: WriteStatements, kind: SourceKind, item: string, messageIds: readonly string[]): void {
  messageIds.forEach((message, position) => {
    statements.insertSource.run({ kind, item, message, position });
  });
}

/** A summary belongs to a stored session (deleting the session deletes it). */
function assertSessionExists(statements: WriteStatements, summary: Summary): void {
  if (statements.sessionById.get(summary.sessionId) !== undefined) return;
  throw new StrataError('NOT_FOUND', `Session "${summary.sessionId}" does not exist, so strata cannot store summary "${summary.id}" for it.`, {
    hint: 'Create the session first (or a putSession step earlier in the same batch); a forgotten session takes its summaries with it.',
  });
}

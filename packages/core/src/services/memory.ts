// Kept in one file: the Memory facade, one method per public operation, each checking its input and handing the work to a service.
import type { MessageInput, StoredMessage } from '../domain/message.js';
import type { Fact } from '../domain/derived.js';
import type { PendingJob, SearchHit } from '../domain/retrieval.js';
import type { Session } from '../domain/session.js';
import { parseWith } from '../config/parse.js';
import {
  NAME_HINT,
  exportSchema,
  importOptionsSchema,
  factsListSchema,
  forgetSchema,
  limitedInputSchemas,
  listSessionsSchema,
  flushSchema,
  listMessagesSchema,
  pruneSchema,
  sessionIdSchema,
  titleSchema,
  usageFilterSchema,
} from './input-schemas.js';
import { usageReport, type UsageReport } from './derivation/usage-report.js';
import { StrataError } from '../errors/strata-error.js';
import { newId } from '../engine/ids.js';
import type { DeriveResult, DroppedItem } from '../domain/jobs.js';
import type { MemoryDeps } from './deps.js';
import { applyResult } from './derivation/apply.js';
import { buildContext, type ContextOptions, type ContextResult } from './retrieval/context.js';
import { deriveJob } from './derivation/derive.js';
import { followDerivation, type FlushOptions, type FlushReport } from './derivation/derivation-progress.js';
import { DegradedRecovery } from './derivation/degraded-recovery.js';
import { statsSince, type MemoryStats } from './derivation/derivation-stats.js';
import type { ForgetReport, ForgetTarget } from './lifecycle/forget.js';
import { Mutex } from './mutex.js';
import { reindex, type ReindexReport } from './retrieval/reindex.js';
import { parsedQueryFor, retrieve, toSearchHit } from './retrieval/retrieve.js';
import { scheduleSession } from './derivation/schedule.js';
import { collectBundle, importBundle, renderBundle, type ExportFormat, type ImportOptions, type ImportReport } from './lifecycle/transfer.js';
import { toNewMessagesInSlices } from './normalize-messages.js';
import { attachIngested } from './topics/topic-attach.js';
import { touchTopicsOf } from './topics/topic-decay.js';
import { MacrotaskBatch, MacrotaskQueue } from './macrotask-batch.js';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { forgetWithTopics } from './topics/topic-forget.js';
import { sessionMermaid, withThreadPaths } from './topics/topic-views.js';
import { topicsApi, type TopicsApi } from './topics/topics-api.js';
import type { MemoryApi, SearchRequest } from './memory-api.js';

const SESSION_HINT = 'Pass the id returned by memory.sessions.create().';

/** Rounds of drain and re-plan a flush runs before it reports what is left. */
const DRAIN_ROUNDS = 100;

/**
 * strata's facade: the four tiers of one app's memory. Create it with `createMemory()`.
 * Every method validates its input and throws StrataError (INVALID_INPUT, NOT_FOUND, ...).
 */
export class Memory implements MemoryApi {
  private readonly applyLock = new Mutex();
  /** Input schemas bounded by `policy.limits`. */
  private readonly inputs: ReturnType<typeof limitedInputSchemas>;
  /** Sessions whose scheduling failed; retried by flush() and the next append. */
  private readonly unscheduled = new Set<string>();
  private closed = false;
  private readonly recovery: DegradedRecovery;
  /**
   * Planning after appends, on the next macrotask (unless the queue derives inline), once per
   * session for any number of appends in between; getContext, flush and close wait for it.
   */
  private readonly deferred = new MacrotaskQueue<string>((sessionId) => this.scheduleAfterAppend(sessionId));
  /**
   * Topic accesses (turns that getContext and search returned), written after the read
   * returns, under the apply lock, once for the reads in between: a read never waits behind
   * applies nor pays a write. Whatever reads or changes topics settles them first.
   */
  private readonly accesses = new MacrotaskBatch<string>(async (messageIds) => {
    try {
      await this.applyLock.run(() => touchTopicsOf(this.deps, messageIds));
    } catch (error) {
      this.deps.reportError({ kind: 'topic-access', error });
    }
  });

  /** Sessions: create, read, list, rename, delete (with everything derived from them). */
  readonly sessions = {
    /**
     * Creates an empty session in `namespace` and returns it; without `id`, a fresh `ses_…` id.
     * @throws StrataError CONFLICT when a session with that `id` exists already.
     */
    create: (input: { namespace: string; id?: string; title?: string; metadata?: Record<string, unknown> }) => this.createSession(input),
    /** The session with this id, or null when there is none. */
    get: (id: string) => this.getSession(id),
    /**
     * Sessions, all or of one namespace, most recently updated first (ties by id); `limit` keeps
     * the first N, `updatedBefore` (epoch ms) only those last updated before it.
     */
    list: (filter: { namespace?: string; limit?: number; updatedBefore?: number } = {}) => this.listSessions(filter),
    /**
     * Sets a session's title (one line, at most 500 characters) and its `updatedAt`; returns it.
     * @throws StrataError NOT_FOUND for an unknown session.
     */
    rename: (id: string, title: string) => this.renameSession(id, title),
    /**
     * Forgets the session, its messages and summaries, in the store and the KB; facts stated only
     * by its turns go too. Same as `forget({ sessionId })`, with its report.
     * @throws StrataError NOT_FOUND for an unknown session.
     */
    delete: (id: string) => this.forget({ sessionId: id }),
    /**
     * Forgets every session (of `namespace`, or of all) not updated in the last `olderThanDays`
     * days, as `delete` does; returns the ids of the sessions forgotten.
     */
    prune: (options: { olderThanDays: number; namespace?: string }) => this.pruneSessions(options),
  };

  /** Long-term facts of a namespace. */
  readonly facts = {
    /** The namespace's facts, oldest `validFrom` first; only current ones unless `includeSuperseded`. */
    list: (filter: { namespace: string; includeSuperseded?: boolean }) => this.listFacts(filter),
  };

  /** Topics of a session: list with decay and storage stats, importance, decay now, restore. */
  readonly topics: TopicsApi;

  /** @internal use createMemory() */
  constructor(private readonly deps: MemoryDeps) {
    this.inputs = limitedInputSchemas(deps.policy.limits);
    this.recovery = new DegradedRecovery(deps, (error) => deps.reportError({ kind: 'rederive', error }));
    this.topics = topicsApi(
      deps,
      this.applyLock,
      (id) => this.requireSession(id),
      () => this.accesses.settle(),
    );
  }

  /** @internal the runtime the queue calls. */
  async start(): Promise<void> {
    await this.deps.queue.start({
      derive: (job, attempt) => deriveJob(job, this.deps, attempt),
      apply: (result) => this.applyAndReschedule(result),
      failed: (job, error, attempt) => {
        // work cut off by close() is not a failure: the ledger plans it again on the next open
        if (this.closed || StrataError.is(error, 'CLOSED')) return;
        this.recovery.countFailedTry();
        const endpoint = StrataError.is(error) ? error.endpoint : undefined;
        this.deps.reportError({ kind: 'derive', error, sessionId: job.sessionId, job: { key: job.key, type: job.type }, attempt, ...(endpoint === undefined ? {} : { endpoint }) });
      },
    });
  }

  /**
   * Applies a result in three slices of the event loop (store and KB, topic attachment,
   * planning what follows), so that the app's own work gets a turn between them: with an
   * in-memory store nothing here awaits real I/O. A read in between sees the facts before their
   * turns' topic links, which attachment adds a moment later.
   */
  private async applyAndReschedule(result: DeriveResult): Promise<void> {
    const applied = await this.applyLock.run(async () => {
      const written = await applyResult(this.deps, result);
      if (!written) return false;
      await nextMacrotask();
      await attachIngested(this.deps, result, (usage) => this.recovery.countThreadSelection(result.job.namespace, usage));
      return true;
    });
    if (!applied) return;
    const job = { key: result.job.key, type: result.job.type };
    if ('dropped' in result && result.dropped?.length) this.deps.reportError({ kind: 'model-output', sessionId: result.job.sessionId, job, error: droppedItemsError(result.job.key, result.dropped) });
    if (result.degraded)
      this.deps.reportError({ kind: 'degraded', sessionId: result.job.sessionId, job, error: degradedError(result), ...(result.degradedBy?.endpoint ? { endpoint: result.degradedBy.endpoint } : {}) });
    await nextMacrotask();
    await this.recovery.applied(result);
    // Planning goes on from here: the next summaries and consolidations, and the next slice of a long backlog.
    if (!result.job.rederive) await scheduleSession(this.deps, result.job.sessionId);
  }

  /**
   * Re-derives, with the configured models, every summary, synopsis and fact derived offline
   * (degraded) because the model failed, in every session of the store, and waits for them
   * to be applied. Degraded artefacts are replaced in place (summaries keep their id, range
   * and provenance); degraded facts are taken back and the re-derived facts reconciled.
   * Re-derivation also starts by itself in this memory as soon as the model answers again;
   * call this after a restart, or to force it. A re-derivation that fails keeps its marker
   * and is tried again later (`remaining` counts them).
   */
  async rederiveDegraded(): Promise<{ jobs: number; remaining: number }> {
    this.assertOpen();
    return this.recovery.rederiveAll(async () => {
      await this.flush();
    });
  }

  /**
   * The token usage the models reported for the jobs applied to a namespace, or to one of its
   * sessions: in total, by job type, by model and by session. Read from the job ledger, so it
   * counts every process and survives restarts; a forgotten session's usage goes with it.
   * @throws StrataError INVALID_INPUT for a bad name; NOT_FOUND when `sessionId` is not a session of `namespace`.
   * @example
   * const { total, byModel } = await memory.usage({ namespace: 'user-42' });
   */
  async usage(filter: { namespace: string; sessionId?: string }): Promise<UsageReport> {
    this.assertOpen();
    const { namespace, sessionId } = parseWith(usageFilterSchema, filter, 'usage filter', `Pass { namespace: string, sessionId?: string }. ${NAME_HINT}`);
    if (sessionId === undefined) return usageReport(this.deps, namespace, await this.deps.store.sessions({ namespace }));
    const session = await this.getSession(sessionId);
    // another namespace's session is reported exactly as a missing one
    if (session?.namespace !== namespace)
      throw new StrataError('NOT_FOUND', `no session with id ${JSON.stringify(sessionId)} in namespace ${JSON.stringify(namespace)}`, {
        hint: `${SESSION_HINT} List sessions with memory.sessions.list({ namespace }).`,
      });
    return usageReport(this.deps, namespace, [session], sessionId);
  }

  /**
   * Derivation counters since this memory was created: token usage the models reported
   * (`usage_metadata`), results applied, degraded and re-derived. Results derived by other
   * processes (e.g. queue workers) are counted here when this memory applies them.
   */
  stats(): MemoryStats {
    return this.recovery.stats();
  }

  /**
   * Stores turns verbatim (session tier) and schedules their derivation. Returns the stored
   * messages with their per-session `seq`. Caller-supplied ids and times are kept.
   * Derivation is planned right after this returns (on the next macrotask); `getContext` and
   * `flush` wait for it. With a queue that derives inline, it is planned, derived and applied
   * before this returns.
   * @throws StrataError NOT_FOUND for an unknown session, CONFLICT for a reused message id.
   */
  async append(sessionId: string, message: MessageInput | MessageInput[]): Promise<StoredMessage[]> {
    this.assertOpen();
    const id = parseWith(sessionIdSchema, sessionId, 'sessionId', SESSION_HINT);
    const inputs = parseWith(
      this.inputs.messages,
      Array.isArray(message) ? message : [message],
      'message',
      `Pass { role: 'user' | 'assistant' | 'system' | 'tool', content: string } or an array of them, content of at most ${this.deps.policy.limits.messageBytes} bytes (policy.limits.messageBytes), metadata as plain JSON; ids follow the naming rules. ${NAME_HINT}`,
    );
    const receipt = await this.deps.store.write({ ops: [{ type: 'appendMessages', sessionId: id, messages: await toNewMessagesInSlices(inputs, this.deps) }] });
    if (this.deps.queue.derivesInline) await this.scheduleAfterAppend(id);
    else this.deferred.add([id]);
    return receipt.messages;
  }

  private async schedule(sessionId: string): Promise<void> {
    this.unscheduled.add(sessionId);
    await scheduleSession(this.deps, sessionId);
    this.unscheduled.delete(sessionId);
  }

  /**
   * Scheduling after an append must not fail the append: the turns are stored, and a
   * retry by the caller would store them twice. The session stays marked and is scheduled
   * again by the next append, getContext or flush (flush reports the error).
   */
  private async scheduleAfterAppend(sessionId: string): Promise<void> {
    try {
      await this.schedule(sessionId);
    } catch (error) {
      this.deps.reportError({ kind: 'schedule', error, sessionId });
    }
  }

  /**
   * A session's stored turns (session tier), verbatim, oldest first; `fromSeq` and `toSeq`
   * (inclusive) and `last` (the newest N) narrow the range.
   * @throws StrataError NOT_FOUND for an unknown session.
   */
  async messages(sessionId: string, options: { fromSeq?: number; toSeq?: number; last?: number } = {}): Promise<StoredMessage[]> {
    this.assertOpen();
    const session = await this.requireSession(sessionId);
    const opts = parseWith(listMessagesSchema, options, 'messages options', 'fromSeq, toSeq and last must be positive integers.');
    return this.deps.store.messages({ sessionId: session.id, ...opts });
  }

  /**
   * The context for the next model call, within `budgetTokens`: synopsis and summaries,
   * facts and older extracts matching the query (default: the last user turn), and the
   * recent turns. `manifest` says why each candidate is in or out; `pending` what derivation
   * has not landed yet (turns it covers stay verbatim until it does). The current turn (the
   * newest user turn and the tool calls and results after it) is always in; `systemPrompt`
   * leads the one system message and counts against the budget.
   */
  async getContext(sessionId: string, options: ContextOptions = {}): Promise<ContextResult> {
    this.assertOpen();
    const session = await this.requireSession(sessionId);
    const opts = parseWith(
      this.inputs.getContext,
      options,
      'getContext options',
      `budgetTokens must be a positive integer; query a string of at most ${this.deps.policy.limits.queryBytes} bytes (policy.limits.queryBytes); systemPrompt a string of at most ${this.deps.policy.limits.messageBytes} bytes.`,
    );
    await this.deferred.settleOne(session.id);
    if (this.unscheduled.has(session.id)) await this.scheduleAfterAppend(session.id);
    const context = await buildContext(this.deps, session, { ...opts, budgetTokens: opts.budgetTokens ?? this.deps.policy.context.defaultBudgetTokens });
    if (opts.touch !== false) this.accesses.add(context.manifest.filter((m) => m.included && m.kind === 'turn' && m.tier === 'session').map((m) => m.id));
    return context;
  }

  /**
   * Hybrid (BM25 + vector) search over one namespace's turns, summaries and facts, best first.
   * With `contextDepth`, each turn hit carries up to that many turns of its thread path.
   * Returning a turn counts as an access to its topic (a cold topic is restored), unless
   * `touch: false` (a look that is not a use).
   */
  async search(request: SearchRequest): Promise<SearchHit[]> {
    this.assertOpen();
    const req = parseWith(
      this.inputs.search,
      request,
      'search request',
      `Pass { namespace, query, k?, kinds?: ['turn' | 'summary' | 'fact'] }, query of at most ${this.deps.policy.limits.queryBytes} bytes (policy.limits.queryBytes).`,
    );
    const hits = await retrieve(this.deps, { namespace: req.namespace, query: parsedQueryFor(this.deps, req.query), k: req.k, kinds: req.kinds ?? ['turn', 'summary', 'fact'] });
    if (req.touch !== false) this.accesses.add(hits.filter((h) => h.kind === 'turn').map((h) => h.id));
    const out = hits.map(toSearchHit);
    return req.contextDepth === undefined ? out : withThreadPaths(this.deps, out, req.contextDepth);
  }

  /** A session's conversation tree (turns by thread, grouped by topic) as a Mermaid flowchart. */
  async toMermaid(sessionId: string): Promise<string> {
    this.assertOpen();
    await this.accesses.settle();
    return sessionMermaid(this.deps, await this.requireSession(sessionId));
  }

  /**
   * Deletes messages, facts, a session or a whole namespace, and everything derived from them
   * in the store and the KB; summaries that lose a turn are re-derived from the rest. A fact
   * forgotten by id that had superseded another makes that one current again.
   * @throws StrataError NOT_FOUND when an id is not stored (or not in `namespace`, when given); nothing is forgotten then.
   */
  async forget(target: ForgetTarget): Promise<ForgetReport> {
    this.assertOpen();
    const parsed = parseWith(forgetSchema, target, 'forget target', 'Pass exactly one of { messageIds: string[], namespace? }, { factIds: string[], namespace? }, { sessionId }, { namespace }.');
    const report = await this.applyLock.run(() => forgetWithTopics(this.deps, parsed));
    for (const sessionId of report.sessionsToRederive) await this.schedule(sessionId);
    return report;
  }

  /** One session in a format: `json` (lossless bundle for import), `jsonl`, `markdown`, `text`. */
  async export(sessionId: string, options: { format: ExportFormat }): Promise<string> {
    this.assertOpen();
    const session = await this.requireSession(sessionId);
    const { format } = parseWith(exportSchema, options, 'export options', "format must be 'json', 'jsonl', 'markdown' or 'text'.");
    await this.accesses.settle();
    return renderBundle(await collectBundle(this.deps, session, this.deps.clock.now()), format);
  }

  /**
   * Imports a JSON bundle from `export` (object or text), all or nothing, and indexes it. What
   * its job ledger does not cover derives in the background, as after an append (`flush` waits).
   * `merge` skips sessions and facts that exist already (instead of CONFLICT); `namespace`
   * imports into another namespace. A current fact whose slot has one already is superseded by
   * the newer of the two. Every failure names the record and field.
   */
  async import(bundle: unknown, options: ImportOptions = {}): Promise<ImportReport> {
    this.assertOpen();
    const parsed = parseWith(importOptionsSchema, options, 'import options', `Pass { merge?: boolean, namespace?: string }. ${NAME_HINT}`);
    const report = await this.applyLock.run(() => importBundle(this.deps, bundle, parsed));
    // what the bundle's job ledger does not cover derives in the background, as after an append
    if (this.deps.queue.derivesInline) for (const id of report.sessionIds) await this.scheduleAfterAppend(id);
    else this.deferred.add(report.sessionIds);
    return report;
  }

  /**
   * Derivation jobs not yet applied: queued, running, or failed for good (with their error),
   * each naming its session. Reads the queue only; nothing waits.
   */
  async pending(): Promise<PendingJob[]> {
    this.assertOpen();
    return this.deps.queue.pending();
  }

  /** Rebuilds the knowledge base from the store. */
  async reindex(): Promise<ReindexReport> {
    this.assertOpen();
    return this.applyLock.run(() => reindex(this.deps));
  }

  /**
   * Resolves when all derivation enqueued so far, and what it triggered, has been applied.
   * With `onProgress`, reports how far derivation of the sessions with pending work has come:
   * at the start, every `progressIntervalMs` while it runs (when it moved), and a last event
   * (`done: true`) just before resolving; `derivedTurns` never decreases and, unless a job
   * failed for good, ends equal to `totalTurns`. Measuring costs one ledger row per session.
   * Returns what it counted while it ran (`derivation`: results, degraded, failed tries, tokens)
   * and what is left: the jobs that failed for good, and, if it gave up while derivation
   * kept planning more (`settled: false`), those still queued or running.
   * @throws StrataError INVALID_INPUT for bad options; whatever `onProgress` throws, once derivation has settled.
   * @example
   * await memory.append(session.id, longHistory);
   * await memory.flush({ onProgress: (p) => console.error(`${p.derivedTurns}/${p.totalTurns} turns, ${p.pendingJobs} jobs left`) });
   */
  async flush(options: FlushOptions = {}): Promise<FlushReport> {
    this.assertOpen();
    const { onProgress, progressIntervalMs } = parseWith(flushSchema, options, 'flush options', 'Pass { onProgress?: (progress) => void, progressIntervalMs?: integer >= 10 }.');
    const before = this.recovery.stats().derivation;
    await this.deferred.settle();
    for (const sessionId of [...this.unscheduled]) await this.schedule(sessionId);
    const settled = onProgress ? await followDerivation(this.deps, () => this.drainDerivation(), { onProgress, intervalMs: progressIntervalMs }) : await this.drainDerivation();
    await this.accesses.settle();
    return { settled, pending: await this.deps.queue.pending(), derivation: statsSince(before, this.recovery.stats().derivation) };
  }

  /**
   * Drains the queue in rounds until no job is queued or running (applies plan the next
   * slices). Returns false when it gave up with jobs left: each round applies at least one, so
   * 100 rounds only run out when derivation keeps planning more than it applies.
   */
  private async drainDerivation(): Promise<boolean> {
    for (let round = 0; round < DRAIN_ROUNDS; round++) {
      await this.deps.queue.drain();
      const pending = await this.deps.queue.pending();
      if (!pending.some((p) => p.state !== 'failed')) return true;
    }
    return false;
  }

  /**
   * Waits for running jobs, then closes the queue, the store and the knowledge base. Derivation
   * not yet planned (after appends or an import) is planned first when the queue keeps its jobs
   * after close; otherwise it is dropped, as the queue drops its queued jobs, and a session's
   * derivation is planned again by its next append (planning depends only on stored state).
   * After an import of 900k turns on PostgreSQL, planning all 18k sessions first took hours.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.deps.queue.keepsJobs) await this.deferred.settle();
    else await this.deferred.drop();
    await this.accesses.settle();
    await this.deps.queue.close();
    await this.deps.store.close();
    await this.deps.knowledge.close();
  }

  private async createSession(input: { namespace: string; id?: string; title?: string; metadata?: Record<string, unknown> }): Promise<Session> {
    this.assertOpen();
    const parsed = parseWith(this.inputs.createSession, input, 'session', `Pass { namespace: string, title?, metadata? }. ${NAME_HINT}`);
    if (parsed.id && (await this.deps.store.sessions({ ids: [parsed.id] })).length) {
      throw new StrataError('CONFLICT', `session ${parsed.id} already exists`, { hint: 'Use memory.sessions.get(id) to continue it, or omit id to create a new one.' });
    }
    const now = this.deps.clock.now();
    const session: Session = {
      id: parsed.id ?? newId('ses'),
      namespace: parsed.namespace,
      ...(parsed.title === undefined ? {} : { title: parsed.title }),
      metadata: parsed.metadata ?? {},
      createdAt: now,
      updatedAt: now,
      lastSeq: 0,
    };
    await this.deps.store.write({ ops: [{ type: 'putSession', session }] });
    return session;
  }

  private async getSession(id: string): Promise<Session | null> {
    this.assertOpen();
    const parsed = parseWith(sessionIdSchema, id, 'sessionId', SESSION_HINT);
    return (await this.deps.store.sessions({ ids: [parsed] }))[0] ?? null;
  }

  private async listSessions(filter: { namespace?: string; limit?: number; updatedBefore?: number }): Promise<Session[]> {
    this.assertOpen();
    return this.deps.store.sessions(parseWith(listSessionsSchema, filter, 'session filter', 'Pass { namespace?: string, limit?: number, updatedBefore?: epoch ms }.'));
  }

  private async renameSession(id: string, title: string): Promise<Session> {
    this.assertOpen();
    const session = await this.requireSession(id);
    title = parseWith(titleSchema, title, 'title', 'Pass a title of one line, at most 500 characters.');
    const renamed = { ...session, title, updatedAt: this.deps.clock.now() };
    await this.deps.store.write({ ops: [{ type: 'putSession', session: renamed }] });
    return renamed;
  }

  /** Forgets every session not updated in `olderThanDays` days (with everything derived from it). */
  private async pruneSessions(options: { olderThanDays: number; namespace?: string }): Promise<{ sessions: string[] }> {
    this.assertOpen();
    const { olderThanDays, namespace } = parseWith(pruneSchema, options, 'prune options', 'Pass { olderThanDays: number > 0, namespace? }.');
    const updatedBefore = this.deps.clock.now() - olderThanDays * 86_400_000;
    const stale = await this.deps.store.sessions({ updatedBefore, ...(namespace ? { namespace } : {}) });
    for (const session of stale) await this.forget({ sessionId: session.id });
    return { sessions: stale.map((s) => s.id) };
  }

  private async listFacts(filter: { namespace: string; includeSuperseded?: boolean }): Promise<Fact[]> {
    this.assertOpen();
    const parsed = parseWith(factsListSchema, filter, 'facts filter', 'Pass { namespace: string, includeSuperseded?: boolean }.');
    return this.deps.store.facts(parsed);
  }

  private async requireSession(id: string): Promise<Session> {
    const session = await this.getSession(id);
    if (!session) throw new StrataError('NOT_FOUND', `no session with id ${JSON.stringify(id)}`, { hint: `${SESSION_HINT} List sessions with memory.sessions.list().` });
    return session;
  }

  private assertOpen(): void {
    if (this.closed) throw new StrataError('CLOSED', 'this memory is closed', { hint: 'Create a new one with createMemory().' });
  }
}

/** Why a result was derived offline, as the error `onError` receives (kind `degraded`). */
function degradedError(result: DeriveResult): StrataError {
  const why = result.degradedBy;
  return new StrataError(why?.code ?? 'BACKEND_UNAVAILABLE', `job ${result.job.key} was derived offline (degraded): ${why?.message ?? 'the model failed'}`, {
    hint: 'The offline output is stored and marked degraded; it is re-derived with the model once it answers again (or call rederiveDegraded()).',
    retryable: false,
    ...(why?.endpoint === undefined ? {} : { endpoint: why.endpoint }),
  });
}

/** What a job's model answer lost: each item left out, and why. */
function droppedItemsError(jobKey: string, dropped: readonly DroppedItem[]): StrataError {
  const listed = dropped.map((d) => `${d.at}: ${d.reason}`).join('; ');
  return new StrataError('INTERNAL', `the model's answer for job ${jobKey} had ${dropped.length} invalid item(s), left out (the valid ones were kept): ${listed}`, {
    hint: 'A weak or local model sometimes answers off-schema; a stronger model, or method jsonSchema where the endpoint supports it, loses fewer.',
    retryable: false,
  });
}

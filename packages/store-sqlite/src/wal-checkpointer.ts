import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { type CheckpointAnswer, CheckpointThread, connectionOf } from './checkpoint-thread.js';

/** WAL size (in pages) at which a commit schedules a checkpoint: SQLite's own default mark. */
const SOFT_PAGES = 1000;
/** SQLite's auto-checkpoint, kept as a backstop (should the WAL's size be unreadable). */
const BACKSTOP_PAGES = 2 * SOFT_PAGES;
/**
 * A WAL restarted by a commit (when the checkpoint in the gap could not truncate it) is cut
 * back to this size, so the file's size still tells how full the WAL is.
 */
const RESTART_LIMIT_BYTES = 1 << 20;
/** Bytes of a WAL frame beyond its page. */
const FRAME_HEADER_BYTES = 24;
/**
 * How long a checkpoint past the backstop waits for other connections' readers and writers.
 * Below the backstop checkpoints never wait; past it, processes that keep the WAL busy
 * between each other's writes would otherwise let it grow without bound (checkpoint starvation).
 */
const STARVED_WAIT_MS = 200;
/** How long the checkpoint after a deletion waits for other connections' readers and writers. */
const SCRUB_WAIT_MS = 1000;

/**
 * Keeps WAL checkpoints out of callers' writes. SQLite's auto-checkpoint runs inside the
 * commit that takes the WAL past `wal_autocheckpoint` pages, so that one append paid for
 * copying ~1,000 pages and two fsyncs (4-8 ms: the whole p99 of single appends). Here a
 * commit only looks at the WAL's size and, past SOFT_PAGES, has the file's checkpoint thread
 * copy the WAL into the file (PASSIVE: commits go on meanwhile), then checkpoints here, in the
 * gap after the copy, what was written during it, and truncates the WAL. (Run wholly in the
 * gap, the copy and its fsyncs held the event loop: about 8 % of a busy server's main thread.)
 * Where there is no thread (a file in memory, a thread not up yet or that failed) the whole
 * checkpoint runs here, in the next turn of the event loop.
 *
 * The WAL stays bounded: a caller that writes in a loop without ever yielding (each `await`
 * of a write only runs microtasks) gets the checkpoint in a commit, a quarter past the mark;
 * SQLite's auto-checkpoint stays on at BACKSTOP_PAGES. The checkpoint also truncates the WAL,
 * so the file's size is the WAL's fill.
 */
export class WalCheckpointer {
  private pending: NodeJS.Immediate | undefined;
  /** The thread is copying the WAL into the file for this connection. */
  private copying = false;
  private readonly thread: CheckpointThread | undefined;
  /** The last checkpoint's (or WAL size read's) error, if any: kept for debugging; later writes see persistent ones. */
  lastError: unknown;
  private readonly walFile: string | null;
  private readonly softBytes: number;
  /** WAL bytes of the backstop: past them a checkpoint waits (up to STARVED_WAIT_MS) to finish. */
  private readonly backstopBytes: number;
  /** WAL bytes past which a commit schedules a checkpoint. */
  private mark: number;

  /** Reads where the WAL is and the page size (pragmas of the open connection). */
  constructor(private readonly db: Database.Database) {
    const file = (db.pragma('database_list') as { name: string; file: string }[]).find((d) => d.name === 'main')?.file ?? '';
    const wal = file !== '' && db.pragma('journal_mode', { simple: true }) === 'wal';
    // No WAL (in memory): nothing to checkpoint.
    this.walFile = wal ? `${file}-wal` : null;
    this.softBytes = SOFT_PAGES * ((db.pragma('page_size', { simple: true }) as number) + FRAME_HEADER_BYTES);
    this.backstopBytes = (BACKSTOP_PAGES / SOFT_PAGES) * this.softBytes;
    this.mark = this.softBytes;
    const connection = this.walFile === null ? undefined : connectionOf(db);
    this.thread = connection === undefined ? undefined : CheckpointThread.acquire(connection);
  }

  /**
   * After a committed write: past the mark, has the thread copy the WAL and checkpoints the
   * rest in the gap after it (or, without a thread, schedules the checkpoint for the next turn
   * of the event loop). Past the mark by a quarter more, the writer has not yielded since (an
   * import, a loop of awaited writes) or wrote in bulk: unless the thread is copying, it
   * checkpoints at once, as SQLite's auto-checkpoint would have, so the WAL stays near the
   * mark however it is written. Past the backstop it checkpoints at once in any case.
   */
  afterCommit(): void {
    if (this.walFile === null) return;
    const size = this.walBytes();
    // Smaller than when the last checkpoint ran: the WAL restarted and was cut back.
    if (size < this.mark - this.softBytes) this.mark = this.softBytes;
    // half way to the mark the thread starts, so that it is up when the mark comes (until then, checkpoints run here)
    if (size >= this.mark / 2) this.thread?.start();
    if (size < this.mark) return;
    // (while the thread copies, a commit leaves the WAL to it: the gap after the copy checkpoints)
    if (size >= this.backstopBytes || (size >= this.mark + this.softBytes / 4 && this.thread?.busy() !== true)) {
      this.close();
      this.checkpoint(size >= this.backstopBytes ? STARVED_WAIT_MS : 0);
      return;
    }
    if (this.pending !== undefined || this.copying) return;
    if (this.thread?.takesCopies() === true) {
      this.copying = true;
      void this.thread.copy().then((answer) => {
        this.copying = false;
        if ('error' in answer) this.lastError = new Error(answer.error);
        // in the gap (the answer is a macrotask of its own): what was written during the copy, and the truncation
        if (this.db.open && this.pending === undefined) this.checkpoint();
      });
      return;
    }
    this.pending = setImmediate(() => this.checkpoint());
    // A pending checkpoint does not keep the process alive: closing the last connection checkpoints.
    this.pending.unref();
  }

  /**
   * After a commit that deleted rows (secure_delete has zeroed them in the pages it wrote):
   * checkpoints at once with TRUNCATE, waiting up to `waitMs` for other connections, so the
   * WAL frames that still hold the deleted bytes are gone from disk, then gives freed pages
   * back to the file system (incremental vacuum, where the file has it). Never throws: the
   * deletion is committed. Returns whether the WAL was emptied; when a reader kept it busy,
   * a later checkpoint (and closing the last connection) does it.
   */
  scrub(waitMs = SCRUB_WAIT_MS): boolean {
    if (!this.db.open) return false;
    this.close();
    // a copy of the thread in progress would make this checkpoint busy: it ends first
    this.thread?.waitIdle(waitMs);
    const emptied = this.walFile === null || this.checkpoint(waitMs);
    this.guarded(() => this.db.pragma('incremental_vacuum'));
    return emptied;
  }

  /** Drops a scheduled checkpoint (before the connection closes). */
  close(): void {
    if (this.pending !== undefined) clearImmediate(this.pending);
    this.pending = undefined;
  }

  /**
   * Lets go of the checkpoint thread (before the connection closes): the last connection of
   * the process to the file waits for the thread's connection to close, so that its own close
   * is the last one, which checkpoints the WAL into the file and removes it.
   */
  async release(): Promise<void> {
    this.close();
    await this.thread?.release();
  }

  /**
   * TRUNCATE rather than PASSIVE: it also restarts the WAL from an empty file here, in the
   * gap, instead of in the next commit (cutting a 4 MB WAL back to journal_size_limit made
   * that append pay ~2 ms). With no busy timeout it never waits: when another connection is
   * writing or reading old frames it checkpoints what it can, like PASSIVE, and reports busy.
   * Past the backstop (`waitMs` > 0) it waits that long for them instead: that one commit pays
   * the wait, and the WAL stays bounded when several processes keep it busy.
   */
  private checkpoint(waitMs = 0): boolean {
    this.pending = undefined;
    if (!this.db.open) return false;
    // Never throws: in the gap there is no caller to tell (a throw would end the process), and
    // after a commit the caller would take a stored write for a failed one. A later checkpoint
    // or auto-checkpoint does the work; an I/O error that persists fails a later write.
    const busyTimeout = this.guarded(() => this.db.pragma('busy_timeout', { simple: true }) as number);
    if (busyTimeout === undefined) return false;
    const result = this.guarded(() => {
      this.db.pragma(`busy_timeout = ${waitMs}`);
      return this.db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
    });
    this.guarded(() => this.db.pragma(`busy_timeout = ${busyTimeout}`));
    return this.settle(result?.[0], waitMs);
  }

  /** Sets the next mark from a checkpoint's answer (undefined: it failed); true when it emptied the WAL. */
  private settle(result: Exclude<CheckpointAnswer, { error: string }> | undefined, waitMs: number): boolean {
    const size = this.walBytes();
    // Another connection was checkpointing (SQLite does not wait for that lock, whatever the
    // busy timeout): past the backstop the next commit tries again, since that one may not
    // have truncated the WAL.
    const lockedOut = result?.busy === 1 && result.log === -1;
    if (lockedOut && size >= this.backstopBytes) {
      this.mark = this.backstopBytes;
      return false;
    }
    // Otherwise the next one comes after softBytes more of WAL (at the latest at the backstop,
    // where it waits), or once the WAL restarts. Until then a checkpoint that could not finish
    // (a reader on old frames, another process's WAL that is never cut back) is not retried at
    // every commit; nor is one that waited in vain, so a stuck reader costs one wait per softBytes.
    this.mark = waitMs > 0 ? size + this.softBytes : Math.min(size + this.softBytes, this.backstopBytes);
    return result?.busy === 0 && size === 0;
  }

  /** The WAL file's size; 0 when it cannot be read (checkpoints are then left to the backstop). */
  private walBytes(): number {
    if (this.walFile === null) return 0;
    const walFile = this.walFile;
    return this.guarded(() => statSync(walFile, { throwIfNoEntry: false })?.size ?? 0) ?? 0;
  }

  /** Runs `step`, keeping its error in `lastError` instead of throwing it. */
  private guarded<T>(step: () => T): T | undefined {
    try {
      return step();
    } catch (error) {
      this.lastError = error;
      return undefined;
    }
  }
}

/**
 * The checkpoint settings of a connection in WAL mode (both are per connection): the
 * auto-checkpoint moves up to the backstop, and a restarted WAL is cut back in size.
 */
export function configureWalCheckpoints(db: Database.Database): void {
  db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  db.pragma(`journal_size_limit = ${RESTART_LIMIT_BYTES}`);
}

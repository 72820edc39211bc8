import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** What `PRAGMA wal_checkpoint` answers: busy (1 when it could not finish), WAL frames, frames copied; or why it failed. */
export type CheckpointAnswer = { busy: number; log: number; checkpointed: number } | { error: string };

/** How to open another connection to a database file, as `openDatabase` opened the first. */
export interface CheckpointConnection {
  file: string;
  /** The driver module the file was opened with: one SQLite library per process and file, so its locks agree. */
  driver: 'better-sqlite3' | 'better-sqlite3-multiple-ciphers';
  encryptionKey?: string | undefined;
}

/*
 * The thread's program, run by `new Worker(..., { eval: true })` as CommonJS: its own
 * connection to the file, one PASSIVE checkpoint per message, answers in order. PASSIVE takes
 * no write lock, so commits go on meanwhile (TRUNCATE would hold it for the whole copy).
 */
const PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 0 });
if (workerData.encryptionKey !== undefined) {
  db.pragma("cipher = 'sqlcipher'");
  db.pragma('legacy = 4');
  db.pragma("key = '" + workerData.encryptionKey.replaceAll("'", "''") + "'");
}
parentPort.postMessage('ready');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage(db.pragma('wal_checkpoint(PASSIVE)')[0]);
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  } finally {
    Atomics.sub(workerData.copying, 0, 1);
    Atomics.notify(workerData.copying, 0);
  }
});
`;

const resolveFromHere = createRequire(import.meta.url);

/** How each connection `openDatabase` opened on a file in WAL mode was opened: the thread's connection opens the file alike. */
const connections = new WeakMap<object, CheckpointConnection>();

/** Remembers how `db` was opened (by `openDatabase`, on a file in WAL mode). */
export function rememberConnection(db: object, connection: CheckpointConnection): void {
  connections.set(db, connection);
}

/** How `db` was opened, when `openDatabase` opened it on a file in WAL mode (undefined otherwise). */
export function connectionOf(db: object): CheckpointConnection | undefined {
  return connections.get(db);
}

/**
 * A worker thread with its own connection to one database file, that copies the WAL into the
 * file when a commit has passed the mark, so that the bulk of a checkpoint (copying the pages
 * and syncing them) leaves the event loop alone. Shared by every connection of the process to
 * the file (the session store and the knowledge base), counted, and ended with the last of
 * them. Started when the WAL is half way to its first mark.
 */
export class CheckpointThread {
  private static readonly open = new Map<string, CheckpointThread>();
  private worker: Worker | undefined;
  private users = 1;
  private readonly waiting: ((answer: CheckpointAnswer) => void)[] = [];
  /** Copies asked for and not finished, as the thread counts them: readable while its answers wait for a macrotask. */
  private readonly copying = new Int32Array(new SharedArrayBuffer(4));
  /** Set once the thread failed (or exited): its users checkpoint on their own connection again. */
  failed: string | undefined;
  /**
   * Whether the thread has opened its connection (an encrypted file takes its key derivation:
   * a while). Until then its users checkpoint on their own connection, as without a thread.
   */
  ready = false;

  private constructor(
    private readonly key: string,
    private readonly connection: CheckpointConnection,
  ) {}

  /** The file's thread, one more user counted; `release()` once done with it. */
  static acquire(connection: CheckpointConnection): CheckpointThread {
    const key = `${connection.driver}\u0000${connection.file}`;
    const existing = CheckpointThread.open.get(key);
    if (existing !== undefined && existing.failed === undefined) {
      existing.users += 1;
      return existing;
    }
    const thread = new CheckpointThread(key, connection);
    CheckpointThread.open.set(key, thread);
    return thread;
  }

  /** Copies the WAL into the file on the thread (PASSIVE); answers with an error (never rejects) when the thread is not there. */
  copy(): Promise<CheckpointAnswer> {
    if (this.failed !== undefined) return Promise.resolve({ error: this.failed });
    const worker = this.worker ?? this.start();
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      Atomics.add(this.copying, 0, 1);
      worker.postMessage('copy');
    });
  }

  /** Whether the thread is up and takes copies. */
  takesCopies(): boolean {
    return this.ready && this.failed === undefined;
  }

  /**
   * Blocks until the thread has no copy to do, `timeoutMs` at most; whether it has none. A
   * checkpoint that must finish (after a forget) waits here: while the thread copies, SQLite
   * answers another checkpoint busy at once, whatever its busy timeout.
   */
  waitIdle(timeoutMs: number): boolean {
    const deadline = performance.now() + timeoutMs;
    for (let copies = Atomics.load(this.copying, 0); copies > 0 && this.failed === undefined; copies = Atomics.load(this.copying, 0)) {
      const left = deadline - performance.now();
      if (left <= 0) return false;
      Atomics.wait(this.copying, 0, copies, left);
    }
    return true;
  }

  /** Whether the thread is copying now (its answer may not have been handled yet). */
  busy(): boolean {
    return this.failed === undefined && Atomics.load(this.copying, 0) > 0;
  }

  /** One user fewer; the last one closes the thread's connection and waits for the thread to end. */
  async release(): Promise<void> {
    this.users -= 1;
    if (this.users > 0) return;
    if (CheckpointThread.open.get(this.key) === this) CheckpointThread.open.delete(this.key);
    const worker = this.worker;
    if (worker === undefined || this.failed !== undefined) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    // held by the close that waits for it (unreferenced, the process could end in the middle)
    worker.ref();
    worker.postMessage('close');
    await exited;
  }

  /** Starts the thread, when it is not running (it takes a while to open its connection). */
  start(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(PROGRAM, {
      eval: true,
      workerData: {
        driverPath: resolveFromHere.resolve(this.connection.driver),
        file: this.connection.file,
        encryptionKey: this.connection.encryptionKey,
        copying: this.copying,
      },
    });
    // a pending checkpoint does not keep the process alive (closing the last connection checkpoints)
    worker.unref();
    worker.on('message', (answer: CheckpointAnswer | 'ready') => {
      if (answer === 'ready') this.ready = true;
      else this.waiting.shift()?.(answer);
    });
    const fail = (why: string) => {
      this.failed ??= why;
      // no copy will end now: whoever waits for one stops waiting
      Atomics.store(this.copying, 0, 0);
      Atomics.notify(this.copying, 0);
      if (CheckpointThread.open.get(this.key) === this) CheckpointThread.open.delete(this.key);
      for (const resolve of this.waiting.splice(0)) resolve({ error: why });
    };
    worker.on('error', (error) => fail(`checkpoint thread failed: ${error.message}`));
    worker.on('exit', (code) => fail(`checkpoint thread exited (${code})`));
    this.worker = worker;
    return worker;
  }
}

import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Worker } from 'node:worker_threads';
import type { DataSource } from 'typeorm';

/** How often the background connection copies the write-ahead log into the database file. */
export const CHECKPOINT_INTERVAL_MS = 250;
/**
 * The main connection's own automatic checkpoint, kept as a backstop: it runs only when the log has
 * grown to this many pages (about 40 MB), i.e. when the background connection has stopped keeping up.
 */
export const BACKSTOP_PAGES = 10_000;
/** SQLite's default, put back when the background connection is gone. */
const DEFAULT_AUTOCHECKPOINT_PAGES = 1000;
/**
 * The worker starts when the settlements written within one window reach this many rows (200 a second:
 * at that rate the main connection would checkpoint every few seconds), and stops after a window that
 * wrote fewer. Below it the rare checkpoint costs the event loop less than the thread costs in memory.
 */
export const BUSY_ROWS = 1000;
export const WINDOW_MS = 5000;
/** A started worker runs at least this long, so a rate near the threshold does not start and stop it. */
export const LINGER_MS = 60_000;

/**
 * The background connection: its own better-sqlite3 handle on the same file, running a PASSIVE
 * checkpoint (never blocks the main connection's readers or writers) every interval, and reporting
 * each one that copied pages. Runs as inline code so it works from the built server and from sources.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true, timeout: 10000 });
db.pragma('synchronous = NORMAL');
let copied = 0;
const run = (asked) => {
  try {
    const started = performance.now();
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    // "checkpointed" counts every frame of the current log copied so far; the log restarts after a
    // complete checkpoint, so what this run copied is the growth since the last run, or all of it.
    const pages = r.checkpointed >= copied ? r.checkpointed - copied : r.checkpointed;
    copied = r.checkpointed;
    if (pages > 0 || r.busy || asked)
      parentPort.postMessage({ log: r.log, checkpointed: r.checkpointed, pages, busy: r.busy, ms: performance.now() - started, asked });
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message), asked });
  }
};
const timer = setInterval(() => run(false), workerData.intervalMs);
parentPort.on('message', (m) => {
  if (m === 'now') run(true);
  if (m === 'stop') {
    clearInterval(timer);
    db.close();
    parentPort.close();
  }
});
`;

interface CheckpointReport {
  error?: string;
  log?: number;
  checkpointed?: number;
  pages?: number;
  busy?: number;
  ms?: number;
  /** The answer to a checkpointNow(). */
  asked?: boolean;
}

/** What the background checkpoints have done since start (for tests and diagnostics). */
export interface CheckpointStats {
  /** A worker is running. */
  running: boolean;
  /** Times the worker was started (it runs only while the settlements' write rate is high). */
  starts: number;
  /** Log rows the settlement ledger reported written since start. */
  rows: number;
  /** Checkpoints that copied pages. */
  checkpoints: number;
  /** Pages found copied from the log into the database file by these checkpoints (or the backstop). */
  pages: number;
  /** Time spent in them, on the background thread. */
  ms: number;
  errors: number;
  /** The last checkpoint's view of the log: its pages, and how many of them are in the database file. */
  log: number;
  checkpointed: number;
}

/**
 * SQLite (WAL mode) moves committed pages from the write-ahead log into the database file by a
 * checkpoint, which by default runs inside the COMMIT that takes the log past 1,000 pages: on the event
 * loop, with an fsync of the database file. Under model traffic that is a stall of 7–15 ms every few
 * seconds for every call in flight (measured: the settlement batches' COMMITs at p50 0.7 ms, p90 7–8 ms,
 * p99 13–15 ms; bench/HISTORY.md). A worker thread with its own connection runs the checkpoints
 * instead, so the main connection only appends to the log. Transactions and their order are untouched:
 * a checkpoint copies committed pages only, and readers and writers never wait for a passive one.
 *
 * The thread costs about 8 MB of memory, so it runs only while the settlement ledger writes log rows
 * fast (BUSY_ROWS within a WINDOW_MS): a quiet node, or one holding long streams that settle a few
 * times a second, checkpoints on the main connection as SQLite does by default, rarely.
 */
@Injectable()
export class SqliteCheckpoints implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SQLite');
  private worker: Worker | null = null;
  private readonly counters: Omit<CheckpointStats, 'running'> = {
    starts: 0,
    rows: 0,
    checkpoints: 0,
    pages: 0,
    ms: 0,
    errors: 0,
    log: 0,
    checkpointed: 0,
  };
  private readonly waiters = new Set<() => void>();
  /** Rows written in the current window; when the running worker started. */
  private rows = 0;
  private startedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  get stats(): CheckpointStats {
    return { running: this.worker !== null, ...this.counters };
  }

  /** The main connection (better-sqlite3 on a file), or null when there is nothing to do. */
  private connection(): { pragma(sql: string): unknown } | null {
    if (this.ds.options.type !== 'better-sqlite3') return null;
    const path = String(this.ds.options.database);
    if (path === ':memory:' || path === '') return null;
    return (this.ds.driver as unknown as { databaseConnection: { pragma(sql: string): unknown } })
      .databaseConnection;
  }

  onApplicationBootstrap(): void {
    if (!this.connection()) return;
    this.timer = setInterval(() => this.endWindow(), WINDOW_MS);
    this.timer.unref();
  }

  /** The settlement ledger committed `rows` log rows (the write rate that decides whether the worker runs). */
  wrote(rows: number): void {
    this.rows += rows;
    this.counters.rows += rows;
    if (this.rows >= BUSY_ROWS && !this.worker && this.timer) this.start();
  }

  private endWindow(): void {
    const busy = this.rows >= BUSY_ROWS;
    this.rows = 0;
    if (!busy && this.worker && Date.now() - this.startedAt >= LINGER_MS) void this.stop();
  }

  /**
   * Starts the background connection (no-op without a SQLite file, after shutdown or when it runs). Never
   * throws: the ledger calls it after a commit, and a thread that cannot start leaves SQLite's default.
   */
  start(): void {
    const conn = this.connection();
    if (!conn || this.worker || this.closed) return;
    let worker: Worker;
    try {
      worker = new Worker(WORKER_SOURCE, {
        eval: true,
        // It holds a few closures and one connection: its heap capped small (an isolate's fixed cost,
        // about 8 MB of RSS, stays whatever the cap).
        resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8, stackSizeMb: 1 },
        workerData: {
          driver: require.resolve('better-sqlite3'),
          path: String(this.ds.options.database),
          intervalMs: CHECKPOINT_INTERVAL_MS,
        },
      });
    } catch (err) {
      this.logger.warn(`background checkpoints could not start: ${(err as Error).message}`);
      return;
    }
    worker.unref();
    this.worker = worker;
    worker.on('message', (m: CheckpointReport) => this.report(m));
    worker.on('error', (err) => this.logger.warn(`background checkpoints failed: ${err.message}`));
    worker.on('exit', () => {
      const unasked = this.worker === worker;
      if (unasked) this.worker = null;
      // Gone (stopped, or not) and no newer one: the main connection checkpoints by itself again.
      if (this.ds.isInitialized && !this.worker)
        conn.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      if (unasked) this.logger.warn('background checkpoints stopped; the main connection checkpoints again');
      for (const done of this.waiters) done();
      this.waiters.clear();
    });
    conn.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.counters.starts++;
    this.startedAt = Date.now();
  }

  private report(m: CheckpointReport): void {
    if (m.error !== undefined) {
      this.counters.errors++;
      this.logger.warn(`background checkpoint failed: ${m.error}`);
    } else if (m.checkpointed !== undefined) {
      if (m.pages) {
        this.counters.checkpoints++;
        this.counters.pages += m.pages;
      }
      this.counters.ms += m.ms ?? 0;
      this.counters.log = m.log ?? 0;
      this.counters.checkpointed = m.checkpointed;
    }
    if (!m.asked) return;
    for (const done of this.waiters) done();
    this.waiters.clear();
  }

  /** Runs a checkpoint now; settles when the worker has answered (or has gone), at once when none runs. */
  checkpointNow(): Promise<void> {
    const worker = this.worker;
    if (!worker) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.add(resolve);
      worker.postMessage('now');
    });
  }

  async onModuleDestroy(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.stop();
  }

  /** Stops the worker (its last checkpoint finished) and hands checkpoints back to the main connection. */
  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('stop');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    await worker.terminate();
  }
}

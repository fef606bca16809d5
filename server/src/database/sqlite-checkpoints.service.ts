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
parentPort.postMessage({ ready: true });
`;

interface CheckpointReport {
  ready?: boolean;
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
  running: boolean;
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
 * loop, with an fsync of the database file. Under model traffic that is a stall of 8–13 ms every few
 * seconds for every call in flight (measured: the settlement batches' COMMITs at p50 0.7 ms, p90 8 ms,
 * max 13 ms). A worker thread with its own connection runs the checkpoints instead, so the main
 * connection only appends to the log. Transactions and their order are untouched: a checkpoint copies
 * committed pages only, and readers and writers never wait for a passive one.
 */
@Injectable()
export class SqliteCheckpoints implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('SQLite');
  private worker: Worker | null = null;
  private readonly counters: CheckpointStats = {
    running: false,
    checkpoints: 0,
    pages: 0,
    ms: 0,
    errors: 0,
    log: 0,
    checkpointed: 0,
  };
  private readonly waiters = new Set<() => void>();

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  get stats(): CheckpointStats {
    return { ...this.counters };
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
    const conn = this.connection();
    if (!conn) return;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // A few closures and one statement: the smallest heaps V8 takes keep the thread's memory down.
      resourceLimits: { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 8, stackSizeMb: 1 },
      workerData: {
        driver: require.resolve('better-sqlite3'),
        path: String(this.ds.options.database),
        intervalMs: CHECKPOINT_INTERVAL_MS,
      },
    });
    worker.unref();
    this.worker = worker;
    worker.on('message', (m: CheckpointReport) => this.report(m));
    worker.on('error', (err) => this.logger.warn(`background checkpoints failed: ${err.message}`));
    worker.on('exit', () => {
      const unasked = this.worker === worker;
      this.worker = null;
      this.counters.running = false;
      // Gone (asked at shutdown, or not): the main connection checkpoints by itself again.
      if (this.ds.isInitialized) conn.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT_PAGES}`);
      if (unasked) this.logger.warn('background checkpoints stopped; the main connection checkpoints again');
      for (const done of this.waiters) done();
      this.waiters.clear();
    });
    conn.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.counters.running = true;
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
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('stop');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000).unref())]);
    await worker.terminate();
  }
}

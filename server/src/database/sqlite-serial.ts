import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager, QueryRunner } from 'typeorm';

/** A write outside the open transaction waits this long before it is let through anyway (and logged). */
const OUTSIDE_WRITE_WAIT_MS = 10_000;

/**
 * SQLite has one connection, and TypeORM runs every transaction on one shared query runner: two
 * transactions that overlap in time would nest, the second becoming a SAVEPOINT of the first, so one
 * request's rollback could undo another's committed work, and a plain write made meanwhile would join
 * whichever transaction is open. This makes SQLite behave like the server databases:
 *
 * - `DataSource.transaction` / `manager.transaction` run one at a time, in call order, each on a query
 *   runner of its own (same connection, its own transaction state); inside the callback, nest with the
 *   manager it receives (`m.transaction`), never with the data source (that would wait for itself);
 * - a write through the shared runner (outside the callback's manager) waits until the open
 *   transaction has ended; reads go ahead.
 *
 * Other drivers are left alone (each transaction has its own pooled connection there).
 */
export function serializeSqliteTransactions(ds: DataSource): void {
  if (ds.options.type !== 'better-sqlite3') return;
  const logger = new Logger('SQLite');
  const shared: QueryRunner = ds.driver.createQueryRunner('master');
  const Runner = shared.constructor as new (driver: DataSource['driver']) => QueryRunner;
  let tail: Promise<void> = Promise.resolve();
  /** Settles when the transaction holding the connection ends; null when none does. */
  const lock: { current: Promise<void> | null } = { current: null };
  const held = (): Promise<void> | null => lock.current;

  const manager = ds.manager;
  const transaction = async (...args: unknown[]): Promise<unknown> => {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const before = tail;
    tail = before.then(() => mine);
    await before;
    // A transaction TypeORM opened on the shared runner by itself (an implicit one of save()) ends first.
    while (shared.isTransactionActive) await new Promise((resolve) => setImmediate(resolve));
    lock.current = mine;
    try {
      const own: EntityManager = ds.createEntityManager(new Runner(ds.driver));
      return await (own.transaction as (...a: unknown[]) => Promise<unknown>)(...args);
    } finally {
      lock.current = null;
      release();
    }
  };
  manager.transaction = transaction;

  // save() and remove() open a transaction on the shared runner by themselves: after ours, never inside it.
  const start = shared.startTransaction.bind(shared);
  shared.startTransaction = async (...args: Parameters<QueryRunner['startTransaction']>) => {
    for (let h = held(); h; h = held()) await h;
    return start(...args);
  };

  const query = shared.query.bind(shared) as (...args: unknown[]) => Promise<unknown>;
  shared.query = (async (...args: unknown[]) => {
    if (lock.current && !isRead(args[0]) && !shared.isTransactionActive) {
      const started = Date.now();
      for (let h = held(); h && Date.now() - started < OUTSIDE_WRITE_WAIT_MS; h = held()) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          h,
          new Promise((resolve) => (timer = setTimeout(resolve, OUTSIDE_WRITE_WAIT_MS))),
        ]);
        clearTimeout(timer);
      }
      if (held())
        logger.error(
          `a write waited ${OUTSIDE_WRITE_WAIT_MS} ms for an open transaction (written inside its callback without its manager?)`,
        );
    }
    return query(...args);
  }) as QueryRunner['query'];
}

function isRead(sql: unknown): boolean {
  return typeof sql === 'string' && /^\s*(SELECT|PRAGMA|WITH)\b/i.test(sql);
}

import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataSource, QueryRunner } from 'typeorm';

/**
 * SQLite has one connection, and TypeORM runs every transaction on it: two transactions that overlap in
 * time (both awaiting queries) would nest, the second becoming a SAVEPOINT of the first, so one
 * request's rollback could undo another's committed work, and a plain write made meanwhile would join
 * whichever transaction is open. This makes SQLite behave like the server databases:
 *
 * - `DataSource.transaction` / `manager.transaction` run one at a time, in call order; a transaction
 *   started inside another one's callback (same async context) nests as before;
 * - a write made outside the open transaction waits until it has ended (reads go ahead: they only ever
 *   see more recent data).
 *
 * Other drivers are left alone (each transaction has its own pooled connection there).
 */
export function serializeSqliteTransactions(ds: DataSource): void {
  if (ds.options.type !== 'better-sqlite3') return;
  const inside = new AsyncLocalStorage<true>();
  let tail: Promise<void> = Promise.resolve();
  /** Settles when the transaction holding the connection ends; null when none does. */
  let current: Promise<void> | null = null;

  const manager = ds.manager;
  const transaction = manager.transaction.bind(manager) as (...args: unknown[]) => Promise<unknown>;
  manager.transaction = (async (...args: unknown[]) => {
    if (inside.getStore()) return transaction(...args);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const before = tail;
    tail = before.then(() => mine);
    await before;
    // A transaction TypeORM opened on its own (an implicit one of save()) must end first.
    const runner = ds.driver.createQueryRunner('master');
    while (runner.isTransactionActive) await new Promise((resolve) => setImmediate(resolve));
    current = mine;
    try {
      return await inside.run(true, () => transaction(...args));
    } finally {
      current = null;
      release();
    }
  });

  const runner: QueryRunner = ds.driver.createQueryRunner('master');
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  runner.query = (async (...args: unknown[]) => {
    if (!inside.getStore() && !isRead(args[0])) while (current) await current;
    return query(...args);
  }) as QueryRunner['query'];
}

function isRead(sql: unknown): boolean {
  return typeof sql === 'string' && /^\s*(SELECT|PRAGMA|WITH)\b/i.test(sql);
}

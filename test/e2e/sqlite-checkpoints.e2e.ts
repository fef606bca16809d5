/**
 * SQLite's write-ahead log is copied into the database file by a worker thread with its own connection
 * (server/src/database/sqlite-checkpoints.service.ts), not by the COMMIT that crosses 1,000 pages on the
 * event loop. The other databases have no such thing: the service stays idle there.
 */
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';
import { BACKSTOP_PAGES, SqliteCheckpoints } from '../../server/src/database/sqlite-checkpoints.service';
import { currentDriver } from '../support/databases';
import { startApp, TestApp } from '../support/test-app';

const sqlite = currentDriver() === 'sqlite';

/** The main connection's automatic checkpoint threshold, in pages. */
const autocheckpoint = async (ds: DataSource): Promise<number> => {
  const [row] = await ds.query<Array<Record<string, number>>>('PRAGMA wal_autocheckpoint');
  return Number(Object.values(row)[0]);
};

/** Writes about `pages` pages (one 4 KB blob per row) in one transaction. */
const writePages = async (ds: DataSource, pages: number): Promise<void> => {
  await ds.query('CREATE TABLE IF NOT EXISTS checkpoint_probe (id INTEGER PRIMARY KEY, data BLOB)');
  await ds.transaction(async (m) => {
    for (let i = 0; i < pages; i++)
      await m.query('INSERT INTO checkpoint_probe (data) VALUES (randomblob(4000))');
  });
};

describe('background checkpoints of the SQLite log', () => {
  let t: TestApp;
  let svc: SqliteCheckpoints;

  beforeAll(async () => {
    t = await startApp();
    svc = t.app.get(SqliteCheckpoints);
  });
  afterAll(() => t?.close());

  (sqlite ? it.skip : it)('stays idle on a server database', () => {
    expect(svc.stats).toMatchObject({ running: false, checkpoints: 0, pages: 0 });
  });

  (sqlite ? it : it.skip)(
    'runs on its own thread; the main connection checkpoints only as a backstop',
    async () => {
      expect(svc.stats.running).toBe(true);
      expect(await autocheckpoint(t.ds)).toBe(BACKSTOP_PAGES);
      const before = svc.stats.pages;
      // Past SQLite's default threshold (1,000 pages), at which the COMMIT would have checkpointed on the
      // event loop; the backstop above is what keeps the main connection from doing so.
      await writePages(t.ds, 2500);
      await svc.checkpointNow();
      const after = svc.stats;
      // Every page of the log is in the database file once the worker has checkpointed.
      expect(after.log).toBeGreaterThanOrEqual(2500);
      expect(after.checkpointed).toBe(after.log);
      expect(after.pages - before).toBeGreaterThanOrEqual(2500);
      expect(after.errors).toBe(0);
      const [{ n }] = await t.ds.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM checkpoint_probe');
      expect(Number(n)).toBe(2500);
    },
  );

  (sqlite ? it : it.skip)(
    'hands checkpoints back to the main connection when the worker is gone',
    async () => {
      const worker = (svc as unknown as { worker: Worker }).worker;
      await worker.terminate();
      // The exit event reaches the service on a later turn.
      for (let i = 0; i < 50 && svc.stats.running; i++) await new Promise((r) => setTimeout(r, 10));
      expect(svc.stats.running).toBe(false);
      expect(await autocheckpoint(t.ds)).toBe(1000);
      await svc.checkpointNow(); // no worker: settles at once
    },
  );

  (sqlite ? it : it.skip)('stops its worker when the application closes, the data intact', async () => {
    const other = await startApp();
    const ck = other.app.get(SqliteCheckpoints);
    expect(ck.stats.running).toBe(true);
    await writePages(other.ds, 300);
    const path = String(other.ds.options.database);
    await other.app.close();
    try {
      expect(ck.stats.running).toBe(false);
      // The last connection closed: the log was folded into the file and removed.
      expect(existsSync(`${path}-wal`)).toBe(false);
      const reopened = new DataSource({ type: 'better-sqlite3', database: path });
      await reopened.initialize();
      const rows = await reopened.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM checkpoint_probe');
      await reopened.destroy();
      expect(Number(rows[0].n)).toBe(300);
    } finally {
      await other.db.drop();
    }
  });
});

/**
 * While model traffic settles fast, SQLite's write-ahead log is copied into the database file by a
 * worker thread with its own connection (server/src/database/sqlite-checkpoints.service.ts), not by the
 * COMMIT that crosses 1,000 pages on the event loop; a quiet node keeps SQLite's default and no thread.
 * The other databases have no such thing: the service stays idle there.
 */
import { existsSync } from 'node:fs';
import type { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';
import {
  BACKSTOP_PAGES,
  BUSY_ROWS,
  SqliteCheckpoints,
} from '../../server/src/database/sqlite-checkpoints.service';
import { MockUpstream } from '../mocks/mock-upstream';
import { currentDriver } from '../support/databases';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

const sqlite = currentDriver() === 'sqlite';
const onSqlite = sqlite ? it : it.skip;

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

/** Waits (at most 2 s) for what arrives on a later turn, such as a worker's exit. */
const until = async (check: () => boolean | Promise<boolean>): Promise<void> => {
  for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
};

describe('background checkpoints of the SQLite log', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let svc: SqliteCheckpoints;
  let key: string;
  let root: ApiClient;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    svc = t.app.get(SqliteCheckpoints);
    root = await setupRoot(t);
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-4o' });
    const user = await makeUser(t, root);
    await setQuota(t, user.userId!, 1e12);
    key = (await makeToken(t, user.userId!)).key;
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  /** `n` relay calls, 25 at a time; every one answered 200. */
  const relay = async (n: number, apiKey = key): Promise<void> => {
    for (let i = 0; i < n; i += 25) {
      const statuses = await Promise.all(
        Array.from({ length: Math.min(25, n - i) }, () =>
          fetch(`${t.url}/v1/chat/completions`, {
            method: 'POST',
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }),
          }).then(async (r) => (await r.arrayBuffer(), r.status)),
        ),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    }
  };

  it('a report that fails after the commit does not send the batch back (no call charged twice)', async () => {
    const user = await makeUser(t, root);
    await setQuota(t, user.userId!, 1_000_000);
    const token = await makeToken(t, user.userId!);
    const wrote = svc.wrote.bind(svc);
    svc.wrote = () => {
      throw new Error('reporting failed');
    };
    try {
      await relay(20, token.key);
      await settle(t);
      await settle(t);
    } finally {
      svc.wrote = wrote;
    }
    const logs = (await logsOf(t, user.userId!)).filter((l) => l.type === 2);
    expect(logs).toHaveLength(20);
    const charged = logs.reduce((sum, l) => sum + l.quota, 0);
    expect(charged).toBeGreaterThan(0);
    expect(1_000_000 - (await quotaOf(t, user.userId!))).toBe(charged);
    const [row] = await t.ds.query<Array<{ used_quota: number }>>(
      `SELECT used_quota FROM tokens WHERE id = ${Math.floor(token.id)}`,
    );
    expect(Number(row.used_quota)).toBe(charged);
  });

  (sqlite ? it.skip : it)('stays idle on a server database, whatever the traffic', async () => {
    await relay(BUSY_ROWS + 100);
    await settle(t);
    expect(svc.stats).toMatchObject({ running: false, starts: 0, checkpoints: 0, pages: 0 });
  });

  onSqlite(
    'a quiet node runs no thread: the main connection checkpoints as SQLite does by default',
    async () => {
      const rows = svc.stats.rows;
      await relay(50);
      await settle(t);
      // The ledger reports every log row it commits: the rate that decides whether the thread runs.
      expect(svc.stats.rows - rows).toBe(50);
      expect(svc.stats).toMatchObject({ running: false, starts: 0 });
      expect(await autocheckpoint(t.ds)).toBe(1000);
    },
  );

  onSqlite(
    'settlements written fast start the worker; the main connection keeps only a backstop',
    async () => {
      // BUSY_ROWS log rows within one window, reported at once as the ledger does after a batch (real
      // traffic that fast depends on the machine's speed; the reporting itself is checked above).
      svc.wrote(BUSY_ROWS);
      expect(svc.stats).toMatchObject({ running: true, starts: 1 });
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

  onSqlite('a quiet window after the worker has lingered stops it and hands checkpoints back', async () => {
    const internals = svc as unknown as { startedAt: number; rows: number; endWindow(): void };
    internals.startedAt = 0; // as if it had run for longer than LINGER_MS
    internals.rows = 0;
    internals.endWindow();
    expect(svc.stats.running).toBe(false);
    await until(async () => (await autocheckpoint(t.ds)) === 1000);
    expect(await autocheckpoint(t.ds)).toBe(1000);
    // Traffic picks up again: a new worker.
    svc.wrote(BUSY_ROWS);
    expect(svc.stats).toMatchObject({ running: true, starts: 2 });
    expect(await autocheckpoint(t.ds)).toBe(BACKSTOP_PAGES);
  });

  onSqlite('hands checkpoints back to the main connection when the worker dies', async () => {
    const worker = (svc as unknown as { worker: Worker }).worker;
    await worker.terminate();
    await until(() => !svc.stats.running);
    expect(svc.stats.running).toBe(false);
    expect(await autocheckpoint(t.ds)).toBe(1000);
    await svc.checkpointNow(); // no worker: settles at once
  });

  onSqlite('stops its worker when the application closes, the data intact', async () => {
    const other = await startApp();
    const ck = other.app.get(SqliteCheckpoints);
    ck.wrote(BUSY_ROWS);
    expect(ck.stats.running).toBe(true);
    await writePages(other.ds, 300);
    const path = String(other.ds.options.database);
    await other.app.close();
    try {
      expect(ck.stats.running).toBe(false);
      // The last connection closed: the log was folded into the file and removed.
      expect(existsSync(`${path}-wal`)).toBe(false);
      // Closed: no new worker, whatever is reported.
      ck.wrote(BUSY_ROWS);
      expect(ck.stats.running).toBe(false);
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

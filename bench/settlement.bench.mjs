// Settlement throughput: how many relay requests per second the built server's billing path settles on
// SQLite, MariaDB and PostgreSQL, end to end (token auth, pricing, quota ledger, consume log), with a
// fast mock upstream, under a fixed concurrency. Side by side, on the same fresh database and schema,
// the database's own ceiling for the same writes (the ledger's statements run in a loop by the plain
// driver: better-sqlite3, mysql2, pg), so the table shows how close the ledger gets to the database.
//
// Two billing paths, each measured through the gateway and against the database:
//   trusted  an unlimited token, a well-funded user: no hold; the settlement is queued and flushed in
//            batches (≤ 200 ms or 256 settlements per transaction).
//   held     limited tokens whose balance is under the trust threshold: every request first takes a
//            hold in its own transaction (user and token conditional debits + the consume-log row),
//            then the settlement corrects it in the next batch.
//
// After each gateway run, from the database itself: the sum of the consume-log quotas equals the
// change of the user's balance (and of the tokens' and the channel's counters), and one log row per
// answered request. A row whose check fails reads FAIL and the benchmark exits 1.
//
//   node bench/settlement.bench.mjs                 10 s per cell, concurrency 16, all three databases
//   BENCH_QUICK=1 node bench/settlement.bench.mjs   3 s per cell
//   BENCH_DBS=sqlite,postgres BENCH_PATHS=held BENCH_CONCURRENCY=64 BENCH_DURATION=5   narrow a run
// Needs `npm run build:server` (BENCH_BUILD=1 builds first), MariaDB on 127.0.0.1:3306 (root, no
// password) and PostgreSQL on 127.0.0.1:5432 (trust) unless left out with BENCH_DBS.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistogram } from 'node:perf_hooks';
import { Pool as HttpPool } from 'undici';
import {
  ask,
  cpuSeconds,
  createChannel,
  createTokens,
  forkReady,
  machineBusy,
  requireServerBuild,
  root,
  setupRoot,
  sleep,
  startGateway,
  table,
} from './support/harness.mjs';
import { CONTENT, MODEL, USAGE } from './support/mock-openai.mjs';

const require = createRequire(import.meta.url);
const Sqlite = require('better-sqlite3');
const mysql = require('mysql2/promise');
const pg = require('pg');

const quick = process.env.BENCH_QUICK === '1';
const duration = Number(process.env.BENCH_DURATION ?? process.env.BENCH_SECONDS ?? (quick ? 3 : 10));
const warmup = Number(process.env.BENCH_WARMUP ?? (quick ? 1 : 2));
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const dbs = (process.env.BENCH_DBS ?? 'sqlite,mysql,postgres').split(',');
const paths = (process.env.BENCH_PATHS ?? 'trusted,held').split(',');
const MYSQL_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root:@127.0.0.1:3306';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const CHANNEL_KEY = 'sk-bench-upstream-channel-key';
// Charge per request with the default prices (gpt-4o-mini: model ratio 0.075, completion ratio 4, group 1).
const CHARGE = Math.round((USAGE.prompt_tokens + USAGE.completion_tokens * 4) * 0.075);
// Held path: a token balance below 100 × the request's reservation (PreConsumedQuota 500 + estimate)
// is not trusted, so every request takes a hold.
const HELD_TOKEN_QUOTA = 40_000;
const FLUSH_MS = 200; // the ledger's flush window
const FLUSH_AT = 256; // and its largest batch

const requestBody = JSON.stringify({
  model: MODEL,
  messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
  max_tokens: 64,
});

// ------------------------------------------------------------------------------------------ load

/**
 * `c` workers, each sending one request after the other for `seconds` (then waiting for the ones in
 * flight, so every request sent is answered); worker i uses keys[i], keys[i + c], ... in turn.
 */
async function load(base, keys, c, seconds) {
  const pool = new HttpPool(base, { connections: c, pipelining: 1 });
  const hist = createHistogram({ lowest: 1, highest: 120_000_000, figures: 3 });
  let ok = 0;
  let bad = 0;
  const statuses = {};
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  const worker = async (i) => {
    let mine = keys.filter((_, j) => j % c === i);
    if (!mine.length) mine = [keys[i % keys.length]];
    for (let n = 0; performance.now() < end; n++) {
      const key = mine[n % mine.length];
      const s = performance.now();
      try {
        const r = await pool.request({
          path: '/v1/chat/completions',
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
          body: requestBody,
        });
        const text = await r.body.text();
        statuses[r.statusCode] = (statuses[r.statusCode] ?? 0) + 1;
        if (r.statusCode === 200 && text.includes('"total_tokens"')) {
          ok++;
          hist.record(Math.max(1, Math.round((performance.now() - s) * 1000)));
        } else {
          bad++;
          if (bad <= 3) console.log(`    ${r.statusCode}: ${text.slice(0, 200)}`);
        }
      } catch (e) {
        bad++;
        statuses.error = (statuses.error ?? 0) + 1;
        if (bad <= 3) console.log(`    request failed: ${e.message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: c }, (_, i) => worker(i)));
  const wall = (performance.now() - t0) / 1000;
  await pool.close();
  return { ok, bad, statuses, wall, hist };
}

const ms = (v) => +(v / 1000).toFixed(2);

// ------------------------------------------------------------------------------------------ databases

/** A fresh database on the server of `kind` (a temp file for SQLite); drop() removes it. */
async function freshDatabase(kind) {
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-settle-bench-'));
  const name = `gh_bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const cleanup = () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    const file = join(dataDir, 'gatehouse.db');
    return { env: { DATA_DIR: dataDir, SQLITE_PATH: file }, file, drop: async () => cleanup() };
  }
  if (kind === 'mysql') {
    const conn = await mysql.createConnection(MYSQL_URL);
    await conn.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await conn.end();
    return {
      env: { DATA_DIR: dataDir, SQL_DSN: `${MYSQL_URL}/${name}` },
      url: `${MYSQL_URL}/${name}`,
      drop: async () => {
        const c = await mysql.createConnection(MYSQL_URL);
        await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
        await c.end();
        cleanup();
      },
    };
  }
  const admin = new pg.Client({ connectionString: `${PG_URL}/postgres` });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    env: { DATA_DIR: dataDir, SQL_DSN: `${PG_URL}/${name}` },
    url: `${PG_URL}/${name}`,
    drop: async () => {
      const c = new pg.Client({ connectionString: `${PG_URL}/postgres` });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
      cleanup();
    },
  };
}

/**
 * The plain driver on the same database: txn(fn) runs fn(run) in one transaction, where
 * run(sql, params) takes `?` placeholders and "double-quoted" names (rewritten for MySQL and
 * PostgreSQL) and resolves with {affected, id}. SQLite has one connection, like the server's.
 */
async function openDriver(kind, db, poolSize) {
  if (kind === 'sqlite') {
    const conn = new Sqlite(db.file);
    conn.pragma('journal_mode = WAL');
    conn.pragma('busy_timeout = 10000');
    conn.pragma('synchronous = NORMAL');
    conn.pragma('foreign_keys = ON');
    const stmts = new Map();
    const run = (sql, params = []) => {
      let st = stmts.get(sql);
      if (!st) stmts.set(sql, (st = conn.prepare(sql)));
      if (st.reader) return Promise.resolve({ rows: st.all(params) });
      const r = st.run(params.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)));
      return Promise.resolve({ affected: r.changes, id: Number(r.lastInsertRowid) });
    };
    let chain = Promise.resolve();
    return {
      kind,
      run,
      txn(fn) {
        const p = chain.then(async () => {
          conn.exec('BEGIN');
          try {
            const v = await fn(run);
            conn.exec('COMMIT');
            return v;
          } catch (e) {
            conn.exec('ROLLBACK');
            throw e;
          }
        });
        chain = p.catch(() => {});
        return p;
      },
      close: async () => conn.close(),
    };
  }
  if (kind === 'mysql') {
    const pool = mysql.createPool({ uri: db.url, connectionLimit: poolSize, supportBigNumbers: true });
    const my = (sql) => sql.replace(/"/g, '`');
    const runOn =
      (conn) =>
      async (sql, params = []) => {
        const [r] = await conn.query(my(sql), params);
        return Array.isArray(r) ? { rows: r } : { affected: r.affectedRows, id: Number(r.insertId) };
      };
    return {
      kind,
      run: runOn(pool),
      async txn(fn) {
        const conn = await pool.getConnection();
        try {
          await conn.query('START TRANSACTION');
          const v = await fn(runOn(conn));
          await conn.query('COMMIT');
          return v;
        } catch (e) {
          await conn.query('ROLLBACK').catch(() => {});
          throw e;
        } finally {
          conn.release();
        }
      },
      close: () => pool.end(),
    };
  }
  const pool = new pg.Pool({ connectionString: db.url, max: poolSize });
  const pgSql = (sql) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const runOn =
    (client) =>
    async (sql, params = []) => {
      const text = /^\s*insert/i.test(sql) ? `${pgSql(sql)} RETURNING id` : pgSql(sql);
      const r = await client.query(text, params);
      return { rows: r.rows, affected: r.rowCount, id: Number(r.rows[0]?.id ?? 0) };
    };
  return {
    kind,
    run: runOn(pool),
    async txn(fn) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const v = await fn(runOn(client));
        await client.query('COMMIT');
        return v;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

const one = async (d, sql, params) => Number(Object.values((await d.run(sql, params)).rows[0] ?? {})[0] ?? 0);

/** The ledger's figures as stored: balances, counters and consume-log sums. */
async function snapshot(d, userId, tokenIds, channelId) {
  const ids = tokenIds.length ? tokenIds : [0];
  const marks = ids.map(() => '?').join(', ');
  return {
    quota: await one(d, 'SELECT "quota" FROM "users" WHERE "id" = ?', [userId]),
    used: await one(d, 'SELECT "used_quota" FROM "users" WHERE "id" = ?', [userId]),
    requests: await one(d, 'SELECT "request_count" FROM "users" WHERE "id" = ?', [userId]),
    tokenRemain: await one(
      d,
      `SELECT COALESCE(SUM("remain_quota"), 0) FROM "tokens" WHERE "id" IN (${marks})`,
      ids,
    ),
    channelUsed: await one(d, 'SELECT "used_quota" FROM "channels" WHERE "id" = ?', [channelId]),
    logSum: await one(d, 'SELECT COALESCE(SUM("quota"), 0) FROM "logs" WHERE "user_id" = ? AND "type" = 2', [
      userId,
    ]),
    logRows: await one(d, 'SELECT COUNT(*) FROM "logs" WHERE "user_id" = ? AND "type" = 2', [userId]),
    tokenLogSum: await one(
      d,
      `SELECT COALESCE(SUM("quota"), 0) FROM "logs" WHERE "type" = 2 AND "token_id" IN (${marks})`,
      ids,
    ),
  };
}

/** Polls the snapshot until two readings 400 ms apart agree (the ledger flushes every ≤ 200 ms). */
async function settledSnapshot(d, ...args) {
  let prev = await snapshot(d, ...args);
  for (let i = 0; i < 50; i++) {
    await sleep(400);
    const next = await snapshot(d, ...args);
    if (JSON.stringify(next) === JSON.stringify(prev)) return next;
    prev = next;
  }
  return prev;
}

// ------------------------------------------------------------------------------------------ raw DB

let requestSeq = 0;
function logParams(kind, ids, quota) {
  const now = Math.floor(Date.now() / 1000);
  return [
    ids.userId,
    now,
    2,
    '',
    'bench',
    'bench',
    ids.tokenId,
    MODEL,
    quota,
    USAGE.prompt_tokens,
    USAGE.completion_tokens,
    1,
    false,
    ids.channelId,
    'default',
    '127.0.0.1',
    `bench-${++requestSeq}`,
    '',
    '{"model_ratio":0.075,"group_ratio":1,"completion_ratio":4,"model_price":-1,"frt":-1,"request_path":"/v1/chat/completions"}',
  ];
}
const LOG_COLS =
  '"user_id", "created_at", "type", "content", "username", "token_name", "token_id", "model_name", "quota", "prompt_tokens", "completion_tokens", "use_time", "is_stream", "channel_id", "group", "ip", "request_id", "node_name", "other"';
const LOG_MARKS = `(${Array(19).fill('?').join(', ')})`;

/** A hold as reserve() takes it: conditional debits of the user and the token + the log row. */
async function reserve(d, ids, amount) {
  return d.txn(async (run) => {
    const u = await run('UPDATE "users" SET "quota" = "quota" - ? WHERE "id" = ? AND "quota" >= ?', [
      amount,
      ids.userId,
      amount,
    ]);
    if (!u.affected) throw new Error('user balance exhausted');
    const t = await run(
      'UPDATE "tokens" SET "remain_quota" = "remain_quota" - ? WHERE "id" = ? AND "remain_quota" >= ?',
      [amount, ids.tokenId, amount],
    );
    if (!t.affected) throw new Error('token balance exhausted');
    return (await run(`INSERT INTO "logs" (${LOG_COLS}) VALUES ${LOG_MARKS}`, logParams(d.kind, ids, amount)))
      .id;
  });
}

/** A batch as apply() writes it: user, token and channel counters, log rows, the hourly aggregate. */
async function settleBatch(d, ids, batch) {
  const delta = batch.reduce((a, s) => a + s.charged - s.reserved, 0);
  const used = batch.reduce((a, s) => a + s.charged, 0);
  const now = Math.floor(Date.now() / 1000);
  await d.txn(async (run) => {
    if (delta > 0)
      await run('UPDATE "users" SET "quota" = "quota" - ? WHERE "id" = ? AND "quota" >= ?', [
        delta,
        ids.userId,
        delta,
      ]);
    else if (delta < 0)
      await run('UPDATE "users" SET "quota" = "quota" + ? WHERE "id" = ?', [-delta, ids.userId]);
    await run(
      'UPDATE "users" SET "used_quota" = "used_quota" + ?, "request_count" = "request_count" + ? WHERE "id" = ?',
      [used, batch.length, ids.userId],
    );
    const byToken = new Map();
    for (const s of batch) {
      const t = byToken.get(s.tokenId) ?? { d: 0, used: 0 };
      t.d += s.charged - s.reserved;
      t.used += s.charged;
      byToken.set(s.tokenId, t);
    }
    for (const [id, t] of byToken)
      await run(
        'UPDATE "tokens" SET "remain_quota" = CASE WHEN "remain_quota" > ? THEN "remain_quota" - ? ELSE 0 END, "used_quota" = "used_quota" + ?, "accessed_time" = ? WHERE "id" = ?',
        [t.d, t.d, t.used, now, id],
      );
    await run('UPDATE "channels" SET "used_quota" = "used_quota" + ? WHERE "id" = ?', [used, ids.channelId]);
    const inserts = [];
    for (const s of batch) {
      if (s.logId)
        await run('UPDATE "logs" SET "quota" = ?, "use_time" = ?, "other" = ? WHERE "id" = ?', [
          s.charged,
          1,
          '{}',
          s.logId,
        ]);
      else inserts.push(s);
    }
    for (let i = 0; i < inserts.length; i += 400) {
      const chunk = inserts.slice(i, i + 400);
      if (d.kind === 'sqlite')
        for (const s of chunk)
          await run(
            `INSERT INTO "logs" (${LOG_COLS}) VALUES ${LOG_MARKS}`,
            logParams(d.kind, { ...ids, tokenId: s.tokenId }, s.charged),
          );
      else
        await run(
          `INSERT INTO "logs" (${LOG_COLS}) VALUES ${chunk.map(() => LOG_MARKS).join(', ')}`,
          chunk.flatMap((s) => logParams(d.kind, { ...ids, tokenId: s.tokenId }, s.charged)),
        );
    }
    const bucket = Math.floor(now / 300) * 300;
    const q = await run(
      'UPDATE "quota_data" SET "token_used" = "token_used" + ?, "count" = "count" + ?, "quota" = "quota" + ? WHERE "user_id" = ? AND "model_name" = ? AND "created_at" = ? AND "node_name" = ?',
      [batch.length * USAGE.total_tokens, batch.length, used, ids.userId, MODEL, bucket, ''],
    );
    if (!q.affected)
      await run(
        'INSERT INTO "quota_data" ("user_id", "username", "model_name", "created_at", "token_used", "count", "quota", "node_name") VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [ids.userId, 'bench', MODEL, bucket, batch.length * USAGE.total_tokens, batch.length, used, ''],
      );
  });
}

/**
 * The database's ceiling for a path's writes at concurrency `c` for `seconds`:
 * - per settlement: every worker writes its own settlement in its own transaction(s) (held: the hold,
 *   then the settlement), one after the other; latency = one settlement's transactions;
 * - batched: as the ledger does it: held requests take their hold in their own transaction (c at a
 *   time), and one writer settles what is queued in batches of up to `batchSize`; latency = one batch.
 */
async function rawCeiling(d, path, ids, tokenIds, c, seconds, batchSize) {
  const hist = createHistogram({ lowest: 1, highest: 120_000_000, figures: 3 });
  const end = performance.now() + seconds * 1000;
  const t0 = performance.now();
  let settled = 0;
  let errors = 0;
  const reserved = path === 'held' ? 500 + Math.round((40 + 64 * 4) * 0.075) : 0;
  if (batchSize === 1) {
    await Promise.all(
      Array.from({ length: c }, async (_, i) => {
        for (let n = 0; performance.now() < end; n++) {
          const tokenId = tokenIds[(i + n * c) % tokenIds.length];
          const s = performance.now();
          try {
            const logId = reserved ? await reserve(d, { ...ids, tokenId }, reserved) : null;
            await settleBatch(d, ids, [{ tokenId, reserved, charged: CHARGE, logId }]);
            settled++;
            hist.record(Math.max(1, Math.round((performance.now() - s) * 1000)));
          } catch (e) {
            if (++errors <= 3) console.log(`    ${e.message}`);
          }
        }
      }),
    );
  } else if (path === 'trusted') {
    // No holds: the ledger's writer alone, one batch after the other.
    while (performance.now() < end) {
      const batch = Array.from({ length: batchSize }, (_, n) => ({
        tokenId: tokenIds[n % tokenIds.length],
        reserved: 0,
        charged: CHARGE,
        logId: null,
      }));
      const s = performance.now();
      try {
        await settleBatch(d, ids, batch);
        settled += batch.length;
        hist.record(Math.max(1, Math.round((performance.now() - s) * 1000)));
      } catch (e) {
        if (++errors <= 3) console.log(`    ${e.message}`);
      }
    }
  } else {
    // Holds by `c` workers, each in its own transaction; one writer settles what is queued once a batch
    // is full or the flush window has passed, like the ledger.
    let queue = [];
    let producing = true;
    const writer = (async () => {
      let last = performance.now();
      while (producing || queue.length) {
        if (producing && queue.length < batchSize && performance.now() - last < FLUSH_MS) {
          await sleep(2);
          continue;
        }
        last = performance.now();
        if (!queue.length) continue;
        const batch = queue.slice(0, FLUSH_AT);
        queue = queue.slice(batch.length);
        const s = performance.now();
        try {
          await settleBatch(d, ids, batch);
          settled += batch.length;
          hist.record(Math.max(1, Math.round((performance.now() - s) * 1000)));
        } catch (e) {
          if (++errors <= 3) console.log(`    ${e.message}`);
        }
      }
    })();
    await Promise.all(
      Array.from({ length: c }, async (_, i) => {
        for (let n = 0; performance.now() < end; n++) {
          const tokenId = tokenIds[(i + n * c) % tokenIds.length];
          try {
            const logId = await reserve(d, { ...ids, tokenId }, reserved);
            queue.push({ tokenId, reserved, charged: CHARGE, logId });
          } catch (e) {
            if (++errors <= 3) console.log(`    ${e.message}`);
          }
        }
      }),
    );
    producing = false;
    await writer;
  }
  const wall = (performance.now() - t0) / 1000;
  return { settled, errors, wall, hist };
}

// ------------------------------------------------------------------------------------------ main

requireServerBuild();
const failures = [];
const rows = [];
const checks = [];
const children = [];

try {
  const mock = await forkReady('mock-openai.mjs');
  children.push(mock.child);
  const mockUrl = `http://127.0.0.1:${mock.port}`;

  console.log(
    `\nSettlement benchmark: ${quick ? 'quick' : 'full'} mode, concurrency ${concurrency}, ${duration} s per cell after a ` +
      `${warmup} s warm-up; databases ${dbs.join(', ')}; paths ${paths.join(', ')}; ` +
      `${availableParallelism()} cores (node ${process.version})`,
  );
  const busyBefore = await machineBusy();
  if (busyBefore > 0.25)
    console.log(
      `WARNING: the machine was ${Math.round(busyBefore * 100)}% busy (all cores) just before the run: other work skews the figures.`,
    );

  for (const kind of dbs) {
    const label = { sqlite: 'SQLite', mysql: 'MariaDB', postgres: 'PostgreSQL' }[kind] ?? kind;
    let db = null;
    let gateway = null;
    let driver = null;
    try {
      db = await freshDatabase(kind);
      gateway = await startGateway(db.env);
      const { base } = gateway;
      const session = await setupRoot(base);
      const channelId = await createChannel(base, session, {
        baseUrl: mockUrl,
        model: MODEL,
        key: CHANNEL_KEY,
      });
      const heldCount = Math.max(concurrency, 16);
      const tokens = await createTokens(base, session, [
        { name: 'bench-trusted', remain_quota: 0, unlimited_quota: true },
        ...Array.from({ length: heldCount }, (_, i) => ({
          name: `bench-held-${i}`,
          remain_quota: HELD_TOKEN_QUOTA,
          unlimited_quota: false,
        })),
      ]);
      const pathTokens = { trusted: [tokens[0]], held: tokens.slice(1) };
      driver = await openDriver(kind, db, concurrency);
      const ids = { userId: session.id, channelId, tokenId: tokens[0].id };

      // One request checked before measuring (the server may need a moment to see the new channel).
      let first = null;
      for (let i = 0; i < 50; i++) {
        const r = await fetch(`${base}/v1/chat/completions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[0].key}` },
          body: requestBody,
        });
        first = { status: r.status, text: await r.text() };
        if (first.status === 200) break;
        await sleep(100);
      }
      const firstJson = first.status === 200 ? JSON.parse(first.text) : null;
      if (firstJson?.choices?.[0]?.message?.content !== CONTENT.join(''))
        throw new Error(`${label}: the first request failed: ${first.status} ${first.text.slice(0, 300)}`);

      const gatewayRps = {};
      for (const path of paths) {
        const keys = pathTokens[path].map((t) => t.key);
        const tokenIds = pathTokens[path].map((t) => t.id);
        const before = await settledSnapshot(driver, ids.userId, tokenIds, channelId);
        await ask(mock.child, 'reset');
        const w = await load(base, keys, concurrency, warmup);
        const cpu0 = cpuSeconds(gateway.pid);
        const r = await load(base, keys, concurrency, duration);
        const cpu1 = cpuSeconds(gateway.pid);
        const after = await settledSnapshot(driver, ids.userId, tokenIds, channelId);
        const upstream = (await ask(mock.child, 'stats')).counts[`Bearer ${CHANNEL_KEY}`] ?? 0;
        const answered = w.ok + r.ok;
        const c = {
          db: label,
          path,
          answered,
          upstream_calls: upstream,
          log_rows: after.logRows - before.logRows,
          log_sum: after.logSum - before.logSum,
          balance_change: before.quota - after.quota,
          used_change: after.used - before.used,
          request_count_change: after.requests - before.requests,
          token_log_sum: after.tokenLogSum - before.tokenLogSum,
          token_change: before.tokenRemain - after.tokenRemain,
          channel_change: after.channelUsed - before.channelUsed,
        };
        c.expected = answered * CHARGE;
        const problems = [];
        if (c.log_sum !== c.balance_change)
          problems.push(`log sum ${c.log_sum} ≠ balance change ${c.balance_change}`);
        if (c.used_change !== c.log_sum)
          problems.push(`user used_quota +${c.used_change} ≠ log sum ${c.log_sum}`);
        if (c.channel_change !== c.log_sum)
          problems.push(`channel used_quota +${c.channel_change} ≠ log sum ${c.log_sum}`);
        if (path === 'held' && c.token_change !== c.token_log_sum)
          problems.push(`tokens' balance change ${c.token_change} ≠ their log sum ${c.token_log_sum}`);
        if (c.log_rows !== answered)
          problems.push(`${c.log_rows} consume-log rows for ${answered} answered requests`);
        if (c.request_count_change !== answered)
          problems.push(`request_count +${c.request_count_change} ≠ ${answered}`);
        if (c.log_sum !== c.expected) problems.push(`log sum ${c.log_sum} ≠ ${answered} × ${CHARGE}`);
        if (w.bad + r.bad)
          problems.push(
            `${w.bad + r.bad} requests not answered 200 (${JSON.stringify({ ...w.statuses, ...r.statuses })})`,
          );
        c.ok = problems.length === 0;
        c.problems = problems;
        checks.push(c);
        if (!c.ok) failures.push(`${label} ${path}: ${problems.join('; ')}`);
        const rps = r.ok / r.wall;
        gatewayRps[path] = rps;
        rows.push({
          db: label,
          path,
          target: 'gatehouse (end to end)',
          rps: Math.round(rps),
          p50_ms: r.hist.count ? ms(r.hist.percentile(50)) : null,
          p99_ms: r.hist.count ? ms(r.hist.percentile(99)) : null,
          errors: r.bad,
          gateway_cpu_pct: cpu0 !== null && cpu1 !== null ? Math.round(((cpu1 - cpu0) / r.wall) * 100) : null,
          check: c.ok ? `ok: log Σ ${c.log_sum} = balance Δ ${c.balance_change}` : `FAIL: ${problems[0]}`,
        });
        console.log(
          `  ${label} ${path} gatehouse: ${Math.round(rps)} settled/s, p50 ${rows.at(-1).p50_ms} ms, p99 ${rows.at(-1).p99_ms} ms; ` +
            `log Σ ${c.log_sum} vs balance Δ ${c.balance_change} (${c.log_rows} rows, ${answered} answered, ${upstream} upstream calls) → ${c.ok ? 'ok' : 'FAIL'}`,
        );
      }
      await gateway.stop();
      gateway = null;
      // The database alone from here: balances large enough for any rate (the trust check is the server's).
      await driver.run('UPDATE "users" SET "quota" = ? WHERE "id" = ?', [1e15, ids.userId]);
      await driver.run(
        'UPDATE "tokens" SET "remain_quota" = ? WHERE "user_id" = ? AND "unlimited_quota" = ?',
        [1e12, ids.userId, false],
      );

      // The database alone, same tables, same rows, same statements.
      for (const path of paths) {
        const tokenIds = pathTokens[path].map((t) => t.id);
        const batchSize = Math.max(
          2,
          Math.min(FLUSH_AT, Math.round((gatewayRps[path] ?? 500) * (FLUSH_MS / 1000))),
        );
        for (const [target, size] of [
          ['db: 1 txn per settlement', 1],
          [`db: ledger batches (≤ ${batchSize}/txn)`, batchSize],
        ]) {
          await rawCeiling(driver, path, ids, tokenIds, concurrency, Math.min(1, warmup), size);
          const r = await rawCeiling(driver, path, ids, tokenIds, concurrency, duration, size);
          rows.push({
            db: label,
            path,
            target,
            rps: Math.round(r.settled / r.wall),
            p50_ms: r.hist.count ? ms(r.hist.percentile(50)) : null,
            p99_ms: r.hist.count ? ms(r.hist.percentile(99)) : null,
            errors: r.errors,
            gateway_cpu_pct: null,
            check: '',
          });
          if (r.errors) failures.push(`${label} ${path} ${target}: ${r.errors} errors`);
          console.log(`  ${label} ${path} ${target}: ${rows.at(-1).rps} settled/s`);
        }
      }
    } catch (e) {
      failures.push(`${label}: ${e instanceof Error ? e.message : e}`);
      console.log(`  ${label}: ${e instanceof Error ? e.message : e}`);
    } finally {
      if (gateway) await gateway.stop();
      if (driver) await driver.close().catch(() => {});
      if (db) await db.drop().catch((e) => console.log(`  ${label}: drop failed: ${e.message}`));
    }
  }

  console.log(
    `\nSettled requests per second, concurrency ${concurrency}, ${duration} s per cell ` +
      `(p50/p99: one request through the gateway; one settlement's transactions, or one batch, on the database)`,
  );
  table(
    rows,
    [
      ['db', 'db'],
      ['path', 'path'],
      ['target', 'target'],
      ['rps', 'settled/s'],
      ['p50_ms', 'p50 ms'],
      ['p99_ms', 'p99 ms'],
      ['errors', 'errors'],
      ['gateway_cpu_pct', 'gateway CPU %'],
      ['check', 'check (Σ log quota = balance change)', 'left'],
    ],
    3,
  );

  const figures = [];
  for (const kind of dbs) {
    const label = { sqlite: 'SQLite', mysql: 'MariaDB', postgres: 'PostgreSQL' }[kind] ?? kind;
    for (const path of paths) {
      const g = rows.find((r) => r.db === label && r.path === path && r.target.startsWith('gatehouse'));
      const per = rows.find((r) => r.db === label && r.path === path && r.target.includes('per settlement'));
      const batched = rows.find((r) => r.db === label && r.path === path && r.target.includes('batches'));
      if (!g || !per || !batched) continue;
      figures.push({
        db: label,
        path,
        gateway: g.rps,
        of_per_settlement: per.rps ? `${((g.rps / per.rps) * 100).toFixed(0)}%` : null,
        of_batched: batched.rps ? `${((g.rps / batched.rps) * 100).toFixed(1)}%` : null,
        check: g.check.startsWith('ok') ? 'ok' : 'FAIL',
      });
    }
  }
  if (figures.length) {
    console.log('\nGatehouse settled/s as a share of the database alone');
    table(
      figures,
      [
        ['db', 'db'],
        ['path', 'path'],
        ['gateway', 'gatehouse settled/s'],
        ['of_per_settlement', '% of db, 1 txn per settlement'],
        ['of_batched', '% of db, ledger batches'],
        ['check', 'billing check'],
      ],
      2,
    );
  }
  console.log(failures.length ? `\nFAILED:\n  ${failures.join('\n  ')}` : '\nEvery billing check passed.');

  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, `bench/results/settlement-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        mode: quick ? 'quick' : 'full',
        duration_s: duration,
        warmup_s: warmup,
        concurrency,
        dbs,
        paths,
        charge_per_request: CHARGE,
        node: process.version,
        cores: availableParallelism(),
        rows,
        figures,
        checks,
        machine_busy_before: +busyBefore.toFixed(2),
        load_average_after: loadavg(),
        failures,
      },
      null,
      2,
    ),
  );
  console.log(`Wrote ${file}`);
  if (failures.length) process.exitCode = 1;
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
}

// What one consume-log row costs SQLite to write, by index: the built server's schema (its migrations,
// run on a fresh file) receives rows through the ledger's own prepared INSERT in batches of 256 per
// transaction, as a settlement flush writes them. Side by side, the same table with no secondary index
// (the baseline), each index alone, and the full set; once with one user and one token (every index
// appends at the same place, as in the relay benchmarks) and once with many users and tokens (rows
// land all over each index, as on a real gateway). Judged by the CPU µs per row the indexes add over
// the baseline in the many-users case.
//
//   node bench/log-insert.bench.mjs                  48,000 rows per cell
//   BENCH_ROWS=20000 node bench/log-insert.bench.mjs
//   BENCH_WITHOUT=idx_logs_model_name,idx_logs_group   also the shipped set less some indexes
//   BENCH_ROWS_PER_STATEMENT=32                         several rows per prepared INSERT (a divisor of 256)
//   BENCH_PRAGMAS='cache_size = -65536;mmap_size = 268435456'   SQLite settings tried on every cell
// Needs `npm run build:server`.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
require(join(root, 'node_modules/reflect-metadata'));
const Sqlite = require(join(root, 'node_modules/better-sqlite3'));
const { createDataSource } = require(join(root, 'dist/server/src/database/data-source.js'));

const ROWS = Number(process.env.BENCH_ROWS ?? 48_000);
const BATCH = 256;
// BENCH_ROWS_PER_STATEMENT: rows per INSERT (the ledger writes one); BENCH_PRAGMAS: extra SQLite settings.
const PER_STATEMENT = Number(process.env.BENCH_ROWS_PER_STATEMENT ?? 1);
// Rows are written only in whole statements: a remainder would go unwritten yet count in the per-row cost.
if (BATCH % PER_STATEMENT || ROWS % PER_STATEMENT)
  throw new Error('BENCH_ROWS_PER_STATEMENT must divide 256 and BENCH_ROWS');
const PRAGMAS = (process.env.BENCH_PRAGMAS ?? '')
  .split(';')
  .map((p) => p.trim())
  .filter(Boolean);
// The columns the ledger writes a log row with, in its order.
const { LOG_COLUMNS: COLUMNS } = require(
  join(root, 'dist/server/src/modules/billing/quota-ledger.service.js'),
);

/** A fresh SQLite file with the server's schema (all migrations). */
async function schemaFile(dir) {
  const file = join(dir, 'schema.db');
  const ds = createDataSource({ type: 'sqlite', path: file });
  await ds.initialize();
  await ds.runMigrations();
  await ds.destroy();
  return file;
}

/** The secondary indexes of `logs` as the migrations made them: [name, CREATE statement]. */
function logIndexes(file) {
  const db = new Sqlite(file, { readonly: true });
  const rows = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'logs' AND sql IS NOT NULL`,
    )
    .all();
  db.close();
  return rows.map((r) => [r.name, r.sql]);
}

function cell(dir, schema, keep, spread, label) {
  const file = join(dir, `${label.replace(/\W+/g, '_')}.db`);
  copyFileSync(schema, file);
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  for (const pragma of PRAGMAS) db.pragma(pragma);
  for (const [name] of logIndexes(file)) if (!keep.includes(name)) db.exec(`DROP INDEX "${name}"`);
  const tuple = `(${COLUMNS.map(() => '?').join(', ')})`;
  const insert = db.prepare(
    `INSERT INTO "logs" (${COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES ${Array(PER_STATEMENT).fill(tuple).join(', ')}`,
  );
  const other = JSON.stringify({
    group: 'default',
    model_ratio: 15,
    model_price: -1,
    completion_ratio: 4,
    group_ratio: 1,
    user_group_ratio: -1,
    cache_tokens: 0,
    cache_ratio: 0.5,
  });
  const users = spread ? 500 : 1;
  const tokens = spread ? 1200 : 1;
  const models = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'deepseek-chat'];
  const start = 1_764_000_000;
  const params = new Array(COLUMNS.length * PER_STATEMENT);
  const write = db.transaction((from, to) => {
    for (let i = from; i < to; i++) {
      const u = (i * 7919) % users;
      const tk = (i * 104729) % tokens;
      const row = {
        user_id: u + 1,
        created_at: start + (i >> 5),
        type: 2,
        content: '',
        username: `user${u}`,
        token_name: `key-${tk}`,
        token_id: tk + 1,
        model_name: models[i % models.length],
        quota: 150 + (i % 97),
        prompt_tokens: 12,
        completion_tokens: 40,
        use_time: 1,
        is_stream: i & 1,
        channel_id: 1 + (i % 3),
        group: 'default',
        ip: '10.0.0.1',
        request_id: `20261126${i.toString(16).padStart(8, '0')}${(i * 2654435761) % 1e9}`,
        node_name: '',
        other,
      };
      const at = (i % PER_STATEMENT) * COLUMNS.length;
      for (let c = 0; c < COLUMNS.length; c++) params[at + c] = row[COLUMNS[c]] ?? null;
      if ((i + 1) % PER_STATEMENT === 0) insert.run(params);
    }
  });
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < ROWS; i += BATCH) write(i, Math.min(ROWS, i + BATCH));
  const cpu = process.cpuUsage(cpu0);
  db.close();
  rmSync(file, { force: true });
  return (cpu.user + cpu.system) / ROWS;
}

const dir = mkdtempSync(join(tmpdir(), 'gh-log-insert-'));
try {
  const schema = await schemaFile(dir);
  const indexes = logIndexes(schema);
  const names = indexes.map(([n]) => n);
  const results = [];
  const pad = (s, n) => String(s).padEnd(n);
  console.log(
    `\nConsume-log INSERT on SQLite, CPU µs per row, ${ROWS} rows per cell in transactions of ${BATCH} (node ${process.version})`,
  );
  console.log(`${pad('indexes kept', 58)} ${pad('1 user, 1 token', 16)} 500 users, 1200 tokens`);
  console.log(`${'-'.repeat(58)} ${'-'.repeat(16)} ${'-'.repeat(22)}`);
  const row = (label, keep) => {
    const one = cell(dir, schema, keep, false, `${label}-one`);
    const many = cell(dir, schema, keep, true, `${label}-many`);
    results.push({ label, keep, one_user_us: +one.toFixed(2), many_users_us: +many.toFixed(2) });
    console.log(`${pad(label, 58)} ${pad(one.toFixed(2), 16)} ${many.toFixed(2)}`);
    return { one, many };
  };
  const base = row('none (baseline: primary key only)', []);
  for (const n of names) {
    const cols = /\(([^)]*)\)/.exec(indexes.find(([x]) => x === n)[1])?.[1] ?? n;
    row(`only ${n} (${cols.replace(/"/g, '')})`, [n]);
  }
  // BENCH_WITHOUT=a,b: one more row, the shipped set less those indexes (what dropping them would save).
  const without = (process.env.BENCH_WITHOUT ?? '').split(',').filter(Boolean);
  if (without.length)
    row(
      `all but ${without.join(', ')}`,
      names.filter((n) => !without.includes(n)),
    );
  const all = row(`all ${names.length} (as shipped)`, names);
  const added = all.many - base.many;
  console.log(
    `\nJudged figure: CPU the log indexes add per row with many users = ${added.toFixed(2)} µs ` +
      `(${all.many.toFixed(2)} µs with all of them vs ${base.many.toFixed(2)} µs without); ` +
      `one user: ${(all.one - base.one).toFixed(2)} µs.`,
  );
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const out = join(
    root,
    'bench/results',
    `log-insert-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
  );
  writeFileSync(out, JSON.stringify({ rows: ROWS, batch: BATCH, node: process.version, results }, null, 2));
  console.log(`Wrote ${out}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

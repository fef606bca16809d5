// The metered forwarder's log writer thread (LOG_THREAD=1): its own connection to the forwarder's SQLite
// file; each message is one batch (the rows' parameters and their total charge), written in one
// transaction with the user's balance and the token's use, as the forwarder writes it on its event loop
// otherwise. Answers each batch once committed.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const Sqlite = require('better-sqlite3');
const { schemaDb, columns, userId } = workerData;
const db = new Sqlite(schemaDb);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 10000');
const insert = db.prepare(
  `INSERT INTO "logs" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
);
const takeUser = db.prepare(
  'UPDATE "users" SET "quota" = "quota" - ?, "used_quota" = "used_quota" + ?, "request_count" = "request_count" + ? WHERE "id" = ?',
);
const useToken = db.prepare(
  'UPDATE "tokens" SET "used_quota" = "used_quota" + ?, "accessed_time" = ? WHERE "id" = ?',
);
const write = db.transaction((rows, quota) => {
  for (const params of rows) insert.run(params);
  takeUser.run(quota, quota, rows.length, userId);
  useToken.run(quota, Math.floor(Date.now() / 1000), 1);
});
parentPort.on('message', ({ rows, quota }) => {
  write.immediate(rows, quota);
  parentPort.postMessage(rows.length);
});

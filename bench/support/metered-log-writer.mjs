// The metered forwarder's log writer thread (LOG_THREAD=1): its own connection to the forwarder's SQLite
// file; each message is one batch (the rows' parameters and their total charge), written in one
// transaction with the user's balance and the token's use, as the forwarder writes it on its event loop
// otherwise. Answers each batch once committed.
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { batchWriter } from './metered-books.mjs';

const require = createRequire(import.meta.url);
const Sqlite = require('better-sqlite3');
const { schemaDb, columns, userId } = workerData;
const db = new Sqlite(schemaDb);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 10000');
const write = batchWriter(db, columns, userId);
parentPort.on('message', ({ rows, quota }) => {
  write.immediate(rows, quota);
  parentPort.postMessage(rows.length);
});

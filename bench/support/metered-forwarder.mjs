// The relay benchmark's second baseline: the least a *metering* gateway must do. The bare forwarder
// (support/bare-forwarder.mjs) plus, per call, what no gateway that bills to the token can skip:
//
//   - read the caller's key and find its token in memory (one Map lookup, no hashing, no database);
//   - parse the request body to learn the model and whether it streams, and refuse an empty balance;
//   - forward the body untouched and pass the answer back as it comes (chunk by chunk for a stream);
//   - find the usage in the answer (the whole JSON of a complete answer; for a stream, the event that
//     carries it), price it, take it from the in-memory balance;
//   - keep one consume-log row per call, written to SQLite in batches of up to 256 rows per transaction
//     (the server's own `logs` table, with its indexes, from its migrations; env SCHEMA_DB) together
//     with the batch's balance updates, on a 100 ms timer or as soon as 256 rows wait.
//
// No request ids, limits, channel choice, retries, metrics, timeouts or error translation: a floor for
// what metering costs on node:http + undici + better-sqlite3, not a product. Run in its own process
// (child_process.fork; env UPSTREAM_URL, SCHEMA_DB, LOG_COLUMNS as JSON, PROMPT_PRICE and
// COMPLETION_PRICE per token).
//
// LOG_THREAD=1: the batches are written by a worker thread on its own SQLite connection (the same
// transaction: the rows, the balance and the token), the event loop only hands each batch over. What
// that variant reaches against the one above is what taking the log's SQLite work off the event loop
// could buy a gateway, on this machine.
//
// IPC: sends {ready, port, key} once listening; answers {id, cmd: 'stats'} with the calls served, the
// quota charged in memory, and what its database holds (rows and the user's used quota) once flushed.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { batchWriter } from './metered-books.mjs';
import { Pool } from 'undici';

const require = createRequire(import.meta.url);
const Sqlite = require('better-sqlite3');

const upstream = process.env.UPSTREAM_URL;
const schemaDb = process.env.SCHEMA_DB;
if (!upstream || !schemaDb) throw new Error('UPSTREAM_URL and SCHEMA_DB are required');
const COLUMNS = JSON.parse(process.env.LOG_COLUMNS ?? '[]');
const PROMPT_PRICE = Number(process.env.PROMPT_PRICE ?? 0.075);
const COMPLETION_PRICE = Number(process.env.COMPLETION_PRICE ?? 0.3);
const KEY = 'sk-bench-metered-0123456789abcdef';
const UPSTREAM_AUTH = 'Bearer sk-bench-metered-upstream';
const BATCH = 256;

const db = new Sqlite(schemaDb);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.prepare(
  `INSERT INTO "users" ("id", "username", "password", "display_name", "role", "status", "quota", "group", "aff_code")
   VALUES (1, 'bench', '-', 'bench', 1, 1, 1000000000000, 'default', 'bench-aff')`,
).run();
db.prepare(
  `INSERT INTO "tokens" ("id", "user_id", "name", "key_hash", "key_enc", "status", "expired_time", "unlimited_quota")
   VALUES (1, 1, 'bench', '-', '-', 1, -1, 1)`,
).run();

// The token and its user, as a gateway keeps them in memory.
const user = { id: 1, username: 'bench', group: 'default', quota: 1_000_000_000_000 };
const tokens = new Map([[KEY, { id: 1, name: 'bench', user }]]);

let served = 0;
let charged = 0;
let pending = [];
let timer = null;

// LOG_THREAD=1: a worker thread owns a second connection and writes each batch in one transaction.
let writer = null;
let writing = 0;
let written = null;
if (process.env.LOG_THREAD === '1') {
  writer = new Worker(new URL('./metered-log-writer.mjs', import.meta.url), {
    workerData: { schemaDb, columns: COLUMNS, userId: user.id },
  });
  writer.on('message', () => {
    if (--writing === 0 && written) {
      written();
      written = null;
    }
  });
  writer.on('error', (err) => {
    console.error(`log writer: ${err.message}`);
    process.exit(1);
  });
}
const allWritten = () => (writing === 0 ? Promise.resolve() : new Promise((resolve) => (written = resolve)));

const writeBatch = batchWriter(db, COLUMNS, user.id);

function flush() {
  clearTimeout(timer);
  timer = null;
  const rows = pending;
  pending = [];
  // One transaction per BATCH rows at most (a full batch can gain a few rows before its turn comes).
  for (let i = 0; i < rows.length; i += BATCH) {
    const slice = rows.slice(i, i + BATCH);
    let quota = 0;
    for (const r of slice) quota += r.quota;
    const params = slice.map((r) => r.params);
    if (!writer) writeBatch(params, quota);
    else {
      writing++;
      writer.postMessage({ rows: params, quota });
    }
  }
}

function settle(token, model, stream, usage, startedAt, ip) {
  const prompt = usage?.prompt_tokens ?? 0;
  const completion = usage?.completion_tokens ?? 0;
  const quota = Math.round(prompt * PROMPT_PRICE + completion * COMPLETION_PRICE);
  token.user.quota -= quota;
  charged += quota;
  served++;
  const row = {
    user_id: token.user.id,
    created_at: Math.floor(startedAt / 1000),
    type: 2,
    content: '',
    username: token.user.username,
    token_name: token.name,
    token_id: token.id,
    model_name: model,
    quota,
    prompt_tokens: prompt,
    completion_tokens: completion,
    use_time: Math.round((Date.now() - startedAt) / 1000),
    is_stream: stream ? 1 : 0,
    channel_id: 1,
    group: token.user.group,
    ip,
    request_id: '',
    node_name: '',
    other: JSON.stringify({
      model_price: -1,
      prompt_price: PROMPT_PRICE,
      completion_price: COMPLETION_PRICE,
    }),
  };
  pending.push({ quota, params: COLUMNS.map((c) => row[c] ?? null) });
  // A full batch is written on the next turn of the loop, a partial one within 100 ms.
  if (pending.length === BATCH) setImmediate(flush);
  else if (!timer) timer = setTimeout(flush, 100);
}

const pool = new Pool(upstream, {
  connections: null,
  keepAliveTimeout: 30_000,
  headersTimeout: 0,
  bodyTimeout: 0,
});

function fail(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type: 'invalid_request_error' } }));
}

/** The usage object of an SSE chunk that carries one (the OpenAI stream's last data event). */
function usageOfChunk(text) {
  const at = text.lastIndexOf('data: {', text.indexOf('"usage":{'));
  if (at < 0) return null;
  const end = text.indexOf('\n\n', at);
  try {
    return JSON.parse(text.slice(at + 6, end < 0 ? undefined : end)).usage ?? null;
  } catch {
    return null;
  }
}

async function forward(req, res) {
  const startedAt = Date.now();
  const auth = req.headers.authorization ?? '';
  const token = tokens.get(auth.startsWith('Bearer ') ? auth.slice(7) : auth);
  const parts = [];
  for await (const b of req) parts.push(b);
  if (!token) return fail(res, 401, 'invalid token');
  if (token.user.quota <= 0) return fail(res, 403, 'quota exhausted');
  const body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
  let parsed;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch {
    return fail(res, 400, 'invalid JSON');
  }
  const model = String(parsed.model ?? '');
  const stream = parsed.stream === true;
  const abort = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) abort.abort();
  };
  res.on('close', onClose);
  try {
    const up = await pool.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: UPSTREAM_AUTH },
      body,
      signal: abort.signal,
    });
    const headers = { 'content-type': up.headers['content-type'] ?? 'application/json' };
    if (up.headers['content-length']) headers['content-length'] = up.headers['content-length'];
    res.writeHead(up.statusCode, headers);
    let usage = null;
    if (stream) {
      for await (const chunk of up.body) {
        const text = chunk.toString('utf8');
        if (text.includes('"usage":{')) usage = usageOfChunk(text) ?? usage;
        if (!res.write(chunk)) await once(res, 'drain');
      }
      res.end();
    } else {
      const answer = [];
      for await (const chunk of up.body) answer.push(chunk);
      const whole = answer.length === 1 ? answer[0] : Buffer.concat(answer);
      res.end(whole);
      if (up.statusCode < 400) usage = JSON.parse(whole.toString('utf8')).usage ?? null;
    }
    if (up.statusCode < 400) settle(token, model, stream, usage, startedAt, req.socket.remoteAddress ?? '');
  } catch {
    if (!res.headersSent) fail(res, 502, 'upstream failed');
    else res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/v1/chat/completions') {
    void forward(req, res);
    return;
  }
  fail(res, 404, 'not found');
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.send?.({ ready: true, port: server.address().port, key: KEY }));

process.on('message', async (m) => {
  if (m?.cmd !== 'stats') return;
  flush();
  await allWritten();
  const rows = db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM("quota"), 0) AS q FROM "logs"').get();
  const used = db.prepare('SELECT "used_quota" AS u FROM "users" WHERE "id" = 1').get();
  process.send?.({ id: m.id, served, charged, logRows: rows.n, logQuota: rows.q, usedQuota: used.u });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));

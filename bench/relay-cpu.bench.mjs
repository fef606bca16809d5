// Relay CPU per request, without the network: the built server's RelayService handles requests
// in-process (token auth, pricing, channel selection, upstream call, billing, consume log), with the
// upstream answered by undici's MockAgent and the answer written to an in-memory response. Side by side
// with the least a gateway must do on the same stack (MockAgent request + read + write). Judged by the
// relay's CPU µs per request over that baseline: the part of the gateway's overhead that is our code,
// free of kernel and scheduling noise (the machine's other processes do not move these figures much).
//
//   node bench/relay-cpu.bench.mjs            20,000 requests per cell, concurrency 1 and 16
//   BENCH_REQUESTS=n BENCH_MODES=stream       narrow a run
//   BENCH_SLICES=10                           cells taken in turn, a tenth at a time (a shared machine)
//   BENCH_DIST=/tmp/old/dist                  measure another build (same node_modules)
//   BENCH_CONTEXT_KB=200                      agent-sized request bodies (about 200 KiB of conversation)
//   BENCH_STREAM_OPTIONS=1                    stream requests carry stream_options.include_usage
//   BENCH_STREAM_EVENTS=500                   content events per streamed answer (9 unless set): per-event cost
//   BENCH_FORMAT=anthropic                    Messages API calls to an Anthropic channel (as Claude Code makes)
//   BENCH_CHANNEL=openai|anthropic            the channel's kind when it differs from the caller's (converted)
//   BENCH_ALLOC_PROF=/tmp/a.heapprofile       allocation profile (collected objects included)
//   BENCH_ALLOC_SURVIVORS=1                   … of what outlived a young-generation collection only
//   BENCH_CPU_PROF=/tmp/c.cpuprofile          CPU profile of the measured cells (start-up left out)
//   BENCH_TARGETS=route                       only some cells (baseline, relay, route): profile one path
//   BENCH_OPTIONS='{"LogConsumeEnabled":"false"}'  options set before the run (what a feature costs)
//   node --cpu-prof --cpu-prof-dir=/tmp/p bench/relay-cpu.bench.mjs   profile our code alone
// Needs `npm run build:server`.
import { EventEmitter } from 'node:events';
import { setImmediate as turn } from 'node:timers/promises';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// BENCH_DIST=<dir>: another build of the server (e.g. the previous commit's) to compare against.
const dist = process.env.BENCH_DIST ?? join(root, 'dist');
const require = createRequire(import.meta.url);
require(join(root, 'node_modules/reflect-metadata'));
const { MockAgent, request } = require(join(root, 'node_modules/undici'));
const { createApp } = require(join(dist, 'server/src/app.factory.js'));
const { loadConfig } = require(join(dist, 'server/src/config/app-config.js'));
const { RelayService } = require(join(dist, 'server/src/modules/relay/relay.service.js'));
const { QuotaLedgerService } = require(join(dist, 'server/src/modules/billing/quota-ledger.service.js'));
const { RelayRoutes } = require(join(dist, 'server/src/modules/relay/relay-routes.js'));
const { RelayAdmission } = require(join(dist, 'server/src/modules/relay/lifecycle/admission.js'));
const { UpstreamClient } = require(join(dist, 'server/src/modules/relay/upstream/upstream-client.js'));
// Builds before the background checkpoints have no such module.
const optional = (path) => {
  try {
    return require(join(dist, path));
  } catch {
    return {};
  }
};
const { SqliteCheckpoints } = optional('server/src/database/sqlite-checkpoints.service.js');

const N = Number(process.env.BENCH_REQUESTS ?? 20_000);
// BENCH_SLICES=k: each cell's requests in k slices, the cells' slices taken in turn (baseline, relay,
// route, baseline, ...), so that a machine whose speed drifts during the run moves every cell alike.
const SLICES = Math.max(1, Math.floor(Number(process.env.BENCH_SLICES ?? 1)) || 1);
const modes = (process.env.BENCH_MODES ?? 'non-stream,stream').split(',');
// Which cells run (profiling one path alone): baseline, relay (the service), route (route + service).
const targets = (process.env.BENCH_TARGETS ?? 'baseline,relay,route').split(',');
const UPSTREAM = 'http://upstream.bench';
// BENCH_CONTEXT_KB=n: a conversation of about n KiB before the question, as coding agents send.
const CONTEXT_KB = Number(process.env.BENCH_CONTEXT_KB ?? 0);
const MESSAGES = [
  ...Array.from({ length: Math.ceil(CONTEXT_KB / 4) }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `Step ${i}: ${'the function reads the file, parses each line and returns the totals. '.repeat(57)}`,
  })),
  { role: 'user', content: 'Say hello.' },
];
// BENCH_FORMAT=anthropic: POST /v1/messages to an Anthropic channel, answered in the Messages API's
// format (the path Claude Code takes); OpenAI chat completions otherwise.
// BENCH_CHANNEL: the channel's kind (and the upstream's format), the caller's unless set: a caller in one
// format served by a channel of the other is converted both ways on every call.
const ANTHROPIC = process.env.BENCH_FORMAT === 'anthropic';
const ANTHROPIC_CHANNEL = (process.env.BENCH_CHANNEL ?? process.env.BENCH_FORMAT) === 'anthropic';
const MODEL = ANTHROPIC_CHANNEL ? 'claude-3-5-haiku' : 'gpt-4o-mini';
const PATH = ANTHROPIC ? '/v1/messages' : '/v1/chat/completions';
const UPSTREAM_PATH = ANTHROPIC_CHANNEL ? '/v1/messages' : '/v1/chat/completions';
// BENCH_STREAM_OPTIONS=1: stream requests also ask for usage (`stream_options.include_usage`), as the
// OpenAI SDKs do when told to and many agent frameworks do by default.
const STREAM_OPTIONS = process.env.BENCH_STREAM_OPTIONS === '1';
const streamFields = (stream) =>
  !stream
    ? {}
    : STREAM_OPTIONS && !ANTHROPIC
      ? { stream: true, stream_options: { include_usage: true } }
      : { stream: true };
const USAGE = { prompt_tokens: 40, completion_tokens: 40, total_tokens: 80 };
const COMPLETION = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: MODEL,
  system_fingerprint: 'fp_bench',
  choices: [
    {
      index: 0,
      message: { role: 'assistant', content: 'Hello! This is a fixed benchmark answer.', refusal: null },
      logprobs: null,
      finish_reason: 'stop',
    },
  ],
  usage: USAGE,
});
const WORDS = ['Hello', '!', ' This', ' is', ' a', ' fixed', ' benchmark', ' answer', '.'];
// BENCH_STREAM_EVENTS=n: a streamed answer of n content events (the words over and over), as a long agent
// answer streams; the upstream still reports the same usage, so the charge per request stays the same.
const STREAM_EVENTS = Math.max(1, Math.floor(Number(process.env.BENCH_STREAM_EVENTS ?? WORDS.length)) || 1);
const CONTENT = Array.from({ length: STREAM_EVENTS }, (_, i) => WORDS[i % WORDS.length]);
const chunk = (delta, finish = null, extra = {}) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: MODEL, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra })}\n\n`;
const OPENAI_STREAM =
  chunk({ role: 'assistant', content: '' }) +
  CONTENT.map((c) => chunk({ content: c })).join('') +
  chunk({}, 'stop') +
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1_700_000_000, model: MODEL, choices: [], usage: USAGE })}\n\n` +
  'data: [DONE]\n\n';
const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
const MESSAGE_ID = 'msg_01BenchAnswer0000000000';
const ANTHROPIC_USAGE = { input_tokens: USAGE.prompt_tokens, output_tokens: USAGE.completion_tokens };
const ANTHROPIC_MESSAGE = JSON.stringify({
  id: MESSAGE_ID,
  type: 'message',
  role: 'assistant',
  model: MODEL,
  content: [{ type: 'text', text: 'Hello! This is a fixed benchmark answer.' }],
  stop_reason: 'end_turn',
  stop_sequence: null,
  usage: ANTHROPIC_USAGE,
});
const ANTHROPIC_STREAM =
  event('message_start', {
    message: {
      id: MESSAGE_ID,
      type: 'message',
      role: 'assistant',
      model: MODEL,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: USAGE.prompt_tokens, output_tokens: 1 },
    },
  }) +
  event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }) +
  event('ping', {}) +
  CONTENT.map((text) => event('content_block_delta', { index: 0, delta: { type: 'text_delta', text } })).join(
    '',
  ) +
  event('content_block_stop', { index: 0 }) +
  event('message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: USAGE.completion_tokens },
  }) +
  event('message_stop', {});
const STREAM = ANTHROPIC_CHANNEL ? ANTHROPIC_STREAM : OPENAI_STREAM;

/** An in-memory ServerResponse: enough of its surface for the relay's writers. */
/** A request that emits its body (one chunk, then the end) once both listeners are attached. */
class BodyOnListen extends EventEmitter {
  constructor(body) {
    super();
    this.body = body;
    this.flowing = false;
  }
  on(event, fn) {
    super.on(event, fn);
    if (!this.flowing && this.listenerCount('data') && this.listenerCount('end')) {
      this.flowing = true;
      queueMicrotask(() => {
        this.emit('data', this.body);
        this.emit('end');
      });
    }
    return this;
  }
  resume() {
    return this;
  }
}

class MemoryResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  bytes = 0;
  #headers = {};
  setHeader(k, v) {
    this.#headers[k.toLowerCase()] = v;
  }
  getHeader(k) {
    return this.#headers[k.toLowerCase()];
  }
  removeHeader(k) {
    delete this.#headers[k.toLowerCase()];
  }
  hasHeader(k) {
    return k.toLowerCase() in this.#headers;
  }
  writeHead(status, headers) {
    this.statusCode = status;
    if (headers) for (const [k, v] of Object.entries(headers)) this.setHeader(k, v);
    this.headersSent = true;
    return this;
  }
  flushHeaders() {
    this.headersSent = true;
  }
  write(c) {
    this.headersSent = true;
    this.bytes += c.length;
    return true;
  }
  end(c) {
    if (c) this.write(c);
    this.headersSent = true;
    this.writableEnded = this.writableFinished = true;
    this.emit('finish');
    this.emit('close');
  }
}

async function api(base, cookie, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(cookie ? { cookie: cookie.cookie, 'New-Api-User': String(cookie.id) } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { res, json: await res.json() };
}

// Settles what the cell's calls queued (the consume logs and balances they write): measured with the
// cell that caused it, not left for the next one.
let settleQueued = async () => {};

async function warm(n, one) {
  for (let i = 0; i < Math.min(2000, n); i++) await one();
  await settleQueued();
}

async function run(label, n, concurrency, one) {
  await warm(n, one);
  return measure(label, n, concurrency, one);
}

async function measure(label, n, concurrency, one) {
  const cpu = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < n) {
        await one();
        // A server takes each request from an I/O event, so its loop runs timers and immediates between
        // them. Without this turn the cell would run start to end in microtasks (MockAgent answers
        // without I/O): every request's undici body, held by a destroy callback queued with
        // setImmediate, would stay alive to the cell's end and the collector would copy it around.
        await turn();
      }
    }),
  );
  await settleQueued();
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const used = process.cpuUsage(cpu);
  return { label, n, concurrency, cpuUsPerReq: (used.user + used.system) / n, wallMs: wall };
}

const dataDir = mkdtempSync(join(tmpdir(), 'gh-relay-cpu-'));
let app;
try {
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      SQLITE_PATH: join(dataDir, 'bench.db'),
      SESSION_SECRET: 'relay-cpu-bench-session-secret-01234',
      ALLOW_PRIVATE_OUTBOUND: 'true', // the mock upstream listens on 127.0.0.1
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      BCRYPT_COST: '4',
      STATIC_DIR: '/nonexistent',
    },
    { quiet: true },
  );
  app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  await api(base, null, 'POST', '/api/setup', {
    username: 'bench',
    password: 'bench-pass-1',
    confirmPassword: 'bench-pass-1',
  });
  const login = await api(base, null, 'POST', '/api/user/login', {
    username: 'bench',
    password: 'bench-pass-1',
  });
  const session = {
    cookie: login.res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; '),
    id: login.json.data.id,
  };
  const ch = await api(base, session, 'POST', '/api/channel/', {
    type: ANTHROPIC_CHANNEL ? 14 : 1,
    name: 'bench',
    key: 'sk-upstream',
    base_url: UPSTREAM,
    models: MODEL,
    group: 'default',
  });
  if (!ch.json.success) throw new Error(`channel: ${JSON.stringify(ch.json)}`);
  const options = JSON.parse(process.env.BENCH_OPTIONS ?? '{}');
  for (const [k, value] of Object.entries(options)) {
    const put = await api(base, session, 'PUT', '/api/option/', { key: k, value: String(value) });
    if (!put.json.success) throw new Error(`option ${k}: ${JSON.stringify(put.json)}`);
  }
  await api(base, session, 'POST', '/api/user/manage', {
    id: session.id,
    action: 'add_quota',
    value: 1_000_000_000,
  });
  const tok = await api(base, session, 'POST', '/api/token/', {
    name: 'bench',
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
  });
  const key = (await api(base, session, 'POST', `/api/token/${tok.json.data[0].id}/key`, {})).json.data.key;

  const mock = new MockAgent({ connections: 1 });
  mock.disableNetConnect();
  const pool = mock.get(UPSTREAM);
  pool
    .intercept({ path: UPSTREAM_PATH, method: 'POST' })
    .reply((opts) => {
      const stream = String(opts.body).includes('"stream":true');
      return {
        statusCode: 200,
        data: stream ? STREAM : ANTHROPIC_CHANNEL ? ANTHROPIC_MESSAGE : COMPLETION,
        responseOptions: { headers: { 'content-type': stream ? 'text/event-stream' : 'application/json' } },
      };
    })
    .persist();
  const relay = app.get(RelayService);
  app.get(UpstreamClient).agent = mock; // the relay's upstream dispatcher
  const caller = await app.get(RelayAdmission).caller(key, '127.0.0.1');
  const ledger = app.get(QuotaLedgerService);
  settleQueued = () => ledger.flush();

  let seq = 0;
  const inbound = (stream) => {
    const body = {
      model: MODEL,
      ...(ANTHROPIC ? { max_tokens: 1024 } : {}),
      messages: MESSAGES,
      ...streamFields(stream),
    };
    const raw = Buffer.from(JSON.stringify(body));
    return {
      format: ANTHROPIC ? 'anthropic' : 'openai',
      mode: 'chat',
      body,
      raw,
      contentType: 'application/json',
      pathModel: null,
      pathStream: false,
      key,
      ip: '127.0.0.1',
      requestId: `bench-${++seq}`,
      lang: 'en',
      userAgent: 'bench',
    };
  };
  const bad = [];
  // Through the raw route as well (key header, client IP, request id, body read and checks).
  const routes = app.get(RelayRoutes);
  const viaRoute = (stream) => () =>
    new Promise((resolve) => {
      const body = Buffer.from(
        JSON.stringify({
          model: MODEL,
          ...(ANTHROPIC ? { max_tokens: 1024 } : {}),
          messages: MESSAGES,
          ...streamFields(stream),
        }),
      );
      // A request whose body flows once the route listens for it (after the key is checked), as a
      // paused IncomingMessage does.
      const req = new BodyOnListen(body);
      req.method = 'POST';
      req.url = PATH;
      req.headers = {
        ...(ANTHROPIC
          ? { 'x-api-key': key, 'anthropic-version': '2023-06-01' }
          : { authorization: `Bearer ${key}` }),
        'content-type': 'application/json',
        'content-length': String(body.length),
        'user-agent': 'bench',
      };
      req.socket = { remoteAddress: '127.0.0.1' };
      req.connection = req.socket;
      const res = new MemoryResponse();
      res.once('close', () => {
        if (res.statusCode !== 200 || res.bytes === 0) bad.push(res.statusCode);
        resolve();
      });
      if (!routes.tryRaw(req, res)) throw new Error('the raw route did not take the request');
    });
  const gateway = (stream) => async () => {
    const res = new MemoryResponse();
    await relay.handle(inbound(stream), res, caller);
    if (res.statusCode !== 200 || res.bytes === 0) bad.push(res.statusCode);
  };
  // The least a gateway does on the same stack: parse the body for the model, forward, read, write back.
  const baseline = (stream) => async () => {
    const req = inbound(stream);
    JSON.parse(req.raw.toString());
    const res = new MemoryResponse();
    const up = await request(`${UPSTREAM}${UPSTREAM_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-upstream' },
      body: req.raw,
      dispatcher: mock,
    });
    res.writeHead(up.statusCode, { 'content-type': up.headers['content-type'] });
    for await (const c of up.body) res.write(c);
    res.end();
  };

  // BENCH_SQL_PROBE=1: which SQLite statements run, how often and for how long (wall time on the event
  // loop: better-sqlite3 is synchronous), over the measured cells.
  const statements = new Map();
  if (process.env.BENCH_SQL_PROBE) {
    const Db = require(join(root, 'node_modules/better-sqlite3'));
    const prepare = Db.prototype.prepare;
    Db.prototype.prepare = function (sql) {
      const st = prepare.call(this, sql);
      for (const m of ['run', 'get', 'all']) {
        const f = st[m].bind(st);
        st[m] = (...a) => {
          const started = process.hrtime.bigint();
          const out = f(...a);
          const us = Number(process.hrtime.bigint() - started) / 1e3;
          const k = sql.slice(0, 60);
          let times = statements.get(k);
          if (!times) statements.set(k, (times = []));
          times.push(us);
          return out;
        };
      }
      return st;
    };
  }
  const flushes = [];
  if (process.env.BENCH_FLUSH_PROBE) {
    const apply = ledger.apply.bind(ledger);
    ledger.apply = async (m, batch) => {
      const t = process.hrtime.bigint();
      await apply(m, batch);
      flushes.push([batch.length, Number(process.hrtime.bigint() - t) / 1e3]);
    };
  }
  // BENCH_ALLOC_PROF=<file>: an allocation profile of the measured cells, collected objects included
  // (what the garbage collector has to clear), written as a .heapprofile for DevTools.
  // BENCH_CPU_PROF=<file>: a CPU profile of the measured cells alone (start-up left out), as a .cpuprofile;
  // BENCH_CPU_PROF_US sets its sampling interval (µs, 100 by default).
  let inspector = null;
  if (process.env.BENCH_ALLOC_PROF || process.env.BENCH_CPU_PROF) {
    const { Session } = require('node:inspector');
    inspector = new Session();
    inspector.connect();
    const post = (m, p) => new Promise((res, rej) => inspector.post(m, p, (e, r) => (e ? rej(e) : res(r))));
    inspector.call = post;
  }
  if (process.env.BENCH_ALLOC_PROF)
    await inspector.call('HeapProfiler.startSampling', {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      // BENCH_ALLOC_SURVIVORS=1: only what outlived a young-generation collection (what scavenges copy
      // and promote), the objects the minor GC collected left out.
      includeObjectsCollectedByMinorGC: process.env.BENCH_ALLOC_SURVIVORS !== '1',
    });
  if (process.env.BENCH_CPU_PROF) {
    await inspector.call('Profiler.enable');
    await inspector.call('Profiler.setSamplingInterval', {
      interval: Number(process.env.BENCH_CPU_PROF_US ?? 100),
    });
    await inspector.call('Profiler.start');
  }
  const before = await ledger.balanceOf(session.id);
  const rows = [];
  for (const mode of modes) {
    const stream = mode === 'stream';
    for (const c of [1, 16]) {
      const cells = [
        ['baseline', 'baseline', baseline(stream)],
        ['gatehouse', 'relay', gateway(stream)],
        ['gatehouse (route)', 'route', viaRoute(stream)],
      ];
      if (SLICES === 1) {
        const cell = (label, on, fn) =>
          targets.includes(on) ? run(label, N, c, fn) : { label, n: 0, concurrency: c, cpuUsPerReq: NaN };
        for (const [label, on, fn] of cells) rows.push({ mode, ...(await cell(label, on, fn)) });
        continue;
      }
      // Slices: every cell warmed, then a slice of each in turn, SLICES times; a cell's figure is the sum.
      const sums = cells.map(([label]) => ({ label, n: 0, concurrency: c, cpuUs: 0, wallMs: 0 }));
      for (const [, on, fn] of cells) if (targets.includes(on)) await warm(N, fn);
      for (let slice = 0; slice < SLICES; slice++)
        for (const [i, [label, on, fn]] of cells.entries()) {
          if (!targets.includes(on)) continue;
          const n = Math.floor(N / SLICES) + (slice < N % SLICES ? 1 : 0);
          const r = await measure(label, n, c, fn);
          sums[i].n += n;
          sums[i].cpuUs += r.cpuUsPerReq * n;
          sums[i].wallMs += r.wallMs;
        }
      for (const { cpuUs, ...sum } of sums)
        rows.push({ mode, ...sum, cpuUsPerReq: sum.n ? cpuUs / sum.n : NaN });
    }
  }
  await ledger.flush();
  if (process.env.BENCH_CPU_PROF) {
    const { profile } = await inspector.call('Profiler.stop');
    writeFileSync(process.env.BENCH_CPU_PROF, JSON.stringify(profile));
  }
  if (process.env.BENCH_ALLOC_PROF) {
    const { profile } = await inspector.call('HeapProfiler.stopSampling');
    writeFileSync(process.env.BENCH_ALLOC_PROF, JSON.stringify(profile));
  }
  inspector?.disconnect();
  const { DataSource } = require(join(root, 'node_modules/typeorm'));
  const ds = app.get(DataSource);
  const [{ quota }] = await ds.query('SELECT quota FROM users WHERE id = ?', [session.id]);
  const [{ n: logs }] = await ds.query('SELECT COUNT(*) AS n FROM logs WHERE type = 2');
  const [{ s: billed }] = await ds.query('SELECT SUM(quota) AS s FROM logs WHERE type = 2');

  console.log(
    `\nRelay CPU per request, in-process (no network), ${N} requests per cell after 2000 warm-up${SLICES > 1 ? `, cells in turn in ${SLICES} slices` : ''}${ANTHROPIC ? ', Anthropic Messages API' : ''}${ANTHROPIC !== ANTHROPIC_CHANNEL ? `, to ${ANTHROPIC_CHANNEL ? 'an Anthropic' : 'an OpenAI'} channel (converted)` : ''}${STREAM_EVENTS !== WORDS.length ? `, ${STREAM_EVENTS} content events per stream` : ''} (node ${process.version})`,
  );
  console.log(
    'mode        concurrency  baseline µs/req  relay µs/req  route+relay µs/req  added µs/req  ratio',
  );
  console.log(
    '----------  -----------  ---------------  ------------  ------------------  ------------  -----',
  );
  const out = [];
  for (let i = 0; i < rows.length; i += 3) {
    const [b, g, r] = rows.slice(i, i + 3);
    const added = r.cpuUsPerReq - b.cpuUsPerReq;
    out.push({
      mode: b.mode,
      concurrency: b.concurrency,
      baseline: b.cpuUsPerReq,
      relay: g.cpuUsPerReq,
      gatehouse: r.cpuUsPerReq,
      added,
    });
    console.log(
      `${b.mode.padEnd(10)}  ${String(b.concurrency).padStart(11)}  ${b.cpuUsPerReq.toFixed(1).padStart(15)}  ${g.cpuUsPerReq.toFixed(1).padStart(12)}  ${r.cpuUsPerReq.toFixed(1).padStart(18)}  ${added.toFixed(1).padStart(12)}  ${(r.cpuUsPerReq / b.cpuUsPerReq).toFixed(2).padStart(5)}`,
    );
  }
  // With consume logs off (BENCH_OPTIONS) there are no rows to add up: none may have been written.
  const logging = options.LogConsumeEnabled !== 'false';
  const booksOk = logging
    ? Number(before) - Number(quota) === Number(billed)
    : Number(logs) === 0 && Number(before) > Number(quota);
  const gatewayRequests =
    (N + Math.min(2000, N)) * 2 * modes.length * ['relay', 'route'].filter((t) => targets.includes(t)).length;
  console.log(`\nJudged figure: added CPU µs per request (route+relay − baseline), lower is better.`);
  console.log(
    `Correctness: ${bad.length ? `${bad.length} answers were not 200 (${[...new Set(bad)].join(',')})` : 'every answer was a 200 with a body'}; ${logs} consume logs for ${gatewayRequests} relayed requests; balance ${before} → ${quota}, ${logging ? `billed ${billed} (${booksOk ? 'exact' : 'MISMATCH'})` : `charged ${Number(before) - Number(quota)} (consume logs off)`}.`,
  );
  if (Object.keys(options).length) console.log(`Options: ${JSON.stringify(options)} (BENCH_OPTIONS)`);
  if (statements.size) {
    console.log('\nSQLite statements over the run (wall µs on the event loop):');
    console.log('    runs  µs/relayed request   p50    p90     p99     max  statement');
    const rows = [...statements].map(([sql, times]) => {
      times.sort((a, b) => a - b);
      const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
      return { sql, times, total: times.reduce((a, b) => a + b, 0), at };
    });
    for (const r of rows.sort((a, b) => b.total - a.total).slice(0, 15))
      console.log(
        `${String(r.times.length).padStart(8)}  ${(r.total / gatewayRequests).toFixed(2).padStart(18)}  ${[
          0.5, 0.9, 0.99,
        ]
          .map((q) =>
            r
              .at(q)
              .toFixed(0)
              .padStart(q === 0.5 ? 4 : 6),
          )
          .join(' ')} ${r.times[r.times.length - 1].toFixed(0).padStart(7)}  ${r.sql}`,
      );
    const checkpoints = SqliteCheckpoints && app.get(SqliteCheckpoints, { strict: false }).stats;
    if (checkpoints)
      console.log(
        `Background checkpoints: ${checkpoints.checkpoints} copied ${checkpoints.pages} pages in ${checkpoints.ms.toFixed(0)} ms on their own thread (${checkpoints.running ? 'running' : 'not running'}).`,
      );
  }
  if (flushes.length) {
    const rows = flushes.reduce((n, f) => n + f[0], 0);
    const us = flushes.reduce((n, f) => n + f[1], 0);
    const worst = flushes.reduce((m, f) => (f[1] > m[1] ? f : m));
    console.log(
      `Flushes: ${flushes.length}, ${rows} rows, ${(us / rows).toFixed(1)} µs per row, worst ${worst[1].toFixed(0)} µs for ${worst[0]} rows`,
    );
  }
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, `bench/results/relay-cpu-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        node: process.version,
        requests: N,
        slices: SLICES,
        cells: out,
        logs: Number(logs),
        billed: Number(billed),
      },
      null,
      2,
    ),
  );
  console.log(`Wrote ${file}`);
  if (bad.length || (logging && Number(logs) !== gatewayRequests) || !booksOk) process.exitCode = 1;
} finally {
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
}

// Relay overhead: POST /v1/chat/completions (non-stream and stream) through the built Gatehouse server
// with token auth, billing and consume logs on, the same server with consume logs off, a bare node:http
// + undici forwarder, a metered forwarder (the bare one plus token lookup, usage, pricing and a consume
// log on SQLite: the least a metering gateway does) and the mock upstream itself, all in one run, same
// load generator (autocannon), same mock, every cell measured BENCH_ROUNDS times (rounds interleaved)
// and reported as the median.
// Judged by the gateway's throughput as a share of the bare forwarder's (target ≥ 85%), the latency it
// adds at 16 connections (p50 < 0.3 ms, p99 < 2 ms) and its CPU µs per request. Also checks every
// gateway answer is a 200 with the mock's content, and that the quota consumed equals the billed
// requests × the per-request charge.
//
//   node bench/relay.bench.mjs                      full: 1,16,64,256 connections, 10 s per cell, 3 rounds
//   BENCH_QUICK=1 node bench/relay.bench.mjs        quick: 16 connections, 3 s per cell
//   BENCH_ROUNDS=n                                  rounds per cell (median reported)
//   BENCH_DURATION=s BENCH_WARMUP=s BENCH_CONNECTIONS=1,16 BENCH_MODES=stream   narrow a run
//   BENCH_BUILD=1                                   run `npm run build:server` first
//   BENCH_GATEWAY_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'   node flags for the gateway process
//   BENCH_BARE_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/bare'       the same for the bare forwarder
//   BENCH_METERED_NODE_ARGS=...                    the same for the metered forwarder
//   BENCH_METERED_THREAD=1                         one more target: the metered forwarder with its log
//                                                  written by a worker thread (the log off the event loop)
//   BENCH_BASELINE_DIST=/tmp/old/dist              another build as one more target (a change judged in one run)
//   BENCH_GATEWAY_STDOUT=/tmp/out                  the gateways' stdout to files there (e.g. with --trace-gc)
//   BENCH_OPTIONS='{"StreamCacheQueueLength":"4"}'  options set on both gateways (experiments; noted in the output)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHistogram } from 'node:perf_hooks';
import autocannon from 'autocannon';
import {
  api,
  ask,
  cpuSeconds,
  forkReady,
  freePort,
  machineBusy,
  rssMb,
  root,
  serverJs,
  sessionCookies,
  sleep,
  table,
  waitFor,
} from './support/harness.mjs';
import { CONTENT, MODEL, USAGE } from './support/mock-openai.mjs';

const quick = process.env.BENCH_QUICK === '1';
const duration = Number(process.env.BENCH_DURATION ?? process.env.BENCH_SECONDS ?? (quick ? 3 : 10));
const warmup = Number(process.env.BENCH_WARMUP ?? (quick ? 1 : 2));
const initialWarmup = Number(process.env.BENCH_INITIAL_WARMUP ?? 3);
const connections = (process.env.BENCH_CONNECTIONS ?? (quick ? '16' : '1,16,64,256')).split(',').map(Number);
const modes = (process.env.BENCH_MODES ?? 'non-stream,stream').split(',');
const TARGET_SHARE = 0.85; // gateway req/s ≥ 85% of the bare forwarder's
const TARGET_ADDED_P50_MS = 0.3; // added latency at 16 connections
const TARGET_ADDED_P99_MS = 2;
// BENCH_ROUNDS: every cell is measured this many times, rounds interleaved; the tables show medians.
const rounds = Number(process.env.BENCH_ROUNDS ?? (quick ? 1 : 3));

// Price of gpt-4o-mini with the default options: model ratio 0.075, completion ratio 4, group ratio 1.
const MODEL_RATIO = 0.075;
const COMPLETION_RATIO = 4;
const GROUP_RATIO = 1;
const CHARGE = Math.round(
  (USAGE.prompt_tokens + USAGE.completion_tokens * COMPLETION_RATIO) * MODEL_RATIO * GROUP_RATIO,
);

const CHANNEL_KEY = 'sk-bench-upstream-channel-key';

// ------------------------------------------------------------------------------------------ helpers

/**
 * Runs autocannon for `seconds` (or for exactly `amount` requests); latencies of 2xx answers are also
 * kept at microsecond resolution (autocannon's own histogram rounds to whole milliseconds).
 */
function load(url, c, seconds, body, headers, amount) {
  const hist = createHistogram({ lowest: 1, highest: 120_000_000, figures: 3 });
  const opts = {
    url,
    method: 'POST',
    connections: c,
    body,
    headers: { 'content-type': 'application/json', ...headers },
  };
  if (amount) opts.amount = amount;
  else opts.duration = seconds;
  return new Promise((resolve, reject) => {
    const inst = autocannon(opts, (err, r) => (err ? reject(err) : resolve({ r, hist })));
    inst.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) hist.record(Math.max(1, Math.round(ms * 1000)));
    });
  });
}

const us = (v) => +(v / 1000).toFixed(2);

const requestBody = {
  'non-stream': JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
    max_tokens: 64,
  }),
  stream: JSON.stringify({
    model: MODEL,
    messages: [{ role: 'user', content: 'Say hello to the benchmark.' }],
    max_tokens: 64,
    stream: true,
    stream_options: { include_usage: true },
  }),
};

/** One request checked field by field: 200, the mock's content, its usage; streams end with [DONE]. */
async function verify(url, mode, key) {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: requestBody[mode],
  });
  const text = await r.text();
  const problems = [];
  if (r.status !== 200) problems.push(`status ${r.status}: ${text.slice(0, 300)}`);
  else if (mode === 'non-stream') {
    const j = JSON.parse(text);
    if (j.choices?.[0]?.message?.content !== CONTENT.join(''))
      problems.push(`content ${JSON.stringify(j.choices?.[0]?.message?.content)}`);
    if (
      j.usage?.prompt_tokens !== USAGE.prompt_tokens ||
      j.usage?.completion_tokens !== USAGE.completion_tokens
    )
      problems.push(`usage ${JSON.stringify(j.usage)}`);
  } else {
    const events = text
      .split('\n\n')
      .map((e) => e.trim())
      .filter(Boolean);
    if (events.at(-1) !== 'data: [DONE]') problems.push(`last event ${JSON.stringify(events.at(-1))}`);
    const chunks = events
      .filter((e) => e !== 'data: [DONE]')
      .map((e) => JSON.parse(e.replace(/^data: /, '')));
    const content = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('');
    if (content !== CONTENT.join('')) problems.push(`streamed content ${JSON.stringify(content)}`);
    const usage = chunks.find((c) => c.usage)?.usage;
    if (usage?.prompt_tokens !== USAGE.prompt_tokens || usage?.completion_tokens !== USAGE.completion_tokens)
      problems.push(`usage chunk ${JSON.stringify(usage)}`);
  }
  return { ok: problems.length === 0, status: r.status, problems };
}

// ------------------------------------------------------------------------------------------ setup

if (process.env.BENCH_BUILD === '1') {
  const b = spawnSync('npm', ['run', 'build:server'], { cwd: root, stdio: 'inherit' });
  if (b.status !== 0 && !existsSync(serverJs)) process.exit(1);
}
if (!existsSync(serverJs)) {
  console.error(`${serverJs} is missing: run \`npm run build:server\` first (or set BENCH_BUILD=1).`);
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'gh-relay-bench-'));
const children = [];
const gateways = [];
const failures = [];
const notes = [];

try {
  const mock = await forkReady('mock-openai.mjs');
  children.push(mock.child);
  const mockUrl = `http://127.0.0.1:${mock.port}`;
  const bare = await forkReady(
    'bare-forwarder.mjs',
    { UPSTREAM_URL: mockUrl },
    (process.env.BENCH_BARE_NODE_ARGS ?? '').split(' ').filter(Boolean),
  );
  children.push(bare.child);
  const bareUrl = `http://127.0.0.1:${bare.port}`;
  // The least a metering gateway does (support/metered-forwarder.mjs), on the server's own schema, in a
  // file of its own per forwarder.
  const startMetered = async (file, env = {}) => {
    const schemaDb = join(dataDir, file);
    const made = spawnSync(process.execPath, [join(root, 'bench/support/schema-db.mjs'), schemaDb], {
      encoding: 'utf8',
    });
    if (made.status !== 0) throw new Error(`schema for the metered forwarder: ${made.stderr}`);
    const started = await forkReady(
      'metered-forwarder.mjs',
      {
        UPSTREAM_URL: mockUrl,
        SCHEMA_DB: schemaDb,
        LOG_COLUMNS: made.stdout,
        PROMPT_PRICE: String(MODEL_RATIO),
        COMPLETION_PRICE: String(MODEL_RATIO * COMPLETION_RATIO),
        ...env,
      },
      (process.env.BENCH_METERED_NODE_ARGS ?? '').split(' ').filter(Boolean),
    );
    children.push(started.child);
    return started;
  };
  const metered = await startMetered('metered.db');
  // The same with its batches written by a worker thread on a second connection (BENCH_METERED_THREAD=1).
  const meteredThread =
    process.env.BENCH_METERED_THREAD === '1'
      ? await startMetered('metered-thread.db', { LOG_THREAD: '1' })
      : null;

  /**
   * One gateway process on its own SQLite file, set up from scratch: admin, the mock as a channel, an
   * unlimited token. `options` are set before the run (logging off, say).
   */
  const startGateway = async (label, options, main = serverJs) => {
    const port = await freePort();
    const dir = mkdtempSync(join(dataDir, 'node-'));
    const env = {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      SQLITE_PATH: join(dir, 'gatehouse.db'),
      SESSION_SECRET: 'relay-bench-session-secret-0123456789',
      CRYPTO_SECRET: 'relay-bench-crypto-secret-0123456789',
      ALLOW_PRIVATE_OUTBOUND: 'true', // the mock upstream listens on 127.0.0.1
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      BCRYPT_COST: '4',
    };
    delete env.SQL_DSN; // SQLite, whatever the shell says
    delete env.REDIS_CONN_STRING;
    const nodeArgs = (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean); // e.g. --cpu-prof
    const child = spawn(process.execPath, [...nodeArgs, main], {
      cwd: root,
      env,
      // BENCH_GATEWAY_STDOUT=<dir>: each gateway's stdout to a file there (for --trace-gc and the like).
      stdio: [
        'ignore',
        process.env.BENCH_GATEWAY_STDOUT
          ? openSync(join(process.env.BENCH_GATEWAY_STDOUT, `gateway-${port}.log`), 'w')
          : 'ignore',
        'inherit',
      ],
    });
    gateways.push(child);
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/status`);

    const setup = await api(base, null, 'POST', '/api/setup', {
      username: 'bench',
      password: 'bench-pass-1',
      confirmPassword: 'bench-pass-1',
    });
    if (!setup.json?.success) throw new Error(`${label}: setup failed: ${setup.text}`);
    const login = await api(base, null, 'POST', '/api/user/login', {
      username: 'bench',
      password: 'bench-pass-1',
    });
    if (!login.json?.success) throw new Error(`${label}: login failed: ${login.text}`);
    const session = { cookie: sessionCookies(login.headers), id: login.json.data.id };
    for (const [key, value] of Object.entries(options)) {
      const put = await api(base, session, 'PUT', '/api/option/', { key, value: String(value) });
      if (!put.json?.success) throw new Error(`${label}: option ${key}: ${put.text}`);
    }
    const channel = await api(base, session, 'POST', '/api/channel/', {
      type: 1,
      name: 'bench-mock',
      key: CHANNEL_KEY,
      base_url: mockUrl,
      models: MODEL,
      group: 'default',
    });
    if (!channel.json?.success) throw new Error(`${label}: channel: ${channel.text.slice(0, 300)}`);
    const created = await api(base, session, 'POST', '/api/token/', {
      name: 'bench',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    if (!created.json?.success) throw new Error(`${label}: token creation failed: ${created.text}`);
    const list = await api(base, session, 'GET', '/api/token/');
    const items = list.json?.data?.items ?? list.json?.data;
    const token = (Array.isArray(items) ? items : []).find((t) => t.name === 'bench');
    if (!token) throw new Error(`${label}: token not listed: ${list.text.slice(0, 300)}`);
    const reveal = await api(base, session, 'POST', `/api/token/${token.id}/key`);
    let key = reveal.json?.data?.key;
    if (!key) throw new Error(`${label}: token key not revealed: ${reveal.text}`);
    if (!key.startsWith('sk-')) key = `sk-${key}`;
    return { base, session, key, pid: child.pid };
  };

  // Experiments: BENCH_OPTIONS='{"StreamCacheQueueLength":"4"}' sets options on both gateways (noted in the output).
  const extra = JSON.parse(process.env.BENCH_OPTIONS ?? '{}');
  for (const [key, value] of Object.entries(extra)) notes.push(`option ${key} = ${value} (BENCH_OPTIONS)`);
  const main = await startGateway('gatehouse', extra);
  // The same gateway with consume logs off: what logging costs, side by side.
  const quiet = await startGateway('gatehouse, logging off', { ...extra, LogConsumeEnabled: 'false' });
  // BENCH_BASELINE_DIST=<dir>: another build (an older commit's) as one more target, logging on, so a
  // change is judged against it in the same run, rounds interleaved.
  const baselineDist = process.env.BENCH_BASELINE_DIST;
  const older = baselineDist
    ? await startGateway('gatehouse (baseline build)', extra, join(baselineDist, 'server/src/main.js'))
    : null;
  const { base, session } = main;
  const gatewayKey = main.key;

  const targets = [
    {
      name: 'mock (direct)',
      key: 'mock',
      url: `${mockUrl}/v1/chat/completions`,
      auth: 'sk-bench-direct',
      pid: mock.child.pid,
    },
    {
      name: 'bare forwarder',
      key: 'bare',
      url: `${bareUrl}/v1/chat/completions`,
      auth: 'sk-bench-bare',
      pid: bare.child.pid,
    },
    {
      name: 'metered forwarder',
      key: 'metered',
      url: `http://127.0.0.1:${metered.port}/v1/chat/completions`,
      auth: metered.key,
      pid: metered.child.pid,
    },
  ];
  if (meteredThread)
    targets.push({
      name: 'metered forwarder, log thread',
      key: 'metered-thread',
      url: `http://127.0.0.1:${meteredThread.port}/v1/chat/completions`,
      auth: meteredThread.key,
      pid: meteredThread.child.pid,
    });
  targets.push(
    {
      name: 'gatehouse',
      key: 'gateway',
      url: `${base}/v1/chat/completions`,
      auth: gatewayKey,
      pid: main.pid,
    },
    {
      name: 'gatehouse, logging off',
      key: 'gateway-quiet',
      url: `${quiet.base}/v1/chat/completions`,
      auth: quiet.key,
      pid: quiet.pid,
    },
  );
  if (older)
    targets.push({
      name: 'gatehouse (baseline build)',
      key: 'gateway-older',
      url: `${older.base}/v1/chat/completions`,
      auth: older.key,
      pid: older.pid,
    });

  // Correctness first: every target answers both modes with the mock's content (the gateway may need a
  // moment to see the new channel in its in-memory index).
  const verification = [];
  for (const t of targets)
    for (const mode of modes) {
      let v = await verify(t.url, mode, t.auth);
      for (let i = 0; !v.ok && t.key.startsWith('gateway') && i < 50; i++) {
        await sleep(100);
        v = await verify(t.url, mode, t.auth);
      }
      verification.push({ target: t.name, mode, ...v });
      if (!v.ok) failures.push(`${t.name} ${mode}: ${v.problems.join('; ')}`);
    }
  if (failures.length) throw new Error(`verification failed:\n  ${failures.join('\n  ')}`);

  const self = async () => (await api(base, session, 'GET', '/api/user/self')).json?.data?.quota;
  // The balance once the ledger has written everything in flight (it flushes every ≤ 200 ms; a busy
  // machine can take longer): polled until two reads agree.
  const settled = async () => {
    let q = await self();
    for (let i = 0; i < 20; i++) {
      await sleep(300);
      const next = await self();
      if (next === q) break;
      q = next;
    }
    return q;
  };
  const quotaBefore = gatewayKey ? await settled() : null;
  await ask(mock.child, 'reset');
  let gatewayCompleted = 0;
  let gatewaySent = 0;

  console.log(
    `\nRelay benchmark: ${quick ? 'quick' : 'full'} mode, ${duration} s per cell after a ${warmup} s warm-up ` +
      `(and ${initialWarmup} s per target and mode before the first), ` +
      `${availableParallelism()} cores shared by the load generator, the target and the mock (node ${process.version})`,
  );
  // Other work on the machine (tests, builds) skews everything: measure how busy it is before starting.
  const busyBefore = await machineBusy();
  if (busyBefore > 0.25)
    console.log(
      `WARNING: the machine was ${Math.round(busyBefore * 100)}% busy (all cores) just before the run: other work skews the figures.`,
    );
  // One longer warm-up of every target in each mode first, so the gateway's first cell is not its JIT warm-up.
  for (const mode of modes)
    for (const t of targets) {
      const { r } = await load(t.url, 16, initialWarmup, requestBody[mode], {
        authorization: `Bearer ${t.auth}`,
      });
      if (t.key === 'gateway') {
        gatewayCompleted += r['2xx'];
        gatewaySent += r.requests.sent;
        if (r.non2xx + r.errors + r.timeouts)
          failures.push(
            `gatehouse ${mode} initial warm-up: ${r.non2xx} non-2xx, ${r.errors + r.timeouts} errors`,
          );
      }
    }
  const runs = [];
  for (let round = 1; round <= rounds; round++)
    for (const mode of modes)
      for (const c of connections)
        for (const t of targets) {
          const headers = { authorization: `Bearer ${t.auth}` };
          const w = await load(t.url, c, warmup, requestBody[mode], headers);
          // CPU used during the measured run, as % of one core: the target, the mock, the load generator.
          const cpu0 = {
            target: t.pid ? cpuSeconds(t.pid) : null,
            mock: cpuSeconds(mock.child.pid),
            gen: process.cpuUsage(),
            at: performance.now(),
          };
          const { r, hist } = await load(t.url, c, duration, requestBody[mode], headers);
          const wall = (performance.now() - cpu0.at) / 1000;
          const gen = process.cpuUsage(cpu0.gen);
          const pct = (a, b) => (a === null || b === null ? null : Math.round(((b - a) / wall) * 100));
          const row = {
            round,
            target: t.name,
            mode,
            connections: c,
            rps: Math.round(r.requests.average),
            p50_ms: hist.count ? us(hist.percentile(50)) : null,
            p99_ms: hist.count ? us(hist.percentile(99)) : null,
            errors: r.errors + r.timeouts,
            non2xx: r.non2xx,
            completed: r.requests.total,
            sent: r.requests.sent,
            ok_2xx: r['2xx'],
            duration_s: r.duration,
            autocannon_p50_ms: r.latency.p50,
            autocannon_p99_ms: r.latency.p99,
            ...(t.pid ? rssMb(t.pid) : { rss_mb: null, hwm_mb: null }),
            target_cpu_pct: t.pid ? pct(cpu0.target, cpuSeconds(t.pid)) : null,
            mock_cpu_pct: pct(cpu0.mock, cpuSeconds(mock.child.pid)),
            loadgen_cpu_pct: Math.round(((gen.user + gen.system) / 1e6 / wall) * 100),
          };
          row.target_cpu_us_per_req =
            row.target_cpu_pct !== null && row.rps
              ? Math.round((row.target_cpu_pct / 100 / row.rps) * 1e6)
              : null;
          row.err_non2xx = `${row.errors}/${row.non2xx}`;
          runs.push(row);
          if (t.key !== 'gateway' && t.key !== 'mock' && r.errors + r.timeouts + r.non2xx)
            failures.push(`${t.name} ${mode} @${c}: ${r.non2xx} non-2xx, ${r.errors + r.timeouts} errors`);
          if (t.key === 'gateway') {
            gatewayCompleted += r['2xx'] + w.r['2xx'];
            gatewaySent += r.requests.sent + w.r.requests.sent;
            const bad = r.errors + r.timeouts + r.non2xx + w.r.errors + w.r.timeouts + w.r.non2xx;
            if (bad)
              failures.push(
                `gatehouse ${mode} @${c}: ${r.non2xx + w.r.non2xx} non-2xx, ${r.errors + r.timeouts + w.r.errors + w.r.timeouts} errors/timeouts (status counts: run ${JSON.stringify(r.statusCodeStats)}, warm-up ${JSON.stringify(w.r.statusCodeStats)})`,
              );
          }
          process.stdout.write(
            `  round ${round} ${mode} @${c} ${t.name}: ${row.rps} req/s, p50 ${row.p50_ms} ms, p99 ${row.p99_ms} ms, errors/non-2xx ${row.err_non2xx}\n`,
          );
        }

  // Each cell's median over the rounds (the rounds interleave every target, so drift hits them alike).
  const median = (xs) => {
    const v = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
    return v.length ? v[(v.length - 1) >> 1] : null;
  };
  const rows = [];
  for (const mode of modes)
    for (const c of connections)
      for (const t of targets) {
        const cell = runs.filter((r) => r.target === t.name && r.mode === mode && r.connections === c);
        const row = { ...cell[0], round: `median of ${cell.length}` };
        for (const k of [
          'rps',
          'p50_ms',
          'p99_ms',
          'rss_mb',
          'hwm_mb',
          'target_cpu_pct',
          'mock_cpu_pct',
          'loadgen_cpu_pct',
          'target_cpu_us_per_req',
        ])
          row[k] = median(cell.map((r) => r[k]));
        row.errors = cell.reduce((n, r) => n + r.errors, 0);
        row.non2xx = cell.reduce((n, r) => n + r.non2xx, 0);
        row.err_non2xx = `${row.errors}/${row.non2xx}`;
        rows.push(row);
      }

  for (const mode of modes) {
    console.log(`\n${mode}, ${duration} s per cell, median of ${rounds} round${rounds > 1 ? 's' : ''}`);
    table(
      rows.filter((r) => r.mode === mode),
      [
        ['target', 'target'],
        ['mode', 'mode'],
        ['connections', 'connections'],
        ['rps', 'req/s'],
        ['p50_ms', 'p50 ms'],
        ['p99_ms', 'p99 ms'],
        ['err_non2xx', 'errors/non-2xx'],
        ['rss_mb', 'RSS MB'],
        ['target_cpu_pct', 'CPU % target'],
        ['mock_cpu_pct', 'mock'],
        ['loadgen_cpu_pct', 'loadgen'],
      ],
    );
  }

  // The judged figures: the gateway against the bare forwarder at each concurrency.
  const figures = [];
  for (const gw of [
    'gatehouse',
    'gatehouse, logging off',
    ...(older ? ['gatehouse (baseline build)'] : []),
    'metered forwarder',
    ...(meteredThread ? ['metered forwarder, log thread'] : []),
  ])
    for (const mode of modes)
      for (const c of connections) {
        const g = rows.find((r) => r.target === gw && r.mode === mode && r.connections === c);
        const b = rows.find((r) => r.target === 'bare forwarder' && r.mode === mode && r.connections === c);
        const share = b.rps ? g.rps / b.rps : null;
        const addedP50 = g.p50_ms !== null && b.p50_ms !== null ? +(g.p50_ms - b.p50_ms).toFixed(2) : null;
        const addedP99 = g.p99_ms !== null && b.p99_ms !== null ? +(g.p99_ms - b.p99_ms).toFixed(2) : null;
        figures.push({
          gateway: gw,
          mode,
          connections: c,
          share_pct: share === null ? null : +(share * 100).toFixed(1),
          share_ok: share !== null && share >= TARGET_SHARE,
          added_p50_ms: addedP50,
          p50_ok: addedP50 !== null && addedP50 < TARGET_ADDED_P50_MS,
          added_p99_ms: addedP99,
          p99_ok: addedP99 !== null && addedP99 < TARGET_ADDED_P99_MS,
          gateway_cpu_us_per_req: g.target_cpu_us_per_req,
          bare_cpu_us_per_req: b.target_cpu_us_per_req,
          gateway_rss_mb: g.rss_mb,
        });
      }
  if (figures.length) {
    console.log(
      `\nJudged figures: gatehouse vs the bare forwarder, median of ${rounds} (targets: ≥ ${TARGET_SHARE * 100}% throughput, added p50 < ${TARGET_ADDED_P50_MS} ms and p99 < ${TARGET_ADDED_P99_MS} ms at 16 connections)`,
    );
    table(
      figures.map((f) => ({
        ...f,
        share: `${f.share_pct}% ${f.share_ok ? 'ok' : 'MISS'}`,
        p50: `${f.added_p50_ms}${f.connections === 16 ? (f.p50_ok ? ' ok' : ' MISS') : ''}`,
        p99: `${f.added_p99_ms}${f.connections === 16 ? (f.p99_ok ? ' ok' : ' MISS') : ''}`,
      })),
      [
        ['gateway', 'gateway'],
        ['mode', 'mode'],
        ['connections', 'connections'],
        ['share', 'throughput % of bare'],
        ['p50', 'added p50 ms'],
        ['p99', 'added p99 ms'],
        ['gateway_cpu_us_per_req', 'CPU µs/req gateway'],
        ['bare_cpu_us_per_req', 'bare'],
        ['gateway_rss_mb', 'gateway RSS MB'],
      ],
    );
  }

  // Billing, two checks. (1) Over the timed cells: the quota consumed must be a whole number of
  // per-request charges, at least one per completed request and at most one per upstream call (a
  // request cut off when a cell ends may or may not have been delivered, and so charged). (2) Exact: a
  // fixed number of requests per mode that all complete must cost exactly that many charges.
  let billing = null;
  if (gatewayKey) {
    const upstream = (await ask(mock.child, 'stats')).counts[`Bearer ${CHANNEL_KEY}`] ?? 0;
    const quotaAfter = await settled();
    const consumed = quotaBefore - quotaAfter;
    const billed = consumed / CHARGE;
    const rangeOk =
      consumed > 0 && Number.isInteger(billed) && billed >= gatewayCompleted && billed <= upstream;

    const exactN = Number(process.env.BENCH_BILLING_REQUESTS ?? 500);
    let exactDone = 0;
    for (const mode of modes) {
      const { r } = await load(
        `${base}/v1/chat/completions`,
        16,
        0,
        requestBody[mode],
        { authorization: `Bearer ${gatewayKey}` },
        exactN,
      );
      exactDone += r['2xx'];
      if (r['2xx'] !== exactN)
        failures.push(`billing check ${mode}: ${r['2xx']} of ${exactN} answers were 2xx`);
    }
    const quotaEnd = await settled();
    const exactConsumed = quotaAfter - quotaEnd;
    const exactOk = exactConsumed === exactDone * CHARGE && exactDone > 0;

    billing = {
      charge_per_request: CHARGE,
      cells: {
        quota_before: quotaBefore,
        quota_after: quotaAfter,
        consumed,
        billed_requests: billed,
        completed_2xx: gatewayCompleted,
        upstream_calls: upstream,
        sent: gatewaySent,
        ok: rangeOk,
      },
      exact: {
        requests: exactDone,
        quota_before: quotaAfter,
        quota_after: quotaEnd,
        consumed: exactConsumed,
        expected: exactDone * CHARGE,
        ok: exactOk,
      },
    };
    console.log(
      `\nBilling (charge per request = round((${USAGE.prompt_tokens} + ${USAGE.completion_tokens} × ${COMPLETION_RATIO}) × ${MODEL_RATIO} × ${GROUP_RATIO}) = ${CHARGE})` +
        `\n  timed cells incl. warm-ups: quota ${quotaBefore} → ${quotaAfter}, consumed ${consumed} = ${billed} × ${CHARGE}; ` +
        `${gatewayCompleted} completed 200s ≤ ${billed} billed ≤ ${upstream} upstream calls (${gatewaySent} sent) → ${rangeOk ? 'ok' : 'MISMATCH'}` +
        `\n  exact check, ${exactN} requests per mode run to completion: quota ${quotaAfter} → ${quotaEnd}, consumed ${exactConsumed}, ` +
        `expected ${exactDone} × ${CHARGE} = ${exactDone * CHARGE} → ${exactOk ? 'ok' : 'MISMATCH'}`,
    );
    if (!rangeOk)
      failures.push(
        `billing over the cells: consumed ${consumed}, expected ${gatewayCompleted * CHARGE}..${upstream * CHARGE} in steps of ${CHARGE}`,
      );
    if (!exactOk)
      failures.push(`billing exact check: consumed ${exactConsumed}, expected ${exactDone * CHARGE}`);
  }
  // The metered forwarder keeps its books too: one log row per call it served, Σ rows = its charges =
  // the user's used quota in its database.
  const checkBooks = async (name, child) => {
    const books = await ask(child, 'stats');
    const booksOk =
      books.served > 0 &&
      books.logRows === books.served &&
      books.logQuota === books.charged &&
      books.usedQuota === books.charged &&
      books.charged === books.served * CHARGE;
    console.log(
      `  ${name}: ${books.served} calls served, ${books.logRows} log rows, Σ rows ${books.logQuota}, ` +
        `used quota ${books.usedQuota}, charged ${books.charged} = ${books.served} × ${CHARGE} → ${booksOk ? 'ok' : 'MISMATCH'}`,
    );
    if (!booksOk) failures.push(`${name}'s books: ${JSON.stringify(books)}`);
    return books;
  };
  const books = await checkBooks('metered forwarder', metered.child);
  const threadBooks = meteredThread
    ? await checkBooks('metered forwarder, log thread', meteredThread.child)
    : null;
  for (const n of notes) console.log(`\nNOTE: ${n}`);
  console.log(
    failures.length
      ? `\nFAILED:\n  ${failures.join('\n  ')}`
      : '\nCorrectness: every gateway answer was a 200.',
  );

  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, `bench/results/relay-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        mode: quick ? 'quick' : 'full',
        duration_s: duration,
        warmup_s: warmup,
        initial_warmup_s: initialWarmup,
        connections,
        modes,
        node: process.version,
        cores: availableParallelism(),
        rounds,
        targets: {
          share_min: TARGET_SHARE,
          added_p50_max_ms: TARGET_ADDED_P50_MS,
          added_p99_max_ms: TARGET_ADDED_P99_MS,
        },
        verification,
        runs,
        rows,
        figures,
        billing,
        metered_books: books,
        metered_thread_books: threadBooks,
        machine_busy_before: +busyBefore.toFixed(2),
        load_average_after: loadavg(),
        notes,
        failures,
      },
      null,
      2,
    ),
  );
  console.log(`Wrote ${file}`);
  if (failures.length || notes.length) process.exitCode = 1;
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
} finally {
  for (const g of gateways)
    if (g.exitCode === null) {
      g.kill('SIGTERM');
      await Promise.race([new Promise((r) => g.once('exit', r)), sleep(5000)]);
    }
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
}

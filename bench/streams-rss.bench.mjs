// Memory under many long-lived streams: the RSS of the built server's process while it relays 1,000
// concurrent SSE streams (the mock upstream sends one chunk a second), sampled through a soak, side by
// side with the bare node:http + undici forwarder (support/bare-forwarder.mjs) carrying the same
// 1,000 streams. Judged by the gateway's peak RSS (target < 250 MB) and how flat it stays: the drift
// of the highest RSS of each quarter of the soak, from the second quarter to the last (target
// ≤ 1 MB/min; the least-squares slope over the whole soak is printed too). The clients and the mock
// run in their own processes, so the RSS measured is the target's own. Every stream that ends reopens
// at once (each lasts BENCH_STREAM_SECONDS), so the soak also settles a stream about every 60 ms and
// leaks per request show as a drift.
//
//   node bench/streams-rss.bench.mjs                  10-minute soak per target (~22 min in all)
//   BENCH_QUICK=1 node bench/streams-rss.bench.mjs    60 s soak per target (~3 min)
//   BENCH_SOAK_SECONDS=300 BENCH_STREAMS=2000 BENCH_TARGETS=gateway   narrow or widen a run
//   BENCH_STREAM_SECONDS=2                            short streams: many more settle, so a per-request leak shows sooner
//   BENCH_GATEWAY_NODE_ARGS='--heapsnapshot-signal=SIGUSR2'   node flags for the gateway (heap snapshots on a signal)
// Needs `npm run build:server` (BENCH_BUILD=1 builds first).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ask,
  cpuSeconds,
  createChannel,
  createTokens,
  forkReady,
  machineBusy,
  requireServerBuild,
  root,
  rssMb,
  setupRoot,
  sleep,
  startGateway,
  table,
} from './support/harness.mjs';

const quick = process.env.BENCH_QUICK === '1';
const streams = Number(process.env.BENCH_STREAMS ?? 1000);
const soakSeconds = Number(process.env.BENCH_SOAK_SECONDS ?? (quick ? 60 : 600));
const sampleSeconds = Number(process.env.BENCH_SAMPLE_SECONDS ?? (quick ? 3 : 5));
const rampSeconds = Number(process.env.BENCH_RAMP_SECONDS ?? 10);
const streamSeconds = Number(process.env.BENCH_STREAM_SECONDS ?? (quick ? 20 : 60));
const targets = (process.env.BENCH_TARGETS ?? 'bare,gateway').split(',');
const TARGET_RSS_MB = 250;
const TARGET_SLOPE_MB_PER_MIN = 1;
const CHANNEL_KEY = 'sk-bench-upstream-channel-key';

// Every stream holds a socket in the clients, two in the target and one in the mock: make sure the
// file-descriptor limit allows it, raising the soft limit up to the hard one (re-running under sh).
const fdNeed = 2 * streams + 512;
const softLimit = () => Number(spawnSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).stdout.trim());
const hardLimit = () =>
  Number(spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim()) || Infinity;
if (softLimit() < fdNeed && process.env.BENCH_FD_RAISED !== '1') {
  const want = Math.min(hardLimit(), Math.max(fdNeed, 65536));
  const r = spawnSync(
    'sh',
    ['-c', `ulimit -n ${want} && exec "$0" "$@"`, process.execPath, ...process.argv.slice(1)],
    {
      stdio: 'inherit',
      env: { ...process.env, BENCH_FD_RAISED: '1' },
    },
  );
  process.exit(r.status ?? 1);
}
if (softLimit() < fdNeed)
  console.log(`WARNING: the open-file limit is ${softLimit()}, ${streams} streams need about ${fdNeed}.`);

/** Least-squares slope of y over x. */
function slope(points) {
  const n = points.length;
  if (n < 2) return null;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den ? num / den : null;
}

/** Starts the target of `kind` in front of the mock; resolves {url, pid, auth, stop()}. */
async function startTarget(kind, mockUrl, dataDir) {
  if (kind === 'bare') {
    const bare = await forkReady('bare-forwarder.mjs', { UPSTREAM_URL: mockUrl });
    return {
      name: 'bare forwarder',
      url: `http://127.0.0.1:${bare.port}`,
      pid: bare.child.pid,
      auth: 'sk-bench-bare',
      stop: async () => {
        bare.child.kill('SIGTERM');
      },
    };
  }
  const gateway = await startGateway(
    { DATA_DIR: dataDir, SQLITE_PATH: join(dataDir, 'gatehouse.db') },
    { nodeArgs: (process.env.BENCH_GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean) },
  );
  const session = await setupRoot(gateway.base);
  await createChannel(gateway.base, session, { baseUrl: mockUrl, model: 'gpt-4o-mini', key: CHANNEL_KEY });
  const [token] = await createTokens(gateway.base, session, [
    { name: 'bench-soak', remain_quota: 0, unlimited_quota: true },
  ]);
  // The server may need a moment to see the new channel.
  for (let i = 0; i < 50; i++) {
    const r = await fetch(`${gateway.base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token.key}` },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const text = await r.text();
    if (r.status === 200) break;
    if (i === 49) throw new Error(`the gateway does not answer: ${r.status} ${text.slice(0, 300)}`);
    await sleep(100);
  }
  return {
    name: 'gatehouse',
    url: gateway.base,
    pid: gateway.pid,
    auth: token.key,
    stop: () => gateway.stop(),
  };
}

requireServerBuild();
const runs = [];
const failures = [];
const dataDir = mkdtempSync(join(tmpdir(), 'gh-streams-bench-'));

try {
  console.log(
    `\nStreams RSS benchmark: ${quick ? 'quick' : 'full'} mode, ${streams} concurrent SSE streams (one chunk a second, ` +
      `${streamSeconds} s each, reopened at once), ${rampSeconds} s ramp, ${soakSeconds} s soak per target, ` +
      `RSS sampled every ${sampleSeconds} s; ${availableParallelism()} cores (node ${process.version}); open-file limit ${softLimit()}`,
  );
  const busyBefore = await machineBusy();
  if (busyBefore > 0.25)
    console.log(
      `WARNING: the machine was ${Math.round(busyBefore * 100)}% busy (all cores) just before the run: other work skews the figures.`,
    );

  for (const kind of targets) {
    const mock = await forkReady('mock-slow-stream.mjs', {
      CHUNK_MS: '1000',
      STREAM_CHUNKS: String(streamSeconds),
    });
    let target = null;
    let clients = null;
    try {
      target = await startTarget(kind, `http://127.0.0.1:${mock.port}`, dataDir);
      const idle = rssMb(target.pid);
      clients = await forkReady('stream-clients.mjs', {
        TARGET_URL: target.url,
        AUTH: target.auth,
        STREAMS: String(streams),
        RAMP_MS: String(rampSeconds * 1000),
      });
      // Ramp: wait until every stream is open (or the ramp has clearly failed).
      const rampStart = performance.now();
      let st = await ask(clients.child, 'stats');
      while (st.open < streams && performance.now() - rampStart < (rampSeconds + 30) * 1000) {
        await sleep(500);
        st = await ask(clients.child, 'stats');
      }
      if (st.open < streams)
        throw new Error(
          `${target.name}: only ${st.open} of ${streams} streams open after the ramp (${st.lastError ?? 'no error'})`,
        );
      const samples = [];
      const t0 = performance.now();
      const cpu0 = cpuSeconds(target.pid);
      let minOpen = Infinity;
      for (;;) {
        const t = (performance.now() - t0) / 1000;
        const s = await ask(clients.child, 'stats');
        const m = rssMb(target.pid);
        minOpen = Math.min(minOpen, s.open);
        samples.push({
          t_s: +t.toFixed(1),
          rss_mb: m.rss_mb,
          open: s.open,
          completed: s.completed,
          errors: s.errors,
        });
        if (t >= soakSeconds) break;
        await sleep(Math.min(sampleSeconds, soakSeconds - t) * 1000);
      }
      const wall = (performance.now() - t0) / 1000;
      const cpu1 = cpuSeconds(target.pid);
      const { hwm_mb } = rssMb(target.pid);
      const final = await ask(clients.child, 'stop');
      const upstream = await ask(mock.child, 'stats');
      const rss = samples.map((s) => s.rss_mb);
      const perMin = slope(samples.map((s) => ({ x: s.t_s / 60, y: s.rss_mb })));
      // Flatness: the highest RSS of each quarter of the soak (the upper envelope, which GC dips do not
      // move), and its drift from the second quarter to the last, in MB/min. The first quarter is mostly
      // the heap growing to its working size.
      const quarter = (q) =>
        samples.filter((s) => s.t_s >= (q * wall) / 4 && s.t_s <= ((q + 1) * wall) / 4).map((s) => s.rss_mb);
      const quarterPeaks = [0, 1, 2, 3].map((q) => Math.max(...quarter(q)));
      const drift = (quarterPeaks[3] - quarterPeaks[1]) / (wall / 2 / 60);
      // The lower envelope too (the lowest RSS of each quarter, right after a collection gave memory
      // back): a leak lifts it as surely as the peaks, and it moves less with the collector's rhythm.
      const quarterLows = [0, 1, 2, 3].map((q) => Math.min(...quarter(q)));
      const lowDrift = (quarterLows[3] - quarterLows[1]) / (wall / 2 / 60);
      // And the least-squares slope after the first quarter (the heap's growth to its working size).
      const settledSlope = slope(
        samples.filter((s) => s.t_s >= wall / 4).map((s) => ({ x: s.t_s / 60, y: s.rss_mb })),
      );
      const run = {
        target: target.name,
        streams,
        soak_s: +wall.toFixed(0),
        idle_rss_mb: idle.rss_mb,
        start_rss_mb: rss[0],
        end_rss_mb: rss.at(-1),
        peak_rss_mb: Math.max(...rss),
        hwm_mb,
        slope_mb_per_min: perMin === null ? null : +perMin.toFixed(2),
        quarter_peaks_mb: quarterPeaks,
        peak_drift_mb_per_min: Number.isFinite(drift) ? +drift.toFixed(2) : null,
        quarter_lows_mb: quarterLows,
        low_drift_mb_per_min: Number.isFinite(lowDrift) ? +lowDrift.toFixed(2) : null,
        settled_slope_mb_per_min: settledSlope === null ? null : +settledSlope.toFixed(2),
        min_open: minOpen,
        streams_completed: samples.at(-1).completed - samples[0].completed,
        errors: final.errors,
        last_error: final.lastError,
        upstream_started: upstream.started,
        cpu_pct: cpu0 !== null && cpu1 !== null ? Math.round(((cpu1 - cpu0) / wall) * 100) : null,
        samples,
      };
      runs.push(run);
      if (run.errors) failures.push(`${target.name}: ${run.errors} stream errors (last: ${run.last_error})`);
      if (run.min_open < streams * 0.99)
        failures.push(
          `${target.name}: only ${run.min_open} of ${streams} streams open at one point of the soak`,
        );
      console.log(
        `  ${target.name}: RSS ${run.start_rss_mb} → ${run.end_rss_mb} MB (peak ${run.peak_rss_mb}, VmHWM ${hwm_mb}), ` +
          `slope ${run.slope_mb_per_min} MB/min (peaks per quarter ${quarterPeaks.join(', ')}: drift ${run.peak_drift_mb_per_min} MB/min; lows ${quarterLows.join(', ')}: drift ${run.low_drift_mb_per_min} MB/min; slope after the first quarter ${run.settled_slope_mb_per_min} MB/min), ${run.streams_completed} streams completed, ${run.errors} errors`,
      );
    } catch (e) {
      failures.push(e instanceof Error ? e.message : String(e));
      console.log(`  ${kind}: ${e instanceof Error ? e.message : e}`);
    } finally {
      if (clients && clients.child.exitCode === null) clients.child.kill('SIGTERM');
      if (target) await target.stop();
      if (mock.child.exitCode === null) mock.child.kill('SIGTERM');
    }
  }

  console.log(`\nRSS of the target process, ${streams} concurrent streams, ${soakSeconds} s soak`);
  table(
    runs.map((r) => ({
      ...r,
      start_end: `${r.start_rss_mb} → ${r.end_rss_mb}`,
      quarters: r.quarter_peaks_mb.join(' '),
      lows: r.quarter_lows_mb.join(' '),
      open: `${r.min_open}`,
    })),
    [
      ['target', 'target'],
      ['streams', 'streams'],
      ['idle_rss_mb', 'idle RSS MB'],
      ['start_end', 'soak start → end MB'],
      ['peak_rss_mb', 'peak MB'],
      ['hwm_mb', 'VmHWM MB'],
      ['slope_mb_per_min', 'slope MB/min'],
      ['quarters', 'peak per quarter MB'],
      ['peak_drift_mb_per_min', 'peak drift MB/min'],
      ['lows', 'low per quarter MB'],
      ['low_drift_mb_per_min', 'low drift MB/min'],
      ['settled_slope_mb_per_min', 'slope after Q1 MB/min'],
      ['min_open', 'min open'],
      ['streams_completed', 'streams done'],
      ['errors', 'errors'],
      ['cpu_pct', 'CPU %'],
    ],
    1,
  );
  const g = runs.find((r) => r.target === 'gatehouse');
  const b = runs.find((r) => r.target === 'bare forwarder');
  let judged = null;
  if (g) {
    judged = {
      peak_rss_mb: g.peak_rss_mb,
      peak_ok: g.peak_rss_mb < TARGET_RSS_MB,
      slope_mb_per_min: g.slope_mb_per_min,
      peak_drift_mb_per_min: g.peak_drift_mb_per_min,
      low_drift_mb_per_min: g.low_drift_mb_per_min,
      settled_slope_mb_per_min: g.settled_slope_mb_per_min,
      bare_peak_drift_mb_per_min: b?.peak_drift_mb_per_min ?? null,
      flat_ok: g.peak_drift_mb_per_min !== null && g.peak_drift_mb_per_min <= TARGET_SLOPE_MB_PER_MIN,
      bare_peak_rss_mb: b?.peak_rss_mb ?? null,
      over_bare_mb: b ? +(g.peak_rss_mb - b.peak_rss_mb).toFixed(1) : null,
      per_stream_kb: Math.round(((g.peak_rss_mb - g.idle_rss_mb) * 1024) / streams),
    };
    console.log(
      `\nJudged: gatehouse peak RSS ${judged.peak_rss_mb} MB (target < ${TARGET_RSS_MB}) ${judged.peak_ok ? 'ok' : 'MISS'}; ` +
        `peak drift ${judged.peak_drift_mb_per_min} MB/min (target ≤ ${TARGET_SLOPE_MB_PER_MIN}) ${judged.flat_ok ? 'ok' : 'MISS'}` +
        (b ? ` (bare forwarder ${judged.bare_peak_drift_mb_per_min})` : '') +
        `, low drift ${g.low_drift_mb_per_min} MB/min, least-squares slope ${g.slope_mb_per_min} MB/min (${g.settled_slope_mb_per_min} after the first quarter)` +
        (soakSeconds < 300 ? ' (a soak under 5 min only hints at the slope)' : '') +
        (b
          ? `; ${judged.over_bare_mb} MB over the bare forwarder's peak, ~${judged.per_stream_kb} KB per open stream over idle`
          : ''),
    );
  }
  console.log(
    failures.length ? `\nFAILED:\n  ${failures.join('\n  ')}` : '\nEvery stream ran without an error.',
  );

  mkdirSync(join(root, 'bench/results'), { recursive: true });
  const file = join(root, `bench/results/streams-rss-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        mode: quick ? 'quick' : 'full',
        streams,
        soak_s: soakSeconds,
        sample_s: sampleSeconds,
        ramp_s: rampSeconds,
        stream_s: streamSeconds,
        node: process.version,
        cores: availableParallelism(),
        targets: { rss_max_mb: TARGET_RSS_MB, slope_max_mb_per_min: TARGET_SLOPE_MB_PER_MIN },
        judged,
        runs,
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
  rmSync(dataDir, { recursive: true, force: true });
}

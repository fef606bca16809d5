// Memory of an idle node: the resident memory (VmRSS) of the built server once it answers, before any
// model traffic, side by side with the bare node:http + undici forwarder (support/bare-forwarder.mjs)
// and, when BENCH_BASELINE_DIST names another build, that build's server in the same run. Each target is
// started BENCH_STARTS times (default 5), alternating, and the median is judged: what a node costs before
// its first request is most of what it costs with 1,000 streams open (streams-rss.bench.mjs).
//
//   node bench/startup-memory.bench.mjs
//   BENCH_BASELINE_DIST=/tmp/old/dist node bench/startup-memory.bench.mjs   an older build side by side
// Needs `npm run build:server`.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkReady, requireServerBuild, rssMb, serverJs, startGateway, table } from './support/harness.mjs';

const root = new URL('..', import.meta.url).pathname;
const starts = Number(process.env.BENCH_STARTS ?? 5);
const SETTLE_MS = 2000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : +((s[s.length / 2 - 1] + s[s.length / 2]) / 2).toFixed(1);
};

requireServerBuild();
const targets = [
  { name: 'bare forwarder', kind: 'bare' },
  { name: 'gatehouse', kind: 'gateway', main: serverJs },
];
if (process.env.BENCH_BASELINE_DIST)
  targets.push({
    name: 'gatehouse (baseline build)',
    kind: 'gateway',
    main: join(process.env.BENCH_BASELINE_DIST, 'server/src/main.js'),
  });

/** Starts one target, waits for it to settle, answers its RSS and stops it. */
async function measure(t) {
  if (t.kind === 'bare') {
    const bare = await forkReady('bare-forwarder.mjs', { UPSTREAM_URL: 'http://127.0.0.1:9' });
    await sleep(SETTLE_MS);
    const { rss_mb } = rssMb(bare.child.pid);
    bare.child.kill('SIGTERM');
    return rss_mb;
  }
  const dir = mkdtempSync(join(tmpdir(), 'gh-startup-'));
  try {
    const g = await startGateway({ DATA_DIR: dir, SQLITE_PATH: join(dir, 'gatehouse.db') }, { main: t.main });
    await sleep(SETTLE_MS);
    const { rss_mb } = rssMb(g.pid);
    await g.stop();
    return rss_mb;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const runs = new Map(targets.map((t) => [t.name, []]));
for (let i = 0; i < starts; i++) for (const t of targets) runs.get(t.name).push(await measure(t));

const rows = targets.map((t) => {
  const xs = runs.get(t.name);
  return {
    target: t.name,
    runs: xs.join(' '),
    median: median(xs),
    min: Math.min(...xs),
    max: Math.max(...xs),
  };
});
console.log(
  `\nIdle RSS once the server answers (${starts} starts each, alternating; node ${process.version})`,
);
table(rows, [
  ['target', 'target'],
  ['runs', 'RSS per start MB'],
  ['median', 'median MB'],
  ['min', 'min MB'],
  ['max', 'max MB'],
]);
const g = rows.find((r) => r.target === 'gatehouse');
const bare = rows.find((r) => r.target === 'bare forwarder');
const base = rows.find((r) => r.target === 'gatehouse (baseline build)');
console.log(
  `\nJudged: gatehouse idle RSS ${g.median} MB (median), ${(g.median - bare.median).toFixed(1)} MB over the bare forwarder` +
    (base ? `; the baseline build ${base.median} MB (${(g.median - base.median).toFixed(1)} MB)` : ''),
);
mkdirSync(join(root, 'bench/results'), { recursive: true });
const file = join(
  root,
  `bench/results/startup-memory-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
);
writeFileSync(
  file,
  JSON.stringify({ date: new Date().toISOString(), node: process.version, starts, rows }, null, 2),
);
console.log(`Wrote ${file}`);

// Runs every benchmark in this folder (files named *.bench.mjs) one after another. Build first: npm run build.
// Registered by file name: bundle-size.bench.mjs (builds the console, ~1.5 min), management-api.bench.mjs,
// log-insert.bench.mjs (~1 min), startup-memory.bench.mjs (~1 min),
// relay.bench.mjs (full mode ~5.5 min; BENCH_QUICK=1 ~1 min), relay-cpu.bench.mjs, settlement.bench.mjs
// (~4 min on three databases; quick ~2 min), streams-rss.bench.mjs (a 10-minute soak per target, ~22 min;
// quick ~3 min). BENCH_QUICK=1 shortens those with a quick mode; BENCH_ONLY=settlement,streams-rss runs only those.
// See README.md for each one's settings.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url).pathname;
let failed = false;
const only = process.env.BENCH_ONLY?.split(',').map(
  (n) => `${n.trim().replace(/\.bench\.mjs$/, '')}.bench.mjs`,
);
const files = readdirSync(dir).filter((f) => f.endsWith('.bench.mjs'));
const unknown = only?.filter((f) => !files.includes(f)) ?? [];
if (unknown.length) {
  console.error(`BENCH_ONLY: no such benchmark: ${unknown.join(', ')} (there are: ${files.join(', ')})`);
  process.exit(1);
}
for (const file of files.filter((f) => !only || only.includes(f)).sort()) {
  console.log(`\n### ${file}`);
  const r = spawnSync(process.execPath, [dir + file], { stdio: 'inherit' });
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);

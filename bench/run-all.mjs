// Runs every benchmark in this folder (files named *.bench.mjs) one after another. Build first: npm run build.
// Registered by file name: management-api.bench.mjs, relay.bench.mjs (full mode takes ~5.5 min; BENCH_QUICK=1
// makes it ~1 min). See README.md for each one's settings.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const dir = new URL('.', import.meta.url).pathname;
let failed = false;
for (const file of readdirSync(dir).filter((f) => f.endsWith('.bench.mjs')).sort()) {
  console.log(`\n### ${file}`);
  const r = spawnSync(process.execPath, [dir + file], { stdio: 'inherit' });
  failed ||= r.status !== 0;
}
process.exit(failed ? 1 : 0);

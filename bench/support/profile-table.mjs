// Tables from a V8 profile, for docs/performance.md:
//   node bench/support/profile-table.mjs cpu <file.cpuprofile> [cpuµs] [top]       self time by function and by area
//   node bench/support/profile-table.mjs alloc <file.heapprofile> [requests] [top] bytes allocated by function
// cpu: `cpuµs` is the measured CPU µs per request (from the bench's own table) to spread over the shares;
// sampling intervals stretch on a busy machine, so samples are shares, not durations.
// alloc: `requests` is how many requests the profile covers, for per-request figures.
import { readFileSync } from 'node:fs';

const [kind, file, requestsArg, topArg] = process.argv.slice(2);
if (!kind || !file) {
  console.error('usage: profile-table.mjs cpu|alloc <profile> [requests] [top]');
  process.exit(2);
}
const requests = Number(requestsArg ?? 0);
const top = Number(topArg ?? 20);
const p = JSON.parse(readFileSync(file, 'utf8'));
const where = (f) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^file:\/\//, '').replace(/.*\/(node_modules|dist)\//, '$1/')}${f.url ? `:${f.lineNumber + 1}` : ''}`;

/** The part of the system a frame belongs to. */
function area(f) {
  const at = `${f.url} ${f.functionName}`;
  if (f.functionName === '(garbage collector)') return 'garbage collector';
  if (f.functionName === '(program)' || f.functionName === '(idle)') return 'V8 / idle';
  if (/cjs\/loader|wrapSafe|readFileUtf8|internalModuleStat|compileFunction|esm\//.test(at))
    return 'start-up (module loading)';
  if (/quota-ledger|typeorm|better-sqlite3|sqlite-serial/.test(at))
    return 'database (ledger flush, ORM, SQLite)';
  if (/undici/.test(at)) return 'undici (upstream client, mock)';
  if (/\/bench\//.test(at)) return 'benchmark harness';
  if (/dist\/server\/src\/modules\/relay/.test(at)) return 'relay module';
  if (/dist\/server/.test(at)) return 'other server modules';
  if (/node_modules/.test(at)) return 'other libraries';
  return 'Node runtime (JSON, buffers, streams, events)';
}

const pct = (n, total) => `${((100 * n) / total).toFixed(1)}%`;
const row = (cells) => `| ${cells.join(' | ')} |`;

if (kind === 'cpu') {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const hits = new Map();
  for (const s of p.samples) hits.set(s, (hits.get(s) ?? 0) + 1);
  const self = new Map();
  const areas = new Map();
  let total = 0;
  for (const [id, n] of hits) {
    const f = byId.get(id).callFrame;
    self.set(where(f), (self.get(where(f)) ?? 0) + n);
    areas.set(area(f), (areas.get(area(f)) ?? 0) + n);
    total += n;
  }
  const per = (n) => (requests ? ` | ${((n / total) * requests).toFixed(1)}` : '');
  console.log(`Self time by area (${total} samples)\n`);
  console.log(`| area | share${requests ? ' | µs/request' : ''} |\n|---|---:${requests ? '|---:' : ''}|`);
  for (const [k, n] of [...areas].sort((a, b) => b[1] - a[1]))
    console.log(`| ${k} | ${pct(n, total)}${per(n)} |`);
  console.log(`\nTop ${top} functions by self time\n`);
  console.log(
    `| # | function | share${requests ? ' | µs/request' : ''} |\n|---:|---|---:${requests ? '|---:' : ''}|`,
  );
  [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, n], i) => console.log(`| ${i + 1} | \`${k}\` | ${pct(n, total)}${per(n)} |`));
} else if (kind === 'alloc') {
  const self = new Map();
  let total = 0;
  const walk = (n) => {
    const k = where(n.callFrame);
    self.set(k, (self.get(k) ?? 0) + n.selfSize);
    total += n.selfSize;
    for (const c of n.children) walk(c);
  };
  walk(p.head);
  const per = (b) => (requests ? ` | ${(b / requests / 1024).toFixed(2)}` : '');
  console.log(
    `Allocated: ${(total / 1048576).toFixed(1)} MB${requests ? `, ${(total / requests / 1024).toFixed(1)} KB per request` : ''}\n`,
  );
  console.log(
    `| # | function | share${requests ? ' | KB/request' : ''} |\n|---:|---|---:${requests ? '|---:' : ''}|`,
  );
  [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .forEach(([k, b], i) => console.log(`| ${i + 1} | \`${k}\` | ${pct(b, total)}${per(b)} |`));
} else {
  console.error(`unknown kind ${kind}`);
  process.exit(2);
}

// Console bundle size: builds the console (`npm run build:console`: console-kit, then host-app) and
// reports every asset of host-app/dist raw, gzip and brotli, the initial load (the JS and CSS that
// index.html references: entry script, module preloads, stylesheets) and the largest chunks. Side by
// side, the least a console on the same stack ships: a React + ReactDOM + MUI "hello" page built in a
// temp folder with the same Vite, plugin, target and chunk groups (nothing of it is kept).
// Judged by the JavaScript two first screens need, gzip: /login (budget <= 150 KB) and an admin's first
// screen after signing in, /token (budget <= 250 KB); each is the scripts index.html loads plus the
// page's own chunk with every chunk it imports statically (what the browser fetches before the page
// shows; chunks a page loads later on demand are not counted). Beside them, the initial load (index.html:
// scripts and stylesheets) and the largest chunk (target < 500 KB raw, Vite's own chunk-size warning).
// Exits 1 when a figure is above its budget.
//
//   node bench/bundle-size.bench.mjs                   build, then measure
//   BENCH_SKIP_BUILD=1 node bench/bundle-size.bench.mjs   measure the existing host-app/dist
//   BENCH_TOP=10                                       how many of the largest chunks to list (default 8)
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { root, table } from './support/harness.mjs';

const TARGET_INITIAL_GZIP_KB = 500;
const TARGET_LARGEST_RAW_KB = 500;
/** The first screens judged, each with the page chunk (by its name before the hash) and its budget. */
const SCREENS = [
  { name: '/login', page: null, budget_gzip_kb: 150 },
  { name: 'admin first screen (/token)', page: 'tokens-page', budget_gzip_kb: 250 },
];
const top = Number(process.env.BENCH_TOP ?? 8);
const hostDist = join(root, 'host-app/dist');
const failures = [];

const kb = (n) => +(n / 1024).toFixed(1);

function sizes(buf) {
  return {
    raw: buf.length,
    gzip: gzipSync(buf, { level: 9 }).length,
    brotli: brotliCompressSync(buf, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: buf.length },
    }).length,
  };
}

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

/** Every asset of a built dist (source maps left out), and what `html` loads before anything runs. */
function measure(dist, html = 'index.html') {
  const files = walk(dist)
    .filter((f) => !f.endsWith('.map'))
    .map((f) => {
      const rel = relative(dist, f);
      return { file: rel, ext: extname(rel).slice(1), ...sizes(readFileSync(f)) };
    });
  const page = readFileSync(join(dist, html), 'utf8');
  const initial = new Set();
  for (const m of page.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)"[^>]*>/g)) {
    const tag = m[0];
    const ref = m[1].replace(/^\.?\//, '').split('?')[0];
    const isScript = tag.startsWith('<script');
    const isStyle = /rel="stylesheet"/.test(tag);
    const isPreload = /rel="modulepreload"/.test(tag);
    if ((isScript || isStyle || isPreload) && files.some((f) => f.file === ref)) initial.add(ref);
  }
  for (const f of files) f.initial = initial.has(f.file);
  const sum = (list) =>
    list.reduce((a, f) => ({ raw: a.raw + f.raw, gzip: a.gzip + f.gzip, brotli: a.brotli + f.brotli }), {
      raw: 0,
      gzip: 0,
      brotli: 0,
    });
  const code = files.filter((f) => f.ext === 'js' || f.ext === 'css');
  const js = files.filter((f) => f.ext === 'js').sort((a, b) => b.raw - a.raw);
  return {
    files,
    dist,
    initial: sum(files.filter((f) => f.initial)),
    initial_files: [...initial],
    code: sum(code),
    all: sum(files),
    js_count: js.length,
    largest: js.slice(0, top),
  };
}

// ------------------------------------------------------------------------------------------ console

if (process.env.BENCH_SKIP_BUILD !== '1') {
  console.log('Building the console (npm run build:console) ...');
  const b = spawnSync('npm', ['run', 'build:console'], { cwd: root, encoding: 'utf8' });
  if (b.status !== 0) {
    console.error(`npm run build:console failed:\n${(b.stdout + b.stderr).slice(-3000)}`);
    process.exit(1);
  }
}
if (!existsSync(join(hostDist, 'index.html'))) {
  console.error(
    `${hostDist}/index.html is missing: run \`npm run build:console\` (or drop BENCH_SKIP_BUILD).`,
  );
  process.exit(1);
}
const consoleSizes = measure(hostDist);

// ------------------------------------------------------------------------------------------ screens

/** A chunk and every chunk it imports statically (`import … from "./x.js"`, `import "./x.js"`), transitively. */
function staticClosure(dist, start) {
  const seen = new Set();
  const todo = [...start];
  while (todo.length) {
    const file = todo.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(join(dist, file), 'utf8');
    for (const m of code.matchAll(/(?:\bfrom|\bimport)\s*"(\.\/[^"]+\.js)"/g)) {
      todo.push(join(file, '..', m[1]).replace(/\\/g, '/'));
    }
  }
  return seen;
}

/** The JavaScript a first screen needs: index.html's scripts, plus the page chunk's static closure. */
function screenJs(sizes, screen) {
  const entry = sizes.initial_files.filter((f) => f.endsWith('.js'));
  const pageFile = screen.page
    ? sizes.files.find((f) => f.ext === 'js' && new RegExp(`(^|/)${screen.page}-[\\w-]+\\.js$`).test(f.file))
    : null;
  if (screen.page && !pageFile) {
    failures.push(`${screen.name}: no chunk named ${screen.page}-*.js in the build`);
  }
  const files = staticClosure(sizes.dist, pageFile ? [...entry, pageFile.file] : entry);
  const list = sizes.files.filter((f) => files.has(f.file));
  const gzip = list.reduce((a, f) => a + f.gzip, 0);
  return {
    screen: screen.name,
    files: list.length,
    raw: list.reduce((a, f) => a + f.raw, 0),
    gzip,
    brotli: list.reduce((a, f) => a + f.brotli, 0),
    budget_gzip_kb: screen.budget_gzip_kb,
    ok: gzip / 1024 <= screen.budget_gzip_kb,
  };
}

const screens = SCREENS.map((screen) => screenJs(consoleSizes, screen));

// ------------------------------------------------------------------------------------------ baseline

const viteEntry = join(root, 'host-app/node_modules/vite/dist/node/index.js');
const reactPluginEntry = join(root, 'host-app/node_modules/@vitejs/plugin-react/dist/index.js');
const resolveIn = (pkg) =>
  [join(root, 'host-app/node_modules', pkg), join(root, 'node_modules', pkg)].find((p) => existsSync(p));
const vitePkg = JSON.parse(readFileSync(join(resolveIn('vite'), 'package.json'), 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'gh-bundle-baseline-'));
let baseline = null;
try {
  // The baseline's imports resolve from the project's node_modules (nothing is installed).
  symlinkSync(join(root, 'node_modules'), join(tmp, 'node_modules'), 'dir');
  writeFileSync(
    join(tmp, 'index.html'),
    '<!doctype html>\n<html lang="en">\n  <head>\n    <meta charset="UTF-8" />\n    <title>hello</title>\n  </head>\n' +
      '  <body>\n    <div id="root"></div>\n    <script type="module" src="/main.jsx"></script>\n  </body>\n</html>\n',
  );
  writeFileSync(
    join(tmp, 'main.jsx'),
    `import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Button, CssBaseline, ThemeProvider, Typography, createTheme } from '@mui/material';

const theme = createTheme();
createRoot(document.getElementById('root')).render(
  <StrictMode>
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <Typography variant="h4">Hello</Typography>
      <Button variant="contained">OK</Button>
    </ThemeProvider>
  </StrictMode>,
);
`,
  );
  const { build } = await import(pathToFileURL(viteEntry).href);
  const react = (await import(pathToFileURL(reactPluginEntry).href)).default;
  await build({
    root: tmp,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    resolve: { dedupe: ['react', 'react-dom', '@emotion/react', '@mui/material'] },
    build: {
      outDir: join(tmp, 'dist'),
      emptyOutDir: true,
      target: 'es2022',
      rolldownOptions: {
        output: {
          // The console's chunk groups (host-app/vite.config.ts), so both split the same way.
          codeSplitting: {
            groups: [
              {
                name: 'react',
                test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
                priority: 3,
              },
              {
                name: 'mui',
                test: /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group)[\\/]/,
                priority: 2,
              },
              { name: 'vendor', test: /node_modules[\\/]/, priority: 1 },
            ],
          },
        },
      },
    },
  });
  baseline = measure(join(tmp, 'dist'));
} catch (e) {
  failures.push(`baseline build failed: ${e instanceof Error ? e.message : e}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

// ------------------------------------------------------------------------------------------ output

console.log(`\nConsole assets (host-app/dist, source maps left out), KB; * = loaded by index.html`);
table(
  consoleSizes.files
    .sort((a, b) => b.raw - a.raw)
    .map((f) => ({
      file: `${f.initial ? '* ' : '  '}${f.file}`,
      raw: kb(f.raw),
      gzip: kb(f.gzip),
      brotli: kb(f.brotli),
    })),
  [
    ['file', 'asset'],
    ['raw', 'raw'],
    ['gzip', 'gzip'],
    ['brotli', 'brotli'],
  ],
  1,
);

const summary = (name, s) => ({
  target: name,
  js: s.js_count,
  initial: `${kb(s.initial.raw)} / ${kb(s.initial.gzip)} / ${kb(s.initial.brotli)}`,
  code: `${kb(s.code.raw)} / ${kb(s.code.gzip)} / ${kb(s.code.brotli)}`,
  largest: s.largest[0] ? `${s.largest[0].file} ${kb(s.largest[0].raw)}` : null,
});
console.log(
  `\nSide by side (Vite ${vitePkg.version}, target es2022, same chunk groups), KB raw / gzip / brotli`,
);
table(
  [summary('gatehouse console', consoleSizes), ...(baseline ? [summary('React+MUI hello', baseline)] : [])],
  [
    ['target', 'target'],
    ['js', 'JS files'],
    ['initial', 'initial load (index.html)'],
    ['code', 'all JS + CSS'],
    ['largest', 'largest chunk'],
  ],
  1,
);

console.log(`\nLargest console chunks, KB`);
table(
  consoleSizes.largest.map((f) => ({
    file: f.file,
    raw: kb(f.raw),
    gzip: kb(f.gzip),
    brotli: kb(f.brotli),
    initial: f.initial ? 'yes' : '',
  })),
  [
    ['file', 'chunk'],
    ['raw', 'raw'],
    ['gzip', 'gzip'],
    ['brotli', 'brotli'],
    ['initial', 'initial'],
  ],
  1,
);

console.log(`\nFirst screens: JavaScript fetched before the page shows, KB`);
table(
  screens.map((s) => ({
    screen: s.screen,
    files: s.files,
    raw: kb(s.raw),
    gzip: kb(s.gzip),
    brotli: kb(s.brotli),
    budget: `<= ${s.budget_gzip_kb}`,
    verdict: s.ok ? 'ok' : 'OVER',
  })),
  [
    ['screen', 'screen'],
    ['files', 'JS files'],
    ['raw', 'raw'],
    ['gzip', 'gzip'],
    ['brotli', 'brotli'],
    ['budget', 'budget (gzip)'],
    ['verdict', 'verdict'],
  ],
  1,
);
for (const s of screens) {
  if (!s.ok) failures.push(`${s.screen}: ${kb(s.gzip)} KB gzip of JavaScript, budget ${s.budget_gzip_kb} KB`);
}

const initialOk = consoleSizes.initial.gzip / 1024 < TARGET_INITIAL_GZIP_KB;
const largestOk = (consoleSizes.largest[0]?.raw ?? 0) / 1024 < TARGET_LARGEST_RAW_KB;
const overBaseline = baseline ? kb(consoleSizes.initial.gzip - baseline.initial.gzip) : null;
console.log(
  `\nJudged: initial load ${kb(consoleSizes.initial.gzip)} KB gzip (target < ${TARGET_INITIAL_GZIP_KB}) ${initialOk ? 'ok' : 'MISS'}` +
    (baseline
      ? `, ${overBaseline} KB gzip over the React+MUI hello page (${kb(baseline.initial.gzip)} KB)`
      : '') +
    `; largest chunk ${kb(consoleSizes.largest[0]?.raw ?? 0)} KB raw (target < ${TARGET_LARGEST_RAW_KB}) ${largestOk ? 'ok' : 'MISS'}`,
);
if (failures.length) console.log(`\nFAILED:\n  ${failures.join('\n  ')}`);

mkdirSync(join(root, 'bench/results'), { recursive: true });
const file = join(root, `bench/results/bundle-size-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  JSON.stringify(
    {
      date: new Date().toISOString(),
      vite: vitePkg.version,
      targets: {
        initial_gzip_max_kb: TARGET_INITIAL_GZIP_KB,
        largest_chunk_raw_max_kb: TARGET_LARGEST_RAW_KB,
      },
      judged: {
        screens: screens.map((s) => ({
          ...s,
          raw_kb: kb(s.raw),
          gzip_kb: kb(s.gzip),
          brotli_kb: kb(s.brotli),
        })),
        initial_gzip_kb: kb(consoleSizes.initial.gzip),
        initial_ok: initialOk,
        largest_ok: largestOk,
        over_baseline_gzip_kb: overBaseline,
      },
      console: consoleSizes,
      baseline,
      failures,
    },
    null,
    2,
  ),
);
console.log(`Wrote ${file}`);
if (failures.length) process.exitCode = 1;

// Shared by the settlement, streams-RSS and bundle-size benchmarks: child processes, the built server
// (spawned, set up through its HTTP API only), /proc readings and the printed tables.
import { fork, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const root = new URL('../..', import.meta.url).pathname;
// BENCH_DIST=<dir>: another build of the server (a worktree of an older commit, built) to measure.
export const serverJs = join(process.env.BENCH_DIST ?? join(root, 'dist'), 'server/src/main.js');
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Forks a support process (bench/support/<file>) and resolves with it once it reports {ready, port}. */
export function forkReady(file, env = {}, execArgv = []) {
  const child = fork(join(root, 'bench/support', file), [], {
    env: { ...process.env, ...env },
    execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${file} exited with ${code}`)));
    child.once('message', (m) =>
      m?.ready ? resolve({ child, port: m.port, ...m }) : reject(new Error(`${file}: ${JSON.stringify(m)}`)),
    );
  });
}

let askSeq = 0;
/** Sends {id, cmd, ...extra} over IPC and resolves with the answer carrying the same id. */
export function ask(child, cmd, extra = {}) {
  const id = ++askSeq;
  return new Promise((resolve) => {
    const on = (m) => {
      if (m?.id !== id) return;
      child.off('message', on);
      resolve(m);
    };
    child.on('message', on);
    child.send({ id, cmd, ...extra });
  });
}

/** VmRSS and VmHWM (peak) of a process, in MB. */
export function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))?.[1]);
    return { rss_mb: +(kb('VmRSS') / 1024).toFixed(1), hwm_mb: +(kb('VmHWM') / 1024).toFixed(1) };
  } catch {
    return { rss_mb: null, hwm_mb: null };
  }
}

const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return null;
  }
}

/** Share of all cores in use over one second, from /proc/stat (0..1). */
export async function machineBusy() {
  const read = () => {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    return { idle: f[3] + (f[4] ?? 0), total: f.reduce((a, b) => a + b, 0) };
  };
  try {
    const a = read();
    await sleep(1000);
    const b = read();
    return 1 - (b.idle - a.idle) / (b.total - a.total);
  } catch {
    return 0;
  }
}

export async function waitFor(url) {
  for (let i = 0; i < 300; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`${url} did not come up`);
}

/**
 * Prints rows as a table. cols: [key, title] or [key, title, 'left']; the first `left` columns and
 * those marked 'left' are left-aligned, the rest right-aligned.
 */
export function table(rows, cols, left = 3) {
  const cells = rows.map((r) =>
    cols.map(([key]) => (r[key] === null || r[key] === undefined ? 'n/a' : String(r[key]))),
  );
  const widths = cols.map(([, title], i) => Math.max(title.length, ...cells.map((c) => c[i].length)));
  const line = (vals) =>
    vals
      .map((v, i) => (i < left || cols[i][2] === 'left' ? v.padEnd(widths[i]) : v.padStart(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(line(cols.map(([, t]) => t)));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const c of cells) console.log(line(c));
}

export async function api(base, session, method, path, body) {
  const headers = body === undefined ? {} : { 'content-type': 'application/json' };
  if (session) Object.assign(headers, { cookie: session.cookie, 'New-Api-User': String(session.id) });
  const r = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: r.status, json, text, headers: r.headers };
}

/** Exits with a hint unless dist/server is built (BENCH_BUILD=1 builds it first). */
export function requireServerBuild() {
  if (process.env.BENCH_BUILD === '1') {
    const b = spawnSync('npm', ['run', 'build:server'], { cwd: root, stdio: 'inherit' });
    if (b.status !== 0 && !existsSync(serverJs)) process.exit(1);
  }
  if (!existsSync(serverJs)) {
    console.error(`${serverJs} is missing: run \`npm run build:server\` first (or set BENCH_BUILD=1).`);
    process.exit(1);
  }
}

/**
 * Spawns the built server (production, LOG_LEVEL=error, no Redis) with `dbEnv` (SQL_DSN, or
 * SQLITE_PATH + DATA_DIR) and waits for /api/status. `main`: another build's main.js.
 */
export async function startGateway(dbEnv, { nodeArgs = [], main = serverJs } = {}) {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SESSION_SECRET: 'bench-session-secret-0123456789abcdef',
    CRYPTO_SECRET: 'bench-crypto-secret-0123456789abcdef',
    ALLOW_PRIVATE_OUTBOUND: 'true', // the mock upstream listens on 127.0.0.1
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
    BCRYPT_COST: '4',
  };
  delete env.SQL_DSN;
  delete env.SQLITE_PATH;
  delete env.REDIS_CONN_STRING;
  Object.assign(env, dbEnv);
  const child = spawn(process.execPath, [...nodeArgs, main], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const exited = new Promise((r) => child.once('exit', r));
  await Promise.race([
    waitFor(`${base}/api/status`),
    exited.then((code) => {
      throw new Error(`the server exited with ${code} before it was up`);
    }),
  ]);
  return {
    child,
    base,
    pid: child.pid,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(10_000)]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/** First-run setup and sign-in as root; returns the session for api(). */
export async function setupRoot(base) {
  const setup = await api(base, null, 'POST', '/api/setup', {
    username: 'bench',
    password: 'bench-pass-1',
    confirmPassword: 'bench-pass-1',
  });
  if (!setup.json?.success) throw new Error(`setup failed: ${setup.text}`);
  const login = await api(base, null, 'POST', '/api/user/login', {
    username: 'bench',
    password: 'bench-pass-1',
  });
  if (!login.json?.success) throw new Error(`login failed: ${login.text}`);
  return { cookie: sessionCookies(login.headers), id: login.json.data.id };
}

/** Every cookie a sign-in sets (the session and its step-up proof), as one Cookie header. */
export function sessionCookies(headers) {
  return headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** One OpenAI channel to `baseUrl` serving `model` to the default group; returns its id. */
export async function createChannel(base, session, { baseUrl, model, key, name = 'bench-mock' }) {
  const r = await api(base, session, 'POST', '/api/channel/', {
    type: 1,
    name,
    key,
    base_url: baseUrl,
    models: model,
    group: 'default',
  });
  if (!r.json?.success) throw new Error(`channel creation failed (${r.status}): ${r.text.slice(0, 300)}`);
  const list = await api(base, session, 'GET', '/api/channel/?p=1&page_size=100');
  const items = list.json?.data?.items ?? list.json?.data;
  const ch = (Array.isArray(items) ? items : []).find((c) => c.name === name);
  return ch?.id ?? null;
}

/**
 * Creates one token per entry of `specs` ({name, remain_quota, unlimited_quota}) and returns
 * [{id, name, key}] in the same order (keys revealed through POST /api/token/{id}/key).
 */
export async function createTokens(base, session, specs) {
  for (const s of specs) {
    const r = await api(base, session, 'POST', '/api/token/', { expired_time: -1, ...s });
    if (!r.json?.success) throw new Error(`token creation failed: ${r.text}`);
  }
  const byName = new Map();
  for (let p = 1; p < 100 && byName.size < specs.length; p++) {
    const list = await api(base, session, 'GET', `/api/token/?p=${p}&page_size=100`);
    const items = list.json?.data?.items ?? list.json?.data;
    if (!Array.isArray(items) || items.length === 0) break;
    for (const t of items) byName.set(t.name, t);
  }
  const out = [];
  for (const s of specs) {
    const t = byName.get(s.name);
    if (!t) throw new Error(`token ${s.name} not listed`);
    const reveal = await api(base, session, 'POST', `/api/token/${t.id}/key`);
    let key = reveal.json?.data?.key;
    if (!key) throw new Error(`token key not revealed: ${reveal.text}`);
    if (!key.startsWith('sk-')) key = `sk-${key}`;
    out.push({ id: t.id, name: s.name, key });
  }
  return out;
}

// Management API throughput: the built server (SQLite, full guard + envelope) against a bare Fastify
// server answering a payload of the same size, side by side in one run. Judged by the signed-in
// `GET /api/user/self` throughput as a share of the bare server's at 16 connections.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';

const root = new URL('..', import.meta.url).pathname;
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = (process.env.BENCH_CONNECTIONS ?? '1,16,64').split(',').map(Number);

async function waitFor(url) {
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function load(url, c, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: c, duration: seconds, headers }, (err, r) =>
      err ? reject(err) : resolve(r),
    );
  });
}

const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-'));
const port = 3900 + Math.floor(Math.random() * 50);
const server = spawn(process.execPath, [join(root, 'dist/server/src/main.js')], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    BCRYPT_COST: '4',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
const bare = Fastify();
const statusBody = { success: true, message: '', data: null };
bare.get('/', async () => statusBody);

try {
  await waitFor(`${base}/api/status`);
  const setup = await fetch(`${base}/api/setup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-pass-1', confirmPassword: 'bench-pass-1' }),
  });
  if (!(await setup.json()).success) throw new Error('setup failed');
  const login = await fetch(`${base}/api/user/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'bench', password: 'bench-pass-1' }),
  });
  const me = await login.json();
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const self = await (
    await fetch(`${base}/api/user/self`, { headers: { cookie, 'New-Api-User': String(me.data.id) } })
  ).text();
  statusBody.data = JSON.parse(self).data; // same payload size as the signed-in call
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${bare.server.address().port}/`;

  const rows = [];
  for (const c of connections) {
    const targets = [
      ['bare fastify (baseline)', bareUrl, {}],
      ['GET /api/status (public)', `${base}/api/status`, {}],
      [
        'GET /api/user/self (signed in)',
        `${base}/api/user/self`,
        { cookie, 'New-Api-User': String(me.data.id) },
      ],
    ];
    for (const [name, url, headers] of targets) {
      const r = await load(url, c, headers);
      rows.push({
        target: name,
        connections: c,
        rps: Math.round(r.requests.average),
        p50_ms: r.latency.p50,
        p99_ms: r.latency.p99,
        errors: r.errors + r.non2xx,
      });
    }
  }
  console.log(`\nManagement API, ${seconds}s per cell (2 cores shared with the load generator)\n`);
  console.table(rows);
  const at16 = (t) => rows.find((r) => r.connections === 16 && r.target.startsWith(t));
  const share =
    at16('GET /api/user/self') && at16('bare') ? at16('GET /api/user/self').rps / at16('bare').rps : null;
  console.log(
    `Judged figure: signed-in GET /api/user/self at 16 connections = ${share === null ? 'n/a' : (share * 100).toFixed(1) + '%'} of the bare server's throughput`,
  );
  mkdirSync(join(root, 'bench/results'), { recursive: true });
  writeFileSync(
    join(root, 'bench/results/management-api.json'),
    JSON.stringify({ seconds, rows, share }, null, 2),
  );
} finally {
  server.kill('SIGTERM');
  await bare.close();
  rmSync(dataDir, { recursive: true, force: true });
}

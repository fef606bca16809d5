// The relay benchmark's baseline: the least a gateway must do. A plain node:http server, run in its own
// process (child_process.fork, env UPSTREAM_URL), that forwards POST /v1/chat/completions to the
// upstream with an undici keep-alive pool and pipes the answer back chunk by chunk (so a stream stays a
// stream). No auth, no parsing, no billing, no logging.
//
// IPC: sends {ready, port} once listening.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { Pool } from 'undici';

const upstream = process.env.UPSTREAM_URL;
if (!upstream) throw new Error('UPSTREAM_URL is required');
// connections: null = no cap, like the gateway's undici Agent.
const pool = new Pool(upstream, {
  connections: null,
  keepAliveTimeout: 30_000,
  headersTimeout: 0,
  bodyTimeout: 0,
});

async function forward(req, res) {
  const parts = [];
  for await (const b of req) parts.push(b);
  const abort = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) abort.abort();
  };
  res.on('close', onClose);
  try {
    const up = await pool.request({
      path: '/v1/chat/completions',
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: req.headers.authorization ?? '' },
      body: Buffer.concat(parts),
      signal: abort.signal,
    });
    const headers = { 'content-type': up.headers['content-type'] ?? 'application/json' };
    if (up.headers['content-length']) headers['content-length'] = up.headers['content-length'];
    res.writeHead(up.statusCode, headers);
    for await (const chunk of up.body) if (!res.write(chunk)) await once(res, 'drain');
    res.end();
  } catch {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json' });
      res.end('{"error":{"message":"upstream failed","type":"upstream_error"}}');
    } else res.destroy();
  } finally {
    res.off('close', onClose);
  }
}

const server = createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/v1/chat/completions') {
    void forward(req, res);
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"error":{"message":"not found"}}');
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.send?.({ ready: true, port: server.address().port }));
process.on('disconnect', () => process.exit(0));
// A normal exit on SIGTERM, so a CPU profile (BENCH_BARE_NODE_ARGS=--cpu-prof) is written.
process.on('SIGTERM', () => process.exit(0));

/**
 * The realtime relay's idle limit (STREAMING_TIMEOUT: no frame either way for that long closes both
 * sides with a clear reason) and the channel's `setting.proxy` (the upstream WebSocket goes through
 * an HTTP CONNECT proxy, as the relay's HTTP calls do).
 */
import { createServer, Server } from 'node:http';
import { AddressInfo, connect, Socket } from 'node:net';
import WebSocket from 'ws';
import { RealtimeRelay } from '../../server/src/modules/relay/realtime/realtime-relay.service';
import { MockRealtime } from '../mocks/realtime';
import { logsOf, makeChannel, makeToken, setQuota } from '../support/relay-fixtures';
import { makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

interface Opened {
  ws: WebSocket;
  events: Array<{ type: string }>;
  closed: Promise<{ code: number; reason: string }>;
}

function open(url: string, key: string): Promise<Opened> {
  const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${key}` } });
  const events: Array<{ type: string }> = [];
  ws.on('message', (data, isBinary) => {
    if (!isBinary) events.push(JSON.parse((data as Buffer).toString('utf8')) as { type: string });
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
  );
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve({ ws, events, closed }));
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () =>
        reject(
          Object.assign(new Error(`unexpected ${res.statusCode}`), { status: res.statusCode, body: text }),
        ),
      );
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A minimal HTTP CONNECT proxy that records the targets it tunnels to. */
async function startConnectProxy(): Promise<{ url: string; targets: string[]; close: () => Promise<void> }> {
  const targets: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client: Socket, head: Buffer) => {
    targets.push(String(req.url));
    const [host, port] = String(req.url).split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    targets,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('realtime relay: idle limit and channel proxy', () => {
  let t: TestApp;
  let mock: MockRealtime;
  let proxy: Awaited<ReturnType<typeof startConnectProxy>>;
  let key: string;
  let userId: number;
  let wsUrl: string;

  beforeAll(async () => {
    mock = await MockRealtime.start();
    proxy = await startConnectProxy();
    t = await startApp({ STREAMING_TIMEOUT: '1' });
    wsUrl = t.url.replace(/^http/, 'ws');
    const root = await setupRoot(t);
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify({ 'rt-direct': 1, 'rt-proxied': 1, 'rt-bad-proxy': 1 }),
    );
    const user = await makeUser(t, root);
    userId = user.userId!;
    await setQuota(t, userId, 10_000_000);
    await makeChannel(t, {
      type: 1,
      base_url: mock.url,
      models: 'rt-direct',
      model_mapping: JSON.stringify({ 'rt-direct': 'gpt-4o-realtime-preview' }),
    });
    await makeChannel(t, {
      type: 1,
      base_url: mock.url,
      models: 'rt-proxied',
      model_mapping: JSON.stringify({ 'rt-proxied': 'gpt-4o-realtime-preview' }),
      setting: JSON.stringify({ proxy: proxy.url }),
    });
    // A proxy nobody listens on: the port of a server that was started and closed again.
    const dead = createServer();
    await new Promise<void>((resolve) => dead.listen(0, '127.0.0.1', resolve));
    const deadPort = (dead.address() as AddressInfo).port;
    await new Promise<void>((resolve) => dead.close(() => resolve()));
    await makeChannel(t, {
      type: 1,
      base_url: mock.url,
      models: 'rt-bad-proxy',
      model_mapping: JSON.stringify({ 'rt-bad-proxy': 'gpt-4o-realtime-preview' }),
      setting: JSON.stringify({ proxy: `http://127.0.0.1:${deadPort}` }),
    });
    key = (await makeToken(t, userId)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await proxy?.close();
  });

  const url = (model: string) => `${wsUrl}/v1/realtime?model=${model}`;

  it('closes both sides when no frame passes either way for STREAMING_TIMEOUT seconds', async () => {
    const started = Date.now();
    const c = await open(url('rt-direct'), key);
    const up = mock.last!;
    const closed = await c.closed;
    const took = Date.now() - started;
    expect(closed).toEqual({ code: 1001, reason: 'idle timeout: no frames for 1 s' });
    expect(await up.closed).toEqual({ code: 1000, reason: 'idle timeout: no frames for 1 s' });
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(3000);
    const relay = t.app.get(RealtimeRelay);
    for (let i = 0; i < 50 && relay.size > 0; i++) await sleep(20);
    expect(relay.size).toBe(0);
  });

  it('keeps a session whose frames come less than the timeout apart, however long it lasts', async () => {
    const c = await open(url('rt-direct'), key);
    let closedEarly = false;
    void c.closed.then(() => (closedEarly = true));
    for (let i = 0; i < 6; i++) {
      await sleep(400);
      c.ws.send(JSON.stringify({ type: 'session.update', session: {} }));
    }
    expect(closedEarly).toBe(false);
    expect(c.ws.readyState).toBe(WebSocket.OPEN);
    expect(c.events.filter((e) => e.type === 'session.updated').length).toBeGreaterThanOrEqual(5);
    c.ws.close(1000, 'done');
    expect(await c.closed).toMatchObject({ code: 1000 });
  });

  it('dials the upstream through the channel proxy (HTTP CONNECT) and relays as usual', async () => {
    const before = proxy.targets.length;
    const c = await open(url('rt-proxied'), key);
    const mockHost = new URL(mock.url).host;
    expect(proxy.targets.slice(before)).toEqual([mockHost]);
    c.ws.send(JSON.stringify({ type: 'session.update', session: {} }));
    for (let i = 0; i < 50 && !c.events.some((e) => e.type === 'session.updated'); i++) await sleep(20);
    expect(c.events.map((e) => e.type)).toEqual(['session.created', 'session.updated']);
    c.ws.close(1000, 'done');
    await c.closed;
  });

  it('answers an unreachable channel proxy with a 502 before the upgrade, never dialing directly', async () => {
    const connections = mock.connections.length;
    await expect(open(url('rt-bad-proxy'), key)).rejects.toMatchObject({ status: 502 });
    expect(mock.connections.length).toBe(connections);
    for (let i = 0; i < 50; i++) {
      if ((await logsOf(t, userId)).some((l) => l.type === 5 && l.model_name === 'rt-bad-proxy')) break;
      await sleep(20);
    }
    expect((await logsOf(t, userId)).some((l) => l.type === 5 && l.model_name === 'rt-bad-proxy')).toBe(true);
  });
});

import WebSocket from 'ws';
import { ContentLogService } from '../../server/src/modules/log/content/content-log.service';
import {
  CLOSE_GRACE_MS,
  RealtimeRelay,
} from '../../server/src/modules/relay/realtime/realtime-relay.service';
import {
  DEFAULT_REALTIME_USAGE,
  MockRealtime,
  MockRealtimeUsage,
  TEXT_PIECES,
  TRANSCRIPT_PIECES,
} from '../mocks/realtime';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/** A server event as the tests read it (unknown fields kept). */
interface Event {
  type: string;
  delta?: string;
  error?: Record<string, unknown>;
  response?: { usage?: Record<string, unknown> };
  [k: string]: unknown;
}

/** A realtime client over `ws` that queues what it receives. */
class RtClient {
  private readonly queue: Array<Event | Buffer> = [];
  private waiter: (() => void) | null = null;
  /** X-Oneapi-Request-Id of the 101 answer. */
  requestId = '';
  readonly closed: Promise<{ code: number; reason: string }>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      this.queue.push(isBinary ? (data as Buffer) : (JSON.parse((data as Buffer).toString('utf8')) as Event));
      this.waiter?.();
    });
    this.closed = new Promise((resolve) =>
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') })),
    );
  }

  static open(
    url: string,
    opts: { headers?: Record<string, string>; protocols?: string[] } = {},
  ): Promise<RtClient> {
    const ws = new WebSocket(url, opts.protocols ?? [], { headers: opts.headers });
    const client = new RtClient(ws);
    return new Promise((resolve, reject) => {
      ws.once('upgrade', (res) => (client.requestId = String(res.headers['x-oneapi-request-id'] ?? '')));
      ws.once('open', () => resolve(client));
      ws.once('error', reject);
      ws.once('unexpected-response', (_req, res) => reject(new Error(`unexpected ${res.statusCode}`)));
    });
  }

  /** The next frame (text event or binary), waiting up to 5 s. */
  async next(): Promise<Event | Buffer> {
    const deadline = Date.now() + 5000;
    while (!this.queue.length) {
      if (Date.now() > deadline) throw new Error('no frame within 5 s');
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 100);
      });
      this.waiter = null;
    }
    return this.queue.shift()!;
  }

  /** Text events up to and including the first of `type`. */
  async until(type: string): Promise<Event[]> {
    const seen: Event[] = [];
    for (;;) {
      const f = await this.next();
      if (Buffer.isBuffer(f)) continue;
      seen.push(f);
      if (f.type === type) return seen;
    }
  }

  send(event: Record<string, unknown>): void {
    this.ws.send(JSON.stringify(event));
  }

  respond(usage?: Partial<MockRealtimeUsage>): Promise<Event[]> {
    this.send({
      type: 'response.create',
      response: usage ? { metadata: { mock_usage: JSON.stringify(usage) } } : {},
    });
    return this.until('response.done');
  }
}

/** An upgrade the gateway refuses: the HTTP status and the JSON body. */
function refusal(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown; upgraded: boolean }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => {
      ws.terminate();
      resolve({ status: 101, body: null, upgraded: true });
    });
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text), upgraded: false }));
    });
    ws.once('error', (err) => reject(err));
  });
}

/** The charge of one response at the test prices (see beforeAll). */
function charge(u: MockRealtimeUsage): number {
  const plainIn = u.textIn - (u.cached - u.cachedAudio);
  const audioIn = u.audioIn - u.cachedAudio;
  const weighted = plainIn + u.cached * 0.5 + audioIn * 8 + u.textOut * 4 + u.audioOut * 8 * 2.5;
  return Math.round(weighted * 2.5);
}

describe('realtime relay (/v1/realtime)', () => {
  let t: TestApp;
  let mock: MockRealtime;
  let root: ApiClient;
  let user: Awaited<ReturnType<typeof makeUser>>;
  let key: string;
  let openaiChannel: number;
  let wsUrl: string;
  const MODEL = 'gpt-4o-realtime-preview';
  const UPSTREAM_MODEL = 'gpt-4o-realtime-preview-2024-12-17';

  beforeAll(async () => {
    mock = await MockRealtime.start();
    t = await startApp();
    wsUrl = t.url.replace(/^http/, 'ws');
    root = await setupRoot(t);
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify({ [MODEL]: 2.5, 'az-realtime': 1, 'no-channel-rt': 1, 'broken-rt': 1 }),
    );
    await putOption(root, 'CompletionRatio', JSON.stringify({ [MODEL]: 4 }));
    await putOption(root, 'CacheRatio', JSON.stringify({ [MODEL]: 0.5 }));
    await putOption(root, 'AudioRatio', JSON.stringify({ [MODEL]: 8 }));
    await putOption(root, 'AudioCompletionRatio', JSON.stringify({ [MODEL]: 2.5 }));
    user = await makeUser(t, root);
    await setQuota(t, user.userId!, 10_000_000);
    openaiChannel = await makeChannel(t, {
      type: 1,
      base_url: mock.url,
      models: `${MODEL},mystery-rt`,
      model_mapping: JSON.stringify({ [MODEL]: UPSTREAM_MODEL }),
    });
    await makeChannel(t, { type: 3, base_url: mock.url, key: 'az-key', models: 'az-realtime' });
    await makeChannel(t, {
      type: 1,
      base_url: mock.url,
      models: 'broken-rt',
      model_mapping: JSON.stringify({ 'broken-rt': 'error-500' }),
    });
    key = (await makeToken(t, user.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const rtUrl = (model = MODEL) => `${wsUrl}/v1/realtime?model=${encodeURIComponent(model)}`;
  const auth = (k = key) => ({ Authorization: `Bearer ${k}` });

  it('relays text and binary frames both ways and bills every response.done exactly', async () => {
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const logsBefore = (await logsOf(t, user.userId!)).length;
    const c = await RtClient.open(rtUrl(), { headers: auth() });
    const created = (await c.next()) as Event;
    expect(created).toMatchObject({ type: 'session.created', session: { model: UPSTREAM_MODEL } });
    const up = mock.last!;
    expect(up.path).toBe('/v1/realtime');
    expect(up.query.get('model')).toBe(UPSTREAM_MODEL);
    expect(up.headers.authorization).toBe('Bearer sk-upstream-key');
    expect(up.headers['openai-beta']).toBe('realtime=v1');

    c.send({ type: 'session.update', session: { instructions: 'be brief' } });
    expect(await c.next()).toMatchObject({ type: 'session.updated', session: { instructions: 'be brief' } });
    expect(up.events[0]).toEqual({ type: 'session.update', session: { instructions: 'be brief' } });

    const audio = Buffer.from([0, 1, 2, 253, 254, 255]);
    c.ws.send(audio);
    expect(Buffer.compare((await c.next()) as Buffer, audio)).toBe(0);
    expect(Buffer.compare(up.binary[0], audio)).toBe(0);

    const first = await c.respond();
    expect(first.map((e) => e.type)).toEqual([
      'response.created',
      ...TRANSCRIPT_PIECES.map(() => 'response.audio_transcript.delta'),
      'response.audio.delta',
      ...TEXT_PIECES.map(() => 'response.text.delta'),
      'response.done',
    ]);
    expect(
      first
        .filter((e) => e.type === 'response.audio_transcript.delta')
        .map((e) => e.delta)
        .join(''),
    ).toBe(TRANSCRIPT_PIECES.join(''));
    expect(first.at(-1)!.response?.usage).toMatchObject({ input_tokens: 100, output_tokens: 50 });

    const textOnly = { textIn: 30, audioIn: 0, cached: 0, cachedAudio: 0, textOut: 20, audioOut: 0 };
    await c.respond(textOnly);
    c.ws.close(1000);
    await c.closed;

    const q1 = charge(DEFAULT_REALTIME_USAGE);
    const q2 = charge(textOnly);
    expect(q1).toBe(3375); // (20 + 20×0.5 + 60×8 + 10×4 + 40×8×2.5) × 2.5
    expect(q2).toBe(275); // (30 + 20×4) × 2.5
    await settle(t);
    const logs = (await logsOf(t, user.userId!)).slice(logsBefore);
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({
      type: 2,
      quota: q1,
      prompt_tokens: 100,
      completion_tokens: 50,
      model_name: MODEL,
      channel_id: openaiChannel,
      is_stream: true,
    });
    expect(logs[0].other).toMatchObject({
      ws: true,
      audio: true,
      audio_input: 60,
      audio_output: 40,
      text_input: 40,
      text_output: 10,
      cache_tokens: 20,
      model_ratio: 2.5,
      completion_ratio: 4,
      cache_ratio: 0.5,
      audio_ratio: 8,
      audio_completion_ratio: 2.5,
      group_ratio: 1,
      is_model_mapped: true,
      upstream_model_name: UPSTREAM_MODEL,
    });
    expect(logs[1]).toMatchObject({ type: 2, quota: q2, prompt_tokens: 30, completion_tokens: 20 });
    expect(logs[1].other).toMatchObject({
      ws: true,
      audio_input: 0,
      audio_output: 0,
      text_input: 30,
      text_output: 20,
    });
    expect(c.requestId).toMatch(/^\d{14}[0-9a-f]{8}$/);
    expect(logs[0].request_id).toBe(c.requestId);
    expect(logs[1].request_id).toBe(c.requestId);
    expect(await quotaOf(t, user.userId!)).toBe(before - q1 - q2);
  });

  it('stores the session’s messages as content when the token is switched on (redacted, audio left out)', async () => {
    const tok = await makeToken(t, user.userId!);
    const sw = await root.put(`/api/content_log/token/${tok.id}`, { enabled: true });
    expect(sw.body).toMatchObject({ success: true, data: { enabled: true } });
    try {
      // A session of another token of the same user stores nothing.
      const plain = await RtClient.open(rtUrl(), { headers: auth() });
      await plain.next();
      await plain.respond();
      plain.ws.close(1000);
      await plain.closed;

      const c = await RtClient.open(rtUrl(), { headers: auth(tok.key) });
      expect(await c.next()).toMatchObject({ type: 'session.created' });
      c.send({ type: 'session.update', session: { instructions: `secret ${tok.key} here` } });
      await c.until('session.updated');
      c.send({ type: 'input_audio_buffer.append', audio: Buffer.alloc(300).toString('base64') });
      c.ws.send(Buffer.from([1, 2, 3]));
      await c.next();
      await c.respond();
      c.ws.close(1000);
      await c.closed;
      // The session is stored once both sides are closed.
      const relay = t.app.get(RealtimeRelay);
      for (let i = 0; i < 100 && relay.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(relay.size).toBe(0);
      await settle(t);
      await t.app.get(ContentLogService).flush();

      const rows: Array<Record<string, unknown>> = await t.ds.query('SELECT * FROM log_contents');
      expect(rows.filter((r) => r.request_id === plain.requestId)).toHaveLength(0);
      const mine = rows.filter((r) => r.request_id === c.requestId);
      expect(mine).toHaveLength(1);
      const request = JSON.parse(String(mine[0].request)) as Array<Record<string, unknown>>;
      expect(request.map((e) => e.type)).toEqual([
        'session.update',
        'input_audio_buffer.append',
        undefined,
        'response.create',
      ]);
      expect(request[0]).toEqual({
        type: 'session.update',
        session: { instructions: 'secret [REDACTED] here' },
      });
      expect(request[1]).toEqual({ type: 'input_audio_buffer.append', audio: '[audio: 300 bytes]' });
      expect(request[2]).toEqual({ binary: true, bytes: 3 });
      expect(String(mine[0].request)).not.toContain(tok.key.replace(/^sk-/, ''));
      const response = JSON.parse(String(mine[0].response)) as Array<Record<string, unknown>>;
      const types = response.map((e) => e.type);
      expect(types[0]).toBe('session.created');
      expect(types).toContain('session.updated');
      expect(types.at(-1)).toBe('response.done');
      const delta = response.find((e) => e.type === 'response.audio.delta');
      expect(String(delta?.delta)).toMatch(/^\[audio: \d+ bytes\]$/);
      const meta = JSON.parse(String(mine[0].meta)) as Record<string, unknown>;
      expect(meta).toMatchObject({
        mode: 'realtime',
        path: '/v1/realtime',
        status: 101,
        response_kind: 'json',
        channel_id: openaiChannel,
      });
      expect((meta.headers as Record<string, unknown>).authorization).toBe('[REDACTED]');

      // The session's log row is marked and opens the stored messages.
      const logs = (await logsOf(t, user.userId!)).filter((l) => l.request_id === c.requestId);
      expect(logs).toHaveLength(1);
      expect(logs[0].other).toMatchObject({ ws: true, content_logged: true });
      const plainLogs = (await logsOf(t, user.userId!)).filter((l) => l.request_id === plain.requestId);
      expect(plainLogs[0].other).not.toHaveProperty('content_logged');
      const read = await root.get(`/api/log/${String(logs[0].id)}/content`);
      expect(read.body).toMatchObject({ success: true, data: { request_id: c.requestId } });
    } finally {
      await root.put(`/api/content_log/token/${tok.id}`, { enabled: false });
    }
  });

  it('content_log_no_key: a realtime session’s content log holds no key in any form (browser sub-protocol, header, bare)', async () => {
    const tok = await makeToken(t, user.userId!);
    const bare = tok.key.replace(/^sk-/, '');
    await root.put(`/api/content_log/token/${tok.id}`, { enabled: true });
    try {
      const c = await RtClient.open(rtUrl(), {
        protocols: ['realtime', `openai-insecure-api-key.${tok.key}`, 'openai-beta.realtime-v1'],
        headers: { 'x-backup-key': bare },
      });
      expect(await c.next()).toMatchObject({ type: 'session.created' });
      c.send({ type: 'session.update', session: { instructions: `my key is ${bare} and ${tok.key}` } });
      await c.until('session.updated');
      await c.respond();
      c.ws.close(1000);
      await c.closed;
      const relay = t.app.get(RealtimeRelay);
      for (let i = 0; i < 100 && relay.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
      await settle(t);
      await t.app.get(ContentLogService).flush();

      const rows: Array<Record<string, unknown>> = await t.ds.query('SELECT * FROM log_contents');
      const mine = rows.filter((r) => r.request_id === c.requestId);
      expect(mine).toHaveLength(1);
      expect(JSON.stringify(mine[0])).not.toContain(bare);
      const headers = (JSON.parse(String(mine[0].meta)) as { headers: Record<string, string> }).headers;
      expect(headers['sec-websocket-protocol']).toBe(
        'realtime,openai-insecure-api-key.[REDACTED],openai-beta.realtime-v1',
      );
      expect(headers['x-backup-key']).toBe('[REDACTED]');
      expect(JSON.parse(String(mine[0].request))[0]).toEqual({
        type: 'session.update',
        session: { instructions: 'my key is [REDACTED] and [REDACTED]' },
      });
      const logs = (await logsOf(t, user.userId!)).filter((l) => l.request_id === c.requestId);
      const read = await root.get(`/api/log/${String(logs[0].id)}/content`);
      expect(JSON.stringify(read.body)).not.toContain(bare);
    } finally {
      await root.put(`/api/content_log/token/${tok.id}`, { enabled: false });
    }
  });

  it('takes the key from the browser subprotocol and from ?key=, answering the `realtime` protocol', async () => {
    const c = await RtClient.open(rtUrl(), {
      protocols: ['realtime', `openai-insecure-api-key.${key}`, 'openai-beta.realtime-v1'],
    });
    expect(c.ws.protocol).toBe('realtime');
    expect(await c.next()).toMatchObject({ type: 'session.created' });
    c.ws.close();
    await c.closed;

    const q = await RtClient.open(`${rtUrl()}&key=${encodeURIComponent(key)}`);
    expect(await q.next()).toMatchObject({ type: 'session.created' });
    q.ws.close();
    await q.closed;
  });

  it('refuses before the upgrade with the OpenAI error JSON, never dialing the upstream', async () => {
    const dialed = mock.connections.length + mock.refused;
    const bad = await refusal(rtUrl(), auth('sk-' + 'x'.repeat(48)));
    expect(bad).toMatchObject({
      status: 401,
      upgraded: false,
      body: { error: { type: 'authentication_error', code: 'invalid_api_key' } },
    });
    expect(await refusal(rtUrl())).toMatchObject({
      status: 401,
      body: { error: { type: 'authentication_error' } },
    });
    const unpriced = await refusal(rtUrl('mystery-rt'), auth());
    expect(unpriced).toMatchObject({
      status: 403,
      upgraded: false,
      body: { error: { type: 'permission_error', code: 'model_price_error' } },
    });
    expect(await refusal(rtUrl('no-channel-rt'), auth())).toMatchObject({
      status: 503,
      body: { error: { type: 'upstream_error' } },
    });
    expect(await refusal(`${wsUrl}/v1/realtime`, auth())).toMatchObject({
      status: 400,
      body: { error: { code: 'model_required' } },
    });
    expect(await refusal(`${wsUrl}/v1/elsewhere`, auth())).toMatchObject({ status: 404, upgraded: false });
    expect(mock.connections.length + mock.refused).toBe(dialed);
  });

  it('answers an upstream handshake refusal with an HTTP error and an error log, charging nothing', async () => {
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const r = await refusal(rtUrl('broken-rt'), auth());
    expect(r).toMatchObject({
      status: 500,
      upgraded: false,
      body: { error: { type: 'upstream_error', message: 'Forced error 500' } },
    });
    await settle(t);
    const log = (await logsOf(t, user.userId!)).at(-1)!;
    expect(log).toMatchObject({ type: 5, quota: 0, model_name: 'broken-rt' });
    expect(log.other).toMatchObject({ ws: true, status_code: 500 });
    expect(await quotaOf(t, user.userId!)).toBe(before);
  });

  it('relays to Azure at /openai/realtime with api-key and the default API version', async () => {
    const c = await RtClient.open(rtUrl('az-realtime'), { headers: auth() });
    expect(await c.next()).toMatchObject({ type: 'session.created', session: { model: 'az-realtime' } });
    const up = mock.last!;
    expect(up.path).toBe('/openai/realtime');
    expect(up.query.get('api-version')).toBe('2024-10-01-preview');
    expect(up.query.get('deployment')).toBe('az-realtime');
    expect(up.headers['api-key']).toBe('az-key');
    expect(up.headers.authorization).toBeUndefined();
    await c.respond({ textIn: 10, audioIn: 0, cached: 0, textOut: 5, audioOut: 0 });
    c.ws.close();
    await c.closed;
    await settle(t);
    const log = (await logsOf(t, user.userId!)).at(-1)!;
    expect(log).toMatchObject({ type: 2, quota: 15, model_name: 'az-realtime' });
  });

  it('propagates an upstream close to the client, code and reason', async () => {
    const c = await RtClient.open(rtUrl(), { headers: auth() });
    await c.next();
    c.send({ type: 'mock.close', code: 4001, reason: 'upstream says bye' });
    expect(await c.closed).toEqual({ code: 4001, reason: 'upstream says bye' });
  });

  it('closes the upstream when the client closes', async () => {
    const c = await RtClient.open(rtUrl(), { headers: auth() });
    await c.next();
    const up = mock.last!;
    c.ws.close(4002, 'client done');
    expect(await up.closed).toEqual({ code: 4002, reason: 'client done' });
    await c.closed;
    const relay = t.app.get(RealtimeRelay);
    for (let i = 0; i < 50 && relay.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(relay.size).toBe(0);
  });

  it('closes both sides with 1011 when the client side buffers more than 16 MB', async () => {
    // The paused client must read what was queued ahead of the close frame (16 MB and the kernel's
    // buffers) before it sees the 1011; the grace before the gateway drops the socket is lengthened so
    // that a loaded machine reads it in time (the limit, not the grace, is what this test checks).
    const relay = t.app.get(RealtimeRelay);
    relay.closeGraceMs = 60_000;
    try {
      const c = await RtClient.open(rtUrl(), { headers: auth() });
      await c.next();
      const up = mock.last!;
      c.ws.pause();
      c.send({ type: 'mock.flood', mb: 40 });
      expect((await up.closed).code).toBe(1011);
      c.ws.resume();
      expect(await c.closed).toMatchObject({ code: 1011, reason: 'buffer limit exceeded' });
    } finally {
      relay.closeGraceMs = CLOSE_GRACE_MS;
    }
  });

  it('ends the session (error event, 1008) when a response exhausts the balance, charging the response in full', async () => {
    const poor = await makeUser(t, root);
    await setQuota(t, poor.userId!, 1000);
    const poorKey = (await makeToken(t, poor.userId!)).key;
    const c = await RtClient.open(rtUrl(), { headers: auth(poorKey) });
    await c.next();
    const up = mock.last!;
    const events = await c.respond();
    expect(events.at(-1)!.type).toBe('response.done');
    const err = (await c.until('error')).at(-1)!;
    expect(err.error).toMatchObject({ code: 'insufficient_quota' });
    expect(await c.closed).toMatchObject({ code: 1008 });
    expect((await up.closed).code).toBe(1000);
    await settle(t);
    // The served response costs more than the 1,000 left: it is charged in full and the balance goes
    // below zero (admitted while the balance was positive); the log explains the whole change.
    const logs = await logsOf(t, poor.userId!);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ type: 2 });
    expect(logs[0].quota).toBeGreaterThan(1000);
    expect(logs[0].content).not.toContain('not charged');
    expect(await quotaOf(t, poor.userId!)).toBe(1000 - logs[0].quota);
    // A spent balance is refused before the upgrade.
    expect(await refusal(rtUrl(), auth(poorKey))).toMatchObject({
      status: 403,
      body: { error: { code: 'insufficient_quota' } },
    });
  });

  it('closes open sessions with 1001 when the server shuts down', async () => {
    const c = await RtClient.open(rtUrl(), { headers: auth() });
    await c.next();
    const up = mock.last!;
    const app = t;
    t = undefined as unknown as TestApp;
    await app.close();
    expect(await c.closed).toMatchObject({ code: 1001 });
    expect((await up.closed).code).toBe(1000);
  });
});

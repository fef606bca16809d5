import request from 'supertest';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, setupRoot, startApp, startNode, TestApp } from '../support/test-app';

const TOKEN = 'metrics-scrape-token-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format, line by line: `name{a="x",b="y"} value` (comments kept apart). */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line) continue;
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) types.set(type[1], type[2]);
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[k] = v.replace(/\\(.)/g, '$1');
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return { samples, types };
}

/** The value of the one sample of `name` whose labels include `labels` exactly (0 when absent). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string>): number {
  const hits = samples.filter(
    (s) =>
      s.name === name &&
      Object.keys(s.labels).length === Object.keys(labels).length &&
      Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (hits.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${hits.length} samples`);
  return hits[0]?.value ?? 0;
}

/** Metrics are recorded when a response closes, a moment after the client has read it: retry briefly. */
async function eventually(check: () => Promise<void>): Promise<void> {
  const until = Date.now() + 3000;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

describe('metrics', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let userId: number;
  let key: string;
  let channel: number;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp({ METRICS_TOKEN: TOKEN });
    root = await setupRoot(t);
    userId = (await makeUser(t, root)).userId!;
    await setQuota(t, userId, 10_000_000);
    channel = await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-4o' });
    key = (await makeToken(t, userId)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const scrape = async (url = t.url) => {
    const res = await request(url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    return parseExposition(res.text).samples;
  };

  const chat = (body: Record<string, unknown>) =>
    fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('asks for the bearer token when METRICS_TOKEN is set (401 without it or with another)', async () => {
    const none = await request(t.url).get('/metrics');
    expect(none.status).toBe(401);
    expect(none.headers['content-type']).toMatch(/^text\/plain/);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.text).not.toContain('gatehouse_');
    for (const auth of [
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      'Bearer ',
      `Basic ${TOKEN}`,
      TOKEN,
    ]) {
      const res = await request(t.url).get('/metrics').set('Authorization', auth);
      expect([auth, res.status]).toEqual([auth, 401]);
      expect(res.text).not.toContain('gatehouse_');
    }
    const ok = await request(t.url).get('/metrics').set('Authorization', `bearer ${TOKEN}`).expect(200);
    expect(ok.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples, types } = parseExposition(ok.text);
    expect(types.get('gatehouse_relay_requests_total')).toBe('counter');
    expect(types.get('gatehouse_http_request_duration_seconds')).toBe('histogram');
    expect(types.get('gatehouse_relay_active_streams')).toBe('gauge');
    // prom-client's default process metrics
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
    // the refused scrapes are counted too, under the route's pattern
    await eventually(async () =>
      expect(
        valueOf(await scrape(), 'gatehouse_http_requests_total', {
          method: 'GET',
          route: '/metrics',
          status: '401',
        }),
      ).toBe(6),
    );
  });

  it('moves the relay counters by exactly one non-stream and one stream call', async () => {
    const before = await scrape();
    const quotaBefore = await quotaOf(t, userId);

    const plain = await chat({ model: 'gpt-4o', messages: [{ role: 'user', content: '[[usage=10,5]]' }] });
    expect(plain.status).toBe(200);
    await plain.json();
    const stream = await chat({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: '[[usage=100,20]]' }],
    });
    expect(stream.status).toBe(200);
    expect(await stream.text()).toContain('data: [DONE]');

    // gpt-4o: model ratio 1.25, completion ratio 4 → (10 + 5×4) × 1.25 = 38 and (100 + 20×4) × 1.25 = 225
    const charged = 38 + 225;
    await settle(t);
    expect(quotaBefore - (await quotaOf(t, userId))).toBe(charged);

    const ch = String(channel);
    await eventually(async () => {
      const after = await scrape();
      const delta = (name: string, labels: Record<string, string>) =>
        valueOf(after, name, labels) - valueOf(before, name, labels);
      expect(
        delta('gatehouse_relay_requests_total', {
          format: 'openai',
          endpoint: 'chat',
          model: 'gpt-4o',
          channel: ch,
          status: '200',
        }),
      ).toBe(2);
      expect(delta('gatehouse_relay_quota_total', { model: 'gpt-4o' })).toBe(charged);
      expect(delta('gatehouse_relay_tokens_total', { model: 'gpt-4o', type: 'prompt' })).toBe(110);
      expect(delta('gatehouse_relay_tokens_total', { model: 'gpt-4o', type: 'completion' })).toBe(25);
      expect(delta('gatehouse_relay_upstream_latency_seconds_count', { channel: ch })).toBe(2);
      expect(delta('gatehouse_relay_upstream_latency_seconds_bucket', { channel: ch, le: '+Inf' })).toBe(2);
      expect(delta('gatehouse_relay_first_token_seconds_count', { channel: ch })).toBe(1);
      expect(delta('gatehouse_relay_streams_total', {})).toBe(1);
      expect(valueOf(after, 'gatehouse_relay_active_streams', {})).toBe(0);
      expect(
        delta('gatehouse_http_requests_total', {
          method: 'POST',
          route: '/v1/chat/completions',
          status: '200',
        }),
      ).toBe(2);
      expect(
        delta('gatehouse_http_request_duration_seconds_count', {
          method: 'POST',
          route: '/v1/chat/completions',
          status: '200',
        }),
      ).toBe(2);
      // the second call found the token (and its key's hash) in memory
      expect(delta('gatehouse_relay_cache_hits_total', { cache: 'token' })).toBeGreaterThanOrEqual(1);
      expect(delta('gatehouse_relay_cache_hits_total', { cache: 'key_hash' })).toBeGreaterThanOrEqual(1);
    });
  });

  it('counts a failed call under its status and the channel it reached', async () => {
    const before = await scrape();
    const res = await chat({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: '[[status=400]] [[error=bad]]' }],
    });
    expect(res.status).toBe(400);
    await eventually(async () => {
      const after = await scrape();
      const labels = {
        format: 'openai',
        endpoint: 'chat',
        model: 'gpt-4o',
        channel: String(channel),
        status: '400',
      };
      expect(
        valueOf(after, 'gatehouse_relay_requests_total', labels) -
          valueOf(before, 'gatehouse_relay_requests_total', labels),
      ).toBe(1);
      expect(valueOf(after, 'gatehouse_relay_quota_total', { model: 'gpt-4o' })).toBe(
        valueOf(before, 'gatehouse_relay_quota_total', { model: 'gpt-4o' }),
      );
    });
  });

  it('labels HTTP requests by route pattern, never by the raw URL', async () => {
    const path = `/api/channel/${channel}`;
    expect((await root.get(path)).status).toBe(200);
    const odd = `/api/no-such-route-${Date.now()}`;
    const missing = await request(t.url).get(odd);
    const gemini = await fetch(`${t.url}/v1beta/models/gemini-metrics-probe:generateContent?key=${key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'hi' }] }] }),
    });
    expect(gemini.status).toBeGreaterThanOrEqual(400);
    await gemini.text();
    await eventually(async () => {
      const res = await request(t.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      const samples = parseExposition(res.text).samples;
      expect(
        valueOf(samples, 'gatehouse_http_requests_total', {
          method: 'GET',
          route: '/api/channel/:id',
          status: '200',
        }),
      ).toBe(1);
      expect(
        valueOf(samples, 'gatehouse_http_requests_total', {
          method: 'GET',
          route: 'unmatched',
          status: String(missing.status),
        }),
      ).toBe(1);
      const geminiRoute = samples.filter(
        (s) => s.name === 'gatehouse_http_requests_total' && s.labels.route === '/v1beta/models/:target',
      );
      expect(geminiRoute).toHaveLength(1);
      expect(res.text).not.toContain(path + '"');
      expect(res.text).not.toContain(odd);
      expect(res.text).not.toContain('gemini-metrics-probe');
    });
  });

  it('labels a model the node does not know as "other"', async () => {
    const before = await scrape();
    const names = ['no-such-model-a', 'no-such-model-b', 'no-such-model-c'];
    for (const model of names) {
      const res = await chat({ model, messages: [{ role: 'user', content: 'hi' }] });
      expect(res.status).toBeGreaterThanOrEqual(400);
      await res.text();
    }
    await eventually(async () => {
      const res = await request(t.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      const after = parseExposition(res.text).samples;
      const other = (s: Sample[]) =>
        s
          .filter(
            (x) =>
              x.name === 'gatehouse_relay_requests_total' &&
              x.labels.model === 'other' &&
              x.labels.channel === 'none',
          )
          .reduce((a, x) => a + x.value, 0);
      expect(other(after) - other(before)).toBe(3);
      for (const model of names) expect(res.text).not.toContain(model);
    });
  });

  it('is off by default (404, nothing exposed), open only with METRICS_ENABLED=true and no token', async () => {
    const plain = await startNode(t);
    const open = await startNode(t, { METRICS_ENABLED: 'true' });
    const off = await startNode(t, { METRICS_ENABLED: 'false', METRICS_TOKEN: TOKEN });
    try {
      const byDefault = await request(plain.url).get('/metrics');
      expect(byDefault.status).toBe(404);
      expect(byDefault.text).not.toContain('gatehouse_');
      expect((await request(plain.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status).toBe(
        404,
      );
      const res = await request(open.url).get('/metrics').expect(200);
      expect(res.text).toContain('# TYPE gatehouse_http_requests_total counter');
      expect((await request(off.url).get('/metrics')).status).toBe(404);
      expect((await request(off.url).get('/metrics').set('Authorization', `Bearer ${TOKEN}`)).status).toBe(
        404,
      );
    } finally {
      await off.close();
      await open.close();
      await plain.close();
    }
  });
});

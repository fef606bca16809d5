import Redis from 'ioredis';
import request from 'supertest';
import { RelayCacheService } from '../../server/src/modules/relay/relay-cache.service';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota, settle, updateChannel } from '../support/relay-fixtures';
import {
  ApiClient,
  makeUser,
  putOption,
  REDIS_URL,
  setupRoot,
  startApp,
  startNode,
  TestApp,
} from '../support/test-app';

type User = Awaited<ReturnType<typeof makeUser>>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const chat = (t: TestApp, key: string, model: string, content = 'hi', lang = 'en', stream = false) =>
  request(t.url)
    .post('/v1/chat/completions')
    .set('Authorization', `Bearer ${key}`)
    .set('Accept-Language', lang)
    .send({ model, stream, messages: [{ role: 'user', content }] });

/** Starts a request and abandons it after `ms` (the client goes away mid-answer). */
async function abandoned(
  t: TestApp,
  key: string,
  model: string,
  content: string,
  ms: number,
  stream = false,
): Promise<void> {
  const ac = new AbortController();
  const pending = fetch(`${t.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream, messages: [{ role: 'user', content }] }),
    signal: ac.signal,
  })
    .then(async (r) => {
      await r.text();
    })
    .catch(() => undefined);
  await sleep(ms);
  ac.abort();
  await pending;
}

/** Retries `ask` until it answers `status` or `ms` passed; returns the last status. */
async function eventually(
  ask: () => Promise<{ status: number }>,
  status: number,
  ms = 3000,
): Promise<number> {
  const deadline = Date.now() + ms;
  let last = (await ask()).status;
  while (last !== status && Date.now() < deadline) {
    await sleep(50);
    last = (await ask()).status;
  }
  return last;
}

/**
 * Per-token and per-channel limits (requests per minute, tokens per minute, requests in flight):
 * a token over its limit gets a 429 in the caller's format; a channel over its limit is skipped by
 * selection, and when none is left the caller gets a 429; slots come back on every end of a request.
 */
describe('per-token and per-channel limits', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let user: User;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    user = await makeUser(t, root);
    await setQuota(t, user.userId!, 100_000_000);
    // Unpriced test models are served free of charge.
    await putOption(root, 'SelfUseModeEnabled', 'true');
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o', key: 'k-main' });
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  /** A token of `user` with limits set through the management API, as its owner would. */
  async function limitedToken(limits: Record<string, number>): Promise<{ id: number; key: string }> {
    const tok = await makeToken(t, user.userId!);
    const res = await user.put('/api/token/', { id: tok.id, ...limits });
    expect(res.body).toEqual(expect.objectContaining({ success: true }));
    for (const [k, v] of Object.entries(limits)) expect(res.body.data[k]).toBe(v);
    return tok;
  }

  /** Upstream requests made with a channel's key (each channel of a test has its own key). */
  const servedBy = (key: string) => mock.requests.filter((r) => r.credential === key).length;

  // ------------------------------------------------------------------ tokens

  it('refuses a token over its requests per minute with 429 in the caller’s format, without an upstream call', async () => {
    const tok = await limitedToken({ rpm_limit: 3 });
    for (let i = 0; i < 3; i++) expect((await chat(t, tok.key, 'gpt-4o')).status).toBe(200);
    const calls = mock.requests.length;

    const openai = await chat(t, tok.key, 'gpt-4o');
    expect(openai.status).toBe(429);
    expect(openai.body.error).toEqual(
      expect.objectContaining({ type: 'rate_limit_error', code: 'rate_limit_exceeded' }),
    );
    expect(openai.body.error.message).toMatch(/at most 3 per minute/);

    const zh = await chat(t, tok.key, 'gpt-4o', 'hi', 'zh-CN');
    expect(zh.status).toBe(429);
    expect(zh.body.error.message).toContain('每分钟最多 3 次请求');

    const anthropic = await request(t.url)
      .post('/v1/messages')
      .set('x-api-key', tok.key)
      .set('anthropic-version', '2023-06-01')
      .set('Accept-Language', 'en')
      .send({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(anthropic.status).toBe(429);
    expect(anthropic.body).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.stringMatching(/per minute/) },
    });

    const gemini = await request(t.url)
      .post('/v1beta/models/gpt-4o:generateContent')
      .set('x-goog-api-key', tok.key)
      .set('Accept-Language', 'en')
      .send({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
    expect(gemini.status).toBe(429);
    expect(gemini.body.error).toEqual(expect.objectContaining({ code: 429, status: 'RESOURCE_EXHAUSTED' }));

    expect(mock.requests.length).toBe(calls);
    // Another token of the same user is not affected.
    expect((await chat(t, (await makeToken(t, user.userId!)).key, 'gpt-4o')).status).toBe(200);
  });

  it('lets exactly N requests of a token run at once', async () => {
    const tok = await limitedToken({ concurrency_limit: 2 });
    const results = await Promise.all([0, 1, 2, 3, 4].map(() => chat(t, tok.key, 'gpt-4o', '[[slow=700]]')));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body.error.message).toMatch(/at most 2 at a time/);
    // Both slots are free again once the answers are out.
    const again = await Promise.all([0, 1].map(() => chat(t, tok.key, 'gpt-4o', '[[slow=100]]')));
    expect(again.map((r) => r.status)).toEqual([200, 200]);
  });

  it('refuses a token once the last minute’s billed tokens reach its tokens per minute', async () => {
    const tok = await limitedToken({ tpm_limit: 100 });
    expect((await chat(t, tok.key, 'gpt-4o', '[[usage=40,10]]')).status).toBe(200);
    // 50 of 100 used: still admitted, and this one crosses the limit.
    expect((await chat(t, tok.key, 'gpt-4o', '[[usage=45,15]]')).status).toBe(200);
    const res = await chat(t, tok.key, 'gpt-4o');
    expect(res.status).toBe(429);
    expect(res.body.error.message).toMatch(/at most 100 per minute/);
  });

  it('frees a token’s slot after an upstream error, a client that went away and a cut stream', async () => {
    const tok = await limitedToken({ concurrency_limit: 1 });
    const err = await chat(t, tok.key, 'gpt-4o', '[[status=400]] [[error=bad thing]]');
    expect(err.status).toBe(400);
    expect((await chat(t, tok.key, 'gpt-4o')).status).toBe(200);

    const open = mock.requests.length;
    await abandoned(t, tok.key, 'gpt-4o', '[[hang]]', 300);
    expect(mock.requests.length).toBe(open + 1);
    expect(await eventually(() => chat(t, tok.key, 'gpt-4o'), 200)).toBe(200);

    await abandoned(t, tok.key, 'gpt-4o', '[[chunks=20]] [[slow=100]]', 400, true);
    expect(await eventually(() => chat(t, tok.key, 'gpt-4o'), 200)).toBe(200);

    const cut = await chat(t, tok.key, 'gpt-4o', '[[chunks=5]] [[cut=2]]', 'en', true);
    expect(cut.status).toBe(200);
    expect((await chat(t, tok.key, 'gpt-4o')).status).toBe(200);
  });

  // ------------------------------------------------------------------ channels

  it('skips a channel over its requests per minute (same tier, then lower tiers), then answers 429', async () => {
    await makeChannel(t, {
      base_url: mock.url,
      models: 'rpm-model',
      key: 'k-rpm-a',
      priority: 10,
      rpm_limit: 2,
    });
    await makeChannel(t, {
      base_url: mock.url,
      models: 'rpm-model',
      key: 'k-rpm-b',
      priority: 10,
      rpm_limit: 1,
    });
    await makeChannel(t, {
      base_url: mock.url,
      models: 'rpm-model',
      key: 'k-rpm-c',
      priority: 0,
      rpm_limit: 1,
    });
    const tok = await makeToken(t, user.userId!);
    for (let i = 0; i < 3; i++) expect((await chat(t, tok.key, 'rpm-model')).status).toBe(200);
    // The top tier's three requests per minute are used up before the lower tier serves one.
    expect(servedBy('k-rpm-a')).toBe(2);
    expect(servedBy('k-rpm-b')).toBe(1);
    expect(servedBy('k-rpm-c')).toBe(0);
    expect((await chat(t, tok.key, 'rpm-model')).status).toBe(200);
    expect(servedBy('k-rpm-c')).toBe(1);

    const calls = mock.requests.length;
    const res = await chat(t, tok.key, 'rpm-model');
    expect(res.status).toBe(429);
    expect(res.body.error).toEqual(
      expect.objectContaining({ type: 'rate_limit_error', code: 'rate_limit_exceeded' }),
    );
    expect(res.body.error.message).toMatch(/rpm-model.*rate or concurrency limit/);
    const anthropic = await request(t.url)
      .post('/v1/messages')
      .set('x-api-key', tok.key)
      .set('anthropic-version', '2023-06-01')
      .send({ model: 'rpm-model', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] });
    expect(anthropic.status).toBe(429);
    expect(anthropic.body.type).toBe('error');
    expect(anthropic.body.error.type).toBe('rate_limit_error');
    expect(anthropic.body.error.message).toContain('rpm-model');
    expect(mock.requests.length).toBe(calls);
  });

  it('falls over to a second channel while the first is at its concurrency, 429 when both are full', async () => {
    await makeChannel(t, {
      base_url: mock.url,
      models: 'conc-model',
      key: 'k-conc-a',
      priority: 5,
      concurrency_limit: 1,
    });
    await makeChannel(t, {
      base_url: mock.url,
      models: 'conc-model',
      key: 'k-conc-b',
      priority: 0,
      concurrency_limit: 1,
    });
    const tok = await makeToken(t, user.userId!);
    const results = await Promise.all([0, 1, 2].map(() => chat(t, tok.key, 'conc-model', '[[slow=700]]')));
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 429]);
    expect(servedBy('k-conc-a')).toBe(1);
    expect(servedBy('k-conc-b')).toBe(1);
    // Freed after the answers: the top channel serves again.
    expect((await chat(t, tok.key, 'conc-model')).status).toBe(200);
    expect(servedBy('k-conc-a')).toBe(2);
  });

  it('frees a channel’s slot when the attempt fails and the request moves to another channel', async () => {
    await putOption(root, 'RetryTimes', '2');
    try {
      await makeChannel(t, {
        base_url: mock.url,
        models: 'retry-model',
        key: 'k-retry-a',
        priority: 5,
        concurrency_limit: 1,
        auto_ban: 0,
      });
      const bId = await makeChannel(t, {
        base_url: mock.url,
        models: 'retry-model',
        key: 'k-retry-b',
        priority: 0,
        auto_ban: 0,
      });
      const tok = await makeToken(t, user.userId!);
      // The top channel answers 500 (retryable): the request is retried on the lower one.
      mock.requireKey = 'k-retry-b';
      const first = await chat(t, tok.key, 'retry-model');
      expect(first.status).toBe(200);
      mock.requireKey = null;
      expect(servedBy('k-retry-a')).toBe(1);
      // The top channel's one slot was given back: with the other channel gone it serves again.
      await updateChannel(t, bId, { status: 2 });
      expect((await chat(t, tok.key, 'retry-model')).status).toBe(200);
      expect(servedBy('k-retry-a')).toBe(2);
      await abandoned(t, tok.key, 'retry-model', '[[hang]]', 300);
      expect(await eventually(() => chat(t, tok.key, 'retry-model'), 200)).toBe(200);
    } finally {
      await putOption(root, 'RetryTimes', '0');
    }
  });

  it('skips a channel once its tokens per minute are used', async () => {
    await makeChannel(t, {
      base_url: mock.url,
      models: 'tpm-model',
      key: 'k-tpm-a',
      priority: 5,
      tpm_limit: 50,
    });
    await makeChannel(t, { base_url: mock.url, models: 'tpm-model', key: 'k-tpm-b', priority: 0 });
    const tok = await makeToken(t, user.userId!);
    expect((await chat(t, tok.key, 'tpm-model', '[[usage=30,30]]')).status).toBe(200);
    expect(servedBy('k-tpm-a')).toBe(1);
    await sleep(50);
    expect((await chat(t, tok.key, 'tpm-model')).status).toBe(200);
    expect((await chat(t, tok.key, 'tpm-model')).status).toBe(200);
    expect(servedBy('k-tpm-a')).toBe(1);
    expect(servedBy('k-tpm-b')).toBe(2);
  });

  it('counts nothing and refuses nothing with every limit at 0', async () => {
    const id = await makeChannel(t, {
      base_url: mock.url,
      models: 'zero-model',
      key: 'k-zero',
      rpm_limit: 1,
    });
    const tok = await limitedToken({ rpm_limit: 1 });
    expect((await chat(t, tok.key, 'zero-model')).status).toBe(200);
    expect((await chat(t, tok.key, 'zero-model')).status).toBe(429);
    await updateChannel(t, id, { rpm_limit: 0 });
    const back = await user.put('/api/token/', { id: tok.id, rpm_limit: 0 });
    expect(back.body.data.rpm_limit).toBe(0);
    const results = await Promise.all([0, 1, 2, 3, 4, 5].map(() => chat(t, tok.key, 'zero-model')));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  // ------------------------------------------------------------------ management API

  it('stores, shows and validates the limits of a channel', async () => {
    const created = await root.post('/api/channel/', {
      type: 1,
      name: 'limited',
      key: 'k-api',
      base_url: mock.url,
      models: 'api-model',
      rpm_limit: 60,
      tpm_limit: 100000,
      concurrency_limit: 4,
    });
    expect(created.body.success).toBe(true);
    const id: number = created.body.data.id;
    const shown = await root.get(`/api/channel/${id}`);
    expect(shown.body.data).toEqual(
      expect.objectContaining({ rpm_limit: 60, tpm_limit: 100000, concurrency_limit: 4 }),
    );

    for (const [field, value] of [
      ['rpm_limit', -1],
      ['tpm_limit', 1.5],
      ['concurrency_limit', 1e12],
      ['rpm_limit', '10'],
      ['tpm_limit', true],
      ['concurrency_limit', 100_001],
    ] as const) {
      const res = await root.put('/api/channel/', { id, name: 'renamed', [field]: value });
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain(field);
      const bad = await root.post('/api/channel/', {
        type: 1,
        name: 'bad',
        key: 'k',
        models: 'api-model',
        [field]: value,
      });
      expect(bad.body.success).toBe(false);
    }
    const after = await root.get(`/api/channel/${id}`);
    expect(after.body.data).toEqual(
      expect.objectContaining({ name: 'limited', rpm_limit: 60, tpm_limit: 100000, concurrency_limit: 4 }),
    );
    const count: Array<{ n: string | number }> = await t.ds.query(
      `SELECT COUNT(*) AS n FROM channels WHERE name = 'bad'`,
    );
    expect(Number(count[0].n)).toBe(0);

    const cleared = await root.put('/api/channel/', { id, rpm_limit: 0 });
    expect(cleared.body.success).toBe(true);
    expect(cleared.body.data).toEqual(
      expect.objectContaining({ rpm_limit: 0, tpm_limit: 100000, concurrency_limit: 4 }),
    );
  });

  it('stores, shows and validates the limits of a token', async () => {
    const created = await user.post('/api/token/', {
      name: 'lim',
      unlimited_quota: true,
      rpm_limit: 10,
      tpm_limit: 0,
      concurrency_limit: 2,
    });
    expect(created.body.success).toBe(true);
    const listed = await user.get('/api/token/?p=1&size=100');
    const row = (listed.body.data.items as Array<Record<string, unknown>>).find((r) => r.name === 'lim');
    expect(row).toEqual(expect.objectContaining({ rpm_limit: 10, tpm_limit: 0, concurrency_limit: 2 }));
    const id = row!.id as number;

    const zh = await user.put('/api/token/', { id, rpm_limit: -5 });
    expect(zh.body.success).toBe(false);
    expect(zh.body.message).toContain('0 表示不限制');
    for (const [field, value] of [
      ['rpm_limit', -1],
      ['tpm_limit', 2.5],
      ['concurrency_limit', Number.MAX_SAFE_INTEGER],
      ['tpm_limit', 3_000_000_000],
      ['rpm_limit', 'many'],
    ] as const) {
      const res = await user
        .put('/api/token/', { id, name: 'changed', [field]: value })
        .set('Accept-Language', 'en');
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain(field);
      expect(res.body.message).toMatch(/0 means no limit/);
    }
    const before = (await user.get('/api/token/?p=1&size=100')).body.data.total as number;
    expect((await user.post('/api/token/', { name: 'bad', concurrency_limit: -2 })).body.success).toBe(false);
    expect((await user.get('/api/token/?p=1&size=100')).body.data.total).toBe(before);
    const after = await user.get(`/api/token/${id}`);
    expect(after.body.data).toEqual(
      expect.objectContaining({ name: 'lim', rpm_limit: 10, tpm_limit: 0, concurrency_limit: 2 }),
    );
  });
});

/** Two nodes on one database and one Redis: each limit is one count for the whole cluster. */
describe('per-token and per-channel limits across nodes with Redis', () => {
  let a: TestApp;
  let b: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let redis: Redis;
  const prefix = `gh-test-lim-${process.pid}-${Date.now()}`;
  const env = { REDIS_CONN_STRING: REDIS_URL, REDIS_PREFIX: prefix };

  beforeAll(async () => {
    mock = await MockUpstream.start();
    a = await startApp(env);
    b = await startNode(a, env);
    root = await setupRoot(a);
    await setQuota(a, root.userId!, 100_000_000);
    await putOption(root, 'SelfUseModeEnabled', 'true');
    redis = new Redis(REDIS_URL);
  });

  afterAll(async () => {
    if (redis) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
    }
    await b?.close();
    await a?.close();
    await mock?.close();
  });

  async function limitedToken(limits: Record<string, number>): Promise<{ id: number; key: string }> {
    const tok = await makeToken(a, root.userId!);
    const res = await root.put('/api/token/', { id: tok.id, ...limits });
    expect(res.body.success).toBe(true);
    return tok;
  }

  /** Channel changes reach node B through Redis; wait until both nodes see `count` channels for `model`. */
  async function channelsVisible(model: string, count: number): Promise<void> {
    for (const t of [a, b]) {
      const deadline = Date.now() + 3000;
      const seen = () =>
        t.app
          .get(RelayCacheService)
          .channels.tiers.get('default')
          ?.get(model)
          ?.flatMap((x) => x.members).length ?? 0;
      while (seen() !== count && Date.now() < deadline) await sleep(20);
      expect(seen()).toBe(count);
    }
  }

  it('counts a token’s requests per minute on both nodes against one limit', async () => {
    await makeChannel(a, { base_url: mock.url, models: 'gpt-4o', key: 'k-r-main' });
    await channelsVisible('gpt-4o', 1);
    const tok = await limitedToken({ rpm_limit: 3 });
    const statuses = [
      (await chat(a, tok.key, 'gpt-4o')).status,
      (await chat(b, tok.key, 'gpt-4o')).status,
      (await chat(a, tok.key, 'gpt-4o')).status,
    ];
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await chat(b, tok.key, 'gpt-4o');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/at most 3 per minute/);
    expect((await chat(a, tok.key, 'gpt-4o')).status).toBe(429);
  });

  it('shares a token’s concurrency between nodes and frees it in Redis on every end', async () => {
    const tok = await limitedToken({ concurrency_limit: 1 });
    const slots = `${prefix}:lim:{token:${tok.id}}:c`;
    // then() sends it now (supertest sends on the first then).
    const slow = chat(a, tok.key, 'gpt-4o', '[[slow=800]]').then((r) => r);
    await sleep(300);
    expect(await redis.zcard(slots)).toBe(1);
    const other = await chat(b, tok.key, 'gpt-4o');
    expect(other.status).toBe(429);
    expect(other.body.error.message).toMatch(/at most 1 at a time/);
    expect((await slow).status).toBe(200);
    expect(await eventually(() => chat(b, tok.key, 'gpt-4o'), 200)).toBe(200);

    await abandoned(b, tok.key, 'gpt-4o', '[[hang]]', 300);
    expect(await eventually(() => chat(a, tok.key, 'gpt-4o'), 200)).toBe(200);
    expect(await eventually(async () => ({ status: await redis.zcard(slots) }), 0)).toBe(0);
  });

  it('lets the slots of a node that died age out', async () => {
    const tok = await limitedToken({ concurrency_limit: 1 });
    const slots = `${prefix}:lim:{token:${tok.id}}:c`;
    // A slot whose holder stopped renewing it: its expiry has passed.
    const [sec] = await redis.time();
    await redis.zadd(slots, Number(sec) * 1000 - 1000, 'dead-node-slot');
    expect((await chat(a, tok.key, 'gpt-4o')).status).toBe(200);
    expect(await redis.zscore(slots, 'dead-node-slot')).toBeNull();
    // A live slot (expiry ahead) is counted.
    await redis.zadd(slots, Number(sec) * 1000 + 60_000, 'live-node-slot');
    expect((await chat(b, tok.key, 'gpt-4o')).status).toBe(429);
    await redis.zrem(slots, 'live-node-slot');
    expect((await chat(b, tok.key, 'gpt-4o')).status).toBe(200);
  });

  it('shares a channel’s limits between nodes: selection falls over, then 429', async () => {
    await makeChannel(a, {
      base_url: mock.url,
      models: 'shared-model',
      key: 'k-s-a',
      priority: 5,
      rpm_limit: 1,
      concurrency_limit: 1,
    });
    await makeChannel(a, {
      base_url: mock.url,
      models: 'shared-model',
      key: 'k-s-b',
      priority: 0,
      rpm_limit: 1,
    });
    await channelsVisible('shared-model', 2);
    const tok = await makeToken(a, root.userId!);
    expect((await chat(a, tok.key, 'shared-model')).status).toBe(200);
    expect((await chat(b, tok.key, 'shared-model')).status).toBe(200);
    const servedBy = (key: string) => mock.requests.filter((r) => r.credential === key).length;
    expect(servedBy('k-s-a')).toBe(1);
    expect(servedBy('k-s-b')).toBe(1);
    const res = await chat(a, tok.key, 'shared-model');
    expect(res.status).toBe(429);
    expect(res.body.error.type).toBe('rate_limit_error');
    expect((await chat(b, tok.key, 'shared-model')).status).toBe(429);
  });

  it('counts a token’s billed tokens on both nodes', async () => {
    const tok = await limitedToken({ tpm_limit: 100 });
    expect((await chat(a, tok.key, 'gpt-4o', '[[usage=70,40]]')).status).toBe(200);
    await settle(a);
    expect(await eventually(() => chat(b, tok.key, 'gpt-4o'), 429)).toBe(429);
  });
});

import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import request from 'supertest';
import { DEFAULT_REPLY, MockUpstream } from '../mocks/mock-upstream';
import { LogRow, logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

type User = Awaited<ReturnType<typeof makeUser>>;

/** Models of the channels of this file, per group (what GET /v1/models must list). */
const DEFAULT_MODELS = ['gpt-4o', 'gpt-4o-mini', 'mystery-model-x'];
const VIP_MODELS = ['gpt-4o', 'gpt-4o-mini', 'gpt-4o-vip-only'];
/** A plain answer of the mock: (10 + 5 × 4) × 1.25. */
const GPT4O_COST = 38;

/**
 * What a token, a user and the operator's options allow: token status, expiry, quota, model limits,
 * IP allow lists, groups, bans, prices, rate limits, sensitive words, group ratios, consume logs;
 * plus the key-authenticated read endpoints (models, legacy billing, token usage) and the playground.
 */
describe('relay limits', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let user: User;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    user = await makeUser(t, root);
    await setQuota(t, user.userId!, 10_000_000);
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o,gpt-4o-mini', group: 'default,vip' });
    await makeChannel(t, { base_url: mock.url, models: 'mystery-model-x' });
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-vip-only', group: 'vip' });
    key = (await makeToken(t, user.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const chat = (k: string, model = 'gpt-4o', content = 'hi', headers: Record<string, string> = {}) => {
    let r = request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${k}`)
      .set('Accept-Language', 'en');
    for (const [h, v] of Object.entries(headers)) r = r.set(h, v);
    return r.send({ model, messages: [{ role: 'user', content }] });
  };

  const consumeLogs = async (userId: number, model?: string): Promise<LogRow[]> => {
    await settle(t);
    return (await logsOf(t, userId)).filter(
      (l) => l.type === 2 && (model === undefined || l.model_name === model),
    );
  };

  const upstreamCalls = () => mock.requests.length;

  async function tokenRow(id: number): Promise<{ status: number; remain_quota: number }> {
    const rows: Array<{ status: number | string; remain_quota: number | string }> = await t.ds.query(
      `SELECT status, remain_quota FROM tokens WHERE id = ${Math.floor(id)}`,
    );
    return { status: Number(rows[0].status), remain_quota: Number(rows[0].remain_quota) };
  }

  async function waitForTokenStatus(id: number, status: number): Promise<number> {
    const deadline = Date.now() + 5_000;
    let current = (await tokenRow(id)).status;
    while (current !== status && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      current = (await tokenRow(id)).status;
    }
    return current;
  }

  // ------------------------------------------------------------------ tokens

  it('refuses a token its owner disabled with 401, at once', async () => {
    const tok = await makeToken(t, user.userId!);
    expect((await chat(tok.key)).status).toBe(200);
    const off = await user.put('/api/token/?status_only=true', { id: tok.id, status: 2 });
    expect(off.body.success).toBe(true);
    const calls = upstreamCalls();
    const res = await chat(tok.key);
    expect(res.status).toBe(401);
    expect(res.body.error).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(upstreamCalls()).toBe(calls);
  });

  it('refuses an expired token with 401 and marks it expired', async () => {
    const tok = await makeToken(t, user.userId!, { expired_time: Math.floor(Date.now() / 1000) - 60 });
    const res = await chat(tok.key);
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/i);
    expect(await waitForTokenStatus(tok.id, 3)).toBe(3);
  });

  it('serves a limited token until its quota runs out, then refuses it with 403', async () => {
    // [[usage=800,0]] costs 800 × 1.25 = 1000: exactly the token's quota.
    const tok = await makeToken(t, user.userId!, { remain_quota: 1000 });
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    expect((await chat(tok.key, 'gpt-4o', '[[usage=800,0]]')).status).toBe(200);
    await settle(t);
    expect((await tokenRow(tok.id)).remain_quota).toBe(0);
    expect(await quotaOf(t, user.userId!)).toBe(before - 1000);

    const calls = upstreamCalls();
    const res = await chat(tok.key);
    expect(res.status).toBe(403);
    expect(res.body.error).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(upstreamCalls()).toBe(calls);
    await settle(t);
    expect(await quotaOf(t, user.userId!)).toBe(before - 1000);
    expect(await waitForTokenStatus(tok.id, 4)).toBe(4);
  });

  it('refuses a request that would exceed what is left on a limited token, without calling upstream', async () => {
    const tok = await makeToken(t, user.userId!, { remain_quota: 100 });
    const calls = upstreamCalls();
    const res = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${tok.key}`)
      .send({ model: 'gpt-4o', max_tokens: 4000, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(403);
    expect(upstreamCalls()).toBe(calls);
    expect((await tokenRow(tok.id)).remain_quota).toBe(100);
  });

  it('restricts a model-limited token to its models (403 for the others)', async () => {
    const tok = await makeToken(t, user.userId!, { model_limits: 'gpt-4o' });
    expect((await chat(tok.key, 'gpt-4o')).status).toBe(200);
    const calls = upstreamCalls();
    const res = await chat(tok.key, 'gpt-4o-mini');
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error' });
    expect(res.body.error.message).toContain('gpt-4o-mini');
    expect(upstreamCalls()).toBe(calls);
  });

  it('honours allow_ips with CIDR ranges and single addresses (client IP from X-Forwarded-For)', async () => {
    const tok = await makeToken(t, user.userId!, { allow_ips: '10.0.0.0/8\n192.168.5.7' });
    expect((await chat(tok.key, 'gpt-4o', 'hi', { 'X-Forwarded-For': '10.20.30.40' })).status).toBe(200);
    expect((await chat(tok.key, 'gpt-4o', 'hi', { 'X-Forwarded-For': '192.168.5.7' })).status).toBe(200);
    const calls = upstreamCalls();
    const outside = await chat(tok.key, 'gpt-4o', 'hi', { 'X-Forwarded-For': '172.16.0.1' });
    expect(outside.status).toBe(403);
    expect(outside.body.error.message).toMatch(/IP/);
    expect((await chat(tok.key, 'gpt-4o', 'hi', { 'X-Forwarded-For': '192.168.5.8' })).status).toBe(403);
    expect(upstreamCalls()).toBe(calls);
  });

  it('refuses a token whose group the user may not use', async () => {
    const tok = await makeToken(t, user.userId!, { group: 'svip' });
    const calls = upstreamCalls();
    const res = await chat(tok.key);
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('svip');
    expect(upstreamCalls()).toBe(calls);
  });

  it('refuses the tokens of a banned user at once, in the caller’s format', async () => {
    const banned = await makeUser(t, root);
    await setQuota(t, banned.userId!, 1_000_000);
    const k = (await makeToken(t, banned.userId!)).key;
    expect((await chat(k)).status).toBe(200);
    const r = await root.post('/api/user/manage', { id: banned.userId, action: 'disable' });
    expect(r.body.success).toBe(true);

    const calls = upstreamCalls();
    const res = await chat(k);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error' });
    const viaMessages = await request(t.url)
      .post('/v1/messages')
      .set('x-api-key', k)
      .send({ model: 'gpt-4o', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(viaMessages.status).toBe(403);
    expect(viaMessages.body).toMatchObject({ type: 'error', error: { type: 'permission_error' } });
    expect(upstreamCalls()).toBe(calls);
  });

  it('refuses the tokens of a deregistered (deleted) user at once with 403', async () => {
    const gone = await makeUser(t, root);
    await setQuota(t, gone.userId!, 1_000_000);
    const k = (await makeToken(t, gone.userId!)).key;
    expect((await chat(k)).status).toBe(200);
    const r = await root.post('/api/user/manage', { id: gone.userId, action: 'delete' });
    expect(r.body.success).toBe(true);
    const calls = upstreamCalls();
    const res = await chat(k);
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ type: 'permission_error' });
    expect(upstreamCalls()).toBe(calls);
  });

  // ------------------------------------------------------------------ prices and options

  it('refuses an unpriced model with the price message unless self-use mode is on (then free)', async () => {
    const calls = upstreamCalls();
    const en = await chat(key, 'mystery-model-x');
    expect(en.status).toBe(403);
    expect(en.body.error.message).toContain('mystery-model-x');
    expect(en.body.error.message).toContain('self-use mode');
    const zh = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model: 'mystery-model-x', messages: [{ role: 'user', content: 'hi' }] });
    expect(zh.status).toBe(403);
    expect(zh.body.error.message).toBe(
      '模型 mystery-model-x 倍率或价格未配置，请联系管理员设置或开始自用模式',
    );
    expect(upstreamCalls()).toBe(calls);

    await putOption(root, 'SelfUseModeEnabled', true);
    try {
      await settle(t);
      const before = await quotaOf(t, user.userId!);
      const ok = await chat(key, 'mystery-model-x');
      expect(ok.status).toBe(200);
      expect(ok.body.choices[0].message.content).toBe(DEFAULT_REPLY);
      const logs = await consumeLogs(user.userId!, 'mystery-model-x');
      expect(logs).toHaveLength(1);
      expect(logs[0].quota).toBe(0);
      expect(await quotaOf(t, user.userId!)).toBe(before);
    } finally {
      await putOption(root, 'SelfUseModeEnabled', false);
    }
  });

  it('limits requests per user with ModelRequestRateLimit (Count 3 per minute → the 4th is 429)', async () => {
    const limited = await makeUser(t, root);
    await setQuota(t, limited.userId!, 1_000_000);
    const k = (await makeToken(t, limited.userId!)).key;
    await putOption(root, 'ModelRequestRateLimitCount', 3);
    await putOption(root, 'ModelRequestRateLimitDurationMinutes', 1);
    await putOption(root, 'ModelRequestRateLimitEnabled', true);
    try {
      for (let i = 0; i < 3; i++) expect((await chat(k)).status).toBe(200);
      const calls = upstreamCalls();
      const res = await chat(k);
      expect(res.status).toBe(429);
      expect(res.body.error).toMatchObject({ type: 'rate_limit_error' });
      expect(upstreamCalls()).toBe(calls);
      // Another user is not affected.
      expect((await chat(key)).status).toBe(200);
    } finally {
      await putOption(root, 'ModelRequestRateLimitEnabled', false);
      await putOption(root, 'ModelRequestRateLimitCount', 0);
    }
  });

  it('applies ModelRequestRateLimitGroup to the users of a group instead of the global counts', async () => {
    const vipUser = await makeUser(t, root);
    const r = await root.put('/api/user/', { id: vipUser.userId, group: 'vip' });
    expect(r.body.success).toBe(true);
    await setQuota(t, vipUser.userId!, 1_000_000);
    const vipKey = (await makeToken(t, vipUser.userId!)).key;
    const plain = await makeUser(t, root);
    await setQuota(t, plain.userId!, 1_000_000);
    const plainKey = (await makeToken(t, plain.userId!)).key;
    const bad = await root.put('/api/option/', { key: 'ModelRequestRateLimitGroup', value: '{"vip": [2]}' });
    expect(bad.body.success).toBe(false);
    await putOption(root, 'ModelRequestRateLimitGroup', JSON.stringify({ vip: [2, 0] }));
    await putOption(root, 'ModelRequestRateLimitCount', 0);
    await putOption(root, 'ModelRequestRateLimitEnabled', true);
    try {
      expect((await chat(vipKey)).status).toBe(200);
      expect((await chat(vipKey)).status).toBe(200);
      expect((await chat(vipKey)).status).toBe(429);
      for (let i = 0; i < 4; i++) expect((await chat(plainKey)).status).toBe(200);
    } finally {
      await putOption(root, 'ModelRequestRateLimitEnabled', false);
      await putOption(root, 'ModelRequestRateLimitGroup', '{}');
    }
  });

  it('refuses a prompt with a sensitive word (400) when prompt checking is on', async () => {
    await putOption(root, 'SensitiveWords', 'forbiddenword\nanother one');
    await putOption(root, 'CheckSensitiveEnabled', true);
    await putOption(root, 'CheckSensitiveOnPromptEnabled', true);
    try {
      await settle(t);
      const before = await quotaOf(t, user.userId!);
      const calls = upstreamCalls();
      const res = await chat(key, 'gpt-4o', 'please say ForbiddenWord twice');
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('forbiddenword');
      expect(upstreamCalls()).toBe(calls);
      expect((await chat(key, 'gpt-4o', 'a clean prompt')).status).toBe(200);
      await settle(t);
      expect(await quotaOf(t, user.userId!)).toBe(before - GPT4O_COST);
    } finally {
      await putOption(root, 'CheckSensitiveEnabled', false);
      await putOption(root, 'CheckSensitiveOnPromptEnabled', false);
    }
    expect((await chat(key, 'gpt-4o', 'forbiddenword is fine now')).status).toBe(200);
  });

  it('charges a vip token by the vip group ratio (GroupRatio vip = 2 doubles the charge)', async () => {
    await putOption(root, 'UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组' }));
    await putOption(root, 'GroupRatio', JSON.stringify({ default: 1, vip: 2, svip: 1 }));
    try {
      const vip = await makeToken(t, user.userId!, { group: 'vip' });
      await settle(t);
      const before = await quotaOf(t, user.userId!);
      const res = await chat(vip.key);
      expect(res.status).toBe(200);
      const log = (await consumeLogs(user.userId!)).at(-1)!;
      // Rounded once: (10 + 5 × 4) × 1.25 × 2 = 75.
      expect(log).toMatchObject({ quota: 75, group: 'vip' });
      expect(log.other).toMatchObject({ group_ratio: 2 });
      expect(await quotaOf(t, user.userId!)).toBe(before - 75);

      // The default group is still charged at ratio 1.
      expect((await chat(key)).status).toBe(200);
      expect((await consumeLogs(user.userId!)).at(-1)).toMatchObject({ quota: GPT4O_COST, group: 'default' });
    } finally {
      await putOption(root, 'GroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
    }
  });

  it('LogConsumeEnabled=false writes no consume log but still charges (and counts in quota_data)', async () => {
    const requestsOf = async () => {
      const rows: Array<{ n: number | string | null }> = await t.ds.query(
        `SELECT SUM(count) AS n FROM quota_data WHERE user_id = ${Math.floor(user.userId!)}`,
      );
      return Number(rows[0].n ?? 0);
    };
    await putOption(root, 'LogConsumeEnabled', false);
    try {
      const count = (await consumeLogs(user.userId!)).length;
      const before = await quotaOf(t, user.userId!);
      const counted = await requestsOf();
      expect((await chat(key)).status).toBe(200);
      expect((await chat(key, 'gpt-4o', 'again', {})).status).toBe(200);
      await settle(t);
      expect((await consumeLogs(user.userId!)).length).toBe(count);
      expect(await quotaOf(t, user.userId!)).toBe(before - 2 * GPT4O_COST);
      expect(await requestsOf()).toBe(counted + 2);
    } finally {
      await putOption(root, 'LogConsumeEnabled', true);
    }
  });

  // ------------------------------------------------------------------ key-authenticated reads

  it('answers the legacy OpenAI billing endpoints with the token’s figures', async () => {
    const tok = await makeToken(t, user.userId!, { remain_quota: 500_000 });
    const get = (path: string) => request(t.url).get(path).set('Authorization', `Bearer ${tok.key}`);

    const sub = await get('/v1/dashboard/billing/subscription');
    expect(sub.status).toBe(200);
    expect(sub.body).toMatchObject({
      object: 'billing_subscription',
      has_payment_method: true,
      hard_limit_usd: 1,
      soft_limit_usd: 1,
      system_hard_limit_usd: 1,
    });
    const usage0 = await get('/v1/dashboard/billing/usage');
    expect(usage0.body).toEqual({ object: 'list', total_usage: 0 });

    expect((await chat(tok.key)).status).toBe(200);
    await settle(t);
    const usage = await get('/v1/dashboard/billing/usage');
    expect(usage.status).toBe(200);
    expect(usage.body.object).toBe('list');
    expect(usage.body.total_usage).toBeCloseTo((GPT4O_COST / 500_000) * 100, 10);
    const sub2 = await get('/dashboard/billing/subscription');
    expect(sub2.status).toBe(200);
    expect(sub2.body.hard_limit_usd).toBeCloseTo(1, 10);

    const bad = await request(t.url)
      .get('/v1/dashboard/billing/subscription')
      .set('Authorization', 'Bearer sk-nope-nope-nope-nope');
    expect(bad.status).toBe(401);
    expect(bad.body.error).toEqual(expect.objectContaining({ message: expect.any(String) }));
  });

  it('answers the legacy billing endpoints with the user’s figures when DisplayTokenStatEnabled is off', async () => {
    const owner = await makeUser(t, root);
    await setQuota(t, owner.userId!, 1_000_000);
    const tok = await makeToken(t, owner.userId!, { remain_quota: 500_000 });
    expect((await chat(tok.key)).status).toBe(200);
    await settle(t);
    await putOption(root, 'DisplayTokenStatEnabled', false);
    try {
      const get = (path: string) => request(t.url).get(path).set('Authorization', `Bearer ${tok.key}`);
      const sub = await get('/v1/dashboard/billing/subscription');
      // The user's balance plus what they used: (1000000 − 38 + 38) / 500000.
      expect(sub.body.hard_limit_usd).toBeCloseTo(2, 10);
      const usage = await get('/v1/dashboard/billing/usage');
      expect(usage.body.total_usage).toBeCloseTo((GPT4O_COST / 500_000) * 100, 10);
    } finally {
      await putOption(root, 'DisplayTokenStatEnabled', true);
    }
  });

  it('answers GET /api/usage/token with the calling token’s usage', async () => {
    const tok = await makeToken(t, user.userId!, {
      name: 'usage-probe',
      remain_quota: 200_000,
      model_limits: 'gpt-4o',
    });
    expect((await chat(tok.key)).status).toBe(200);
    await settle(t);
    const res = await request(t.url).get('/api/usage/token').set('Authorization', `Bearer ${tok.key}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: true,
      data: {
        object: 'token_usage',
        name: 'usage-probe',
        total_granted: 200_000,
        total_used: GPT4O_COST,
        total_available: 200_000 - GPT4O_COST,
        unlimited_quota: false,
        model_limits: { 'gpt-4o': true },
        model_limits_enabled: true,
        expires_at: 0,
      },
    });
    const bad = await request(t.url)
      .get('/api/usage/token')
      .set('Authorization', 'Bearer sk-nope-nope-nope-nope');
    expect(bad.status).toBe(401);
    expect(bad.body).toMatchObject({ code: false, data: null });
  });

  it('lists exactly the models of the token’s group, in OpenAI and in Anthropic shape', async () => {
    const openai = new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
    const list = await openai.models.list();
    expect(list.data.map((m) => m.id).sort()).toEqual(DEFAULT_MODELS);
    for (const m of list.data)
      expect(m).toMatchObject({ object: 'model', created: expect.any(Number), owned_by: expect.any(String) });
    const raw = await request(t.url).get('/v1/models').set('Authorization', `Bearer ${key}`);
    expect(raw.body.object).toBe('list');

    const vip = await makeToken(t, user.userId!, { group: 'vip' });
    const vipList = await new OpenAI({
      apiKey: vip.key,
      baseURL: `${t.url}/v1`,
      maxRetries: 0,
    }).models.list();
    expect(vipList.data.map((m) => m.id).sort()).toEqual(VIP_MODELS);

    const limited = await makeToken(t, user.userId!, { model_limits: 'gpt-4o-mini' });
    const limitedList = await new OpenAI({
      apiKey: limited.key,
      baseURL: `${t.url}/v1`,
      maxRetries: 0,
    }).models.list();
    expect(limitedList.data.map((m) => m.id)).toEqual(['gpt-4o-mini']);

    const one = await openai.models.retrieve('gpt-4o');
    expect(one).toMatchObject({ id: 'gpt-4o', object: 'model' });
    await expect(openai.models.retrieve('gpt-4o-vip-only')).rejects.toMatchObject({ status: 404 });

    // This SDK version authenticates with a Bearer header; the contract's Anthropic-shape trigger is
    // x-api-key + anthropic-version, so the key also goes in x-api-key.
    const anthropic = new Anthropic({
      apiKey: key,
      baseURL: t.url,
      maxRetries: 0,
      defaultHeaders: { 'x-api-key': key },
    });
    const page = await anthropic.models.list();
    expect(page.data.map((m) => m.id).sort()).toEqual(DEFAULT_MODELS);
    for (const m of page.data)
      expect(m).toMatchObject({
        type: 'model',
        display_name: expect.any(String),
        created_at: expect.any(String),
      });
    const rawAnthropic = await request(t.url)
      .get('/v1/models')
      .set('x-api-key', key)
      .set('anthropic-version', '2023-06-01');
    expect(rawAnthropic.status).toBe(200);
    expect(rawAnthropic.body).toMatchObject({
      has_more: false,
      first_id: expect.any(String),
      last_id: expect.any(String),
    });
    expect((rawAnthropic.body.data as Array<{ id: string }>).map((m) => m.id).sort()).toEqual(DEFAULT_MODELS);
    expect(rawAnthropic.body.data[0]).toEqual({
      type: 'model',
      id: expect.any(String),
      display_name: expect.any(String),
      created_at: expect.any(String),
    });

    expect((await request(t.url).get('/v1/models')).status).toBe(401);
  });

  // ------------------------------------------------------------------ playground

  it('serves the playground to a signed-in user, logs it as "playground", refuses without a session', async () => {
    const player = await makeUser(t, root);
    await setQuota(t, player.userId!, 1_000_000);
    const res = await player
      .post('/pg/chat/completions', {
        model: 'gpt-4o',
        group: 'default',
        stream: true,
        messages: [{ role: 'user', content: 'hi' }],
      })
      .buffer(true)
      .parse((r, cb) => {
        let text = '';
        r.setEncoding('utf8');
        r.on('data', (c: string) => (text += c));
        r.on('end', () => cb(null, text));
      });
    expect(res.status).toBe(200);
    const body = res.body as string;
    let content = '';
    for (const line of body.split('\n')) {
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      content +=
        (JSON.parse(line.slice(6)) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta
          ?.content ?? '';
    }
    expect(content).toBe(DEFAULT_REPLY);
    expect(body.trimEnd().endsWith('data: [DONE]')).toBe(true);

    const logs = await consumeLogs(player.userId!);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ token_name: 'playground', model_name: 'gpt-4o', is_stream: true });
    expect(logs[0].quota).toBeGreaterThan(0);
    expect(await quotaOf(t, player.userId!)).toBe(1_000_000 - logs[0].quota);

    const calls = upstreamCalls();
    const anonymous = await request(t.url)
      .post('/pg/chat/completions')
      .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(anonymous.status).toBe(401);
    const notUsable = await player.post('/pg/chat/completions', {
      model: 'gpt-4o',
      group: 'svip',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(notUsable.status).toBe(403);
    expect(upstreamCalls()).toBe(calls);
  });
});

/**
 * Channel operations of the admin console: test one / all, balance one / all, the provider's model
 * list (saved channel or not yet saved) and the upstream detection view — real HTTP against the real
 * app, providers simulated by the mock upstream. A second app without ALLOW_PRIVATE_OUTBOUND proves
 * the provider calls go through the SSRF-safe client.
 */
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { CacheBus } from '../../server/src/common/cache-bus';
import { Channel } from '../../server/src/database/entities';
import { ChannelOpsService } from '../../server/src/modules/channel-ops/channel-ops.service';
import { ChannelTestService } from '../../server/src/modules/relay/channel-test.service';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, settle, setQuota } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

const NOT_FOUND = '渠道不存在，请刷新后重试';

describe('channel operations', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let slow: Server;
  let slowUrl: string;
  let root: ApiClient;
  let admin: ApiClient;

  const row = (id: number) => t.ds.getRepository(Channel).findOneByOrFail({ id });

  beforeAll(async () => {
    mock = await MockUpstream.start();
    slow = createServer((_req, res) => {
      setTimeout(() => {
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({
            id: 'x',
            object: 'chat.completion',
            created: 1,
            model: 'gpt-4o',
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
          }),
        );
      }, 800);
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', () => r()));
    slowUrl = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    t = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await new Promise((r) => slow?.close(r));
  });

  beforeEach(() => mock.reset());

  describe('GET /api/channel/test/{id}', () => {
    it('answers {success, message, time} in seconds, with the requested model, and records the time', async () => {
      const id = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o,gpt-4o-mini' });
      const res = await admin.get(`/api/channel/test/${id}?model=gpt-4o-mini`).expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['message', 'success', 'time']);
      expect(res.body).toMatchObject({ success: true, message: '' });
      expect(res.body.time).toBeGreaterThan(0);
      expect(res.body.time).toBeLessThan(30);
      expect(mock.last!.body).toMatchObject({ model: 'gpt-4o-mini' });
      const r = await row(id);
      expect(Number(r.test_time)).toBeGreaterThan(0);
      expect(r.response_time).toBeGreaterThan(0);
    });

    it('defaults to test_model, else the first model (docs/decisions.md#channel-test-model)', async () => {
      const a = await makeChannel(t, {
        base_url: mock.url,
        models: 'gpt-4o,gpt-4o-mini',
        test_model: 'gpt-4o-mini',
      });
      await admin.get(`/api/channel/test/${a}`).expect(200);
      expect(mock.last!.body).toMatchObject({ model: 'gpt-4o-mini' });
      const b = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o,gpt-4o-mini' });
      await admin.get(`/api/channel/test/${b}?model=`).expect(200);
      expect(mock.last!.body).toMatchObject({ model: 'gpt-4o' });
    });

    it("reports the upstream's refusal with the key scrubbed and disables an auto_ban channel", async () => {
      await putOption(root, 'AutomaticDisableChannelEnabled', 'true');
      const id = await makeChannel(t, {
        base_url: mock.url,
        models: 'gpt-4o',
        key: 'sk-wrong-secret-key-123',
      });
      mock.requireKey = 'sk-the-right-one';
      const res = await admin.get(`/api/channel/test/${id}`).expect(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/api key|401|invalid/i);
      expect(JSON.stringify(res.body)).not.toContain('sk-wrong-secret-key-123');
      expect((await row(id)).status).toBe(3);
    });

    it('fails a test slower than ChannelDisableThreshold and disables the channel', async () => {
      await putOption(root, 'AutomaticDisableChannelEnabled', 'true');
      await putOption(root, 'ChannelDisableThreshold', '0.2');
      try {
        const id = await makeChannel(t, { base_url: slowUrl, models: 'gpt-4o' });
        const res = await admin.get(`/api/channel/test/${id}`).expect(200);
        expect(res.body.success).toBe(false);
        expect(res.body.time).toBeGreaterThanOrEqual(0.8);
        expect(res.body.message).toContain('exceeds');
        expect((await row(id)).status).toBe(3);
      } finally {
        await putOption(root, 'ChannelDisableThreshold', '5');
      }
    });

    it('answers not found for an unknown channel and refuses a non-numeric id', async () => {
      const res = await admin.get('/api/channel/test/987654').expect(200);
      expect(res.body).toEqual({ success: false, message: NOT_FOUND, time: 0 });
      const en = await admin.agent
        .get('/api/channel/test/987654')
        .set('New-Api-User', String(admin.userId))
        .set('Accept-Language', 'en');
      expect(en.body.message).toBe('Channel not found, refresh and retry');
      const bad = await admin.get('/api/channel/test/abc');
      expect(bad.status).toBeLessThan(500);
      expect(bad.body.success).toBe(false);
    });
  });

  describe('GET /api/channel/test (all)', () => {
    it('runs in the background, one run at a time, and tests every channel not disabled by hand', async () => {
      const slowId = await makeChannel(t, { base_url: slowUrl, models: 'gpt-4o' });
      const manual = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o' });
      await t.ds.getRepository(Channel).update({ id: manual }, { status: 2, test_time: 0 });
      await t.ds.getRepository(Channel).update({ id: slowId }, { test_time: 0 });
      const first = await admin.get('/api/channel/test').expect(200);
      expect(first.body).toMatchObject({ success: true, data: null });
      expect(first.body.message).toContain('测试');
      const second = await admin.get('/api/channel/test').expect(200);
      expect(second.body.success).toBe(false);
      expect(second.body.message).toBe('已有渠道测试正在进行，请稍后再试');
      const tests = t.app.get(ChannelTestService);
      while (tests.busy) await new Promise((r) => setTimeout(r, 50));
      expect(Number((await row(slowId)).test_time)).toBeGreaterThan(0);
      expect(Number((await row(manual)).test_time)).toBe(0);
      expect((await admin.get('/api/channel/test').expect(200)).body.success).toBe(true);
      while (tests.busy) await new Promise((r) => setTimeout(r, 50));
    });
  });

  describe('GET /api/channel/update_balance/{id}', () => {
    it.each([
      [1, 'OpenAI credit grants', 12.5],
      [8, 'custom OpenAI-compatible', 12.5],
      [20, 'OpenRouter', 12.5],
      [40, 'SiliconFlow', 12.5],
      [43, 'DeepSeek', 12.5],
      [25, 'Moonshot', 12.5],
    ])('type %i (%s): reads and stores the balance', async (type, _name, expected) => {
      const id = await makeChannel(t, { type, base_url: mock.url, models: 'gpt-4o', key: 'sk-balance-key' });
      mock.requireKey = 'sk-balance-key';
      const before = Math.floor(Date.now() / 1000);
      const res = await admin.get(`/api/channel/update_balance/${id}`).expect(200);
      expect(res.body).toEqual({ success: true, message: '', balance: expected });
      const r = await row(id);
      expect(r.balance).toBeCloseTo(expected, 6);
      expect(Number(r.balance_updated_time)).toBeGreaterThanOrEqual(before);
      expect(mock.requests.every((q) => q.headers.authorization === 'Bearer sk-balance-key')).toBe(true);
    });

    it('follows the account: OpenAI balance = hard limit − usage of this month', async () => {
      const id = await makeChannel(t, { type: 1, base_url: `${mock.url}/v1`, models: 'gpt-4o' });
      mock.account = { balance: 3.21, used: 100.5 };
      const res = await admin.get(`/api/channel/update_balance/${id}/`).expect(200);
      expect(res.body.balance).toBeCloseTo(3.21, 6);
      const usage = mock.requests.find((q) => q.path.endsWith('/usage'))!;
      const today = new Date().toISOString().slice(0, 10);
      expect(usage.query).toEqual({ start_date: `${today.slice(0, 8)}01`, end_date: today });
      expect(usage.path).toBe('/v1/dashboard/billing/usage');
    });

    it('refuses types without a balance endpoint, unknown channels and upstream errors, changing nothing', async () => {
      const anth = await makeChannel(t, { type: 14, base_url: mock.url, models: 'claude-opus-4-6' });
      const res = await admin.get(`/api/channel/update_balance/${anth}`).expect(200);
      expect(res.body).toEqual({ success: false, message: '渠道类型 Anthropic 不支持查询余额', balance: 0 });
      expect((await admin.get('/api/channel/update_balance/99999').expect(200)).body).toEqual({
        success: false,
        message: NOT_FOUND,
        balance: 0,
      });
      const id = await makeChannel(t, {
        type: 1,
        base_url: mock.url,
        models: 'gpt-4o',
        key: 'sk-secret-wrong-9',
      });
      mock.requireKey = 'sk-other';
      const denied = await admin.get(`/api/channel/update_balance/${id}`).expect(200);
      expect(denied.body.success).toBe(false);
      expect(denied.body.message).toContain('401');
      expect(JSON.stringify(denied.body)).not.toContain('sk-secret-wrong-9');
      const r = await row(id);
      expect(r.balance).toBe(0);
      expect(Number(r.balance_updated_time)).toBe(0);
    });
  });

  describe('GET /api/channel/update_balance (all)', () => {
    it('updates every enabled channel of a supported type in the background', async () => {
      mock.account = { balance: 77, used: 1 };
      const a = await makeChannel(t, { type: 43, base_url: mock.url, models: 'deepseek-chat' });
      const b = await makeChannel(t, { type: 25, base_url: mock.url, models: 'moonshot-v1-8k' });
      const off = await makeChannel(t, { type: 43, base_url: mock.url, models: 'deepseek-chat' });
      await t.ds.getRepository(Channel).update({ id: off }, { status: 2 });
      const unsupported = await makeChannel(t, { type: 14, base_url: mock.url, models: 'claude-opus-4-6' });
      const res = await admin.get('/api/channel/update_balance').expect(200);
      expect(res.body).toMatchObject({ success: true, data: null });
      await t.app.get(ChannelOpsService).balancesSettled();
      expect((await row(a)).balance).toBe(77);
      expect((await row(b)).balance).toBe(77);
      expect((await row(off)).balance).toBe(0);
      expect((await row(unsupported)).balance).toBe(0);
    });
  });

  describe('fetch_models', () => {
    it.each([
      [1, 'OpenAI /v1/models'],
      [14, 'Anthropic /v1/models'],
      [24, 'Gemini /v1beta/models'],
      [4, 'Ollama /api/tags'],
      [43, 'DeepSeek (OpenAI-compatible)'],
    ])('GET /{id} lists the models of type %i (%s) with the stored key', async (type) => {
      const id = await makeChannel(t, { type, base_url: mock.url, models: 'x', key: 'sk-stored-key' });
      mock.models = ['zeta-model', 'alpha-model', 'alpha-model'];
      const res = await admin.get(`/api/channel/fetch_models/${id}`).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: ['alpha-model', 'zeta-model'] });
      if (type !== 4) expect(JSON.stringify(mock.last!.headers)).toContain('sk-stored-key');
    });

    it('POST lists the models of a channel not yet saved, with the key given', async () => {
      mock.requireKey = 'sk-new-key';
      mock.models = ['gpt-x', 'gpt-a'];
      const res = await admin.post('/api/channel/fetch_models', {
        type: 8,
        base_url: `${mock.url}/`,
        key: 'sk-new-key',
      });
      expect(res.body).toEqual({ success: true, message: '', data: ['gpt-a', 'gpt-x'] });
      expect(mock.last!.path).toBe('/v1/models');
    });

    it('refuses bad input and unsupported types with clear messages', async () => {
      const cases: Array<[unknown, RegExp]> = [
        [{ type: 1, base_url: mock.url }, /key/],
        [{ type: 1, base_url: mock.url, key: '' }, /key/],
        [{ type: 'one', base_url: mock.url, key: 'k' }, /type/],
        [{ type: 1, base_url: 'ftp://example.com', key: 'k' }, /base_url/],
        [{ type: 3, base_url: mock.url, key: 'k' }, /Azure OpenAI 不支持获取模型列表/],
        [{ type: 999, base_url: mock.url, key: 'k' }, /999 不支持获取模型列表/],
      ];
      for (const [body, message] of cases) {
        const res = await admin.post('/api/channel/fetch_models', body);
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(false);
        expect(res.body.message).toMatch(message);
      }
      const malformed = await admin.agent
        .post('/api/channel/fetch_models')
        .set('New-Api-User', String(admin.userId))
        .set('content-type', 'application/json')
        .send('{"type": 1,');
      expect(malformed.status).toBeLessThan(500);
      expect(malformed.body.success).toBe(false);
    });

    it('reports an upstream that does not answer JSON or refuses the key', async () => {
      mock.requireKey = 'sk-right';
      const denied = await admin.post('/api/channel/fetch_models', {
        type: 1,
        base_url: mock.url,
        key: 'sk-wrong-77',
      });
      expect(denied.body.success).toBe(false);
      expect(denied.body.message).toContain('上游返回状态码 401');
      expect(denied.body.message).not.toContain('sk-wrong-77');
      const html = await admin.post('/api/channel/fetch_models', {
        type: 1,
        base_url: `${mock.url}/files/x`,
        key: 'k',
      });
      expect(html.body.success).toBe(false);
    });
  });

  describe('GET /api/channel/test_upstream/{id}', () => {
    it('aggregates the channel’s consume logs by group and client type', async () => {
      // Models no other channel of this suite serves, so the relay must pick these two.
      const id = await makeChannel(t, { base_url: mock.url, models: 'gpt-4.1', group: 'default,vip' });
      const other = await makeChannel(t, { base_url: mock.url, models: 'gpt-4.1-nano', group: 'default' });
      const u = await makeUser(t, root);
      await setQuota(t, u.userId!, 10_000_000);
      const v = await makeUser(t, root);
      await t.ds
        .createQueryBuilder()
        .update('users')
        .set({ group: 'vip' })
        .where('id = :id', { id: v.userId })
        .execute();
      t.app.get(CacheBus).publish('users', [v.userId!]);
      await setQuota(t, v.userId!, 10_000_000);
      const tu = await makeToken(t, u.userId!);
      const tv = await makeToken(t, v.userId!);
      const call = (key: string, ua: string, model = 'gpt-4.1') =>
        request(t.url)
          .post('/v1/chat/completions')
          .set('Authorization', `Bearer ${key}`)
          .set('User-Agent', ua)
          .send({ model, messages: [{ role: 'user', content: 'hi' }] })
          .expect(200);
      await call(tu.key, 'OpenAI/JS 5.23.2');
      await call(tu.key, 'OpenAI/JS 5.23.2');
      await call(tu.key, 'curl/8.5.0');
      await call(tv.key, 'OpenAI/Python 1.99.0');
      await call(tu.key, 'curl/8.5.0', 'gpt-4.1-nano');
      await settle(t);
      const res = await admin.get(`/api/channel/test_upstream/${id}`).expect(200);
      expect(res.body.success).toBe(true);
      const groups = res.body.data.groups as Array<{
        group: string;
        first_seen: number;
        last_seen: number;
        client_types: Array<{ client_type: string; count: number; first_seen: number; last_seen: number }>;
      }>;
      expect(groups.map((g) => g.group).sort()).toEqual(['default', 'vip']);
      const def = groups.find((g) => g.group === 'default')!;
      expect(def.client_types.map((c) => [c.client_type, c.count])).toEqual([
        ['openai-node', 2],
        ['curl', 1],
      ]);
      expect(def.first_seen).toBeLessThanOrEqual(def.last_seen);
      for (const c of def.client_types) {
        expect(c.first_seen).toBeGreaterThanOrEqual(def.first_seen);
        expect(c.last_seen).toBeLessThanOrEqual(def.last_seen);
      }
      const vip = groups.find((g) => g.group === 'vip')!;
      expect(vip.client_types).toEqual([
        { client_type: 'openai-python', count: 1, first_seen: vip.first_seen, last_seen: vip.last_seen },
      ]);
      const none = await admin.get(`/api/channel/test_upstream/${other}`).expect(200);
      expect(none.body.data.groups).toEqual([
        expect.objectContaining({
          group: 'default',
          client_types: [expect.objectContaining({ client_type: 'curl', count: 1 })],
        }),
      ]);
      const fresh = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o' });
      expect((await admin.get(`/api/channel/test_upstream/${fresh}`).expect(200)).body.data).toEqual({
        groups: [],
      });
      const missing = await admin.get('/api/channel/test_upstream/99999').expect(200);
      expect(missing.body).toEqual({ success: false, message: NOT_FOUND, data: null });
    });
  });

  describe('outbound calls are SSRF-safe', () => {
    let strict: TestApp;
    let strictAdmin: ApiClient;

    beforeAll(async () => {
      strict = await startApp({ ALLOW_PRIVATE_OUTBOUND: 'false' });
      strictAdmin = await setupRoot(strict);
    });
    afterAll(() => strict?.close());

    it('refuses private addresses for model lists and balances when ALLOW_PRIVATE_OUTBOUND is off', async () => {
      const res = await strictAdmin.post('/api/channel/fetch_models', {
        type: 1,
        base_url: mock.url,
        key: 'sk-x',
      });
      expect(res.body).toEqual({
        success: false,
        message: expect.stringContaining('出于安全考虑，不允许访问内网地址 127.0.0.1；') as unknown,
        data: null,
      });
      const id = await makeChannel(strict, { type: 1, base_url: mock.url, models: 'gpt-4o' });
      const bal = await strictAdmin.get(`/api/channel/update_balance/${id}`).expect(200);
      expect(bal.body.success).toBe(false);
      expect(bal.body.message).toContain('127.0.0.1');
      expect(mock.requests).toHaveLength(0);
    });
  });
});

/**
 * The management shapes of new-api's current API that tools written for it send (new-api-bot, newapi-app,
 * all-api-hub, neko-api-key-tool; see the findings of December 2026): accepted next to our own forms,
 * with the money and role rules of ours. Real HTTP against the real app on the Jest project's database.
 */
import { generate } from 'otplib';
import request from 'supertest';
import {
  Ability,
  Channel,
  LogEntry,
  LogType,
  Passkey,
  QuotaData,
  Token,
  User,
  UserTotp,
} from '../../server/src/database/entities';
import { makeToken } from '../support/relay-fixtures';
import { ApiClient, makeUser, setupRoot, startApp, TestApp, uname } from '../support/test-app';

describe('new-api management shapes', () => {
  let t: TestApp;
  let root: ApiClient;
  let admin: ApiClient & { username: string };

  const users = () => t.ds.getRepository(User);
  const quotaOf = async (id: number) => (await users().findOneByOrFail({ id })).quota;
  const setQuota = (id: number, quota: number) => users().update({ id }, { quota });
  const quotaLogs = (userId: number) =>
    t.ds
      .getRepository(LogEntry)
      .find({ where: { user_id: userId, type: LogType.Manage }, order: { id: 'ASC' } })
      .then((rows) => rows.filter((l) => /额度/.test(l.content ?? '')));

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
  });
  afterAll(() => t.close());

  describe('POST /api/user/manage add_quota with mode', () => {
    const move = (c: ApiClient, id: number | null, body: Record<string, unknown>) =>
      c.post('/api/user/manage', { id, action: 'add_quota', ...body }).expect(200);

    it('add, subtract and override move the balance exactly as named, one log row each', async () => {
      const u = await makeUser(t, root);
      const id = u.userId!;
      await setQuota(id, 1_000_000);
      const added = await move(admin, id, { mode: 'add', value: 250_000 });
      expect(added.body).toMatchObject({ success: true, data: { quota: 1_250_000 } });
      const subtracted = await move(admin, id, { mode: 'subtract', value: 100_000 });
      expect(subtracted.body).toMatchObject({ success: true, data: { quota: 1_150_000 } });
      expect(await quotaOf(id)).toBe(1_150_000);
      const overridden = await move(admin, id, { mode: 'override', value: 42 });
      expect(overridden.body).toMatchObject({ success: true, data: { quota: 42 } });
      expect(await quotaOf(id)).toBe(42);
      const logs = await quotaLogs(id);
      expect(logs.map((l) => l.quota)).toEqual([250_000, -100_000, 42 - 1_150_000]);
      expect(logs[1].content).toContain('扣减额度');
      expect(logs[2].content).toMatch(/从 .+ 设为 /);
      // The user sees the same balance as the database.
      expect((await u.get('/api/user/self').expect(200)).body.data.quota).toBe(42);
    });

    it('override to zero empties the balance; to the same value logs and changes nothing', async () => {
      const id = (await makeUser(t, root)).userId!;
      await setQuota(id, 500);
      expect((await move(admin, id, { mode: 'override', value: 500 })).body.success).toBe(true);
      expect(await quotaOf(id)).toBe(500);
      expect((await move(admin, id, { mode: 'override', value: 0 })).body.success).toBe(true);
      expect(await quotaOf(id)).toBe(0);
      expect((await quotaLogs(id)).map((l) => l.quota)).toEqual([0, -500]);
    });

    it('refuses a subtraction below zero and a negative override, changing nothing (zh and en)', async () => {
      const id = (await makeUser(t, root)).userId!;
      await setQuota(id, 300);
      const zh = await move(admin, id, { mode: 'subtract', value: 301 });
      expect(zh.body).toMatchObject({ success: false, message: '调整后额度不能小于 0' });
      const en = await admin.agent
        .post('/api/user/manage')
        .set('New-Api-User', String(admin.userId))
        .set('Accept-Language', 'en')
        .send({ id, action: 'add_quota', mode: 'override', value: -1 })
        .expect(200);
      expect(en.body).toMatchObject({ success: false, message: 'Quota cannot go below zero' });
      expect(await quotaOf(id)).toBe(300);
      expect(await quotaLogs(id)).toHaveLength(0);
      // The whole balance may go, not more.
      expect((await move(admin, id, { mode: 'subtract', value: 300 })).body.success).toBe(true);
      expect(await quotaOf(id)).toBe(0);
    });

    it.each([
      ['a negative add', { mode: 'add', value: -5 }, '正整数'],
      ['a zero subtract', { mode: 'subtract', value: 0 }, '正整数'],
      ['a negative subtract', { mode: 'subtract', value: -5 }, '正整数'],
      ['an unknown mode', { mode: 'multiply', value: 5 }, '无效的额度调整方式 multiply'],
      ['a fraction', { mode: 'add', value: 1.5 }, '额度必须是整数'],
      ['no value', { mode: 'override' }, '额度必须是整数'],
    ])('refuses %s and changes nothing', async (_label, body, message) => {
      const id = (await makeUser(t, root)).userId!;
      await setQuota(id, 1000);
      const res = await move(admin, id, body);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain(message);
      expect(await quotaOf(id)).toBe(1000);
      expect(await quotaLogs(id)).toHaveLength(0);
    });

    it('keeps the signed-value form without mode', async () => {
      const id = (await makeUser(t, root)).userId!;
      await setQuota(id, 1000);
      expect((await move(admin, id, { value: -400 })).body).toMatchObject({
        success: true,
        data: { quota: 600 },
      });
      expect((await move(admin, id, { value: 50 })).body.success).toBe(true);
      expect(await quotaOf(id)).toBe(650);
      expect((await quotaLogs(id)).map((l) => l.quota)).toEqual([-400, 50]);
    });

    it('keeps the role rule: an admin moves no balance of another admin', async () => {
      const other = await makeUser(t, root, { role: 'admin' });
      await setQuota(other.userId!, 1000);
      await admin
        .post('/api/user/manage', { id: other.userId, action: 'add_quota', mode: 'override', value: 9 })
        .expect(403);
      expect(await quotaOf(other.userId!)).toBe(1000);
    });
  });

  describe('POST /api/channel/ in the wrapped form', () => {
    const fields = (name: string, key: string) => ({
      type: 1,
      name,
      key,
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default',
      base_url: '',
      priority: 0,
      weight: 0,
      // fields of new-api's channel this gateway has no use for are ignored, not refused
      is_multi_key: false,
      remark: 'from a tool',
    });
    const channels = () => t.ds.getRepository(Channel);

    it('creates one channel from {mode: single, channel}', async () => {
      const name = uname('wr');
      const res = await admin
        .post('/api/channel/', {
          mode: 'single',
          multi_key_mode: 'random',
          batch_add_set_key_prefix_2_name: false,
          channel: fields(name, 'sk-wrapped-single-key'),
        })
        .expect(200);
      expect(res.body.success).toBe(true);
      const row = await channels().findOneByOrFail({ id: res.body.data.id });
      expect(row).toMatchObject({ name, type: 1, models: 'gpt-4o,gpt-4o-mini', group: 'default' });
      expect(await t.ds.getRepository(Ability).countBy({ channel_id: row.id })).toBe(2);
    });

    it('batch mode makes one channel per key, named by key prefix when asked', async () => {
      const name = uname('wb');
      const res = await admin
        .post('/api/channel/', {
          mode: 'batch',
          batch_add_set_key_prefix_2_name: true,
          channel: fields(name, 'sk-aaaa1111-first\nsk-bbbb2222-second'),
        })
        .expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.ids).toHaveLength(2);
      const all = await Promise.all(
        (res.body.data.ids as number[]).map((id) => channels().findOneByOrFail({ id })),
      );
      expect(all.map((c) => c.name).sort()).toEqual([`${name} sk-aaaa1`, `${name} sk-bbbb2`]);
    });

    it('refuses what it cannot do, with a clear message, and creates nothing', async () => {
      const before = await channels().count();
      const multi = await admin
        .post('/api/channel/', { mode: 'multi_to_single', channel: fields(uname('wm'), 'k1\nk2') })
        .expect(200);
      expect(multi.body).toMatchObject({ success: false });
      expect(multi.body.message).toContain('multi_to_single');
      const noKey = await admin
        .post('/api/channel/', { mode: 'single', channel: { ...fields(uname('wn'), ''), key: '' } })
        .expect(200);
      expect(noKey.body).toMatchObject({ success: false, message: '请填写渠道名称和渠道密钥！' });
      // The fields inside `channel` are checked by the same rules as the flat form.
      const badInner = await admin
        .post('/api/channel/', {
          mode: 'single',
          channel: { ...fields(uname('wt'), 'sk-x'), type: 'openai' },
        })
        .expect(200);
      expect(badInner.body).toMatchObject({ success: false, message: '未知的渠道类型' });
      expect(await channels().count()).toBe(before);
    });
  });

  describe('POST /api/channel/{id}/status and /api/channel/status/batch', () => {
    const create = async () => {
      const res = await admin.post('/api/channel/', {
        type: 1,
        name: uname('st'),
        key: 'sk-status-key',
        models: 'gpt-4o',
        group: 'default',
      });
      expect(res.body.success).toBe(true);
      return res.body.data.id as number;
    };
    const statusOf = async (id: number) => (await t.ds.getRepository(Channel).findOneByOrFail({ id })).status;
    const enabledAbilities = (id: number) =>
      t.ds.getRepository(Ability).countBy({ channel_id: id, enabled: true });

    it('disables and enables one channel, answering whether it changed', async () => {
      const id = await create();
      expect((await admin.post(`/api/channel/${id}/status`, { status: 2 }).expect(200)).body).toEqual({
        success: true,
        message: '',
        data: true,
      });
      expect(await statusOf(id)).toBe(2);
      expect(await enabledAbilities(id)).toBe(0);
      expect((await admin.post(`/api/channel/${id}/status`, { status: 2 })).body.data).toBe(false);
      expect((await admin.post(`/api/channel/${id}/status`, { status: 1 })).body.data).toBe(true);
      expect(await statusOf(id)).toBe(1);
      expect(await enabledAbilities(id)).toBe(1);
    });

    it('refuses another status, a missing one and an unknown channel, changing nothing', async () => {
      const id = await create();
      const three = await admin.post(`/api/channel/${id}/status`, { status: 3 }).expect(200);
      expect(three.body.success).toBe(false);
      expect(three.body.message).toContain('status');
      const none = await admin.post(`/api/channel/${id}/status`, {}).expect(200);
      expect(none.body).toMatchObject({ success: false, message: '请指定渠道状态：1 启用，2 禁用' });
      const unknown = await admin.post('/api/channel/99999999/status', { status: 2 }).expect(200);
      expect(unknown.body).toMatchObject({ success: false, message: '渠道不存在，请刷新后重试' });
      expect(await statusOf(id)).toBe(1);
    });

    it('the batch form answers how many changed', async () => {
      const a = await create();
      const b = await create();
      await admin.post(`/api/channel/${b}/status`, { status: 2 }).expect(200);
      const res = await admin
        .post('/api/channel/status/batch', { ids: [a, b, 99999999], status: 2 })
        .expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: 1 });
      expect([await statusOf(a), await statusOf(b)]).toEqual([2, 2]);
      const back = await admin.post('/api/channel/status/batch', { ids: [a, b], status: 1 }).expect(200);
      expect(back.body.data).toBe(2);
      const empty = await admin.post('/api/channel/status/batch', { ids: [], status: 1 }).expect(200);
      expect(empty.body.success).toBe(false);
    });

    it('an ordinary user may not', async () => {
      const id = await create();
      const plain = await makeUser(t, root);
      await plain.post(`/api/channel/${id}/status`, { status: 2 }).expect(403);
      expect(await statusOf(id)).toBe(1);
    });
  });

  describe('OpenAI billing of an unlimited key', () => {
    it('answers hard_limit_usd exactly 100000000, however much the key used', async () => {
      const u = await makeUser(t, root);
      const tok = await makeToken(t, u.userId!, { unlimited_quota: true });
      await t.ds.getRepository(Token).update({ id: tok.id }, { used_quota: 1_234_567 });
      for (const path of ['/v1/dashboard/billing/subscription', '/dashboard/billing/subscription']) {
        const res = await request(t.url).get(path).set('Authorization', `Bearer ${tok.key}`).expect(200);
        expect(res.body.hard_limit_usd).toBe(100000000);
        expect(res.body.soft_limit_usd).toBe(100000000);
        expect(res.body.system_hard_limit_usd).toBe(100000000);
      }
      // A limited key still answers its remaining plus used quota.
      const limited = await makeToken(t, u.userId!, { remain_quota: 250_000 });
      await t.ds.getRepository(Token).update({ id: limited.id }, { used_quota: 250_000 });
      const res = await request(t.url)
        .get('/v1/dashboard/billing/subscription')
        .set('Authorization', `Bearer ${limited.key}`)
        .expect(200);
      expect(res.body.hard_limit_usd).toBeCloseTo(1, 10);
    });
  });

  describe('GET /api/log/token in the list form', () => {
    it('answers the 100 newest rows as a list, the page form with paging parameters', async () => {
      const u = await makeUser(t, root);
      const tok = await makeToken(t, u.userId!, { name: 'list-form' });
      const rows = Array.from({ length: 105 }, (_, i) => ({
        user_id: u.userId!,
        username: u.username,
        token_id: tok.id,
        token_name: 'list-form',
        type: LogType.Consume,
        created_at: 1_700_000_000 + i,
        content: '',
        model_name: 'gpt-4o',
        quota: i,
        is_stream: false,
        other: '{}',
      }));
      await t.ds.getRepository(LogEntry).insert(rows);
      const list = await request(t.url).get(`/api/log/token?key=${tok.key}`).expect(200);
      expect(list.body.success).toBe(true);
      expect(Array.isArray(list.body.data)).toBe(true);
      expect(list.body.data).toHaveLength(100);
      expect(list.body.data[0].quota).toBe(104); // newest first
      expect(list.body.data[99].quota).toBe(5);
      const page = await request(t.url).get(`/api/log/token?key=${tok.key}&p=2&page_size=50`).expect(200);
      expect(page.body.data).toMatchObject({ total: 105, page: 2, page_size: 50 });
      expect(page.body.data.items[0].quota).toBe(54);
    });
  });

  describe("second-factor resets at new-api's paths", () => {
    const code = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });
    const totps = (userId: number) => t.ds.getRepository(UserTotp).countBy({ user_id: userId });
    const passkeys = (userId: number) => t.ds.getRepository(Passkey).countBy({ user_id: userId });
    const flag = async (id: number) => (await users().findOneByOrFail({ id })).two_factor;

    /** An authenticator app enrolled through the API, plus a passkey row as registration stores it. */
    async function withFactors(): Promise<ApiClient & { username: string; password: string }> {
      const u = await makeUser(t, root);
      const setup = await u.post('/api/user/2fa/totp/setup').expect(200);
      const secret = setup.body.data.secret as string;
      const enabled = await u.post('/api/user/2fa/totp/enable', { code: await code(secret) }).expect(200);
      expect(enabled.body.success).toBe(true);
      await t.ds.getRepository(Passkey).insert({
        user_id: u.userId!,
        credential_id: `cred-${u.userId}`,
        public_key: 'pk',
        counter: 0,
        transports: '',
        name: 'key',
        created_at: 1,
        last_used_at: 0,
      });
      return u;
    }

    it('DELETE /api/user/{id}/2fa removes the authenticator app only', async () => {
      const u = await withFactors();
      const res = await admin.delete(`/api/user/${u.userId}/2fa`).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: null });
      expect(await totps(u.userId!)).toBe(0);
      expect(await passkeys(u.userId!)).toBe(1);
      expect(await flag(u.userId!)).toBe(true); // the passkey is still a second factor
    });

    it('DELETE /api/user/{id}/reset_passkey removes the passkeys only', async () => {
      const u = await withFactors();
      await admin.delete(`/api/user/${u.userId}/reset_passkey`).expect(200);
      expect(await passkeys(u.userId!)).toBe(0);
      expect(await totps(u.userId!)).toBe(1);
      await admin.delete(`/api/user/${u.userId}/2fa`).expect(200);
      expect(await flag(u.userId!)).toBe(false);
      // signs in with the password alone again
      await new ApiClient(t.url).login(u.username, u.password);
    });

    it('keeps the role rule: an admin resets nobody of an equal or higher role', async () => {
      const peer = await makeUser(t, root, { role: 'admin' });
      await t.ds.getRepository(Passkey).insert({
        user_id: peer.userId!,
        credential_id: `cred-peer-${peer.userId}`,
        public_key: 'pk',
        counter: 0,
        transports: '',
        name: 'key',
        created_at: 1,
        last_used_at: 0,
      });
      await admin.delete(`/api/user/${peer.userId}/reset_passkey`).expect(403);
      await admin.delete(`/api/user/${peer.userId}/2fa`).expect(403);
      await admin.delete(`/api/user/${root.userId}/2fa`).expect(403);
      expect(await passkeys(peer.userId!)).toBe(1);
      // root may
      await root.delete(`/api/user/${peer.userId}/reset_passkey`).expect(200);
      expect(await passkeys(peer.userId!)).toBe(0);
    });
  });

  describe('GET /api/data/users and the user on /api/data rows', () => {
    it('sums usage per user and bucket over all models', async () => {
      const a = await makeUser(t, root);
      const b = await makeUser(t, root);
      const day = 86400 * 20000; // a whole day, in the past
      const row = (u: typeof a, model: string, at: number, count: number, quota: number) => ({
        user_id: u.userId!,
        username: u.username,
        model_name: model,
        created_at: at,
        count,
        quota,
        token_used: count * 10,
        node_name: '',
      });
      await t.ds
        .getRepository(QuotaData)
        .insert([
          row(a, 'gpt-4o', day + 3600, 2, 100),
          row(a, 'gpt-4o-mini', day + 7200, 3, 30),
          row(b, 'gpt-4o', day + 3600, 1, 50),
          row(a, 'gpt-4o', day + 86400 + 3600, 1, 7),
        ]);
      const range = `start_timestamp=${day}&end_timestamp=${day + 2 * 86400 - 1}`;
      const res = await root.get(`/api/data/users?${range}&default_time=hour`).expect(200);
      expect(res.body.success).toBe(true);
      const mine = (res.body.data as Array<Record<string, unknown>>).filter((r) =>
        [a.userId, b.userId].includes(r.user_id as number),
      );
      expect(mine).toEqual([
        {
          user_id: a.userId,
          username: a.username,
          created_at: day + 3600,
          count: 2,
          quota: 100,
          token_used: 20,
        },
        {
          user_id: b.userId,
          username: b.username,
          created_at: day + 3600,
          count: 1,
          quota: 50,
          token_used: 10,
        },
        {
          user_id: a.userId,
          username: a.username,
          created_at: day + 7200,
          count: 3,
          quota: 30,
          token_used: 30,
        },
        {
          user_id: a.userId,
          username: a.username,
          created_at: day + 86400 + 3600,
          count: 1,
          quota: 7,
          token_used: 10,
        },
      ]);
      const one = await root
        .get(`/api/data/users?${range}&default_time=hour&username=${b.username}`)
        .expect(200);
      expect(one.body.data).toEqual([
        {
          user_id: b.userId,
          username: b.username,
          created_at: day + 3600,
          count: 1,
          quota: 50,
          token_used: 10,
        },
      ]);
      await a.get('/api/data/users').expect(403);

      // /api/data names the user of a one-user series, and 0/"" for everyone's.
      const byName = await root
        .get(`/api/data?${range}&default_time=hour&username=${a.username}`)
        .expect(200);
      expect(byName.body.data.length).toBe(3);
      for (const p of byName.body.data) expect(p).toMatchObject({ user_id: a.userId, username: a.username });
      const everyone = await root.get(`/api/data?${range}&default_time=hour`).expect(200);
      for (const p of everyone.body.data) expect(p).toMatchObject({ user_id: 0, username: '' });
      const own = await a.get(`/api/data/self?${range}&default_time=hour`).expect(200);
      for (const p of own.body.data) expect(p).toMatchObject({ user_id: a.userId, username: a.username });
    });
  });
});

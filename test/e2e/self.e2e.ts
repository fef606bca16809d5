import request from 'supertest';
import { Ability, LogEntry, LogType, Role, User } from '../../server/src/database/entities';
import { ApiClient, makeUser, ROOT, setupRoot, startApp, TestApp, putOption } from '../support/test-app';

describe('personal settings (/api/user/self and friends)', () => {
  let t: TestApp;
  let root: ApiClient;

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
  });
  afterAll(() => t.close());

  const users = () => t.ds.getRepository(User);
  const byId = (id: number) => users().findOneByOrFail({ id });
  const login = (username: string, password: string) =>
    new ApiClient(t.url).post('/api/user/login', { username, password });
  const setOption = (key: string, value: string | number | boolean) => putOption(root, key, value);

  describe('GET /api/user/self', () => {
    it('returns the user without the password or access token, with aff_code and setting', async () => {
      const u = await makeUser(t, root);
      const token = (await u.get('/api/user/token')).body.data as string;
      const res = await u.get('/api/user/self').expect(200);
      const stored = await byId(u.userId!);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        id: u.userId,
        username: u.username,
        role: Role.User,
        status: 1,
        group: 'default',
        aff_code: stored.aff_code,
        setting: expect.any(String),
      });
      for (const key of ['password', 'access_token', 'access_token_hash', 'token'])
        expect(res.body.data).not.toHaveProperty(key);
      const raw = JSON.stringify(res.body);
      expect(raw).not.toContain(stored.password);
      expect(raw).not.toContain(stored.access_token_hash!);
      expect(raw).not.toContain(token);
      expect(raw).not.toContain('$2b$');
    });
  });

  describe('PUT /api/user/self', () => {
    it('changes the display name (up to 20 characters)', async () => {
      const u = await makeUser(t, root);
      const twenty = '显示名'.repeat(6) + '😀😀';
      expect([...twenty]).toHaveLength(20);
      const ok = await u.put('/api/user/self', { display_name: twenty }).expect(200);
      expect(ok.body).toMatchObject({ success: true });
      expect((await byId(u.userId!)).display_name).toBe(twenty);
      expect((await u.get('/api/user/self')).body.data.display_name).toBe(twenty);

      const tooLong = await u.put('/api/user/self', { display_name: twenty + 'x' }).expect(200);
      expect(tooLong.body.success).toBe(false);
      expect(tooLong.body.message).toContain('20');
      expect((await byId(u.userId!)).display_name).toBe(twenty);
    });

    it('changes the password only with the right original password', async () => {
      const u = await makeUser(t, root);
      for (const body of [
        { password: 'brand-new-pass', original_password: 'wrong-password' },
        { password: 'brand-new-pass' },
        { password: 'brand-new-pass', original_password: '' },
      ]) {
        const wrong = await u.put('/api/user/self', body);
        expect(wrong.status).toBe(200);
        expect(wrong.body).toMatchObject({ success: false, message: '原密码错误' });
      }
      expect((await login(u.username, u.password)).body.success).toBe(true);
      expect((await login(u.username, 'brand-new-pass')).body.success).toBe(false);

      const short = await u.put('/api/user/self', { password: 'short', original_password: u.password });
      expect(short.body).toMatchObject({ success: false, message: '密码长度不得小于 8 位！' });

      const ok = await u
        .put('/api/user/self', { password: 'brand-new-pass', original_password: u.password })
        .expect(200);
      expect(ok.body).toMatchObject({ success: true });
      expect((await login(u.username, 'brand-new-pass')).body.success).toBe(true);
      expect((await login(u.username, u.password)).body.success).toBe(false);
      // The session that changed the password is still valid.
      expect((await u.get('/api/user/self')).status).toBe(200);
    });

    it('lets an account without a password (third-party only) set one without an original', async () => {
      const u = await makeUser(t, root);
      await users().update({ id: u.userId! }, { password: '' });
      expect((await login(u.username, u.password)).body.success).toBe(false);
      const res = await u.put('/api/user/self', { password: 'first-password' });
      expect(res.body).toMatchObject({ success: true });
      expect((await login(u.username, 'first-password')).body.success).toBe(true);
      // From now on the original is required.
      expect((await u.put('/api/user/self', { password: 'second-password' })).body).toMatchObject({
        success: false,
        message: '原密码错误',
      });
    });

    it('ignores group, quota, role, status, aff and identity fields', async () => {
      const u = await makeUser(t, root);
      const before = await byId(u.userId!);
      const res = await u.put('/api/user/self', {
        display_name: 'renamed',
        id: root.userId,
        username: 'hijacked',
        group: 'vip',
        quota: 999999999,
        used_quota: 0,
        role: Role.Root,
        status: 1,
        aff_quota: 123456789,
        aff_count: 50,
        aff_history_quota: 5,
        inviter_id: root.userId,
        email: 'stolen@example.com',
        github_id: 'gh-1',
        access_token_hash: 'a'.repeat(64),
        deleted_at: 1,
      });
      expect(res.status).toBe(200);
      const after = await byId(u.userId!);
      expect({ ...after, display_name: before.display_name }).toEqual(before);
      expect(res.body.success).toBe(true);
      expect(after.display_name).toBe('renamed');
      const rootRow = await users().findOneByOrFail({ username: ROOT.username });
      expect(rootRow.display_name).not.toBe('renamed');
      const self = await u.get('/api/user/self');
      expect(self.body.data).toMatchObject({ role: Role.User, group: 'default', quota: before.quota });
    });

    it.each([
      [{ display_name: 42 }],
      [{ display_name: ['a'] }],
      [{ password: 12345678, original_password: 'x' }],
      [{ password: { a: 1 } }],
      [{ display_name: 'nul\u0000name' }],
    ])('answers wrongly typed fields with success:false: %j', async (body) => {
      const u = await makeUser(t, root);
      const before = await byId(u.userId!);
      const res = await u.put('/api/user/self', body);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(await byId(u.userId!)).toEqual(before);
    });
  });

  describe('DELETE /api/user/self', () => {
    it('needs the own username typed in', async () => {
      const u = await makeUser(t, root);
      for (const body of [
        undefined,
        {},
        { username: '' },
        { username: u.username.toUpperCase() + 'X' },
        { username: ROOT.username },
      ]) {
        const res = await u.delete('/api/user/self', body);
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ success: false, message: '请输入你的账户名以确认删除！' });
      }
      expect((await byId(u.userId!)).deleted_at).toBeNull();
      expect((await u.get('/api/user/self')).status).toBe(200);
    });

    it('deregisters the account: session and token stop, login refused, username stays reserved', async () => {
      const u = await makeUser(t, root);
      const token = (await u.get('/api/user/token')).body.data as string;
      const t0 = Math.floor(Date.now() / 1000);
      const res = await u.delete('/api/user/self', { username: u.username }).expect(200);
      expect(res.body).toMatchObject({ success: true });

      const row = await byId(u.userId!);
      expect(row.deleted_at).toEqual(expect.any(Number));
      expect(row.deleted_at!).toBeGreaterThanOrEqual(t0 - 1);
      expect(row.deleted_at!).toBeLessThanOrEqual(t0 + 60);

      const self = await u.get('/api/user/self');
      expect(self.status).toBe(401);
      expect(self.body.success).toBe(false);
      const viaToken = await request(t.url)
        .get('/api/user/self')
        .set('Authorization', `Bearer ${token}`)
        .set('New-Api-User', String(u.userId));
      expect(viaToken.status).toBe(401);

      const again = await login(u.username, u.password);
      expect(again.body.success).toBe(false);
      expect(again.headers['set-cookie']).toBeUndefined();

      const reuse = await new ApiClient(t.url).post('/api/user/register', {
        username: u.username,
        password: 'pass-word-9',
        password2: 'pass-word-9',
      });
      expect(reuse.body.success).toBe(false);
      expect(reuse.body.message).toContain('用户名已存在');
      expect(await users().countBy({ username: u.username })).toBe(1);

      // Admins still see the account, marked deregistered.
      const seen = await root.get(`/api/user/${u.userId}`);
      expect(seen.body.data.DeletedAt).toEqual(expect.any(String));
    });

    it('refuses to let root delete itself', async () => {
      const res = await root.delete('/api/user/self', { username: ROOT.username }).expect(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain('超级管理员');
      expect((await users().findOneByOrFail({ username: ROOT.username })).deleted_at).toBeNull();
      expect((await root.get('/api/user/self')).status).toBe(200);
    });

    it('lets an admin delete itself', async () => {
      const admin = await makeUser(t, root, { role: 'admin' });
      expect((await admin.delete('/api/user/self', { username: admin.username })).body.success).toBe(true);
      expect((await admin.get('/api/user/self')).status).toBe(401);
    });
  });

  describe('invitation earnings', () => {
    it('GET /api/user/aff returns the stored, stable invitation code', async () => {
      const u = await makeUser(t, root);
      const a = await u.get('/api/user/aff').expect(200);
      const b = await u.get('/api/user/aff').expect(200);
      expect(a.body).toMatchObject({ success: true, data: expect.stringMatching(/^[A-Za-z0-9]{4,32}$/) });
      expect(b.body.data).toBe(a.body.data);
      expect(a.body.data).toBe((await byId(u.userId!)).aff_code);
      const other = await makeUser(t, root);
      expect((await other.get('/api/user/aff')).body.data).not.toBe(a.body.data);
    });

    it('transfers at least one unit, never more than earned, moving aff_quota to quota exactly', async () => {
      const u = await makeUser(t, root);
      await users().update(
        { id: u.userId! },
        { aff_quota: 2_000_000, aff_history_quota: 2_000_000, quota: 10 },
      );

      const tooSmall = await u.post('/api/user/aff_transfer', { quota: 499_999 }).expect(200);
      expect(tooSmall.body.success).toBe(false);
      expect(tooSmall.body.message).toContain('划转金额最低为');
      const tooMuch = await u.post('/api/user/aff_transfer', { quota: 2_000_001 }).expect(200);
      expect(tooMuch.body.success).toBe(false);
      for (const quota of [-500_000, 600_000.5, 'lots', null, 1e300]) {
        const bad = await u.post('/api/user/aff_transfer', { quota });
        expect(bad.status).toBe(200);
        expect(bad.body.success).toBe(false);
      }
      expect(await byId(u.userId!)).toMatchObject({ aff_quota: 2_000_000, quota: 10 });

      const ok = await u.post('/api/user/aff_transfer', { quota: 600_000 }).expect(200);
      expect(ok.body).toMatchObject({ success: true });
      expect(await byId(u.userId!)).toMatchObject({
        aff_quota: 1_400_000,
        quota: 600_010,
        aff_history_quota: 2_000_000,
      });

      const exact = await u.post('/api/user/aff_transfer', { quota: 1_400_000 });
      expect(exact.body.success).toBe(true);
      expect(await byId(u.userId!)).toMatchObject({ aff_quota: 0, quota: 2_000_010 });
      expect((await u.get('/api/user/self')).body.data).toMatchObject({ aff_quota: 0, quota: 2_000_010 });

      const logs = await t.ds.getRepository(LogEntry).findBy({ user_id: u.userId!, type: LogType.System });
      expect(logs.map((l) => l.quota).sort((a, b) => a - b)).toEqual([600_000, 1_400_000]);
    });

    it('follows QuotaPerUnit for the minimum', async () => {
      const u = await makeUser(t, root);
      await users().update({ id: u.userId! }, { aff_quota: 1000 });
      await setOption('QuotaPerUnit', '1000');
      try {
        expect((await u.post('/api/user/aff_transfer', { quota: 999 })).body.success).toBe(false);
        expect((await u.post('/api/user/aff_transfer', { quota: 1000 })).body.success).toBe(true);
      } finally {
        await setOption('QuotaPerUnit', '500000');
      }
      expect(await byId(u.userId!)).toMatchObject({ aff_quota: 0, quota: 1000 });
    });

    it('never overdraws when five transfers of the whole amount race', async () => {
      const u = await makeUser(t, root);
      await users().update({ id: u.userId! }, { aff_quota: 1_000_000, quota: 0 });
      const results = await Promise.all(
        Array.from({ length: 5 }, () => u.post('/api/user/aff_transfer', { quota: 1_000_000 })),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(results.filter((r) => r.body.success)).toHaveLength(1);
      expect(await byId(u.userId!)).toMatchObject({ aff_quota: 0, quota: 1_000_000 });
    });
  });

  describe('PUT /api/user/setting', () => {
    const settingOf = async (c: ApiClient) =>
      JSON.parse(((await c.get('/api/user/self')).body.data.setting as string) || '{}');

    it.each([
      [{ notify_type: 'webhook', webhook_url: 'http://hooks.example.com/x' }, 'https'],
      [{ notify_type: 'email', webhook_url: 'http://hooks.example.com/x' }, 'https'],
      [{ notify_type: 'webhook', webhook_url: 'ftp://hooks.example.com/x' }, 'https'],
      [{ notify_type: 'webhook', webhook_url: 'https://' }, 'https'],
      [{ notify_type: 'webhook' }, 'https'],
      [{ notify_type: 'webhook', webhook_url: '' }, 'https'],
      [{ quota_warning_threshold: -1 }, 'quota_warning_threshold'],
      [{ quota_warning_threshold: 1.5 }, 'quota_warning_threshold'],
      [{ quota_warning_threshold: '100' }, 'quota_warning_threshold'],
      [{ notify_type: 'sms' }, 'notify_type'],
      [{ notification_email: 'not-an-email' }, '邮箱地址格式不正确'],
      [{ accept_unset_model_ratio_model: 'yes' }, 'accept_unset_model_ratio_model'],
    ])('refuses %j', async (body, message) => {
      const u = await makeUser(t, root);
      const before = (await byId(u.userId!)).setting;
      const res = await u.put('/api/user/setting', body);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain(message);
      expect((await byId(u.userId!)).setting).toBe(before);
    });

    it('stores the settings and shows them in self.setting, without echoing the webhook secret', async () => {
      const u = await makeUser(t, root);
      const body = {
        notify_type: 'webhook',
        webhook_url: 'https://hooks.example.com/notify',
        webhook_secret: 'very-secret-signing-key',
        quota_warning_threshold: 100000,
        notification_email: 'alerts@example.com',
        accept_unset_model_ratio_model: true,
      };
      const res = await u.put('/api/user/setting', body).expect(200);
      expect(res.body).toMatchObject({ success: true });
      expect(JSON.stringify(res.body)).not.toContain('very-secret-signing-key');

      const self = await u.get('/api/user/self');
      expect(JSON.stringify(self.body)).not.toContain('very-secret-signing-key');
      const shown = await settingOf(u);
      expect(shown).toMatchObject({
        notify_type: 'webhook',
        webhook_url: 'https://hooks.example.com/notify',
        quota_warning_threshold: 100000,
        notification_email: 'alerts@example.com',
        accept_unset_model_ratio_model: true,
      });
      expect(shown.webhook_secret ?? '').toBe('');
      // Admins do not see it either.
      expect(JSON.stringify((await root.get(`/api/user/${u.userId}`)).body)).not.toContain(
        'very-secret-signing-key',
      );

      // Kept when a later save leaves it blank.
      expect((await u.put('/api/user/setting', { quota_warning_threshold: 500000 })).body.success).toBe(true);
      const stored = JSON.parse((await byId(u.userId!)).setting!);
      expect(stored).toMatchObject({
        webhook_secret: 'very-secret-signing-key',
        quota_warning_threshold: 500000,
        notify_type: 'webhook',
      });

      // Back to email: the webhook is no longer required.
      expect((await u.put('/api/user/setting', { notify_type: 'email', webhook_url: '' })).body.success).toBe(
        true,
      );
      expect(await settingOf(u)).toMatchObject({ notify_type: 'email', webhook_url: '' });
    });
  });

  describe('groups and models', () => {
    beforeAll(async () => {
      const abilities = t.ds.getRepository(Ability);
      const rows: Array<[string, string, number, boolean]> = [
        ['default', 'gpt-4o', 1, true],
        ['default', 'gpt-4o', 2, true],
        ['default', 'gpt-4o-mini', 1, true],
        ['default', 'switched-off', 3, false],
        ['vip', 'claude-3-5-sonnet', 4, true],
        ['svip', 'svip-only', 5, true],
        ['auto-pool', 'pooled-model', 6, true],
      ];
      for (const [group, model, channel_id, enabled] of rows) {
        await abilities.insert({ group, model, channel_id, enabled, priority: 0, weight: 0, tag: null });
      }
      // Priced, so the relay (and with it the model list) serves them.
      const options = (await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
      const ratios = JSON.parse(options.find((o) => o.key === 'ModelRatio')?.value ?? '{}') as Record<
        string,
        number
      >;
      await setOption('ModelRatio', JSON.stringify({ ...ratios, 'svip-only': 1, 'pooled-model': 1 }));
    });
    afterEach(async () => {
      await setOption('UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组' }));
      await setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
      await setOption('AutoGroups', JSON.stringify(['default']));
    });

    it('GET /api/user/self/groups answers {group: {ratio, desc}}', async () => {
      await setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1.5, svip: 2 }));
      const u = await makeUser(t, root);
      const res = await u.get('/api/user/self/groups').expect(200);
      expect(res.body).toEqual({
        success: true,
        message: '',
        data: { default: { ratio: 1, desc: '默认分组' }, vip: { ratio: 1.5, desc: 'vip分组' } },
      });
    });

    it('offers auto with ratio null when UserUsableGroups has it', async () => {
      await setOption(
        'UserUsableGroups',
        JSON.stringify({ default: '默认分组', vip: 'vip分组', auto: '自动选择' }),
      );
      const u = await makeUser(t, root);
      const res = await u.get('/api/user/self/groups').expect(200);
      expect(res.body.data.auto).toEqual({ ratio: null, desc: '自动选择' });
      expect(res.body.data.default).toEqual({ ratio: 1, desc: '默认分组' });
      expect(Object.keys(res.body.data).sort()).toEqual(['auto', 'default', 'vip']);
    });

    it("includes the user's own group even when it is not generally usable", async () => {
      await setOption('GroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 3 }));
      const u = await makeUser(t, root);
      expect((await root.put('/api/user/', { id: u.userId, group: 'svip' })).body.success).toBe(true);
      const res = await u.get('/api/user/self/groups');
      expect(res.body.data.svip).toMatchObject({ ratio: 3 });
      const models = await u.get('/api/user/models');
      expect(models.body.data).toContain('svip-only');
    });

    it('GET /api/user/models lists the enabled models of the usable groups, once each', async () => {
      const u = await makeUser(t, root);
      const res = await u.get('/api/user/models').expect(200);
      expect(res.body.success).toBe(true);
      expect([...res.body.data].sort()).toEqual(['claude-3-5-sonnet', 'gpt-4o', 'gpt-4o-mini']);
    });

    it('limits to one group with ?group= and refuses groups the user cannot use', async () => {
      const u = await makeUser(t, root);
      expect((await u.get('/api/user/models?group=vip')).body.data).toEqual(['claude-3-5-sonnet']);
      expect([...(await u.get('/api/user/models?group=default')).body.data].sort()).toEqual([
        'gpt-4o',
        'gpt-4o-mini',
      ]);
      for (const group of ['svip', 'no-such-group', "default' OR '1'='1", 'auto', 'de\u0000fault']) {
        const res = await u.get(`/api/user/models?group=${encodeURIComponent(group)}`);
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(false);
        expect(res.body.data ?? []).not.toContain('svip-only');
      }
    });

    it('resolves ?group=auto through AutoGroups when auto is offered', async () => {
      await setOption('UserUsableGroups', JSON.stringify({ default: '默认分组', auto: '自动' }));
      await setOption('AutoGroups', JSON.stringify(['auto-pool']));
      const u = await makeUser(t, root);
      expect((await u.get('/api/user/models?group=auto')).body.data).toEqual(['pooled-model']);
      const all = (await u.get('/api/user/models')).body.data as string[];
      expect([...all].sort()).toEqual(['gpt-4o', 'gpt-4o-mini', 'pooled-model']);
    });
  });
});

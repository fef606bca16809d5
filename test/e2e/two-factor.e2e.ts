/**
 * Two-factor sign-in with a software authenticator (TOTP codes computed here with otplib): enrolment
 * with a QR code, sign-in in two steps, codes accepted once, recovery codes, an admin's reset under the
 * role rules, root requiring a second factor of admins, and step-up checks before sensitive actions.
 */
import { generate } from 'otplib';
import request from 'supertest';
import { UserTotp } from '../../server/src/database/entities';
import {
  ApiClient,
  makeUser,
  putOption,
  ROOT,
  setupRoot,
  startApp,
  startNode,
  TestApp,
} from '../support/test-app';

describe('two-factor sign-in and step-up checks', () => {
  let t: TestApp;
  let root: ApiClient;
  let offset = 0;
  const realNow = Date.now.bind(Date);

  /** Moves the clock of this process (the server runs in it) forward. */
  const advance = (seconds: number) => {
    offset += seconds * 1000;
  };
  /** The authenticator's code for the current time of the server. */
  const code = (secret: string) => generate({ secret, epoch: Math.floor(Date.now() / 1000) });

  beforeAll(async () => {
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    t = await startApp();
    root = await setupRoot(t);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });

  /** Enrols a TOTP for a signed-in client; returns the secret and the recovery codes. */
  async function enrol(client: ApiClient): Promise<{ secret: string; recovery: string[] }> {
    const setup = await client.post('/api/user/2fa/totp/setup').expect(200);
    expect(setup.body.success).toBe(true);
    const secret = setup.body.data.secret as string;
    const enabled = await client.post('/api/user/2fa/totp/enable', { code: await code(secret) }).expect(200);
    expect(enabled.body.success).toBe(true);
    advance(30); // the next code belongs to a later step
    return { secret, recovery: enabled.body.data.recovery_codes as string[] };
  }

  async function passwordStep(username: string, password: string): Promise<ApiClient> {
    const c = new ApiClient(t.url);
    const res = await c.post('/api/user/login', { username, password }).expect(200);
    expect(res.body).toMatchObject({ success: true, data: { require_2fa: true } });
    expect(res.body.data.id).toBeUndefined();
    expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/(^|,)\s*session=/);
    return c;
  }

  it('enrols an authenticator with a QR code, and never shows the secret again', async () => {
    const user = await makeUser(t, root);
    const setup = await user.post('/api/user/2fa/totp/setup').expect(200);
    expect(setup.body.data.qr_code).toMatch(/^data:image\/png;base64,/);
    expect(setup.body.data.uri).toMatch(
      new RegExp(`^otpauth://totp/.*${user.username}.*secret=${setup.body.data.secret}`),
    );
    const secret = setup.body.data.secret as string;

    const wrong = await user.post('/api/user/2fa/totp/enable', { code: '000000' });
    expect(wrong.body).toMatchObject({ success: false, message: '两步验证码错误或已使用' });
    const ok = await user.post('/api/user/2fa/totp/enable', { code: await code(secret) });
    expect(ok.body.success).toBe(true);
    expect(ok.body.data.recovery_codes).toHaveLength(10);

    const status = await user.get('/api/user/2fa').expect(200);
    expect(status.body.data).toMatchObject({ enabled: true, totp_enabled: true, recovery_codes_left: 10 });
    for (const path of ['/api/user/2fa', '/api/user/self']) {
      expect(JSON.stringify((await user.get(path)).body)).not.toContain(secret);
    }
    const row = await t.ds.getRepository(UserTotp).findOneByOrFail({ user_id: user.userId! });
    expect(row.secret_enc).not.toContain(secret);
    // a second enrolment is refused while one is on
    expect((await user.post('/api/user/2fa/totp/setup')).body.success).toBe(false);
    advance(30);
  });

  it('signs in in two steps; a code is accepted once', async () => {
    const user = await makeUser(t, root);
    const { secret } = await enrol(user);

    const first = await passwordStep(user.username, user.password);
    first.userId = user.userId;
    expect((await first.get('/api/user/self')).status).toBe(401);
    const wrong = await first.post('/api/user/login/2fa', { code: '123456' });
    expect(wrong.body.success).toBe(false);
    const current = await code(secret);
    const ok = await first.post('/api/user/login/2fa', { code: current });
    expect(ok.body).toMatchObject({ success: true, data: { id: user.userId, username: user.username } });
    expect((await first.get('/api/user/self')).body.success).toBe(true);

    const second = await passwordStep(user.username, user.password);
    const replay = await second.post('/api/user/login/2fa', { code: current });
    expect(replay.body).toMatchObject({ success: false, message: '两步验证码错误或已使用' });

    // no waiting sign-in: the code alone is worth nothing
    const bare = await new ApiClient(t.url).post('/api/user/login/2fa', { code: await code(secret) });
    expect(bare.body).toMatchObject({ success: false, message: '登录已过期，请重新输入用户名和密码' });
    // a waiting sign-in expires after five minutes
    const late = await passwordStep(user.username, user.password);
    advance(301);
    expect((await late.post('/api/user/login/2fa', { code: await code(secret) })).body.success).toBe(false);
  });

  it('accepts each recovery code once', async () => {
    const user = await makeUser(t, root);
    const { recovery } = await enrol(user);
    const c = await passwordStep(user.username, user.password);
    expect((await c.post('/api/user/login/2fa', { code: recovery[0].toUpperCase() })).body.success).toBe(
      true,
    );
    const again = await passwordStep(user.username, user.password);
    expect((await again.post('/api/user/login/2fa', { code: recovery[0] })).body.success).toBe(false);
    expect((await again.post('/api/user/login/2fa', { code: recovery[1] })).body.success).toBe(true);
    again.userId = user.userId;
    expect((await again.get('/api/user/2fa')).body.data.recovery_codes_left).toBe(8);
  });

  it('lets an admin reset the second factor of a lower role only', async () => {
    const admin = await makeUser(t, root, { role: 'admin' });
    const peer = await makeUser(t, root, { role: 'admin' });
    const user = await makeUser(t, root);
    await enrol(user);
    expect((await admin.post(`/api/user/${peer.userId}/2fa/reset`)).status).toBe(403);
    expect((await admin.post(`/api/user/${root.userId}/2fa/reset`)).status).toBe(403);
    expect((await user.post(`/api/user/${user.userId}/2fa/reset`)).status).toBe(403);
    const reset = await admin.post(`/api/user/${user.userId}/2fa/reset`);
    expect(reset.body.success).toBe(true);
    // signs in with the password alone again
    await new ApiClient(t.url).login(user.username, user.password);
    const audit = await root.get(`/api/audit/?action=user.2fa_reset&target_id=${user.userId}`);
    expect(audit.body.data.items).toHaveLength(1);
    expect(audit.body.data.items[0].actor_name).toBe(admin.username);
  });

  it('asks for a fresh check before sensitive actions, in the caller’s language', async () => {
    const user = await makeUser(t, root);
    expect((await user.get('/api/user/token')).body.success).toBe(true); // the sign-in is fresh
    advance(601);
    const stale = await user.get('/api/user/token');
    expect(stale.status).toBe(403);
    expect(stale.body).toEqual({
      success: false,
      message: '此操作需要重新验证身份，请输入密码或两步验证码',
      data: { step_up_required: true },
    });
    const en = await user.get('/api/user/token').set('Accept-Language', 'en');
    expect(en.body.message).toBe('Confirm it is you to do this: enter your password or a two-factor code');
    // the other sensitive actions of the own account
    expect(
      (await user.put('/api/user/self', { password: 'another-pass-1', original_password: user.password }))
        .status,
    ).toBe(403);
    expect((await user.delete('/api/user/self', { username: user.username })).status).toBe(403);
    expect((await user.post('/api/user/2fa/totp/setup')).status).toBe(403);
    // ordinary changes are not sensitive
    expect((await user.put('/api/user/self', { display_name: 'Still Fine' })).body.success).toBe(true);

    const other = await new ApiClient(t.url).login(user.username, user.password); // another browser
    advance(601);
    const wrong = await user.post('/api/user/step_up', { password: 'not-the-password' });
    expect(wrong.body.success).toBe(false);
    const ok = await user.post('/api/user/step_up', { password: user.password });
    expect(ok.body.success).toBe(true);
    expect(ok.body.data.expires_at).toBeGreaterThan(Date.now() / 1000 + 500);
    expect((await user.get('/api/user/token')).body.success).toBe(true);
    // the check holds in the browser that made it, not in the user's other browsers
    expect((await other.get('/api/user/token')).status).toBe(403);
    // a password change (itself checked by the original password) keeps the browser confirmed
    const changed = await user.put('/api/user/self', {
      password: 'changed-pass-1',
      original_password: user.password,
    });
    expect(changed.body.success).toBe(true);
    expect((await user.get('/api/user/token')).body.success).toBe(true);
  });

  it('takes a second-factor code, not the password, as the fresh check of a 2FA account', async () => {
    const user = await makeUser(t, root);
    const { secret } = await enrol(user);
    advance(601);
    expect((await user.post('/api/user/2fa/totp/disable')).status).toBe(403);
    const byPassword = await user.post('/api/user/step_up', { password: user.password });
    expect(byPassword.body).toMatchObject({
      success: false,
      message: '已启用两步验证，请使用两步验证码或通行密钥验证',
    });
    expect((await user.post('/api/user/step_up', { code: await code(secret) })).body.success).toBe(true);
    expect((await user.post('/api/user/2fa/totp/disable')).body.success).toBe(true);
    expect((await user.get('/api/user/2fa')).body.data.enabled).toBe(false);
    await new ApiClient(t.url).login(user.username, user.password); // one step again
  });

  it('guards root-only options with a fresh check, and not ordinary ones', async () => {
    const admin = await makeUser(t, root, { role: 'admin' });
    const stale = await new ApiClient(t.url).login(ROOT.username, ROOT.password);
    advance(601);
    expect((await stale.put('/api/option/', { key: 'SMTPServer', value: 'smtp.example.com' })).status).toBe(
      403,
    );
    expect((await admin.put('/api/option/', { key: 'SystemName', value: 'Gate' })).body.success).toBe(true);
    expect((await stale.post('/api/user/step_up', { password: ROOT.password })).body.success).toBe(true);
    expect(
      (await stale.put('/api/option/', { key: 'SMTPServer', value: 'smtp.example.com' })).body.success,
    ).toBe(true);
    // an access token (made under a fresh check) is the credential of integrations: not asked again
    const token = (await stale.get('/api/user/token')).body.data as string;
    advance(601);
    const integration = new ApiClient(t.url);
    integration.token = token;
    integration.userId = root.userId;
    expect(
      (await integration.put('/api/option/', { key: 'SMTPServer', value: 'smtp2.example.com' })).body.success,
    ).toBe(true);
  });

  it('shows a channel key to root only, after a fresh check, and records it', async () => {
    const admin = await makeUser(t, root, { role: 'admin' });
    const created = await admin.post('/api/channel/', {
      type: 1,
      name: 'keyed',
      key: 'sk-reveal-me-1',
      models: 'gpt-4o',
    });
    const id = created.body.data.id as number;
    expect((await admin.post(`/api/channel/${id}/key`)).status).toBe(403);
    const rootNow = await new ApiClient(t.url).login(ROOT.username, ROOT.password);
    const shown = await rootNow.post(`/api/channel/${id}/key`);
    expect(shown.body).toEqual({ success: true, message: '', data: { key: 'sk-reveal-me-1' } });
    advance(601);
    expect((await rootNow.post(`/api/channel/${id}/key`)).status).toBe(403);
    const trail = await rootNow.get(`/api/audit/?action=channel.key_reveal&target_id=${id}`);
    expect(trail.body.data.items).toHaveLength(1);
    expect(trail.body.data.items[0]).toMatchObject({ actor_name: ROOT.username, changes: null });
    expect(JSON.stringify(trail.body)).not.toContain('sk-reveal-me-1');
  });

  it('finishes a sign-in and a step-up check on another node than the one that started them', async () => {
    const user = await makeUser(t, root);
    const { secret } = await enrol(user);
    const other = await startNode(t);
    try {
      const cookies = (res: request.Response) =>
        ([] as string[])
          .concat(res.headers['set-cookie'] ?? [])
          .map((c) => c.split(';')[0])
          .join('; ');
      const first = await request(t.url)
        .post('/api/user/login')
        .send({ username: user.username, password: user.password });
      expect(first.body.data).toEqual({ require_2fa: true });
      const second = await request(other.url)
        .post('/api/user/login/2fa')
        .set('Cookie', cookies(first))
        .send({ code: await code(secret) });
      expect(second.body).toMatchObject({ success: true, data: { id: user.userId } });
      const jar = cookies(second);
      const self = await request(t.url)
        .get('/api/user/self')
        .set('Cookie', jar)
        .set('New-Api-User', String(user.userId));
      expect(self.body.data.username).toBe(user.username);
      // the sign-in's check holds on either node, and so does its expiry
      const token = await request(other.url)
        .get('/api/user/token')
        .set('Cookie', jar)
        .set('New-Api-User', String(user.userId));
      expect(token.body.success).toBe(true);
      advance(601);
      const stale = await request(other.url)
        .get('/api/user/token')
        .set('Cookie', jar)
        .set('New-Api-User', String(user.userId));
      expect(stale.status).toBe(403);
    } finally {
      await other.close();
    }
  });

  it('step_up_bound_to_session: a proof made in one session (even signed out since) counts in no other', async () => {
    const user = await makeUser(t, root);
    const jar = (res: request.Response) =>
      Object.fromEntries(
        ([] as string[])
          .concat(res.headers['set-cookie'] ?? [])
          .map((c) => c.split(';')[0].split('='))
          .map(([k, ...v]) => [k, v.join('=')]),
      ) as Record<string, string>;
    const signIn = async () =>
      jar(
        await request(t.url)
          .post('/api/user/login')
          .send({ username: user.username, password: user.password }),
      );
    const older = await signIn();
    advance(601); // the older session's own check is stale now
    const newer = await signIn();
    const issue = (cookies: Record<string, string>) =>
      request(t.url)
        .get('/api/user/token')
        .set('New-Api-User', String(user.userId))
        .set(
          'Cookie',
          Object.entries(cookies)
            .map(([k, v]) => `${k}=${v}`)
            .join('; '),
        );
    expect((await issue(newer)).status).toBe(200);
    await request(t.url).get('/api/user/logout').set('Cookie', `session=${newer.session}`);
    const borrowed = await issue({ session: older.session, step_up: newer.step_up });
    expect(borrowed.status).toBe(403);
    expect(borrowed.body.data).toEqual({ step_up_required: true });
    expect((await issue(older)).status).toBe(403);

    // the browser that changes its password keeps its check in the fresh session it gets
    const browser = await new ApiClient(t.url).login(user.username, user.password);
    const changed = await browser.put('/api/user/self', {
      password: 'changed-pass-1',
      original_password: user.password,
    });
    expect(changed.body.success).toBe(true);
    expect((await browser.get('/api/user/token')).status).toBe(200);
  });

  it('step_up_sensitive_actions: setting a user’s password, promoting, demoting, deleting and revealing a token key need a fresh check', async () => {
    const admin = await makeUser(t, root, { role: 'admin' });
    const owner = await new ApiClient(t.url).login(ROOT.username, ROOT.password);
    const target = await makeUser(t, root);
    const made = await target.post('/api/token/', { name: 'k', remain_quota: 1000, expired_time: -1 });
    const tokenId = made.body.data[0].id as number;
    advance(601);
    const staleCalls: Array<[ApiClient, 'put' | 'post', string, unknown]> = [
      [admin, 'put', '/api/user/', { id: target.userId, password: 'taken-over-123' }],
      [owner, 'post', '/api/user/manage', { id: target.userId, action: 'promote' }],
      [owner, 'post', '/api/user/manage', { id: admin.userId, action: 'demote' }],
      [admin, 'post', '/api/user/manage', { id: target.userId, action: 'delete' }],
      [target, 'post', `/api/token/${tokenId}/key`, undefined],
    ];
    for (const [client, method, path, payload] of staleCalls) {
      const res = await client[method](path, payload);
      expect({ path, status: res.status, data: res.body.data }).toEqual({
        path,
        status: 403,
        data: { step_up_required: true },
      });
    }
    // nothing changed: the old password still signs in, the roles stand
    await new ApiClient(t.url).login(target.username, target.password);
    // other edits stay as they were
    expect((await admin.put('/api/user/', { id: target.userId, display_name: 'Renamed' })).body.success).toBe(
      true,
    );
    expect(
      (await admin.post('/api/user/manage', { id: target.userId, action: 'disable' })).body.success,
    ).toBe(true);
    expect((await admin.post('/api/user/manage', { id: target.userId, action: 'enable' })).body.success).toBe(
      true,
    );
    // after a check each goes through
    expect((await admin.post('/api/user/step_up', { password: admin.password })).body.success).toBe(true);
    expect(
      (await admin.put('/api/user/', { id: target.userId, password: 'reset-by-admin-1' })).body.success,
    ).toBe(true);
    const again = await new ApiClient(t.url).login(target.username, 'reset-by-admin-1');
    expect((await again.post(`/api/token/${tokenId}/key`)).body.success).toBe(true);
    expect((await owner.post('/api/user/step_up', { password: ROOT.password })).body.success).toBe(true);
    expect(
      (await owner.post('/api/user/manage', { id: target.userId, action: 'promote' })).body.success,
    ).toBe(true);
  });

  it('access_token_scope: an access token never changes second factors, passkeys, bindings, e-mail, password or itself', async () => {
    const user = await makeUser(t, root);
    const { secret } = await enrol(user);
    const token = (await user.get('/api/user/token').expect(200)).body.data as string;
    const api = new ApiClient(t.url);
    api.userId = user.userId;
    api.token = token;
    expect((await api.get('/api/user/self')).body.data.username).toBe(user.username);
    const calls: Array<[keyof ApiClient & ('get' | 'post' | 'put' | 'delete'), string, unknown?]> = [
      ['post', '/api/user/2fa/totp/disable'],
      ['post', '/api/user/2fa/totp/setup'],
      ['post', '/api/user/2fa/totp/enable', { code: '000000' }],
      ['post', '/api/user/2fa/recovery_codes'],
      ['post', '/api/user/step_up', { code: await code(secret) }],
      ['post', '/api/user/passkey/register/options'],
      ['post', '/api/user/passkey/register', { response: {} }],
      ['delete', '/api/user/passkey/1'],
      ['post', '/api/user/passkey/step_up/options'],
      ['post', '/api/user/passkey/step_up', { response: {} }],
      ['get', '/api/user/token'],
      ['put', '/api/user/self', { password: 'a-new-password-1', original_password: user.password }],
      ['delete', '/api/user/self'],
      ['get', '/api/oauth/email/bind?email=planted%40example.com&code=123456'],
      ['get', '/api/oauth/wechat/bind?code=attacker-code'],
      ['get', '/api/oauth/telegram/bind?id=42&first_name=x&auth_date=1&hash=00'],
    ];
    for (const [method, path, payload] of calls) {
      const res = await (payload === undefined ? api[method](path) : api[method](path, payload));
      expect({ path, status: res.status, message: res.body.message }).toEqual({
        path,
        status: 403,
        message: '访问令牌不能执行此操作，请在已登录的控制台中操作',
      });
    }
    // nothing changed: the factor, the password and the token itself still stand
    expect((await user.get('/api/user/2fa')).body.data).toMatchObject({ totp_enabled: true, passkeys: [] });
    expect((await api.get('/api/user/self')).status).toBe(200);
    const c = await passwordStep(user.username, user.password);
    expect((await c.post('/api/user/login/2fa', { code: await code(secret) })).body.success).toBe(true);
    // the session itself still can (the check of its sign-in is fresh)
    expect((await user.post('/api/user/2fa/recovery_codes')).body.success).toBe(true);
  });

  describe('second-factor failure limit (per account and per waiting sign-in, every node, every path)', () => {
    const cookies = (res: request.Response) =>
      ([] as string[])
        .concat(res.headers['set-cookie'] ?? [])
        .map((c) => c.split(';')[0])
        .join('; ');
    /** The password step from `ip` on `url`: the waiting sign-in's cookie. */
    async function signIn(
      url: string,
      user: { username: string; password: string },
      ip: string,
    ): Promise<string> {
      const res = await request(url)
        .post('/api/user/login')
        .set('X-Forwarded-For', ip)
        .send({ username: user.username, password: user.password });
      expect(res.body.data).toEqual({ require_2fa: true });
      return cookies(res);
    }
    const secondStep = (url: string, cookie: string, ip: string, value: string) =>
      request(url)
        .post('/api/user/login/2fa')
        .set('Cookie', cookie)
        .set('X-Forwarded-For', ip)
        .send({ code: value });
    const wrong = (secret: string) => async () => {
      const right = await code(secret);
      return right === '000000' ? '000001' : '000000';
    };

    it('two_factor_limit: ends a waiting sign-in after 5 wrong codes, slows the account down, locks its second step after 10 whatever the address and node, refuses the right code while locked, and records it', async () => {
      const user = await makeUser(t, root);
      const { secret } = await enrol(user);
      const bad = wrong(secret);
      const other = await startNode(t);
      try {
        // one waiting sign-in, five addresses: five codes are checked, then the sign-in is over
        const first = await signIn(t.url, user, '10.1.0.1');
        for (let i = 1; i <= 5; i++) {
          const res = await secondStep(t.url, first, `10.1.0.${i}`, await bad());
          expect(res.body).toMatchObject({ success: false, message: '两步验证码错误或已使用' });
        }
        const ended = await secondStep(t.url, first, '10.1.0.6', await code(secret));
        expect(ended.body).toMatchObject({ success: false, message: '登录已过期，请重新输入用户名和密码' });

        // the account now waits between attempts, on the other node too
        let cookie = await signIn(other.url, user, '10.2.0.1');
        const early = await secondStep(other.url, cookie, '10.2.0.2', await bad());
        expect(early.body).toMatchObject({ success: false, message: '两步验证错误次数过多，请 1 秒后再试' });
        let attempts = 1;
        for (const [i, wait] of [2, 3, 5, 9, 17].entries()) {
          advance(wait);
          if (attempts === 5) {
            cookie = await signIn(t.url, user, `10.3.0.${i}`);
            attempts = 0;
          }
          const res = await secondStep(i % 2 ? t.url : other.url, cookie, `10.4.0.${i}`, await bad());
          attempts++;
          expect(res.body).toMatchObject({ success: false, message: '两步验证码错误或已使用' });
        }
        // ten failures: the right code is refused on every node, at sign-in and at step-up, in English too
        const locked = await secondStep(t.url, cookie, '10.5.0.1', await code(secret));
        expect(locked.body).toMatchObject({
          success: false,
          message: '两步验证错误次数过多，已锁定，请 15 分钟后再试',
        });
        const elsewhere = await request(other.url)
          .post('/api/user/login/2fa')
          .set('Cookie', await signIn(other.url, user, '10.5.0.2'))
          .set('X-Forwarded-For', '10.5.0.3')
          .set('Accept-Language', 'en')
          .send({ code: await code(secret) });
        expect(elsewhere.body).toMatchObject({
          success: false,
          message: 'Too many wrong two-factor codes: the second step is locked; try again in 15 minutes',
        });
        const stepUp = await user.post('/api/user/step_up', { code: await code(secret) });
        expect(stepUp.body).toMatchObject({
          success: false,
          message: '两步验证错误次数过多，已锁定，请 15 分钟后再试',
        });

        // the trail names each failure and the lock, with the address
        const trail = async (action: string) =>
          (
            (await root.get(`/api/audit/?page_size=100&action=${action}`).expect(200)).body.data
              .items as Array<Record<string, unknown>>
          ).filter((e) => e.target_id === String(user.userId));
        const mine = [...(await trail('auth.2fa_failed')), ...(await trail('auth.locked'))];
        expect(mine.filter((e) => e.action === 'auth.2fa_failed')).toHaveLength(10);
        expect(mine.filter((e) => e.action === 'auth.locked')).toHaveLength(1);
        expect(mine.map((e) => e.ip)).toContain('10.1.0.3');
        expect(JSON.stringify(mine)).not.toContain(secret);

        // the lock ends; a success starts the count again
        advance(901);
        const after = await secondStep(
          other.url,
          await signIn(t.url, user, '10.6.0.1'),
          '10.6.0.2',
          await code(secret),
        );
        expect(after.body).toMatchObject({ success: true, data: { id: user.userId } });
        advance(30);
        for (let i = 1; i <= 4; i++) {
          const res = await secondStep(
            t.url,
            await signIn(t.url, user, '10.7.0.1'),
            `10.7.0.${i}`,
            await bad(),
          );
          expect(res.body.message).toBe('两步验证码错误或已使用');
        }
      } finally {
        await other.close();
      }
    });

    it('two_factor_limit: 100 wrong codes sent at once from 100 addresses check at most 10 and sign nobody in', async () => {
      const user = await makeUser(t, root);
      const { secret } = await enrol(user);
      const bad = await wrong(secret)();
      const signins = await Promise.all(
        Array.from({ length: 20 }, (_, i) => signIn(t.url, user, `10.8.${i}.1`)),
      );
      const answers = await Promise.all(
        Array.from({ length: 100 }, (_, i) => secondStep(t.url, signins[i % 20], `10.9.${i}.1`, bad)),
      );
      expect(answers.every((a) => a.body.success === false)).toBe(true);
      const checked = answers.filter((a) => a.body.message === '两步验证码错误或已使用');
      expect(checked.length).toBeGreaterThan(0);
      expect(checked.length).toBeLessThanOrEqual(10);
      expect(answers.filter((a) => /已锁定|秒后再试/.test(a.body.message)).length).toBeGreaterThan(0);
      // each checked code, and only those, is in the trail
      const trail = await root.get('/api/audit/?page_size=100&action=auth.2fa_failed').expect(200);
      const mine = (trail.body.data.items as Array<{ target_id: string }>).filter(
        (e) => e.target_id === String(user.userId),
      );
      expect(mine).toHaveLength(checked.length);
    });
  });

  it('lets root require a second factor of admins', async () => {
    const admin = await makeUser(t, root, { role: 'admin' });
    const fresh = await new ApiClient(t.url).login(ROOT.username, ROOT.password);
    await enrol(fresh); // root keeps access itself
    await putOption(fresh, 'AdminTwoFactorRequired', true);
    const refused = await admin.get('/api/user/');
    expect(refused.status).toBe(403);
    expect(refused.body.data).toEqual({ two_factor_required: true });
    expect(refused.body.message).toBe('管理员须先启用两步验证（个人设置 → 安全设置）');
    expect((await admin.get('/api/user/self')).body.success).toBe(true); // own pages stay open to enrol
    expect((await admin.get('/api/user/2fa')).body.data.required_for_admins).toBe(true);
    await enrol(admin);
    expect((await admin.get('/api/user/')).body.success).toBe(true);
  });
});

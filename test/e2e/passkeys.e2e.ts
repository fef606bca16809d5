/**
 * Passkeys with a software authenticator (real P-256 signatures, test/support/soft-authenticator.ts):
 * registration by a signed-in user, sign-in as the second step after a password and without a password,
 * step-up checks, removal, and the refusals (wrong origin, unverified user without a password, another
 * account's passkey, unknown credential, a challenge used twice).
 */
import { Passkey, User } from '../../server/src/database/entities';
import { SoftAuthenticator } from '../support/soft-authenticator';
import request from 'supertest';
import { ApiClient, makeUser, setupRoot, startApp, startNode, TestApp } from '../support/test-app';

describe('passkeys', () => {
  let t: TestApp;
  let root: ApiClient;
  let offset = 0;
  const realNow = Date.now.bind(Date);
  const advance = (seconds: number) => {
    offset += seconds * 1000;
  };

  beforeAll(async () => {
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    t = await startApp();
    root = await setupRoot(t);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t?.close();
  });

  async function addPasskey(client: ApiClient, auth: SoftAuthenticator, name = 'Laptop'): Promise<number> {
    const options = await client.post('/api/user/passkey/register/options').expect(200);
    expect(options.body.success).toBe(true);
    expect(options.body.data.authenticatorSelection).toMatchObject({ residentKey: 'required' });
    const res = await client.post('/api/user/passkey/register', {
      response: auth.register(options.body.data),
      name,
    });
    expect(res.body).toMatchObject({ success: true, data: { name } });
    return res.body.data.id as number;
  }

  /** The passkey step of a sign-in, on a client that may have done the password step. */
  async function passkeyLogin(client: ApiClient, auth: SoftAuthenticator) {
    const options = await client.post('/api/user/passkey/login/options').expect(200);
    return client.post('/api/user/passkey/login', { response: auth.assert(options.body.data) });
  }

  it('registers a passkey; the key is stored, listed by name, and makes sign-in two-step', async () => {
    const user = await makeUser(t, root);
    const auth = new SoftAuthenticator(t.url);
    const id = await addPasskey(user, auth);
    const status = await user.get('/api/user/2fa').expect(200);
    expect(status.body.data).toMatchObject({
      enabled: true,
      totp_enabled: false,
      passkeys: [{ id, name: 'Laptop' }],
    });
    expect((await t.ds.getRepository(User).findOneByOrFail({ id: user.userId! })).two_factor).toBe(true);
    const row = await t.ds.getRepository(Passkey).findOneByOrFail({ id });
    expect(row.credential_id).toBe(auth.credentials[0].id.toString('base64url'));

    // password first, then the passkey
    const c = new ApiClient(t.url);
    const first = await c.post('/api/user/login', { username: user.username, password: user.password });
    expect(first.body.data).toEqual({ require_2fa: true });
    const options = await c.post('/api/user/passkey/login/options').expect(200);
    expect(options.body.data.allowCredentials).toEqual([expect.objectContaining({ id: row.credential_id })]);
    const done = await c.post('/api/user/passkey/login', { response: auth.assert(options.body.data) });
    expect(done.body).toMatchObject({ success: true, data: { id: user.userId, username: user.username } });
    c.userId = user.userId;
    expect((await c.get('/api/user/self')).body.success).toBe(true);
  });

  it('signs in without a password, the passkey naming its account', async () => {
    const user = await makeUser(t, root);
    const auth = new SoftAuthenticator(t.url);
    await addPasskey(user, auth);
    const c = new ApiClient(t.url);
    const res = await passkeyLogin(c, auth);
    expect(res.body).toMatchObject({ success: true, data: { id: user.userId } });
    c.userId = user.userId;
    expect((await c.get('/api/user/self')).body.data.username).toBe(user.username);
    expect(
      (await t.ds.getRepository(Passkey).findOneByOrFail({ user_id: user.userId! })).last_used_at,
    ).toBeGreaterThan(0);
  });

  it('refuses a passkey that did not verify its user when it is the only factor', async () => {
    const user = await makeUser(t, root);
    const auth = new SoftAuthenticator(t.url);
    await addPasskey(user, auth);
    auth.userVerified = false;
    const c = new ApiClient(t.url);
    expect((await passkeyLogin(c, auth)).body).toMatchObject({ success: false, message: '通行密钥验证失败' });
    // after the password it is a second factor, and presence is enough
    await c.post('/api/user/login', { username: user.username, password: user.password }).expect(200);
    expect((await passkeyLogin(c, auth)).body.success).toBe(true);
  });

  it('refuses another origin, another account’s passkey, an unknown credential and a reused challenge', async () => {
    const user = await makeUser(t, root);
    const other = await makeUser(t, root);
    const auth = new SoftAuthenticator(t.url);
    const otherAuth = new SoftAuthenticator(t.url);
    await addPasskey(user, auth);
    await addPasskey(other, otherAuth);

    const phishing = new SoftAuthenticator('https://gatehouse.example.evil');
    phishing.credentials.push(auth.credentials[0]);
    expect((await passkeyLogin(new ApiClient(t.url), phishing)).body.success).toBe(false);

    // the password step of `user`, finished with `other`'s passkey
    const c = new ApiClient(t.url);
    await c.post('/api/user/login', { username: user.username, password: user.password }).expect(200);
    const options = await c.post('/api/user/passkey/login/options').expect(200);
    const foreign = await c.post('/api/user/passkey/login', {
      response: otherAuth.assert({ ...options.body.data, allowCredentials: [] }),
    });
    expect(foreign.body.success).toBe(false);
    c.userId = user.userId;
    expect((await c.get('/api/user/self')).status).toBe(401);

    const stranger = new SoftAuthenticator(t.url);
    stranger.register({ challenge: 'x', rp: { name: 'x' }, user: { id: 'eA', name: 'x' } });
    const unknown = await passkeyLogin(new ApiClient(t.url), stranger);
    expect(unknown.body).toMatchObject({ success: false, message: '此通行密钥未绑定任何账号' });

    const d = new ApiClient(t.url);
    const opts = await d.post('/api/user/passkey/login/options').expect(200);
    const assertion = auth.assert(opts.body.data);
    expect((await d.post('/api/user/passkey/login', { response: assertion })).body.success).toBe(true);
    const again = await d.post('/api/user/passkey/login', { response: assertion });
    expect(again.body).toMatchObject({ success: false, message: '通行密钥验证已过期，请重试' });
  });

  it('passkey_challenge_single_use: a captured registration or sign-in (body and cookie) replayed is refused, on any node, for a passkey without a counter', async () => {
    const user = await makeUser(t, root);
    const auth = new SoftAuthenticator(t.url);
    auth.counting = false; // a synced passkey: its counter stays 0
    const other = await startNode(t);
    try {
      const cookies = (res: request.Response) =>
        ([] as string[])
          .concat(res.headers['set-cookie'] ?? [])
          .map((c) => c.split(';')[0])
          .filter((c) => !c.endsWith('='));
      const signedIn = await request(t.url)
        .post('/api/user/login')
        .send({ username: user.username, password: user.password });
      const session = cookies(signedIn);
      const asUser = (r: request.Test, extra: string[] = []) =>
        r.set('Cookie', [...session, ...extra].join('; ')).set('New-Api-User', String(user.userId));

      // a registration challenge serves one passkey
      const regOptions = await asUser(request(t.url).post('/api/user/passkey/register/options')).send({});
      const challenge = cookies(regOptions);
      const registered = await asUser(request(t.url).post('/api/user/passkey/register'), challenge).send({
        response: auth.register(regOptions.body.data),
        name: 'First',
      });
      expect(registered.body).toMatchObject({ success: true, data: { name: 'First' } });
      for (const url of [t.url, other.url]) {
        const twice = await asUser(request(url).post('/api/user/passkey/register'), challenge).send({
          response: auth.register(regOptions.body.data),
          name: 'Second',
        });
        expect(twice.body).toMatchObject({ success: false, message: '通行密钥验证已过期，请重试' });
      }
      expect(await t.ds.getRepository(Passkey).countBy({ user_id: user.userId! })).toBe(1);

      // a sign-in without a password, seen whole by whoever logs bodies and cookies
      const options = await request(t.url).post('/api/user/passkey/login/options').send({});
      const jar = cookies(options).join('; ');
      const body = { response: auth.assert(options.body.data, auth.credentials[0]) };
      const first = await request(t.url).post('/api/user/passkey/login').set('Cookie', jar).send(body);
      expect(first.body).toMatchObject({ success: true, data: { id: user.userId } });
      for (const url of [t.url, other.url]) {
        const replay = await request(url).post('/api/user/passkey/login').set('Cookie', jar).send(body);
        expect(replay.body).toMatchObject({ success: false, message: '通行密钥验证已过期，请重试' });
        expect(String(replay.headers['set-cookie'] ?? '')).not.toMatch(/(^|,)\s*session=[^;]/);
      }
    } finally {
      await other.close();
    }
  });

  it('refuses an assertion whose signature counter went backwards (a cloned authenticator)', async () => {
    const user = await makeUser(t, root);
    const auth = new SoftAuthenticator(t.url);
    await addPasskey(user, auth);
    expect((await passkeyLogin(new ApiClient(t.url), auth)).body.success).toBe(true);
    auth.credentials[0].counter = 0; // the clone still counts from the start
    expect((await passkeyLogin(new ApiClient(t.url), auth)).body.success).toBe(false);
  });

  it('confirms a step-up check with a passkey, and removes a passkey under one', async () => {
    const user = await makeUser(t, root);
    const auth = new SoftAuthenticator(t.url);
    const id = await addPasskey(user, auth);
    advance(601);
    expect((await user.delete(`/api/user/passkey/${id}`)).status).toBe(403);
    expect((await user.post('/api/user/passkey/register/options')).status).toBe(403);
    const options = await user.post('/api/user/passkey/step_up/options').expect(200);
    const ok = await user.post('/api/user/passkey/step_up', { response: auth.assert(options.body.data) });
    expect(ok.body.success).toBe(true);
    expect((await user.delete(`/api/user/passkey/${id + 1000}`)).body.success).toBe(false);
    expect((await user.delete(`/api/user/passkey/${id}`)).body.success).toBe(true);
    expect((await user.get('/api/user/2fa')).body.data).toMatchObject({ enabled: false, passkeys: [] });
    await new ApiClient(t.url).login(user.username, user.password); // one step again
  });

  it('does not let a user remove or confirm with someone else’s passkey', async () => {
    const user = await makeUser(t, root);
    const other = await makeUser(t, root);
    const otherAuth = new SoftAuthenticator(t.url);
    const otherId = await addPasskey(other, otherAuth);
    expect((await user.delete(`/api/user/passkey/${otherId}`)).body.success).toBe(false);
    const options = await user.post('/api/user/passkey/step_up/options').expect(200);
    expect(options.body.data.allowCredentials).toEqual([]);
    const res = await user.post('/api/user/passkey/step_up', {
      response: otherAuth.assert(options.body.data),
    });
    expect(res.body.success).toBe(false);
    expect(await t.ds.getRepository(Passkey).countBy({ id: otherId })).toBe(1);
  });
});

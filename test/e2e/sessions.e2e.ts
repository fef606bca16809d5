/**
 * When a session ends early: a password change (own, by an administrator, or through an e-mailed reset
 * link) ends every session issued before it, on every node; a logout is remembered across a restart
 * without Redis.
 */
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { CacheResyncService } from '../../server/src/common/cache-resync.service';
import { SessionRevocation, User } from '../../server/src/database/entities';
import { MockSmtp } from '../support/mock-smtp';
import {
  ApiClient,
  makeUser,
  putOption,
  REDIS_URL,
  setupRoot,
  startApp,
  startNode,
  TestApp,
  uname,
} from '../support/test-app';

/** The `name=value` of the session cookie a login answer sets. */
function sessionCookie(res: request.Response): string {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = (raw ?? []).find((c) => c.startsWith('session='));
  if (!cookie) throw new Error('no session cookie set');
  return cookie.split(';')[0];
}

/** Signs in anew and returns the session cookie (a separate browser, in effect). */
async function signIn(url: string, username: string, password: string): Promise<string> {
  const res = await request(url).post('/api/user/login').send({ username, password });
  if (!res.body.success) throw new Error(`login ${username}: ${res.body.message}`);
  return sessionCookie(res);
}

/** The status of GET /api/user/self on `url` with a session cookie. */
async function selfWith(url: string, cookie: string, userId: number): Promise<number> {
  return (await request(url).get('/api/user/self').set('Cookie', cookie).set('New-Api-User', String(userId)))
    .status;
}

async function within(ms: number, check: () => Promise<boolean>): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not within ${ms} ms`);
}

describe('sessions end on a password change', () => {
  let t: TestApp;
  let root: ApiClient;
  let smtp: MockSmtp;

  beforeAll(async () => {
    smtp = await MockSmtp.start();
    t = await startApp();
    root = await setupRoot(t);
    await smtp.configure(root);
    await putOption(root, 'ServerAddress', 'https://gw.example.com');
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('changing the own password signs out every other session, and the changing browser stays in', async () => {
    const u = await makeUser(t, root);
    const other = await signIn(t.url, u.username, u.password);
    const before = sessionCookie(
      await u.post('/api/user/login', { username: u.username, password: u.password }),
    );
    expect(await selfWith(t.url, other, u.userId!)).toBe(200);
    expect(await selfWith(t.url, before, u.userId!)).toBe(200);

    const change = await u.put('/api/user/self', {
      password: 'new-password-2',
      original_password: u.password,
    });
    expect(change.body).toMatchObject({ success: true });
    // The browser that made the change got a fresh session...
    const fresh = sessionCookie(change);
    expect(fresh).not.toBe(before);
    expect((await u.get('/api/user/self')).status).toBe(200);
    // ...while every session issued before the change, its own old cookie included, is refused.
    expect(await selfWith(t.url, other, u.userId!)).toBe(401);
    expect(await selfWith(t.url, before, u.userId!)).toBe(401);
    const refused = await request(t.url)
      .get('/api/user/self')
      .set('Cookie', other)
      .set('New-Api-User', String(u.userId));
    expect(refused.body).toMatchObject({ success: false, message: '未登录或登录已过期，请重新登录' });
    // Signing in again with the new password works; the old password does not.
    expect(await selfWith(t.url, await signIn(t.url, u.username, 'new-password-2'), u.userId!)).toBe(200);
    const old = await request(t.url)
      .post('/api/user/login')
      .send({ username: u.username, password: u.password });
    expect(old.body.success).toBe(false);
  });

  it('a change of the display name alone ends no session', async () => {
    const u = await makeUser(t, root);
    const other = await signIn(t.url, u.username, u.password);
    expect((await u.put('/api/user/self', { display_name: uname('dn') })).body.success).toBe(true);
    expect(await selfWith(t.url, other, u.userId!)).toBe(200);
  });

  it('access_token_scope: a password change with an access token is refused and ends no session', async () => {
    const u = await makeUser(t, root);
    const session = await signIn(t.url, u.username, u.password);
    const token = (await u.get('/api/user/token')).body.data as string;
    const res = await request(t.url)
      .put('/api/user/self')
      .set('Authorization', `Bearer ${token}`)
      .set('New-Api-User', String(u.userId))
      .send({ password: 'new-password-3', original_password: u.password });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      success: false,
      message: '访问令牌不能执行此操作，请在已登录的控制台中操作',
    });
    expect(await selfWith(t.url, session, u.userId!)).toBe(200);
    expect((await u.get('/api/user/self')).status).toBe(200);
    await signIn(t.url, u.username, u.password);
  });

  it('a password set by an administrator ends every session of that user, and no one else’s', async () => {
    const u = await makeUser(t, root);
    const bystander = await makeUser(t, root);
    const other = await signIn(t.url, u.username, u.password);
    const res = await root.put('/api/user/', { id: u.userId, password: 'admin-set-pass-4' });
    expect(res.body.success).toBe(true);
    expect((await u.get('/api/user/self')).status).toBe(401);
    expect(await selfWith(t.url, other, u.userId!)).toBe(401);
    expect((await bystander.get('/api/user/self')).status).toBe(200);
    expect((await root.get('/api/user/self')).status).toBe(200);
    // An update that does not touch the password ends nothing.
    const v = await makeUser(t, root);
    expect((await root.put('/api/user/', { id: v.userId, display_name: uname('dv') })).body.success).toBe(
      true,
    );
    expect((await v.get('/api/user/self')).status).toBe(200);
  });

  it('a password reset through the e-mailed link ends every session', async () => {
    const u = await makeUser(t, root);
    const addr = `${uname('rs')}@example.com`.toLowerCase();
    await t.ds.getRepository(User).update({ id: u.userId! }, { email: addr });
    const other = await signIn(t.url, u.username, u.password);
    expect(
      (await request(t.url).get(`/api/reset_password?email=${encodeURIComponent(addr)}`)).body.success,
    ).toBe(true);
    const mail = await smtp.waitFor(addr);
    const m = /\/user\/reset\?email=([^&"<\s]+)&(?:amp;)?token=([A-Za-z0-9]+)/.exec(mail.body);
    if (!m) throw new Error(`no reset link in ${mail.body}`);
    const done = await request(t.url)
      .post('/api/user/reset')
      .send({ email: decodeURIComponent(m[1]), token: m[2] });
    expect(done.body.success).toBe(true);
    expect((await u.get('/api/user/self')).status).toBe(401);
    expect(await selfWith(t.url, other, u.userId!)).toBe(401);
    expect(await selfWith(t.url, await signIn(t.url, u.username, done.body.data as string), u.userId!)).toBe(
      200,
    );
  });
});

describe('sessions across a restart and across nodes without Redis', () => {
  it('a logout is still refused after the node restarts', async () => {
    const first = await startApp();
    let second: TestApp | null = null;
    try {
      const root = await setupRoot(first);
      const u = await makeUser(first, root);
      const kept = await signIn(first.url, u.username, u.password);
      const ended = await signIn(first.url, u.username, u.password);
      const out = await request(first.url).get('/api/user/logout').set('Cookie', ended).expect(200);
      expect(out.body.success).toBe(true);
      expect(await selfWith(first.url, ended, u.userId!)).toBe(401);

      await first.app.close(); // the restart: same database, same secrets, nothing kept in memory
      second = await startNode(first);
      expect(await selfWith(second.url, ended, u.userId!)).toBe(401);
      expect(await selfWith(second.url, kept, u.userId!)).toBe(200);
    } finally {
      await second?.close();
      await first.db.drop();
    }
  });

  it('a logout and a password change on one node reach the other at its next resync', async () => {
    const a = await startApp({ SYNC_FREQUENCY: '3600' });
    const b = await startNode(a, { SYNC_FREQUENCY: '3600', NODE_TYPE: 'slave' });
    try {
      const root = await setupRoot(a);
      const u = await makeUser(a, root);
      const loggedOut = await signIn(a.url, u.username, u.password);
      expect(await selfWith(b.url, loggedOut, u.userId!)).toBe(200);
      await request(a.url).get('/api/user/logout').set('Cookie', loggedOut).expect(200);

      const v = await makeUser(a, root);
      const onB = await signIn(b.url, v.username, v.password);
      expect(await selfWith(b.url, onB, v.userId!)).toBe(200); // B now holds v in its cache
      const change = await v.put('/api/user/self', {
        password: 'new-password-5',
        original_password: v.password,
      });
      expect(change.body.success).toBe(true);

      b.app.get(CacheResyncService).resync();
      await within(2000, async () => (await selfWith(b.url, loggedOut, u.userId!)) === 401);
      expect(await selfWith(b.url, onB, v.userId!)).toBe(401);
      expect(await selfWith(b.url, sessionCookie(change), v.userId!)).toBe(200);
    } finally {
      await b.close();
      await a.close();
    }
  });
});

describe('sessions across nodes with Redis', () => {
  const env = {
    REDIS_CONN_STRING: REDIS_URL,
    REDIS_PREFIX: `gh-test-${randomBytes(4).toString('hex')}`,
    SYNC_FREQUENCY: '3600',
  };
  let a: TestApp;
  let b: TestApp;
  let root: ApiClient;

  beforeAll(async () => {
    a = await startApp(env);
    b = await startNode(a, { ...env, NODE_TYPE: 'slave' });
    root = await setupRoot(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('a password changed on node A ends the user’s sessions on node B within a second', async () => {
    const u = await makeUser(a, root);
    const onB = await signIn(b.url, u.username, u.password);
    expect(await selfWith(b.url, onB, u.userId!)).toBe(200);
    const change = await u.put('/api/user/self', {
      password: 'new-password-6',
      original_password: u.password,
    });
    expect(change.body.success).toBe(true);
    await within(1000, async () => (await selfWith(b.url, onB, u.userId!)) === 401);
    expect(await selfWith(b.url, sessionCookie(change), u.userId!)).toBe(200);
  });

  it('revocations an earlier version kept only in Redis still hold after the upgrade', async () => {
    const u = await makeUser(a, root);
    const cookie = await signIn(a.url, u.username, u.password);
    const sid = decodeURIComponent(cookie.slice('session='.length)).split('.')[0];
    const redis = new Redis(REDIS_URL);
    await redis.zadd(`${env.REDIS_PREFIX}:sessions:revoked`, Math.floor(Date.now() / 1000) + 3600, sid);
    await redis.quit();
    const upgraded = await startNode(a, env); // a master node of the new version
    try {
      expect(await selfWith(upgraded.url, cookie, u.userId!)).toBe(401);
      expect(await upgraded.ds.getRepository(SessionRevocation).countBy({ sid })).toBe(1);
    } finally {
      await upgraded.close();
    }
  });

  it('a password set by root on node B ends the sessions held on node A within a second', async () => {
    const u = await makeUser(a, root);
    expect((await u.get('/api/user/self')).status).toBe(200);
    const rootOnB = new ApiClient(b.url);
    await rootOnB.login('root', 'root-pass-1');
    expect(
      (await rootOnB.put('/api/user/', { id: u.userId, password: 'root-set-pass-7' })).body.success,
    ).toBe(true);
    await within(1000, async () => (await u.get('/api/user/self')).status === 401);
  });
});

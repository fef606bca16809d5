import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import request from 'supertest';
import { CacheResyncService } from '../../server/src/common/cache-resync.service';
import { ChannelTestService } from '../../server/src/modules/relay/channel-test.service';
import { TaskPoller } from '../../server/src/modules/task/task-poller.service';
import { ApiClient, makeUser, REDIS_URL, setupRoot, startApp, startNode, TestApp } from '../support/test-app';

/** Polls until `check` passes or the deadline; returns how long it took in ms. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not within ${ms} ms`);
}

/** Two server processes on one database and one real Redis: what one node changes, the other obeys. */
describe('two nodes sharing the database and Redis', () => {
  const prefix = `gh-test-${randomBytes(4).toString('hex')}`;
  const env = {
    REDIS_CONN_STRING: REDIS_URL,
    REDIS_PREFIX: prefix,
    SYNC_FREQUENCY: '3600',
    CHANNEL_TEST_FREQUENCY: '30',
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
    await b.close();
    await a.close();
  });

  it('publishes cache events on the configured Redis channel', async () => {
    const spy = new Redis(REDIS_URL);
    const seen: string[] = [];
    await spy.subscribe(`${prefix}:cache`);
    spy.on('message', (_c: string, m: string) => seen.push(m));
    await root.put('/api/option/', { key: 'Notice', value: 'hello' }).expect(200);
    await within(1000, async () => seen.some((m) => JSON.parse(m).topic === 'options'));
    await spy.quit();
  });

  it('an option changed on node A shows on node B within a second', async () => {
    const name = `Gate-${randomBytes(3).toString('hex')}`;
    const before = await request(b.url).get('/api/status').expect(200);
    expect(before.body.data.system_name).not.toBe(name);
    const res = await root.put('/api/option/', { key: 'SystemName', value: name }).expect(200);
    expect(res.body.success).toBe(true);
    await within(1000, async () => (await request(b.url).get('/api/status')).body.data.system_name === name);
  });

  it('a user banned on node A is refused by node B within a second', async () => {
    const user = await makeUser(a, root);
    const cookie = (await user.get('/api/user/self').expect(200)).request.cookies;
    const onB = () =>
      request(b.url).get('/api/user/self').set('Cookie', cookie).set('New-Api-User', String(user.userId));
    // B has this user cached as enabled.
    expect((await onB().expect(200)).body.data.username).toBe(user.username);
    const ban = await root.post('/api/user/manage', { id: user.userId, action: 'disable' }).expect(200);
    expect(ban.body.data.status).toBe(2);
    await within(1000, async () => (await onB()).status === 403);
  });

  it('a logout on node A revokes the session on node B', async () => {
    const user = await makeUser(a, root);
    const cookie = (await user.get('/api/user/self').expect(200)).request.cookies;
    const onB = () =>
      request(b.url).get('/api/user/self').set('Cookie', cookie).set('New-Api-User', String(user.userId));
    expect((await onB()).status).toBe(200);
    await user.get('/api/user/logout').expect(200);
    await within(1000, async () => (await onB()).status === 401);
  });

  it('a node started after a logout refuses the revoked session (revocations are kept in the database)', async () => {
    const user = await makeUser(a, root);
    const cookie = (await user.get('/api/user/self').expect(200)).request.cookies;
    await user.get('/api/user/logout').expect(200);
    const c = await startNode(a, { ...env, NODE_TYPE: 'slave' });
    try {
      const res = await request(c.url)
        .get('/api/user/self')
        .set('Cookie', cookie)
        .set('New-Api-User', String(user.userId));
      expect(res.status).toBe(401);
    } finally {
      await c.close();
    }
  });

  it('the periodic resync drops what a node missed (a change made without any message)', async () => {
    const user = await makeUser(a, root);
    const cookie = (await user.get('/api/user/self').expect(200)).request.cookies;
    const onB = () =>
      request(b.url).get('/api/user/self').set('Cookie', cookie).set('New-Api-User', String(user.userId));
    expect((await onB()).status).toBe(200);
    // Banned behind the application's back: no node is told.
    await b.ds
      .createQueryBuilder()
      .update('users')
      .set({ status: 2 })
      .where('id = :id', { id: user.userId })
      .execute();
    expect((await onB()).status).toBe(200);
    b.app.get(CacheResyncService).resync();
    expect((await onB()).status).toBe(403);
  });

  it('only the master node runs background jobs', () => {
    expect(a.app.get(TaskPoller).active).toBe(true);
    expect(b.app.get(TaskPoller).active).toBe(false);
    expect(a.app.get(ChannelTestService)['timer']).not.toBeNull();
    expect(b.app.get(ChannelTestService)['timer']).toBeNull();
  });
});

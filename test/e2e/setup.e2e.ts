import request from 'supertest';
import { Role, Setup, User } from '../../server/src/database/entities';
import { ApiClient, startApp, TestApp } from '../support/test-app';
import { currentDriver } from '../support/databases';

describe('first-run setup', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('reports the state and the database type before setup', async () => {
    const res = await request(t.url).get('/api/setup').expect(200);
    const expected = { sqlite: 'sqlite', mysql: 'mysql', postgres: 'postgres' }[currentDriver()];
    expect(res.body).toEqual({
      success: true,
      message: '',
      data: { status: false, root_init: false, database_type: expected },
    });
    const status = await request(t.url).get('/api/status').expect(200);
    expect(status.body.data.setup).toBe(false);
  });

  it('answers other API calls with setup_required until setup is done', async () => {
    const res = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'a', password: 'b' })
      .expect(200);
    expect(res.body).toEqual({
      success: false,
      message: expect.stringContaining('初始化'),
      data: { setup_required: true },
    });
    const en = await request(t.url).get('/api/user/self').set('Accept-Language', 'en-US').expect(200);
    expect(en.body.message).toMatch(/not initialized/);
  });

  it.each([
    [{ username: '', password: '12345678', confirmPassword: '12345678' }, '请输入管理员用户名'],
    [{ username: '   ', password: '12345678', confirmPassword: '12345678' }, '请输入管理员用户名'],
    [{ username: 'abcdefghijklm', password: '12345678', confirmPassword: '12345678' }, '12'],
    [{ username: 'root', password: '1234567', confirmPassword: '1234567' }, '8'],
    [{ username: 'root', password: '12345678', confirmPassword: '12345679' }, '不一致'],
    [{ username: 'root', password: 12345678, confirmPassword: 12345678 }, '无效的参数'],
  ])('refuses bad input %j', async (body, message) => {
    const res = await request(t.url).post('/api/setup').send(body).expect(200);
    expect(res.body.success).toBe(false);
    expect(res.body.message).toContain(message);
    expect(await t.ds.getRepository(User).count()).toBe(0);
    expect(await t.ds.getRepository(Setup).count()).toBe(0);
  });

  it('creates root exactly once, even when two setups race', async () => {
    const body = {
      username: 'boss',
      password: 'boss-pass-1',
      confirmPassword: 'boss-pass-1',
      SelfUseModeEnabled: true,
    };
    const [a, b] = await Promise.all([
      request(t.url).post('/api/setup').send(body),
      request(t.url)
        .post('/api/setup')
        .send({ ...body, username: 'boss2' }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const wins = [a, b].filter((r) => r.body.success);
    expect(wins).toHaveLength(1);
    const users = await t.ds.getRepository(User).find();
    expect(users).toHaveLength(1);
    expect(users[0].role).toBe(Role.Root);
    expect(users[0].quota).toBe(100000000);
    const again = await request(t.url).post('/api/setup').send(body).expect(200);
    expect(again.body).toMatchObject({ success: false, message: '系统已经初始化完成' });
    const state = await request(t.url).get('/api/setup').expect(200);
    expect(state.body.data).toMatchObject({ status: true, root_init: true });
    const status = await request(t.url).get('/api/status').expect(200);
    expect(status.body.data).toMatchObject({
      setup: true,
      self_use_mode_enabled: true,
      demo_site_enabled: false,
    });
  });

  it('lets root sign in afterwards', async () => {
    const root = await new ApiClient(t.url)
      .login('boss', 'boss-pass-1')
      .catch(() => new ApiClient(t.url).login('boss2', 'boss-pass-1'));
    const self = await root.get('/api/user/self').expect(200);
    expect(self.body.data.role).toBe(Role.Root);
    expect(self.body.data).not.toHaveProperty('password');
  });
});

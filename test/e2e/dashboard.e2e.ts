/**
 * The dashboard (`/api/data/`, `/api/data/self/`): usage per model in hour, day or week buckets from
 * the quota_data aggregates that settling requests write, checked against the consume logs of the
 * same traffic; DataExportEnabled (off: nothing written) and DataExportInterval (the aggregate's time
 * resolution); filters, isolation and bad input.
 */
import request from 'supertest';
import { LogEntry, QuotaData } from '../../server/src/database/entities';
import { bucketStart } from '../../server/src/modules/dashboard/buckets';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

interface Point {
  model_name: string;
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

const local = (y: number, mo: number, d: number, h = 0, mi = 0) =>
  new Date(y, mo - 1, d, h, mi).getTime() / 1000;

describe('dashboard data', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let alice: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;
  let aliceKey: string;
  let bobKey: string;

  const chat = (key: string, model = 'gpt-4o', content = '[[usage=10,5]]') =>
    request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model, messages: [{ role: 'user', content }] });

  async function data(client: ApiClient, path: string): Promise<Point[]> {
    const res = await client.get(path);
    expect(res.status).toBe(200);
    if (!res.body.success) throw new Error(`refused: ${res.body.message}`);
    // The series' user (new-api's fields) is checked in new-api-shapes.e2e.ts; the figures here.
    return (res.body.data as Point[]).map(({ model_name, created_at, count, quota, token_used }) => ({
      model_name,
      created_at,
      count,
      quota,
      token_used,
    }));
  }
  const refused = async (res: request.Response, message: string) => {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, data: null });
    expect(res.body.message).toContain(message);
  };
  const statRows = (userId: number) =>
    t.ds.getRepository(QuotaData).find({ where: { user_id: userId }, order: { created_at: 'ASC' } });
  const consumeLogs = (userId: number) => t.ds.getRepository(LogEntry).findBy({ user_id: userId, type: 2 });

  /** Rows of past usage, as a settled request would have written them. */
  async function past(
    userId: number,
    username: string,
    model: string,
    at: number,
    count: number,
    quota: number,
  ) {
    await t.ds.getRepository(QuotaData).insert({
      user_id: userId,
      username,
      model_name: model,
      created_at: at,
      count,
      quota,
      token_used: count * 15,
      node_name: 'test',
    });
  }

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    alice = await makeUser(t, root);
    bob = await makeUser(t, root);
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify({ 'gpt-4o': 1.25, 'gpt-4o-mini': 0.5, 'x%y_z': 1, xAyBz: 1 }),
    );
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o,gpt-4o-mini,x%y_z,xAyBz', auto_ban: 0 });
    for (const u of [alice, bob]) await setQuota(t, u.userId!, 50_000_000);
    aliceKey = (await makeToken(t, alice.userId!)).key;
    bobKey = (await makeToken(t, bob.userId!)).key;
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  it('aggregates settled traffic into quota_data: counts, quota and tokens equal the consume logs', async () => {
    for (let i = 0; i < 3; i++) expect((await chat(aliceKey)).status).toBe(200);
    expect((await chat(aliceKey, 'gpt-4o-mini', '[[usage=20,10]]')).status).toBe(200);
    // A failed request is refunded and not counted.
    expect((await chat(aliceKey, 'gpt-4o', '[[status=400]]')).status).toBe(400);
    expect((await chat(bobKey)).status).toBe(200);
    await settle(t);

    const logs = await consumeLogs(alice.userId!);
    const hour = bucketStart(Math.floor(Date.now() / 1000), 'hour');
    const points = await data(alice, '/api/data/self/?default_time=hour');
    for (const model of ['gpt-4o', 'gpt-4o-mini']) {
      const mine = logs.filter((l) => l.model_name === model);
      const p = points.filter((x) => x.model_name === model);
      expect(p.length).toBeGreaterThanOrEqual(1);
      const total = (k: 'count' | 'quota' | 'token_used') => p.reduce((s, x) => s + x[k], 0);
      expect({ count: total('count'), quota: total('quota'), token_used: total('token_used') }).toEqual({
        count: mine.length,
        quota: mine.reduce((s, l) => s + Number(l.quota), 0),
        token_used: mine.reduce((s, l) => s + l.prompt_tokens + l.completion_tokens, 0),
      });
      // The traffic of the last seconds lies in this hour or (at an hour's turn) the one before.
      for (const x of p) expect([hour, hour - 3600]).toContain(x.created_at);
    }
    expect(points.find((p) => p.model_name === 'gpt-4o')).toMatchObject({ count: 3, token_used: 45 });
  });

  it('writes one row per DataExportInterval minutes (default 5), aligned to the interval', async () => {
    const rows = await statRows(alice.userId!);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(Number(r.created_at) % 300).toBe(0);

    await putOption(root, 'DataExportInterval', 60);
    try {
      expect((await chat(aliceKey, 'x%y_z')).status).toBe(200);
      await settle(t);
      const hourly = (await statRows(alice.userId!)).filter((r) => r.model_name === 'x%y_z');
      expect(hourly).toHaveLength(1);
      expect(Number(hourly[0].created_at) % 3600).toBe(0);
    } finally {
      await putOption(root, 'DataExportInterval', 5);
    }
  });

  it('writes nothing while DataExportEnabled is off, and still bills', async () => {
    const before = JSON.stringify(await statRows(bob.userId!));
    const logsBefore = (await consumeLogs(bob.userId!)).length;
    await putOption(root, 'DataExportEnabled', false);
    try {
      expect((await chat(bobKey)).status).toBe(200);
      expect((await chat(bobKey, 'gpt-4o-mini')).status).toBe(200);
      await settle(t);
      expect(JSON.stringify(await statRows(bob.userId!))).toBe(before);
      expect((await consumeLogs(bob.userId!)).length).toBe(logsBefore + 2);
    } finally {
      await putOption(root, 'DataExportEnabled', true);
    }
    expect((await chat(bobKey)).status).toBe(200);
    await settle(t);
    expect(JSON.stringify(await statRows(bob.userId!))).not.toBe(before);
  });

  it('buckets by hour, day or week (Monday) in local time, default from DataExportDefaultTime', async () => {
    // Wednesday 2025-03-12 (10:05 and 10:40, 15:00), Thursday 03-13, Monday 03-17.
    const u = alice.userId!;
    await past(u, alice.username, 'old-model', local(2025, 3, 12, 10, 5), 2, 100);
    await past(u, alice.username, 'old-model', local(2025, 3, 12, 10, 40), 1, 50);
    await past(u, alice.username, 'old-model', local(2025, 3, 12, 15), 4, 40);
    await past(u, alice.username, 'old-model', local(2025, 3, 13, 9), 3, 30);
    await past(u, alice.username, 'old-model', local(2025, 3, 17, 1), 5, 5);
    const range = `start_timestamp=${local(2025, 3, 1)}&end_timestamp=${local(2025, 3, 31)}`;

    expect(await data(alice, `/api/data/self/?${range}&default_time=hour`)).toEqual([
      { model_name: 'old-model', created_at: local(2025, 3, 12, 10), count: 3, quota: 150, token_used: 45 },
      { model_name: 'old-model', created_at: local(2025, 3, 12, 15), count: 4, quota: 40, token_used: 60 },
      { model_name: 'old-model', created_at: local(2025, 3, 13, 9), count: 3, quota: 30, token_used: 45 },
      { model_name: 'old-model', created_at: local(2025, 3, 17, 1), count: 5, quota: 5, token_used: 75 },
    ]);
    expect(await data(alice, `/api/data/self/?${range}&default_time=day`)).toEqual([
      { model_name: 'old-model', created_at: local(2025, 3, 12), count: 7, quota: 190, token_used: 105 },
      { model_name: 'old-model', created_at: local(2025, 3, 13), count: 3, quota: 30, token_used: 45 },
      { model_name: 'old-model', created_at: local(2025, 3, 17), count: 5, quota: 5, token_used: 75 },
    ]);
    const weekly = [
      { model_name: 'old-model', created_at: local(2025, 3, 10), count: 10, quota: 220, token_used: 150 },
      { model_name: 'old-model', created_at: local(2025, 3, 17), count: 5, quota: 5, token_used: 75 },
    ];
    expect(await data(alice, `/api/data/self/?${range}&default_time=week`)).toEqual(weekly);
    // Without default_time, the DataExportDefaultTime option decides (also accepted as `granularity`).
    await putOption(root, 'DataExportDefaultTime', 'week');
    try {
      expect(await data(alice, `/api/data/self/?${range}`)).toEqual(weekly);
    } finally {
      await putOption(root, 'DataExportDefaultTime', 'hour');
    }
    expect(await data(alice, `/api/data/self/?${range}`)).toHaveLength(4);
    expect(await data(alice, `/api/data/self/?${range}&granularity=day`)).toHaveLength(3);

    // The range is inclusive of both ends, on the stored bucket start.
    const oneDay = `start_timestamp=${local(2025, 3, 12, 10, 40)}&end_timestamp=${local(2025, 3, 12, 15)}`;
    expect(await data(alice, `/api/data/self/?${oneDay}&default_time=day`)).toEqual([
      { model_name: 'old-model', created_at: local(2025, 3, 12), count: 5, quota: 90, token_used: 75 },
    ]);
    // Without a start: the last 7 days before the end.
    const end = local(2025, 3, 18);
    expect(
      (await data(alice, `/api/data/self/?end_timestamp=${end}&default_time=week`)).map((p) => p.count),
    ).toEqual([10, 5]);
    expect(await data(alice, `/api/data/self/?end_timestamp=${local(2025, 3, 11)}`)).toEqual([]);
    // Without any range: the last 7 days until now (today's traffic, none of March 2025).
    expect((await data(alice, '/api/data/self/')).every((p) => p.model_name !== 'old-model')).toBe(true);
  });

  it('gives admins everyone’s usage summed per model, or one user’s by name, and filters models literally', async () => {
    const range = `start_timestamp=${Math.floor(Date.now() / 1000) - 86400}&default_time=day`;
    const everyone = await data(admin, `/api/data/?${range}`);
    const all = await t.ds.getRepository(QuotaData).find();
    const recent = all.filter((r) => Number(r.created_at) >= Math.floor(Date.now() / 1000) - 86400);
    const sum = (model: string) =>
      recent.filter((r) => r.model_name === model).reduce((s, r) => s + Number(r.count), 0);
    for (const model of ['gpt-4o', 'gpt-4o-mini'])
      expect(everyone.filter((p) => p.model_name === model).reduce((s, p) => s + p.count, 0)).toBe(
        sum(model),
      );
    const ofBob = await data(admin, `/api/data/?${range}&username=${bob.username}`);
    const bobRows = recent.filter((r) => r.user_id === bob.userId);
    expect(ofBob.reduce((s, p) => s + p.count, 0)).toBe(bobRows.reduce((s, r) => s + Number(r.count), 0));
    expect(ofBob.reduce((s, p) => s + p.count, 0)).toBeLessThan(everyone.reduce((s, p) => s + p.count, 0));
    expect(await data(admin, `/api/data/?${range}&username=nobody-at-all`)).toEqual([]);
    expect(await data(admin, `/api/data/?${range}&username=${encodeURIComponent('%')}`)).toEqual([]);

    expect((await chat(aliceKey, 'xAyBz')).status).toBe(200);
    await settle(t);
    const lit = await data(admin, `/api/data/?${range}&model_name=${encodeURIComponent('x%y_z')}`);
    expect(lit.map((p) => p.model_name)).toEqual(['x%y_z']);
    const pct = await data(admin, `/api/data/?${range}&model_name=${encodeURIComponent('%')}`);
    expect(pct.map((p) => p.model_name)).toEqual(['x%y_z']);
    const both = await data(admin, `/api/data/?${range}&model_name=x`);
    expect(both.map((p) => p.model_name).sort()).toEqual(['x%y_z', 'xAyBz']);
  });

  it('shows a user only their own usage, whatever they ask for', async () => {
    const range = `start_timestamp=${local(2025, 1, 1)}`;
    const bobs = await data(bob, `/api/data/self/?${range}&username=${alice.username}`);
    const bobRows = await statRows(bob.userId!);
    expect(bobs.reduce((s, p) => s + p.count, 0)).toBe(bobRows.reduce((s, r) => s + Number(r.count), 0));
    expect(bobs.some((p) => p.model_name === 'old-model')).toBe(false);
    expect((await bob.get('/api/data/')).status).toBe(403);
    expect((await request(t.url).get('/api/data/self')).status).toBe(401);
    expect((await request(t.url).get('/api/data')).status).toBe(401);
  });

  it('refuses bad input with a clear message', async () => {
    await refused(await alice.get('/api/data/self/?default_time=month'), '时间粒度必须是 hour、day 或 week');
    const en = await alice.get('/api/data/self/?default_time=HOUR').set('Accept-Language', 'en');
    expect(en.body.message).toBe('The time granularity must be hour, day or week');
    await refused(await alice.get('/api/data/self/?start_timestamp=abc'), '查询参数');
    await refused(await alice.get('/api/data/self/?end_timestamp=-1'), '查询参数');
    await refused(await alice.get(`/api/data/self/?end_timestamp=${Date.now()}000`), '查询参数');
    await refused(await admin.get('/api/data/?username=a&username=b'), '查询参数');
    await refused(await admin.get(`/api/data/?model_name=${'m'.repeat(200)}`), '查询参数');
    // An inverted range is empty, not an error.
    expect(
      await data(
        alice,
        `/api/data/self/?start_timestamp=${local(2025, 3, 20)}&end_timestamp=${local(2025, 3, 1)}`,
      ),
    ).toEqual([]);
    // The widest range is fine.
    expect(
      (await data(admin, '/api/data/?start_timestamp=0&end_timestamp=253402300799&default_time=week')).length,
    ).toBeGreaterThan(0);
  });
});

/**
 * Usage logs as the console reads them: everyone's (admins) with every filter of the spec, the
 * caller's own (no channel, no admin_info), a token's own by its key, the {quota, rpm, tpm} summary
 * checked against the rows, clearing old logs, the log's user popup and the management logs of
 * channel administration. Log rows come from real relay traffic against the mock upstream.
 */
import request from 'supertest';
import { LogFilterIndexes1763900000400 } from '../../migrations/1763900000400-log-filter-indexes';
import { LogEntry, Token } from '../../server/src/database/entities';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp, uname } from '../support/test-app';
import { DataSource } from 'typeorm';
import { DropLogModelIndex1795700300000 } from '../../migrations/1795700300000-drop-log-model-index';

/** The index's key columns in key order, as the database itself reports them; [] when absent. */
const keyColumns = async (ds: DataSource, name: string): Promise<string[]> => {
  const type = ds.options.type;
  if (type === 'postgres') {
    const rows: Array<{ indexdef: string }> = await ds.query(
      `SELECT indexdef FROM pg_indexes WHERE tablename = 'logs' AND indexname = $1`,
      [name],
    );
    const m = rows[0] ? /\(([^)]*)\)/.exec(rows[0].indexdef) : null;
    return m ? m[1].split(',').map((c) => c.trim().replace(/"/g, '')) : [];
  }
  if (type === 'mysql' || type === 'mariadb') {
    const rows: Array<{ Column_name: string; Seq_in_index: number }> = await ds.query(
      'SHOW INDEX FROM `logs` WHERE Key_name = ?',
      [name],
    );
    return rows.sort((a, b) => Number(a.Seq_in_index) - Number(b.Seq_in_index)).map((r) => r.Column_name);
  }
  const rows: Array<{ seqno: number; name: string }> = await ds.query(`PRAGMA index_info('${name}')`);
  return rows.sort((a, b) => a.seqno - b.seqno).map((r) => r.name);
};

interface Item {
  id: number;
  created_at: number;
  type: number;
  content: string;
  user_id: number;
  username: string;
  token_id: number;
  token_name: string;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  group: string;
  ip: string;
  request_id: string;
  other: string;
  channel?: number;
  channel_name?: string;
  node_name?: string;
}

const MSG = {
  invalid: '查询参数',
  target: '请选择日志记录时间',
  tokenRequired: '请提供令牌',
  tokenInvalid: '无效的令牌',
  tokenDisabled: '该令牌已被禁用',
  tokenUser: '该令牌的用户已被封禁或注销',
  userNotFound: '用户不存在',
};

/** Model names with LIKE wildcards, and look-alikes a wildcard would match. */
const LIT = 'lit%mod_1';
const LOOK = 'litXmodY1';

const OWN_KEYS = [
  'id',
  'created_at',
  'type',
  'content',
  'user_id',
  'username',
  'token_id',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'group',
  'ip',
  'request_id',
  'other',
].sort();
const ADMIN_KEYS = [...OWN_KEYS, 'channel', 'channel_name', 'node_name'].sort();

describe('usage logs', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let alice: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;
  /** Users whose names hold LIKE wildcards, and a look-alike. */
  let pct: Awaited<ReturnType<typeof makeUser>>;
  let pctLook: Awaited<ReturnType<typeof makeUser>>;
  let chA: number;
  let chB: number;
  const chAName = `logs-a-${Date.now() % 100000}`;
  const chBName = `logs-b-${Date.now() % 100000}`;
  let aliceA: { id: number; key: string; name: string };
  let aliceVip: { id: number; key: string; name: string };
  let bobKey: { id: number; key: string; name: string };
  /** The request id of one of alice's calls (X-Oneapi-Request-Id). */
  let aliceRequestId = '';

  const rows = (where: Partial<Record<keyof LogEntry, unknown>> = {}) =>
    t.ds.getRepository(LogEntry).find({ where: where as never, order: { id: 'DESC' } });

  const chat = (key: string, model = 'gpt-4o', content = 'hi') =>
    request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({ model, messages: [{ role: 'user', content }] });

  async function ok<T = unknown>(res: request.Response): Promise<T> {
    expect(res.status).toBe(200);
    if (!res.body.success) throw new Error(`refused: ${res.body.message}`);
    return res.body.data as T;
  }
  const list = async (client: ApiClient, path: string) =>
    ok<{ items: Item[]; total: number; page: number; page_size: number }>(await client.get(path));
  const refused = async (res: request.Response, message: string) => {
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, data: null });
    expect(res.body.message).toContain(message);
  };

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    alice = await makeUser(t, root);
    bob = await makeUser(t, root);
    pct = await makeUser(t, root, { username: uname('a%_') });
    pctLook = await makeUser(t, root, { username: pct.username.replace('%', 'X').replace('_', 'Y') });
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify({ 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, [LIT]: 1, [LOOK]: 2 }),
    );
    chA = await makeChannel(t, {
      name: chAName,
      base_url: mock.url,
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default,vip',
      auto_ban: 0,
    });
    chB = await makeChannel(t, { name: chBName, base_url: mock.url, models: `${LIT},${LOOK}`, auto_ban: 0 });
    for (const u of [alice, bob, pct, pctLook]) await setQuota(t, u.userId!, 50_000_000);
    aliceA = { ...(await makeToken(t, alice.userId!, { name: 'alice-a' })), name: 'alice-a' };
    aliceVip = {
      ...(await makeToken(t, alice.userId!, { name: 'alice-vip', group: 'vip' })),
      name: 'alice-vip',
    };
    bobKey = { ...(await makeToken(t, bob.userId!, { name: 'bob-main' })), name: 'bob-main' };
    const pctKey = (await makeToken(t, pct.userId!, { name: 'p' })).key;
    const lookKey = (await makeToken(t, pctLook.userId!, { name: 'p' })).key;

    // alice: 3 × gpt-4o, 1 × gpt-4o-mini in vip, one of each look-alike model, one upstream failure
    for (let i = 0; i < 3; i++) {
      const res = await chat(aliceA.key, 'gpt-4o', '[[usage=10,5]]');
      expect(res.status).toBe(200);
      aliceRequestId = String(res.headers['x-oneapi-request-id']);
    }
    expect((await chat(aliceVip.key, 'gpt-4o-mini', '[[usage=20,10]]')).status).toBe(200);
    expect((await chat(aliceA.key, LIT)).status).toBe(200);
    expect((await chat(aliceA.key, LOOK)).status).toBe(200);
    expect((await chat(aliceA.key, 'gpt-4o', '[[status=400]]')).status).toBe(400);
    // bob: 2 × gpt-4o; the wildcard users one call each
    for (let i = 0; i < 2; i++) expect((await chat(bobKey.key, 'gpt-4o', '[[usage=7,3]]')).status).toBe(200);
    expect((await chat(pctKey)).status).toBe(200);
    expect((await chat(lookKey)).status).toBe(200);
    await settle(t);
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  // ------------------------------------------------------------------ admin list

  it('lists everyone’s logs newest first in the page shape, with channel names and admin_info', async () => {
    const page = await list(admin, '/api/log/?p=1&page_size=100');
    const all = await rows();
    expect(page.total).toBe(all.length);
    expect((await list(admin, '/api/log/?type=0')).total).toBe(all.length);
    expect(page).toMatchObject({ page: 1, page_size: 100 });
    expect(page.items.map((i) => i.id)).toEqual(
      [...all]
        .sort((a, b) => b.created_at - a.created_at || Number(b.id) - Number(a.id))
        .map((r) => Number(r.id)),
    );
    for (const item of page.items) expect(Object.keys(item).sort()).toEqual(ADMIN_KEYS);
    const consume = page.items.find(
      (i) => i.type === 2 && i.user_id === alice.userId && i.model_name === 'gpt-4o',
    )!;
    expect(consume).toMatchObject({
      channel: chA,
      channel_name: chAName,
      token_name: 'alice-a',
      username: alice.username,
    });
    expect(JSON.parse(consume.other)).toMatchObject({
      admin_info: { use_channel: [chA] },
      model_ratio: 1.25,
    });
    const onB = page.items.find((i) => i.model_name === LIT)!;
    expect(onB).toMatchObject({ channel: chB, channel_name: chBName });
    // Logs without a channel (management, system) carry channel 0 and no name.
    const manage = page.items.find((i) => i.type !== 2 && i.type !== 5)!;
    expect(manage).toMatchObject({ channel: 0, channel_name: '' });
  });

  it('filters by type, user name, token name, model name, channel, group and request id', async () => {
    const ids = (items: Item[]) => items.map((i) => i.id).sort((a, b) => a - b);
    const dbIds = (list: LogEntry[]) => list.map((r) => Number(r.id)).sort((a, b) => a - b);

    const consume = await list(admin, '/api/log/?type=2&page_size=100');
    expect(ids(consume.items)).toEqual(dbIds(await rows({ type: 2 })));
    const errors = await list(admin, '/api/log/?type=5&page_size=100');
    expect(errors.items.length).toBeGreaterThanOrEqual(1);
    expect(errors.items.every((i) => i.type === 5)).toBe(true);
    expect(ids(errors.items)).toEqual(dbIds(await rows({ type: 5 })));

    const ofBob = await list(admin, `/api/log/?username=${bob.username}&page_size=100`);
    expect(ids(ofBob.items)).toEqual(dbIds(await rows({ username: bob.username })));
    expect(ofBob.items.every((i) => i.user_id === bob.userId)).toBe(true);

    const byToken = await list(admin, '/api/log/?token_name=alice-vip&page_size=100');
    expect(byToken.items).toHaveLength(1);
    expect(byToken.items[0]).toMatchObject({ model_name: 'gpt-4o-mini', group: 'vip', prompt_tokens: 20 });

    const byModel = await list(admin, '/api/log/?model_name=4o-mini&page_size=100');
    expect(byModel.items.map((i) => i.model_name)).toEqual(['gpt-4o-mini']);

    const byChannel = await list(admin, `/api/log/?channel=${chB}&page_size=100`);
    expect(byChannel.items.map((i) => i.model_name).sort()).toEqual([LIT, LOOK]);

    const byGroup = await list(admin, '/api/log/?group=vip&page_size=100');
    expect(byGroup.items.map((i) => i.token_name)).toEqual(['alice-vip']);

    const byRequest = await list(admin, `/api/log/?request_id=${encodeURIComponent(aliceRequestId)}`);
    expect(byRequest.items).toHaveLength(1);
    expect(byRequest.items[0]).toMatchObject({ request_id: aliceRequestId, user_id: alice.userId });

    // Filters combine (AND).
    const combined = await list(
      admin,
      `/api/log/?username=${alice.username}&model_name=gpt-4o&type=2&page_size=100`,
    );
    expect(combined.items.map((i) => i.model_name).sort()).toEqual([
      'gpt-4o',
      'gpt-4o',
      'gpt-4o',
      'gpt-4o-mini',
    ]);
    // Nothing matches → an empty page, not an error.
    expect(await list(admin, '/api/log/?username=nobody-here')).toMatchObject({ items: [], total: 0 });
  });

  it('matches % and _ literally in model and user names', async () => {
    const lit = await list(admin, `/api/log/?model_name=${encodeURIComponent(LIT)}&page_size=100`);
    expect(lit.items.map((i) => i.model_name)).toEqual([LIT]);
    const pctOnly = await list(admin, `/api/log/?model_name=${encodeURIComponent('%')}&page_size=100`);
    expect(pctOnly.items.map((i) => i.model_name)).toEqual([LIT]);
    const underscore = await list(admin, `/api/log/?model_name=${encodeURIComponent('_')}&page_size=100`);
    expect(underscore.items.map((i) => i.model_name)).toEqual([LIT]);
    const bang = await list(admin, `/api/log/?model_name=${encodeURIComponent('!%')}&page_size=100`);
    expect(bang.total).toBe(0);

    const byPct = await list(admin, `/api/log/?type=2&username=${encodeURIComponent(pct.username)}`);
    expect(byPct.items.map((i) => i.username)).toEqual([pct.username]);
    const wildcard = await list(admin, `/api/log/?type=2&username=${encodeURIComponent('%')}`);
    expect(wildcard.total).toBe(0);
  });

  it('pages: p=0 is page 1, page_size is capped at 100, past the end is empty, bad sizes fall back to 10', async () => {
    const total = (await rows()).length;
    const first = await list(admin, '/api/log/?p=0&page_size=1');
    expect(first).toMatchObject({ page: 1, page_size: 1, total });
    const second = await list(admin, '/api/log/?p=2&page_size=1');
    const both = await list(admin, '/api/log/?p=1&page_size=2');
    expect([first.items[0].id, second.items[0].id]).toEqual(both.items.map((i) => i.id));
    expect(await list(admin, '/api/log/?page_size=1000')).toMatchObject({ page_size: 100 });
    expect((await list(admin, '/api/log/?size=3')).items).toHaveLength(3);
    expect(await list(admin, '/api/log/?p=99999&page_size=10')).toMatchObject({
      items: [],
      total,
      page: 99999,
    });
    expect(await list(admin, '/api/log/?p=99999999999999999999')).toMatchObject({ items: [], total });
    expect(await list(admin, '/api/log/?page_size=abc')).toMatchObject({ page_size: 10 });
    expect(await list(admin, '/api/log/?page_size=-5')).toMatchObject({ page_size: 10 });
  });

  it('refuses malformed filters with a clear message and no 500', async () => {
    const bad = [
      'type=abc',
      'type=-1',
      'type=1.5',
      'start_timestamp=-1',
      'start_timestamp=abc',
      `end_timestamp=${Date.now() * 1000}`,
      'channel=abc',
      'channel=99999999999',
      'username=a&username=b',
      `model_name=${'m'.repeat(192)}`,
      `token_name=${encodeURIComponent('a\u0001b')}`,
    ];
    for (const q of bad) {
      const res = await admin.get(`/api/log/?${q}`);
      await refused(res, MSG.invalid);
    }
    const en = await admin.get('/api/log/?type=abc').set('Accept-Language', 'en');
    expect(en.body.message).toMatch(/^Invalid query parameter type/);
    // Odd but valid text is just text.
    for (const [k, v] of [
      ['model_name', "' OR 1=1 --"],
      ['model_name', '模型😀'],
      ['group', "'; DROP TABLE logs"],
      ['username', '\\'],
    ]) {
      expect(await list(admin, `/api/log/?${k}=${encodeURIComponent(v)}`)).toMatchObject({
        items: [],
        total: 0,
      });
    }
    expect((await rows()).length).toBeGreaterThan(0);
  });

  it('filters by time range (inclusive) on the created_at seconds', async () => {
    const mine = await rows({ user_id: alice.userId! });
    const stamps = [...new Set(mine.map((r) => r.created_at))].sort((a, b) => a - b);
    const from = stamps[0];
    const to = stamps[stamps.length - 1];
    const inRange = await list(
      admin,
      `/api/log/?username=${alice.username}&start_timestamp=${from}&end_timestamp=${to}&page_size=100`,
    );
    expect(inRange.total).toBe(mine.length);
    const after = await list(admin, `/api/log/?username=${alice.username}&start_timestamp=${to + 1}`);
    expect(after.total).toBe(0);
    const before = await list(admin, `/api/log/?username=${alice.username}&end_timestamp=${from - 1}`);
    expect(before.total).toBe(0);
    // An inverted range matches nothing.
    expect((await list(admin, `/api/log/?start_timestamp=${to}&end_timestamp=${from - 1}`)).total).toBe(0);
  });

  // ------------------------------------------------------------------ own logs

  it('shows a user only their own logs, without channel, node or admin_info, whatever they ask for', async () => {
    const own = await list(alice, '/api/log/self/?page_size=100');
    const db = await rows({ user_id: alice.userId! });
    expect(own.total).toBe(db.length);
    expect(own.items.map((i) => i.id)).toEqual(
      [...db]
        .sort((a, b) => b.created_at - a.created_at || Number(b.id) - Number(a.id))
        .map((r) => Number(r.id)),
    );
    for (const item of own.items) {
      expect(Object.keys(item).sort()).toEqual(OWN_KEYS);
      expect(item.user_id).toBe(alice.userId);
      expect(item.other).not.toContain('admin_info');
      expect(item.other).not.toContain('use_channel');
    }
    const consume = own.items.find((i) => i.type === 2 && i.model_name === 'gpt-4o')!;
    expect(JSON.parse(consume.other)).toMatchObject({
      model_ratio: 1.25,
      completion_ratio: expect.any(Number),
    });
    expect(JSON.parse(consume.other)).not.toHaveProperty('admin_info');

    // Admin-only filters are ignored: asking for bob or a channel still answers alice's own.
    const asBob = await list(alice, `/api/log/self/?username=${bob.username}&page_size=100`);
    expect(asBob.total).toBe(db.length);
    const byChannel = await list(alice, `/api/log/self/?channel=${chB}&page_size=100`);
    expect(byChannel.total).toBe(db.length);
    // Bob never sees alice's rows, under any filter.
    const bobs = await list(bob, '/api/log/self/?page_size=100');
    expect(bobs.items.every((i) => i.user_id === bob.userId)).toBe(true);
    expect(bobs.items.some((i) => i.token_name === 'alice-a')).toBe(false);
    expect((await list(bob, '/api/log/self/?token_name=alice-a')).total).toBe(0);
    expect((await list(bob, `/api/log/self/?request_id=${aliceRequestId}`)).total).toBe(0);
  });

  it('filters own logs like the admin list (type, token, model, group, request id, time)', async () => {
    expect((await list(alice, '/api/log/self/?type=5')).items.every((i) => i.type === 5)).toBe(true);
    expect((await list(alice, '/api/log/self/?token_name=alice-vip')).items.map((i) => i.model_name)).toEqual(
      ['gpt-4o-mini'],
    );
    expect(
      (await list(alice, `/api/log/self/?model_name=${encodeURIComponent('_')}`)).items.map(
        (i) => i.model_name,
      ),
    ).toEqual([LIT]);
    expect((await list(alice, '/api/log/self/?group=vip')).total).toBe(1);
    expect((await list(alice, `/api/log/self/?request_id=${aliceRequestId}`)).total).toBe(1);
    await refused(await alice.get('/api/log/self/?start_timestamp=yesterday'), MSG.invalid);
    expect(await list(alice, '/api/log/self/?p=0&page_size=1000')).toMatchObject({ page: 1, page_size: 100 });
  });

  it('refuses the admin routes to ordinary users (403) and visitors (401)', async () => {
    for (const path of ['/api/log/', '/api/log/stat', `/api/user/${alice.userId}/summary`]) {
      expect((await alice.get(path)).status).toBe(403);
      expect((await request(t.url).get(path)).status).toBe(401);
    }
    const before = (await rows()).length;
    expect(
      (await alice.delete(`/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) + 3600}`)).status,
    ).toBe(403);
    expect((await rows()).length).toBe(before);
    expect((await request(t.url).get('/api/log/self')).status).toBe(401);
  });

  // ------------------------------------------------------------------ summary

  it('sums consumption (quota) in range and the last minute’s requests and tokens (rpm, tpm), from the rows', async () => {
    const now = Math.floor(Date.now() / 1000);
    // Move every consume log two hours back: only the calls below fall in the last minute.
    await t.ds
      .createQueryBuilder()
      .update(LogEntry)
      .set({ created_at: () => 'created_at - 7200' })
      .execute();
    for (let i = 0; i < 2; i++) expect((await chat(aliceA.key, 'gpt-4o', '[[usage=11,4]]')).status).toBe(200);
    expect((await chat(bobKey.key, 'gpt-4o', '[[usage=3,2]]')).status).toBe(200);
    await settle(t);

    const consume = (await rows({ type: 2 })).map((r) => ({
      ...r,
      quota: Number(r.quota),
      created_at: Number(r.created_at),
    }));
    const expected = (keep: (r: LogEntry) => boolean, start = 0, end = Infinity) => {
      const matching = consume.filter(keep);
      const recent = matching.filter((r) => r.created_at >= now - 60);
      return {
        quota: matching
          .filter((r) => r.created_at >= start && r.created_at <= end)
          .reduce((s, r) => s + r.quota, 0),
        rpm: recent.length,
        tpm: recent.reduce((s, r) => s + r.prompt_tokens + r.completion_tokens, 0),
      };
    };
    const stat = async (client: ApiClient, path: string) =>
      ok<{ quota: number; rpm: number; tpm: number }>(await client.get(path));

    const all = await stat(admin, '/api/log/stat');
    expect(all).toEqual(expected(() => true));
    expect(all).toMatchObject({ rpm: 3, tpm: 2 * 15 + 5 });
    expect(all.quota).toBeGreaterThan(0);
    // The type filter does not apply: the summary is about consumption.
    expect(await stat(admin, '/api/log/stat?type=1')).toEqual(all);
    expect(await stat(admin, `/api/log/stat?username=${alice.username}`)).toEqual(
      expected((r) => r.user_id === alice.userId),
    );
    expect(await stat(admin, `/api/log/stat?channel=${chB}`)).toEqual(expected((r) => r.channel_id === chB));
    expect(await stat(admin, '/api/log/stat?model_name=gpt-4o&token_name=alice-a')).toEqual(
      expected((r) => r.model_name.includes('gpt-4o') && r.token_name === 'alice-a'),
    );
    const recentOnly = await stat(admin, `/api/log/stat?start_timestamp=${now - 60}`);
    expect(recentOnly).toEqual(expected(() => true, now - 60));
    expect(await stat(admin, `/api/log/stat?start_timestamp=${now - 60}&end_timestamp=${now - 61}`)).toEqual({
      ...recentOnly,
      quota: 0,
    });

    // Own summary: alice's rows only; admin filters ignored.
    const mine = expected((r) => r.user_id === alice.userId);
    expect(await stat(alice, '/api/log/self/stat')).toEqual(mine);
    expect(mine).toMatchObject({ rpm: 2, tpm: 30 });
    expect(await stat(alice, `/api/log/self/stat?username=${bob.username}&channel=${chB}`)).toEqual(mine);
    expect(await stat(bob, '/api/log/self/stat')).toEqual(expected((r) => r.user_id === bob.userId));
    expect(await stat(bob, '/api/log/self/stat?token_name=alice-a')).toEqual({ quota: 0, rpm: 0, tpm: 0 });
    await refused(await alice.get('/api/log/self/stat?end_timestamp=x'), MSG.invalid);
  });

  // ------------------------------------------------------------------ a token's logs by key

  it('reads a token’s own logs with its key (header or query), as its owner sees them', async () => {
    const db = (await rows({ token_id: aliceA.id })).filter((r) => r.type === 2 || r.type === 5);
    expect(db.length).toBeGreaterThanOrEqual(6);
    const viaHeader = await ok<{ items: Item[]; total: number }>(
      await request(t.url).get('/api/log/token?page_size=100').set('Authorization', `Bearer ${aliceA.key}`),
    );
    expect(viaHeader.total).toBe(db.length);
    expect(viaHeader.items.map((i) => i.id).sort((a, b) => a - b)).toEqual(
      db.map((r) => Number(r.id)).sort((a, b) => a - b),
    );
    for (const item of viaHeader.items) {
      expect(Object.keys(item).sort()).toEqual(OWN_KEYS);
      expect(item.token_id).toBe(aliceA.id);
      expect(item.other).not.toContain('admin_info');
    }
    const viaQuery = await ok<{ total: number }>(
      await request(t.url).get(`/api/log/token?key=${aliceA.key}&page_size=100`),
    );
    expect(viaQuery.total).toBe(db.length);
    // Without paging parameters: new-api's form, the newest rows as a plain list (neko-api-key-tool
    // reads `data` as the list).
    const bare = await ok<Item[]>(await request(t.url).get(`/api/log/token?key=${aliceA.key.slice(3)}`));
    expect(Array.isArray(bare)).toBe(true);
    expect(bare.map((i) => i.id)).toEqual(viaHeader.items.map((i) => i.id));
    // A channel-pinned key names the same token.
    const pinned = await ok<Item[]>(await request(t.url).get(`/api/log/token?key=${aliceA.key}-${chA}`));
    expect(pinned).toHaveLength(db.length);
    // Filters and pages apply.
    const models = await ok<Item[]>(
      await request(t.url).get(`/api/log/token?key=${aliceA.key}&model_name=${encodeURIComponent(LIT)}`),
    );
    expect(models.map((i) => i.model_name)).toEqual([LIT]);
    expect(
      await ok(await request(t.url).get(`/api/log/token?key=${aliceA.key}&p=0&page_size=1000`)),
    ).toMatchObject({
      page: 1,
      page_size: 100,
    });
    // The vip token and bob's token see only their own.
    const vip = await ok<Item[]>(await request(t.url).get(`/api/log/token?key=${aliceVip.key}`));
    expect(vip.map((i) => i.token_name)).toEqual(['alice-vip']);
    const bobs = await ok<{ items: Item[] }>(
      await request(t.url).get(`/api/log/token?key=${bobKey.key}&page_size=100`),
    );
    expect(bobs.items.length).toBeGreaterThan(0);
    expect(bobs.items.every((i) => i.user_id === bob.userId && i.token_id === bobKey.id)).toBe(true);
  });

  it('lets expired and exhausted tokens read their logs; ?key= wins over the header', async () => {
    const expired = await makeToken(t, alice.userId!, { name: 'old-one', expired_time: 1000 });
    await ok(await request(t.url).get(`/api/log/token?key=${expired.key}`));
    const empty = await makeToken(t, alice.userId!, { name: 'empty-one', remain_quota: 0 });
    await t.ds.getRepository(Token).update({ id: empty.id }, { status: 4 });
    await ok(await request(t.url).get(`/api/log/token?key=${empty.key}`));
    const both = await ok<Item[]>(
      await request(t.url)
        .get(`/api/log/token?key=${aliceVip.key}`)
        .set('Authorization', `Bearer ${bobKey.key}`),
    );
    expect(both.map((i) => i.token_name)).toEqual(['alice-vip']);
  });

  it('rate-limits key lookups per client like sign-in (429)', async () => {
    const limited = await startApp({ LOGIN_RATE_LIMIT: '3' });
    try {
      await setupRoot(limited);
      const hit = () => request(limited.url).get('/api/log/token?key=sk-nope');
      for (let i = 0; i < 3; i++) expect((await hit()).status).toBe(200);
      const res = await hit();
      expect(res.status).toBe(429);
      expect(res.body).toMatchObject({ success: false, data: null });
    } finally {
      await limited.close();
    }
  });

  it('refuses missing, unknown, malformed, disabled and deleted keys, and keys of banned users', async () => {
    await refused(await request(t.url).get('/api/log/token'), MSG.tokenRequired);
    await refused(await request(t.url).get(`/api/log/token?key=sk-${'x'.repeat(48)}`), MSG.tokenInvalid);
    await refused(await request(t.url).get('/api/log/token?key=short'), MSG.tokenInvalid);
    await refused(
      await request(t.url).get(`/api/log/token?key=${encodeURIComponent("sk-' OR 1=1 --")}`),
      MSG.tokenInvalid,
    );
    await refused(await request(t.url).get(`/api/log/token?key=a&key=b`), MSG.invalid);
    await refused(
      await request(t.url).get('/api/log/token').set('Authorization', 'Bearer '),
      MSG.tokenRequired,
    );

    const u = await makeUser(t, root);
    const tk = await makeToken(t, u.userId!, { name: 'gone' });
    await ok(await request(t.url).get(`/api/log/token?key=${tk.key}`));
    const dis = await u.put('/api/token/?status_only=true', { id: tk.id, status: 2 });
    expect(dis.body.success).toBe(true);
    await refused(await request(t.url).get(`/api/log/token?key=${tk.key}`), MSG.tokenDisabled);
    expect((await u.put('/api/token/?status_only=true', { id: tk.id, status: 1 })).body.success).toBe(true);
    expect((await root.post('/api/user/manage', { id: u.userId, action: 'disable' })).body.success).toBe(
      true,
    );
    await refused(await request(t.url).get(`/api/log/token?key=${tk.key}`), MSG.tokenUser);
    expect((await root.post('/api/user/manage', { id: u.userId, action: 'enable' })).body.success).toBe(true);
    expect((await u.delete(`/api/token/${tk.id}`)).body.success).toBe(true);
    expect(await t.ds.getRepository(Token).countBy({ id: tk.id })).toBe(1);
    await refused(await request(t.url).get(`/api/log/token?key=${tk.key}`), MSG.tokenInvalid);
  });

  // ------------------------------------------------------------------ user popup

  it('gives admins any user’s popup figures, matching the account', async () => {
    const data = await ok(await admin.get(`/api/user/${alice.userId}/summary`));
    const row = (
      await t.ds.query(
        `SELECT username, quota, used_quota, request_count FROM users WHERE id = ${alice.userId!}`,
      )
    )[0];
    expect(data).toEqual({
      username: row.username,
      quota: Number(row.quota),
      used_quota: Number(row.used_quota),
      request_count: Number(row.request_count),
    });
    expect((data as { request_count: number }).request_count).toBeGreaterThanOrEqual(6);
    // Also for root (read-only figures) and unknown ids.
    expect(await ok(await admin.get(`/api/user/1/summary`))).toMatchObject({ username: 'root' });
    await refused(await admin.get('/api/user/999999/summary'), MSG.userNotFound);
    await refused(await admin.get('/api/user/0/summary'), MSG.userNotFound);
    expect((await admin.get('/api/user/abc/summary')).body.success).toBe(false);
  });

  // ------------------------------------------------------------------ management logs

  it('writes a management log for channel create, update and delete, by the admin who acted', async () => {
    const manageLogs = async () =>
      (await list(root, `/api/log/?type=3&username=${admin.username}&page_size=100`)).items.map(
        (i) => i.content,
      );
    const before = await manageLogs();
    const created = await ok<{ id: number }>(
      await admin.post('/api/channel/', {
        type: 1,
        name: 'audit-ch',
        key: 'sk-secret-upstream',
        models: 'gpt-4o',
      }),
    );
    await ok(await admin.put('/api/channel/', { id: created.id, weight: 7, key: 'sk-new-secret' }));
    await ok(await admin.delete(`/api/channel/${created.id}`));
    // A refused change writes nothing.
    expect((await admin.post('/api/channel/', { type: 1, name: '', key: '' })).body.success).toBe(false);
    const after = await manageLogs();
    const added = after.slice(0, after.length - before.length);
    expect(added).toEqual([
      `删除渠道 #${created.id}（${admin.username}）`,
      `更新渠道 #${created.id}（audit-ch）：weight, key（${admin.username}）`,
      `创建渠道 #${created.id}（audit-ch）（${admin.username}）`,
    ]);
    expect(added.join(' ')).not.toContain('secret');
    const items = (await list(root, `/api/log/?type=3&username=${admin.username}`)).items;
    expect(items[0]).toMatchObject({ type: 3, user_id: admin.userId, quota: 0 });
    // The acting admin also sees them among their own logs.
    expect((await list(admin, '/api/log/self/?type=3&page_size=100')).items.map((i) => i.content)).toEqual(
      expect.arrayContaining(added),
    );
  });

  it('keeps the management logs of user administration (quota changes and status)', async () => {
    const u = await makeUser(t, root);
    await ok(await admin.post('/api/user/manage', { id: u.userId, action: 'add_quota', value: 1234 }));
    await ok(await admin.post('/api/user/manage', { id: u.userId, action: 'disable' }));
    const logs = await list(admin, `/api/log/?type=3&username=${u.username}`);
    // Newest first: disable, add_quota, then root's creation of the account.
    expect(logs.items.map((i) => i.quota)).toEqual([0, 1234, 0]);
    expect(logs.items.slice(0, 2).every((i) => i.content.includes(admin.username))).toBe(true);
    expect(logs.items[2].content).toBe('管理员创建了用户（root）');
  });

  it("renders log texts in the reader's language and keeps rows written as plain text readable", async () => {
    const u = await makeUser(t, root);
    await ok(await admin.post('/api/user/manage', { id: u.userId, action: 'add_quota', value: 500000 }));
    const path = `/api/log/?type=3&username=${u.username}`;
    const en = await ok<{ items: Item[] }>(await admin.get(path).set('Accept-Language', 'en-US,en;q=0.9'));
    expect(en.items.map((i) => i.content)).toEqual([
      `An admin added $1.00 to the user's quota (${admin.username})`,
      'An admin created the user (root)',
    ]);
    // The key travels in the row, not in what readers get.
    expect(en.items.every((i) => !i.other.includes('content_i18n'))).toBe(true);
    const zh = await ok<{ items: Item[] }>(await admin.get(path).set('Accept-Language', 'zh-CN'));
    expect(zh.items[0].content).toBe(`管理员为用户增加额度 $1.00（${admin.username}）`);
    // The highest quality value wins, not the first entry.
    const q = await ok<{ items: Item[] }>(await admin.get(path).set('Accept-Language', 'zh;q=0.4, en;q=0.8'));
    expect(q.items[1].content).toBe('An admin created the user (root)');
    // The owner reads their own rows in their language too.
    const own = await list(u, '/api/log/self/?type=3');
    expect(own.items[1].content).toBe('管理员创建了用户（root）');
    // A row stored before texts had keys reads as written, whatever the language.
    await t.ds.getRepository(LogEntry).insert({
      user_id: u.userId!,
      username: u.username,
      type: 3,
      content: '旧的日志内容',
      created_at: Math.floor(Date.now() / 1000) + 5,
      other: '',
    });
    const legacy = await ok<{ items: Item[] }>(await admin.get(path).set('Accept-Language', 'en'));
    expect(legacy.items[0].content).toBe('旧的日志内容');
  });

  it('answers callers that name no supported language in the default language the operator chose', async () => {
    const u = await makeUser(t, root);
    const path = `/api/log/?type=3&username=${u.username}`;
    const refusedLogin = () =>
      request(t.url).post('/api/user/login').send({ username: 'nobody-x', password: 'wrong-password' });
    expect((await refusedLogin()).body.message).toBe('用户名或密码错误，或用户已被封禁');
    await putOption(root, 'DefaultLanguage', 'en');
    try {
      expect((await refusedLogin()).body.message).toBe('Wrong username or password, or the user is banned');
      expect((await refusedLogin().set('Accept-Language', 'fr-FR')).body.message).toBe(
        'Wrong username or password, or the user is banned',
      );
      // A caller that names Chinese still gets Chinese.
      expect((await refusedLogin().set('Accept-Language', 'zh-CN')).body.message).toBe(
        '用户名或密码错误，或用户已被封禁',
      );
      expect((await list(root, path)).items.map((i) => i.content)).toEqual([
        'An admin created the user (root)',
      ]);
      expect((await root.put('/api/option/', { key: 'DefaultLanguage', value: 'fr' })).body.success).toBe(
        false,
      );
    } finally {
      await putOption(root, 'DefaultLanguage', 'zh');
    }
  });

  // ------------------------------------------------------------------ clearing

  it('deletes the logs older than target_timestamp, returns the count and records the clean-up', async () => {
    const old = 1_000_000;
    const victims = (await rows({ user_id: bob.userId! })).slice(0, 2).map((r) => Number(r.id));
    expect(victims).toHaveLength(2);
    await t.ds.createQueryBuilder().update(LogEntry).set({ created_at: old }).whereInIds(victims).execute();
    await t.ds.getRepository(LogEntry).update({ id: victims[1] }, { created_at: old + 10 });
    const total = (await rows()).length;

    await refused(await admin.delete('/api/log/'), MSG.target);
    await refused(await admin.delete('/api/log/?target_timestamp=0'), MSG.target);
    await refused(await admin.delete('/api/log/?target_timestamp=abc'), MSG.invalid);
    await refused(await admin.delete('/api/log/?target_timestamp=-5'), MSG.invalid);
    expect((await rows()).length).toBe(total);

    // Strictly older: the row at old + 10 stays.
    expect(await ok(await admin.delete(`/api/log/?target_timestamp=${old + 10}`))).toBe(1);
    expect(await t.ds.getRepository(LogEntry).countBy({ id: victims[0] })).toBe(0);
    expect(await t.ds.getRepository(LogEntry).countBy({ id: victims[1] })).toBe(1);
    expect(await ok(await admin.delete(`/api/log/?target_timestamp=${old + 11}`))).toBe(1);
    expect(await ok(await admin.delete(`/api/log/?target_timestamp=${old + 11}`))).toBe(0);
    // Each clean-up is itself a management log of the admin; nothing else went.
    expect((await rows()).length).toBe(total - 2 + 3);
    const audit = (await list(root, `/api/log/?type=3&username=${admin.username}`)).items[0];
    expect(audit.content).toMatch(/^清理日志：删除 1970-01-12 13:46:51 UTC 之前的 0 条日志/);
  });

  it('deletes a large backlog in chunks and counts it exactly', async () => {
    const stale = Array.from({ length: 2345 }, (_, i) => ({
      user_id: bob.userId!,
      username: bob.username,
      created_at: 5000 + (i % 7),
      type: 2,
      content: '',
      model_name: 'bulk',
    }));
    for (let i = 0; i < stale.length; i += 500)
      await t.ds.getRepository(LogEntry).insert(stale.slice(i, i + 500));
    const keep = (await rows()).length - stale.length;
    expect(await ok(await root.delete('/api/log?target_timestamp=6000'))).toBe(stale.length);
    expect((await rows()).length).toBe(keep + 1);
    expect((await list(admin, '/api/log/?model_name=bulk')).total).toBe(0);
  });
  it('indexes the log filters with created_at (migration up and down on this database)', async () => {
    const snapshot = async () => ({
      token: await keyColumns(t.ds, 'idx_logs_token_id_created_at'),
      username: await keyColumns(t.ds, 'idx_logs_username_created_at'),
      channel: await keyColumns(t.ds, 'idx_logs_channel_id_created_at'),
      oldToken: await keyColumns(t.ds, 'idx_logs_token_id'),
      oldUsername: await keyColumns(t.ds, 'idx_logs_username'),
      oldChannel: await keyColumns(t.ds, 'idx_logs_channel_id'),
    });
    const up = {
      token: ['token_id', 'created_at'],
      username: ['username', 'created_at'],
      channel: ['channel_id', 'created_at'],
      oldToken: [],
      oldUsername: [],
      oldChannel: [],
    };
    expect(await snapshot()).toEqual(up);

    const migration = new LogFilterIndexes1763900000400();
    const qr = t.ds.createQueryRunner();
    try {
      await migration.down(qr);
      expect(await snapshot()).toEqual({
        token: [],
        username: [],
        channel: [],
        oldToken: ['token_id'],
        oldUsername: ['username'],
        oldChannel: ['channel_id'],
      });
      await migration.up(qr);
    } finally {
      await qr.release();
    }
    expect(await snapshot()).toEqual(up);
    // The lists still answer.
    expect((await list(admin, `/api/log/?username=${alice.username}`)).total).toBeGreaterThan(0);
  });

  it('drops the model-name index no filter can use (migration down and up on this database)', async () => {
    expect(await keyColumns(t.ds, 'idx_logs_model_name')).toEqual([]);
    const migration = new DropLogModelIndex1795700300000();
    const qr = t.ds.createQueryRunner();
    try {
      await migration.down(qr);
      expect(await keyColumns(t.ds, 'idx_logs_model_name')).toEqual(['model_name']);
      await migration.up(qr);
    } finally {
      await qr.release();
    }
    expect(await keyColumns(t.ds, 'idx_logs_model_name')).toEqual([]);
    // The model filter (a part of the name) still answers, the other indexes untouched.
    const page = await list(admin, '/api/log/?model_name=gpt');
    expect(page.total).toBeGreaterThan(0);
    expect(page.items.every((l) => l.model_name.includes('gpt'))).toBe(true);
    expect(await keyColumns(t.ds, 'idx_logs_token_id_created_at')).toEqual(['token_id', 'created_at']);
  });
});

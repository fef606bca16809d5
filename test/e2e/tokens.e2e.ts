/**
 * API tokens as their owner manages them: create (one or many), masked listing, reveal, search, edits,
 * the status rules (expired or exhausted tokens cannot be enabled), deletes, strict isolation between
 * users, ugly input refused without writing anything, and the relay's token cache told about every
 * write. Real HTTP against the real app.
 */
import { IsNull } from 'typeorm';
import { CacheBus, CacheEvent } from '../../server/src/common/cache-bus';
import { Token } from '../../server/src/database/entities';
import { TokenService } from '../../server/src/modules/token/token.service';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp, uname } from '../support/test-app';
import type { components } from '../../console-kit/src/api/schema.gen';

const MSG = {
  notFound: '令牌不存在',
  quota: '额度必须是 0 到',
  expiry: '过期时间格式错误',
  nameLong: '令牌名称过长',
  nameInvalid: '令牌名称不能包含控制字符',
  count: '创建数量必须是 1 到 100 之间的整数',
  limit: '令牌数量已达上限',
  ip: 'IP 白名单格式错误',
  group: '无权使用分组',
  expiredEnable: '令牌已过期，无法启用',
  exhaustedEnable: '令牌可用额度已用尽，无法启用',
  status: '无效的令牌状态',
  selectFirst: '请先选择令牌',
};

const MASKED = /^[A-Za-z0-9]{4}\*{10}[A-Za-z0-9]{4}$/;
const FULL = /^sk-[A-Za-z0-9]{48}$/;

/** A token as the API answers it: the OpenAPI document's TokenView (the console's generated types). */
type TokenBody = components['schemas']['TokenView'];

describe('API tokens', () => {
  let t: TestApp;
  let root: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let tokenService: TokenService;
  const events: CacheEvent[] = [];

  const tokens = () => t.ds.getRepository(Token);
  const live = (userId: number) => tokens().countBy({ user_id: userId, deleted_at: IsNull() });
  const now = () => Math.floor(Date.now() / 1000);

  async function create(client: ApiClient, body: Record<string, unknown> = {}): Promise<TokenBody> {
    const res = await client.post('/api/token/', {
      name: uname('tk'),
      remain_quota: 500000,
      expired_time: -1,
      ...body,
    });
    expect(res.status).toBe(200);
    if (!res.body.success) throw new Error(`create token: ${res.body.message}`);
    expect(res.body.data).toHaveLength(1);
    return res.body.data[0];
  }
  const reveal = async (client: ApiClient, id: number): Promise<string> => {
    const res = await client.post(`/api/token/${id}/key`).expect(200);
    expect(res.body.success).toBe(true);
    return res.body.data.key;
  };

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    alice = await makeUser(t, root);
    bob = await makeUser(t, root);
    tokenService = t.app.get(TokenService);
    t.app.get(CacheBus).on('tokens', (e) => events.push(e));
  });
  afterAll(() => t.close());

  // ---------------------------------------------------------------- create, list, reveal

  describe('create, list and reveal', () => {
    it('creates a token and lists it with the key masked, never its hash or ciphertext', async () => {
      const res = await alice.post('/api/token/', {
        name: 'first',
        remain_quota: 500000,
        expired_time: -1,
        unlimited_quota: false,
        model_limits_enabled: true,
        model_limits: 'gpt-4o, o3,,gpt-4o',
        allow_ips: ' 10.0.0.1 \n\n192.168.0.0/16\n::1\n2001:db8::/32\n',
        group: 'vip',
      });
      expect(res.body.success).toBe(true);
      const created: TokenBody = res.body.data[0];
      expect(created).toMatchObject({
        name: 'first',
        user_id: alice.userId,
        status: 1,
        remain_quota: 500000,
        used_quota: 0,
        unlimited_quota: false,
        expired_time: -1,
        model_limits_enabled: true,
        model_limits: 'gpt-4o,o3',
        allow_ips: '10.0.0.1\n192.168.0.0/16\n::1\n2001:db8::/32',
        group: 'vip',
      });
      expect(created.key).toMatch(MASKED);
      expect(created).not.toHaveProperty('key_hash');
      expect(created).not.toHaveProperty('key_enc');

      const list = await alice.get('/api/token/?p=1&size=10').expect(200);
      expect(list.body.data).toMatchObject({ page: 1, page_size: 10, total: 1 });
      const item: TokenBody = list.body.data.items[0];
      expect(item.key).toBe(created.key);
      const row = await tokens().findOneByOrFail({ id: created.id });
      expect(list.text).not.toContain(row.key_hash);
      expect(list.text).not.toContain(row.key_enc);

      const key = await reveal(alice, created.id);
      expect(key).toMatch(FULL);
      expect(key.slice(3, 7)).toBe(created.key.slice(0, 4));
      expect(key.slice(-4)).toBe(created.key.slice(-4));
      expect(list.text).not.toContain(key.slice(3));
      expect(tokenService.hashKey(key)).toBe(row.key_hash);

      const one = await alice.get(`/api/token/${created.id}/`).expect(200);
      expect(one.body.data).toMatchObject({ id: created.id, key: created.key });
    });

    it('count > 1 creates that many tokens: the first under the name, the extra ones with a random 6-character suffix', async () => {
      const before = await live(alice.userId!);
      const res = await alice.post('/api/token/', {
        name: 'bulk',
        remain_quota: 1,
        expired_time: -1,
        count: 5,
      });
      expect(res.body.success).toBe(true);
      const made: TokenBody[] = res.body.data;
      expect(made).toHaveLength(5);
      expect(made[0].name).toBe('bulk');
      for (const tk of made.slice(1)) expect(tk.name).toMatch(/^bulk-[a-z0-9]{6}$/);
      expect(new Set(made.map((x) => x.name)).size).toBe(5);
      expect(new Set(made.map((x) => x.key)).size).toBe(5);
      expect(await live(alice.userId!)).toBe(before + 5);
      // Without a name the first stays unnamed and the suffix is the name of the others.
      const anon = await alice.post('/api/token/', { count: 2 });
      expect(anon.body.data.map((x: TokenBody) => x.name)).toEqual([
        '',
        expect.stringMatching(/^[a-z0-9]{6}$/),
      ]);
    });

    it('unicode names up to 50 characters are kept as given', async () => {
      const name = '令牌🚀'.repeat(16) + 'ab'; // 50 code points, emoji included
      const tk = await create(alice, { name });
      expect(tk.name).toBe(name);
      expect((await alice.get(`/api/token/${tk.id}`).expect(200)).body.data.name).toBe(name);
    });

    it('pages own tokens only, newest first', async () => {
      await create(bob, { name: 'bobs-only' });
      const res = await alice.get('/api/token/?p=1&page_size=3').expect(200);
      expect(res.body.data.items).toHaveLength(3);
      expect(res.body.data.total).toBe(await live(alice.userId!));
      const ids = res.body.data.items.map((x: TokenBody) => x.id);
      expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
      const all = await alice.get('/api/token/?p=1&page_size=100').expect(200);
      expect(all.body.data.items.every((x: TokenBody) => x.user_id === alice.userId)).toBe(true);
      expect(all.body.data.items.map((x: TokenBody) => x.name)).not.toContain('bobs-only');
    });
  });

  // ---------------------------------------------------------------- validation

  describe('ugly input is refused and writes nothing', () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['negative quota', { remain_quota: -1 }, MSG.quota],
      ['fractional quota', { remain_quota: 1.5 }, MSG.quota],
      ['quota of 2^53 (not exact)', { remain_quota: 2 ** 53 }, MSG.quota],
      ['huge quota', { remain_quota: 1e300 }, MSG.quota],
      ['quota as text', { remain_quota: '500000' }, MSG.quota],
      ['quota as an object', { remain_quota: { $gt: 0 } }, MSG.quota],
      ['expiry in the past', { expired_time: 1000 }, MSG.expiry],
      ['expiry of 0', { expired_time: 0 }, MSG.expiry],
      ['expiry as a date string', { expired_time: '2099-01-01 00:00:00' }, MSG.expiry],
      ['expiry beyond year 9999', { expired_time: 1e13 }, MSG.expiry],
      ['expiry -2', { expired_time: -2 }, MSG.expiry],
      ['name of 51 characters', { name: 'x'.repeat(51) }, MSG.nameLong],
      ['name of 51 unicode characters', { name: '令'.repeat(51) }, MSG.nameLong],
      ['name with a control character', { name: 'a\u0000b' }, MSG.nameInvalid],
      ['name as a number', { name: 42 }, 'name'],
      ['count 0', { count: 0 }, MSG.count],
      ['count 101', { count: 101 }, MSG.count],
      ['fractional count', { count: 2.5 }, MSG.count],
      ['count as text', { count: '3' }, MSG.count],
      ['invalid IPv4', { allow_ips: '10.0.0.256' }, MSG.ip],
      ['short-hand IPv4', { allow_ips: '127.1' }, MSG.ip],
      ['CIDR prefix too long', { allow_ips: '10.0.0.0/33' }, MSG.ip],
      ['IPv6 CIDR prefix too long', { allow_ips: '::1/129' }, MSG.ip],
      ['a host name', { allow_ips: '10.0.0.1\nexample.com' }, MSG.ip],
      ['allow_ips as a list', { allow_ips: ['10.0.0.1'] }, MSG.ip],
      ['a group the user may not use', { group: 'svip' }, MSG.group],
      ['a prototype key as group', { group: 'constructor' }, MSG.group],
      ['group as a number', { group: 5 }, MSG.group],
      ['unlimited_quota as text', { unlimited_quota: 'yes' }, 'unlimited_quota'],
      ['model_limits as an object', { model_limits: { a: 1 } }, '模型限制无效'],
    ];

    it.each(cases)('%s', async (_label, patch, message) => {
      const before = await tokens().count();
      const res = await alice.post('/api/token/', {
        name: 'ugly',
        remain_quota: 10,
        expired_time: -1,
        ...patch,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, data: null });
      expect(res.body.message).toContain(message);
      expect(await tokens().count()).toBe(before);
    });

    it('messages are localised (English with Accept-Language: en)', async () => {
      const res = await alice
        .post('/api/token/', { remain_quota: -5 })
        .set('Accept-Language', 'en')
        .expect(200);
      expect(res.body.message).toMatch(/^Quota must be a whole number from 0 to \d+; it cannot be negative$/);
    });

    it('bodies that are not objects, and broken JSON, are refused', async () => {
      const before = await tokens().count();
      for (const body of ['[1,2]', '"text"', '{"name":']) {
        const res = await alice.post('/api/token/').set('Content-Type', 'application/json').send(body);
        expect(res.status).toBe(200);
        if (res.body.success) {
          // A non-object body carries no fields: at worst it creates one default token. Refuse that too.
          throw new Error(`accepted ${body}`);
        }
      }
      expect(await tokens().count()).toBe(before);
    });

    it('a future expiry and the usable groups are accepted; the user\'s own group and "" too', async () => {
      const exp = now() + 3600;
      expect((await create(alice, { expired_time: exp })).expired_time).toBe(exp);
      expect((await create(alice, { group: 'default' })).group).toBe('default');
      expect((await create(alice, { group: '' })).group).toBe('');
      expect((await create(alice, { remain_quota: Number.MAX_SAFE_INTEGER })).remain_quota).toBe(
        Number.MAX_SAFE_INTEGER,
      );
      // Groups follow the UserUsableGroups option.
      await putOption(root, 'UserUsableGroups', JSON.stringify({ default: 'd', svip: 's' }));
      expect((await create(alice, { group: 'svip' })).group).toBe('svip');
      const vip = await alice.post('/api/token/', { group: 'vip' });
      expect(vip.body.success).toBe(false);
      await putOption(root, 'UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组' }));
    });
  });

  // ---------------------------------------------------------------- update and status

  describe('update and status rules', () => {
    it('PUT changes the fields sent and leaves usage alone', async () => {
      const tk = await create(alice, { name: 'before-edit' });
      await tokens().update({ id: tk.id }, { used_quota: 4321 });
      const res = await alice.put('/api/token/', {
        id: tk.id,
        name: 'after-edit',
        remain_quota: 42,
        unlimited_quota: true,
        model_limits_enabled: true,
        model_limits: 'o3',
        allow_ips: '',
        // Not writable through this route:
        used_quota: 0,
        user_id: bob.userId,
        key: 'sk-forged',
      });
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        id: tk.id,
        name: 'after-edit',
        remain_quota: 42,
        used_quota: 4321,
        unlimited_quota: true,
        model_limits_enabled: true,
        model_limits: 'o3',
        user_id: alice.userId,
        key: tk.key,
      });
      const bad = await alice.put('/api/token/', { id: tk.id, remain_quota: -1 });
      expect(bad.body).toMatchObject({ success: false });
      expect(bad.body.message).toContain(MSG.quota);
      expect((await tokens().findOneByOrFail({ id: tk.id })).remain_quota).toBe(42);
      const missing = await alice.put('/api/token/', { id: 99999999, name: 'x' });
      expect(missing.body).toMatchObject({ success: false, message: MSG.notFound });
    });

    it('status_only changes only the status', async () => {
      const tk = await create(alice, { name: 'status-only' });
      const off = await alice.put('/api/token/?status_only=true', {
        id: tk.id,
        status: 2,
        name: 'ignored',
        remain_quota: 1,
      });
      expect(off.body.data).toMatchObject({ status: 2, name: 'status-only', remain_quota: 500000 });
      const on = await alice.put('/api/token/?status_only=true', { id: tk.id, status: 1 });
      expect(on.body.data.status).toBe(1);
      for (const status of [3, 4, 0, '1', null]) {
        const res = await alice.put('/api/token/?status_only=true', { id: tk.id, status });
        expect(res.body).toMatchObject({ success: false, message: MSG.status });
      }
    });

    it('an expired token cannot be enabled until its expiry is fixed', async () => {
      const tk = await create(alice, { name: 'expired' });
      await tokens().update({ id: tk.id }, { expired_time: now() - 10, status: 3 });
      const res = await alice.put('/api/token/?status_only=true', { id: tk.id, status: 1 });
      expect(res.body).toMatchObject({ success: false });
      expect(res.body.message).toContain(MSG.expiredEnable);
      const full = await alice.put('/api/token/', { id: tk.id, status: 1, name: 'expired' });
      expect(full.body.message).toContain(MSG.expiredEnable);
      expect((await tokens().findOneByOrFail({ id: tk.id })).status).toBe(3);
      // The form sends the stored (past) expiry back unchanged: that is accepted.
      const row = await tokens().findOneByOrFail({ id: tk.id });
      const same = await alice.put('/api/token/', {
        id: tk.id,
        name: 'expired-2',
        expired_time: Number(row.expired_time),
      });
      expect(same.body.success).toBe(true);
      // Another past expiry is refused.
      const past = await alice.put('/api/token/', { id: tk.id, expired_time: now() - 5000 });
      expect(past.body.message).toContain(MSG.expiry);
      // Fixed: never expires, then it can be enabled.
      expect((await alice.put('/api/token/', { id: tk.id, expired_time: -1 })).body.success).toBe(true);
      const ok = await alice.put('/api/token/?status_only=true', { id: tk.id, status: 1 });
      expect(ok.body.data.status).toBe(1);
    });

    it('an exhausted token cannot be enabled until it has quota or is unlimited', async () => {
      const tk = await create(alice, { name: 'exhausted' });
      await tokens().update({ id: tk.id }, { remain_quota: 0, status: 4 });
      const res = await alice.put('/api/token/?status_only=true', { id: tk.id, status: 1 });
      expect(res.body).toMatchObject({ success: false });
      expect(res.body.message).toContain(MSG.exhaustedEnable);
      expect((await tokens().findOneByOrFail({ id: tk.id })).status).toBe(4);
      // Fixing and enabling in one edit works.
      const fixed = await alice.put('/api/token/', { id: tk.id, remain_quota: 1000, status: 1 });
      expect(fixed.body.data).toMatchObject({ status: 1, remain_quota: 1000 });
      await tokens().update({ id: tk.id }, { remain_quota: 0, status: 4 });
      expect((await alice.put('/api/token/', { id: tk.id, unlimited_quota: true })).body.success).toBe(true);
      expect(
        (await alice.put('/api/token/?status_only=true', { id: tk.id, status: 1 })).body.data.status,
      ).toBe(1);
    });
  });

  // ---------------------------------------------------------------- search

  describe('search', () => {
    it('keyword matches names literally; token matches a full key, a masked key or part of a key', async () => {
      const pct = await create(alice, { name: 'srch 100%' });
      const other = await create(alice, { name: 'srch 100X' });
      const under = await create(alice, { name: 'srch a_b' });
      await create(alice, { name: 'srch aXb' });
      const ids = async (qs: string) =>
        ((await alice.get(`/api/token/search?${qs}`).expect(200)).body.data.items as TokenBody[]).map(
          (x) => x.id,
        );
      expect(await ids(`keyword=${encodeURIComponent('100%')}`)).toEqual([pct.id]);
      expect(await ids(`keyword=${encodeURIComponent('a_b')}`)).toEqual([under.id]);
      expect((await ids('keyword=srch%20100')).sort()).toEqual([pct.id, other.id].sort());

      const key = await reveal(alice, other.id);
      expect(await ids(`token=${key}`)).toEqual([other.id]);
      expect(await ids(`token=${key.slice(3)}`)).toEqual([other.id]);
      expect(await ids(`token=${encodeURIComponent(other.key)}`)).toEqual([other.id]);
      expect(await ids(`token=${key.slice(10, 30)}`)).toEqual([other.id]);
      expect(await ids(`token=${key.slice(10, 30)}&keyword=nomatch`)).toEqual([]);
      const page = await alice.get('/api/token/search?keyword=srch&page_size=2').expect(200);
      expect(page.body.data).toMatchObject({ total: 4, page_size: 2 });
      expect(page.body.data.items).toHaveLength(2);
    });
  });

  // ---------------------------------------------------------------- isolation

  describe("users never see or change each other's tokens", () => {
    let mine: TokenBody;
    let mineKey: string;

    beforeAll(async () => {
      mine = await create(alice, { name: 'private', remain_quota: 777 });
      mineKey = await reveal(alice, mine.id);
    });

    it('read, reveal and search by another user find nothing', async () => {
      const get = await bob.get(`/api/token/${mine.id}`).expect(200);
      expect(get.body).toMatchObject({ success: false, message: MSG.notFound, data: null });
      const rev = await bob.post(`/api/token/${mine.id}/key`).expect(200);
      expect(rev.body).toMatchObject({ success: false, message: MSG.notFound, data: null });
      expect(rev.text).not.toContain(mineKey.slice(3));
      const search = await bob.get(`/api/token/search?token=${mineKey}`).expect(200);
      expect(search.body.data.total).toBe(0);
      const byName = await bob.get('/api/token/search?keyword=private').expect(200);
      expect(byName.body.data.total).toBe(0);
      // Admins have no window on users' tokens either.
      const rootGet = await root.get(`/api/token/${mine.id}`).expect(200);
      expect(rootGet.body.success).toBe(false);
      const rootReveal = await root.post(`/api/token/${mine.id}/key`).expect(200);
      expect(rootReveal.body.success).toBe(false);
    });

    it('update, delete and batch delete by another user change nothing', async () => {
      const before = await tokens().findOneByOrFail({ id: mine.id });
      const put = await bob.put('/api/token/', { id: mine.id, name: 'stolen', remain_quota: 999999999 });
      expect(put.body).toMatchObject({ success: false, message: MSG.notFound });
      const status = await bob.put('/api/token/?status_only=true', { id: mine.id, status: 2 });
      expect(status.body.success).toBe(false);
      const del = await bob.delete(`/api/token/${mine.id}`).expect(200);
      expect(del.body).toMatchObject({ success: false, message: MSG.notFound });
      const batch = await bob.post('/api/token/batch', { ids: [mine.id] }).expect(200);
      expect(batch.body).toMatchObject({ success: true, data: 0 });
      expect(await tokens().findOneByOrFail({ id: mine.id })).toEqual(before);
    });

    it('ids past the 32-bit column range match nothing (never a database error)', async () => {
      const get = await alice.get('/api/token/99999999999').expect(200);
      expect(get.body).toMatchObject({ success: false, message: MSG.notFound });
      const rev = await alice.post('/api/token/99999999999/key').expect(200);
      expect(rev.body).toMatchObject({ success: false, message: MSG.notFound });
      const put = await alice.put('/api/token/', { id: 2 ** 40, name: 'x' }).expect(200);
      expect(put.body).toMatchObject({ success: false, message: MSG.notFound });
      const batch = await alice.post('/api/token/batch', { ids: [2 ** 40] }).expect(200);
      expect(batch.body).toMatchObject({ success: true, data: 0 });
      const far = await alice.get('/api/token/?p=99999999').expect(200);
      expect(far.body.data.items).toEqual([]);
    });

    it('anonymous callers get 401', async () => {
      const anon = new ApiClient(t.url);
      await anon.get('/api/token/').expect(401);
      await anon.post(`/api/token/${mine.id}/key`).expect(401);
    });
  });

  // ---------------------------------------------------------------- delete

  describe('delete', () => {
    it('DELETE /:id removes an own token: gone from lists, get, reveal and the relay lookup', async () => {
      const tk = await create(alice, { name: 'to-delete' });
      const res = await alice.delete(`/api/token/${tk.id}/`).expect(200);
      expect(res.body.success).toBe(true);
      expect((await alice.get(`/api/token/${tk.id}`)).body.message).toBe(MSG.notFound);
      expect((await alice.post(`/api/token/${tk.id}/key`)).body.success).toBe(false);
      const list = await alice.get('/api/token/?page_size=100').expect(200);
      expect(list.body.data.items.map((x: TokenBody) => x.id)).not.toContain(tk.id);
      const row = await tokens().findOneByOrFail({ id: tk.id });
      expect(row.deleted_at).toBeGreaterThan(0);
      expect((await alice.delete(`/api/token/${tk.id}`)).body.message).toBe(MSG.notFound);
    });

    it('POST /batch deletes own tokens among the ids and answers the count', async () => {
      const a = await create(alice);
      const b = await create(alice);
      const bobs = await create(bob);
      const res = await alice.post('/api/token/batch', { ids: [a.id, b.id, bobs.id, 99999999] }).expect(200);
      expect(res.body).toMatchObject({ success: true, data: 2 });
      expect((await tokens().findOneByOrFail({ id: bobs.id })).deleted_at).toBeNull();
      const empty = await alice.post('/api/token/batch', { ids: [] }).expect(200);
      expect(empty.body).toMatchObject({ success: false, message: MSG.selectFirst });
      const wrong = await alice.post('/api/token/batch', { ids: ['1 OR 1=1'] }).expect(200);
      expect(wrong.body.success).toBe(false);
    });
  });

  // ---------------------------------------------------------------- cache and limits

  describe('the relay cache and the per-user limit', () => {
    it('every write publishes the token id and key hash on the cache bus', async () => {
      events.length = 0;
      const tk = await create(alice, { name: 'cache' });
      const hash = (await tokens().findOneByOrFail({ id: tk.id })).key_hash;
      const sawHash = () => events.some((e) => e.keys.includes(hash) && e.keys.includes(tk.id));
      expect(sawHash()).toBe(true);
      for (const call of [
        () => alice.put('/api/token/', { id: tk.id, name: 'cache-2' }),
        () => alice.put('/api/token/?status_only=true', { id: tk.id, status: 2 }),
        () => alice.post('/api/token/batch', { ids: [tk.id] }),
      ]) {
        events.length = 0;
        expect((await call()).body.success).toBe(true);
        expect(sawHash()).toBe(true);
      }
      const other = await create(alice);
      events.length = 0;
      await alice.delete(`/api/token/${other.id}`).expect(200);
      expect(events.some((e) => e.keys.includes(other.id))).toBe(true);
    });

    it('a user holds at most 1000 tokens', async () => {
      const carol = await makeUser(t, root);
      const held = 998;
      const rows = Array.from({ length: held }, (_, i) => ({
        user_id: carol.userId!,
        name: `filler-${i}`,
        key_hash: `filler-${carol.userId}-${String(i).padStart(6, '0')}-`.padEnd(64, 'x'),
        key_enc: 'x',
        key_hint: 'fillfill',
        status: 1,
        created_time: now(),
        accessed_time: 0,
        expired_time: -1,
        remain_quota: 0,
        used_quota: 0,
        unlimited_quota: false,
        model_limits_enabled: false,
        model_limits: '',
        allow_ips: '',
        group: '',
        deleted_at: null,
      }));
      for (let i = 0; i < rows.length; i += 200) await tokens().insert(rows.slice(i, i + 200));
      const tooMany = await carol.post('/api/token/', { name: 'over', count: 3 });
      expect(tooMany.body).toMatchObject({ success: false });
      expect(tooMany.body.message).toContain(MSG.limit);
      expect(await live(carol.userId!)).toBe(held);
      const fits = await carol.post('/api/token/', { name: 'fits', count: 2 });
      expect(fits.body.success).toBe(true);
      expect(await live(carol.userId!)).toBe(1000);
      const full = await carol.post('/api/token/', { name: 'full' });
      expect(full.body.message).toContain(MSG.limit);
      // Deleting frees a place.
      await carol.delete(`/api/token/${fits.body.data[0].id}`).expect(200);
      expect((await carol.post('/api/token/', { name: 'again' })).body.success).toBe(true);
    });
  });
});

/**
 * Redemption codes: administration (create, list, search, edit, status, delete, delete invalid) with its
 * validation, and redeeming through `POST /api/user/topup`: the balance, the top-up log and the code's
 * state change together, the relay's view of the balance follows at once, and one code credits exactly
 * once even when 50 callers race for it. Real HTTP against the real app.
 */
import { IsNull } from 'typeorm';
import { CacheBus, CacheEvent } from '../../server/src/common/cache-bus';
import { LogEntry, Redemption } from '../../server/src/database/entities';
import { QuotaLedgerService } from '../../server/src/modules/billing/quota-ledger.service';
import { quotaOf } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp, uname } from '../support/test-app';

const MSG = {
  notFound: '兑换码不存在',
  nameLength: '兑换码名称长度必须在1-20之间',
  nameControl: '兑换码名称不能包含控制字符',
  quota: '额度必须是大于 0 的整数',
  countMin: '兑换码个数必须大于0',
  countMax: '一次兑换码批量生成的个数不能大于 100',
  countType: '兑换码个数必须是整数',
  expiry: '过期时间不能早于当前时间',
  status: '无效的兑换码状态',
  onlyUnused: '只有未使用的兑换码可以编辑',
  usedLocked: '已使用的兑换码不能启用或禁用',
  keyRequired: '请输入兑换码！',
  invalid: '无效的兑换码',
  used: '该兑换码已被使用',
  disabled: '该兑换码已被禁用',
  expired: '该兑换码已过期',
  invalidParams: '无效的参数',
  invalidJson: '请求体不是合法的 JSON',
};

interface CodeBody {
  id: number;
  user_id: number;
  key: string;
  status: number;
  name: string;
  quota: number;
  created_time: number;
  redeemed_time: number;
  used_user_id: number;
  expired_time: number;
}

const now = () => Math.floor(Date.now() / 1000);

describe('redemption codes', () => {
  let t: TestApp;
  let root: ApiClient;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let alice: Awaited<ReturnType<typeof makeUser>>;
  let bob: Awaited<ReturnType<typeof makeUser>>;
  const userEvents: CacheEvent[] = [];

  const repo = () => t.ds.getRepository(Redemption);
  const rows = () => repo().count();
  const byKey = (key: string) => repo().findOneByOrFail({ key });

  async function create(body: Record<string, unknown> = {}): Promise<string[]> {
    const res = await admin
      .post('/api/redemption/', { name: uname('rc'), quota: 100000, ...body })
      .expect(200);
    if (!res.body.success) throw new Error(`create codes: ${res.body.message}`);
    return res.body.data;
  }
  async function createOne(body: Record<string, unknown> = {}): Promise<CodeBody> {
    const [key] = await create(body);
    const row = await byKey(key);
    return (await admin.get(`/api/redemption/${row.id}`).expect(200)).body.data;
  }
  /** A refused call: HTTP 200, success false, the message, and no new row. */
  async function refused(
    res: PromiseLike<{ status: number; body: { success: boolean; message: string } }>,
    msg: string,
  ) {
    const before = await rows();
    const r = await res;
    expect({ status: r.status, success: r.body.success }).toEqual({ status: 200, success: false });
    expect(r.body.message).toContain(msg);
    expect(await rows()).toBe(before);
  }

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    alice = await makeUser(t, root);
    bob = await makeUser(t, root);
    t.app.get(CacheBus).on('users', (e) => userEvents.push(e));
  });
  afterAll(() => t.close());

  // ---------------------------------------------------------------- create

  describe('create', () => {
    it('creates one code by default and returns it; the row records who made it', async () => {
      const res = await admin.post('/api/redemption/', { name: 'first', quota: 250000 }).expect(200);
      expect(res.body).toMatchObject({ success: true, message: '' });
      expect(res.body.data).toHaveLength(1);
      const [key] = res.body.data as string[];
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      const row = await byKey(key);
      expect(row).toMatchObject({
        name: 'first',
        status: 1,
        used_user_id: 0,
        user_id: admin.userId,
        deleted_at: null,
      });
      expect(Number(row.quota)).toBe(250000);
      expect(Number(row.expired_time)).toBe(0);
      expect(Math.abs(Number(row.created_time) - now())).toBeLessThan(5);
    });

    it('count creates that many distinct codes, all or nothing', async () => {
      const keys = await create({ name: 'bulk', count: 100 });
      expect(keys).toHaveLength(100);
      expect(new Set(keys).size).toBe(100);
      expect(await repo().countBy({ name: 'bulk' })).toBe(100);
    });

    it('an empty name becomes the formatted quota (dollars in currency mode, units otherwise)', async () => {
      expect((await createOne({ name: '', quota: 100000 })).name).toBe('$0.20');
      expect((await createOne({ name: '   ', quota: 500000 })).name).toBe('$1.00');
      expect((await createOne({ name: undefined, quota: 1234567 })).name).toBe('$2.47');
      await putOption(root, 'DisplayInCurrencyEnabled', false);
      try {
        expect((await createOne({ name: null, quota: 100000 })).name).toBe('100000');
      } finally {
        await putOption(root, 'DisplayInCurrencyEnabled', true);
      }
    });

    it('names are 1–20 characters counted as characters, unicode included', async () => {
      expect((await createOne({ name: '新年礼包🎁' })).name).toBe('新年礼包🎁');
      expect((await createOne({ name: '🎁'.repeat(20) })).name).toBe('🎁'.repeat(20));
      expect((await createOne({ name: ` ${'x'.repeat(20)} ` })).name).toBe('x'.repeat(20));
      await refused(admin.post('/api/redemption/', { name: 'x'.repeat(21), quota: 1 }), MSG.nameLength);
      await refused(admin.post('/api/redemption/', { name: '🎁'.repeat(21), quota: 1 }), MSG.nameLength);
      await refused(admin.post('/api/redemption/', { name: 'a\u0000b', quota: 1 }), MSG.nameControl);
      await refused(admin.post('/api/redemption/', { name: 'tab\there', quota: 1 }), MSG.nameControl);
      await refused(admin.post('/api/redemption/', { name: 42, quota: 1 }), 'name');
      await refused(admin.post('/api/redemption/', { name: ['a'], quota: 1 }), 'name');
    });

    it.each([
      ['zero', 0],
      ['negative', -5],
      ['fractional', 1.5],
      ['a numeric string', '100'],
      ['beyond 2^53', 2 ** 53],
      ['huge', 1e300],
      ['boolean', true],
      ['null', null],
      ['an object', { n: 1 }],
    ])('refuses a quota that is %s', async (_name, quota) => {
      await refused(admin.post('/api/redemption/', { name: 'q', quota }), MSG.quota);
    });

    it('refuses a missing quota', async () => {
      await refused(admin.post('/api/redemption/', { name: 'q' }), MSG.quota);
    });

    it.each([
      [0, MSG.countMin],
      [-1, MSG.countMin],
      [101, MSG.countMax],
      [1e9, MSG.countMax],
      [2.5, MSG.countType],
      ['3', MSG.countType],
    ])('refuses count %p', async (count, msg) => {
      await refused(admin.post('/api/redemption/', { name: 'c', quota: 10, count }), msg);
    });

    it('expiry: 0 or a future time; a past or malformed one is refused', async () => {
      const future = now() + 3600;
      expect((await createOne({ expired_time: future })).expired_time).toBe(future);
      expect((await createOne({ expired_time: 0 })).expired_time).toBe(0);
      for (const bad of [now() - 10, -1, 'tomorrow', 1.5, 253402300800])
        await refused(
          admin.post('/api/redemption/', { name: 'e', quota: 10, expired_time: bad }),
          MSG.expiry,
        );
    });

    it('refuses bodies that are not a JSON object, and malformed JSON', async () => {
      await refused(admin.post('/api/redemption/', [{ name: 'a', quota: 1 }]), MSG.invalidParams);
      await refused(
        admin.post('/api/redemption/', '"text"').set('Content-Type', 'application/json'),
        MSG.invalidParams,
      );
      await refused(
        admin.post('/api/redemption/', '{"name": "a", "quota": 1').set('Content-Type', 'application/json'),
        MSG.invalidJson,
      );
    });

    it('English messages for English callers', async () => {
      const res = await admin
        .post('/api/redemption/', { name: 'x'.repeat(21), quota: 1 })
        .set('Accept-Language', 'en-US');
      expect(res.body).toMatchObject({
        success: false,
        message: 'The redemption code name must be 1 to 20 characters long',
      });
    });
  });

  // ---------------------------------------------------------------- list, search, get

  describe('list, search and get', () => {
    beforeAll(async () => {
      await create({ name: 'lst-a', quota: 1 });
      await create({ name: 'lst-b', quota: 2 });
      await create({ name: '50%_off', quota: 3 });
      await create({ name: '50x-off', quota: 4 });
    });

    it('pages newest first with the list shape; p=0 is page 1, page_size is capped at 100', async () => {
      const total = await repo().countBy({ deleted_at: IsNull() });
      const first = await admin.get('/api/redemption/?p=1&page_size=2').expect(200);
      expect(first.body.success).toBe(true);
      expect(first.body.data).toMatchObject({ page: 1, page_size: 2, total });
      const items: CodeBody[] = first.body.data.items;
      expect(items).toHaveLength(2);
      expect(items[0].id).toBeGreaterThan(items[1].id);
      expect(Object.keys(items[0]).sort()).toEqual(
        [
          'created_time',
          'expired_time',
          'id',
          'key',
          'name',
          'quota',
          'redeemed_time',
          'status',
          'used_user_id',
          'user_id',
        ].sort(),
      );
      const zero = await admin.get('/api/redemption/?p=0&page_size=2').expect(200);
      expect(zero.body.data.page).toBe(1);
      expect(zero.body.data.items).toEqual(items);
      const second = await admin.get('/api/redemption/?p=2&page_size=2').expect(200);
      expect(second.body.data.items[0].id).toBeLessThan(items[1].id);
      const big = await admin.get('/api/redemption/?page_size=1000').expect(200);
      expect(big.body.data.page_size).toBe(100);
      expect(big.body.data.items).toHaveLength(Math.min(100, total));
      const junk = await admin.get('/api/redemption/?p=abc&page_size=-4').expect(200);
      expect(junk.body.data).toMatchObject({ page: 1, page_size: 10 });
      const past = await admin.get('/api/redemption/?p=100000&page_size=100').expect(200);
      expect(past.body.data.items).toEqual([]);
    });

    it('searches by id, part of the name and part of the code; wildcards match literally', async () => {
      const code = await createOne({ name: 'needle-name', quota: 7 });
      const byId = await admin.get(`/api/redemption/search?keyword=${code.id}`).expect(200);
      expect(byId.body.data.items.map((c: CodeBody) => c.id)).toContain(code.id);
      const byName = await admin.get('/api/redemption/search?keyword=needle').expect(200);
      expect(byName.body.data.items.map((c: CodeBody) => c.id)).toEqual([code.id]);
      const byKey = await admin.get(`/api/redemption/search?keyword=${code.key.slice(5, 20)}`).expect(200);
      expect(byKey.body.data.items.map((c: CodeBody) => c.id)).toEqual([code.id]);
      const pct = await admin.get(`/api/redemption/search?keyword=${encodeURIComponent('50%_')}`).expect(200);
      expect(pct.body.data.items.map((c: CodeBody) => c.name)).toEqual(['50%_off']);
      const none = await admin.get('/api/redemption/search?keyword=%25').expect(200);
      expect(none.body.data.items.map((c: CodeBody) => c.name)).toEqual(['50%_off']);
      const empty = await admin.get('/api/redemption/search?keyword=').expect(200);
      expect(empty.body.data.total).toBe((await admin.get('/api/redemption/').expect(200)).body.data.total);
      const uni = await admin
        .get(`/api/redemption/search?keyword=${encodeURIComponent('礼包🎁')}`)
        .expect(200);
      expect(uni.body.data.items.map((c: CodeBody) => c.name)).toEqual(['新年礼包🎁']);
      const capped = await admin.get('/api/redemption/search?keyword=lst&p=0&page_size=1000').expect(200);
      expect(capped.body.data).toMatchObject({ page: 1, page_size: 100, total: 2 });
    });

    it('filters by status: 1 (usable), 2, 3 and expired', async () => {
      const used = await createOne({ name: 'flt-used', quota: 1 });
      expect((await bob.post('/api/user/topup', { key: used.key })).body.success).toBe(true);
      const off = await createOne({ name: 'flt-off', quota: 1 });
      expect(
        (await admin.put('/api/redemption/?status_only=true', { id: off.id, status: 2 })).body.success,
      ).toBe(true);
      const old = await createOne({ name: 'flt-old', quota: 1 });
      await repo().update({ id: old.id }, { expired_time: now() - 5 });
      const ok = await createOne({ name: 'flt-ok', quota: 1 });
      const names = async (status: string) =>
        (
          (await admin.get(`/api/redemption/search?keyword=flt-&status=${status}`).expect(200)).body.data
            .items as CodeBody[]
        )
          .map((c) => c.name)
          .sort();
      expect(await names('1')).toEqual(['flt-ok']);
      expect(await names('2')).toEqual(['flt-off']);
      expect(await names('3')).toEqual(['flt-used']);
      expect(await names('expired')).toEqual(['flt-old']);
      expect(ok.status).toBe(1);
      const bad = await admin.get('/api/redemption/?status=9').expect(200);
      expect(bad.body).toMatchObject({ success: false, data: null });
    });

    it('gets one code; unknown, malformed and deleted ids are not found', async () => {
      const code = await createOne({ name: 'getme', quota: 9 });
      const res = await admin.get(`/api/redemption/${code.id}/`).expect(200);
      expect(res.body.data).toMatchObject({ id: code.id, name: 'getme', quota: 9, key: code.key, status: 1 });
      const missing = await admin.get('/api/redemption/99999999').expect(200);
      expect(missing.body).toMatchObject({ success: false, message: MSG.notFound });
      const huge = await admin.get('/api/redemption/99999999999999').expect(200);
      expect(huge.body).toMatchObject({ success: false, message: MSG.notFound });
      const text = await admin.get('/api/redemption/abc').expect(200);
      expect(text.body.success).toBe(false);
      await admin.delete(`/api/redemption/${code.id}`).expect(200);
      expect((await admin.get(`/api/redemption/${code.id}`).expect(200)).body.message).toBe(MSG.notFound);
    });
  });

  // ---------------------------------------------------------------- update

  describe('update', () => {
    it('edits name, quota and expiry of an unused code and returns it', async () => {
      const code = await createOne({ name: 'edit-me', quota: 10 });
      const future = now() + 7200;
      const res = await admin
        .put('/api/redemption/', { id: code.id, name: '改名', quota: 20, expired_time: future })
        .expect(200);
      expect(res.body).toMatchObject({
        success: true,
        data: { id: code.id, name: '改名', quota: 20, expired_time: future, key: code.key },
      });
      // Absent fields stay as they are; a status sent without status_only is ignored.
      const partial = await admin.put('/api/redemption/', { id: code.id, quota: 30, status: 2 }).expect(200);
      expect(partial.body.data).toMatchObject({ name: '改名', quota: 30, expired_time: future, status: 1 });
    });

    it('an edit or a status change that changes nothing succeeds', async () => {
      const code = await createOne({ name: 'same', quota: 10 });
      const res = await admin.put('/api/redemption/', {
        id: code.id,
        name: 'same',
        quota: 10,
        expired_time: 0,
      });
      expect(res.body).toMatchObject({ success: true, data: { name: 'same', quota: 10, status: 1 } });
      const on = await admin.put('/api/redemption/?status_only=true', { id: code.id, status: 1 });
      expect(on.body).toMatchObject({ success: true, data: { status: 1 } });
    });

    it('an edit may send a passed expiry back unchanged; a new past expiry is refused', async () => {
      const code = await createOne({ name: 'stale', quota: 10 });
      const past = now() - 100;
      await repo().update({ id: code.id }, { expired_time: past });
      const same = await admin
        .put('/api/redemption/', { id: code.id, name: 'stale2', expired_time: past })
        .expect(200);
      expect(same.body).toMatchObject({ success: true, data: { name: 'stale2', expired_time: past } });
      const worse = await admin.put('/api/redemption/', { id: code.id, expired_time: past - 1 }).expect(200);
      expect(worse.body).toMatchObject({ success: false, message: expect.stringContaining(MSG.expiry) });
      const revived = await admin.put('/api/redemption/', { id: code.id, expired_time: 0 }).expect(200);
      expect(revived.body.data.expired_time).toBe(0);
    });

    it('refuses bad values and changes nothing', async () => {
      const code = await createOne({ name: 'keep', quota: 10 });
      for (const [body, msg] of [
        [{ name: '' }, MSG.nameLength],
        [{ name: 'y'.repeat(21) }, MSG.nameLength],
        [{ quota: 0 }, MSG.quota],
        [{ quota: -1 }, MSG.quota],
        [{ quota: 'lots' }, MSG.quota],
        [{ name: 'ok', quota: 2 ** 60 }, MSG.quota],
        [{ expired_time: now() - 1 }, MSG.expiry],
      ] as const) {
        const res = await admin.put('/api/redemption/', { id: code.id, ...body }).expect(200);
        expect(res.body).toMatchObject({ success: false, message: expect.stringContaining(msg) });
      }
      const row = await repo().findOneByOrFail({ id: code.id });
      expect({ name: row.name, quota: Number(row.quota) }).toEqual({ name: 'keep', quota: 10 });
      for (const id of [undefined, 0, -1, 'x', 1.5, 99999999]) {
        const res = await admin.put('/api/redemption/', { id, name: 'zz' }).expect(200);
        expect(res.body).toMatchObject({ success: false, message: MSG.notFound });
      }
      expect((await admin.put('/api/redemption/', [code.id]).expect(200)).body.message).toContain(
        MSG.invalidParams,
      );
    });

    it('only unused codes can be edited', async () => {
      const used = await createOne({ name: 'u1', quota: 5 });
      await alice.post('/api/user/topup', { key: used.key }).expect(200);
      const off = await createOne({ name: 'd1', quota: 5 });
      await admin.put('/api/redemption/?status_only=true', { id: off.id, status: 2 }).expect(200);
      for (const code of [used, off]) {
        const res = await admin.put('/api/redemption/', { id: code.id, quota: 999999 }).expect(200);
        expect(res.body).toMatchObject({ success: false, message: MSG.onlyUnused });
        expect(Number((await repo().findOneByOrFail({ id: code.id })).quota)).toBe(5);
      }
    });

    it('status_only disables and re-enables; a used code cannot be enabled or disabled', async () => {
      const code = await createOne({ name: 's1', quota: 5 });
      const off = await admin
        .put('/api/redemption/?status_only=true', { id: code.id, status: 2, name: 'ignored' })
        .expect(200);
      expect(off.body).toMatchObject({ success: true, data: { status: 2, name: 's1' } });
      expect((await alice.post('/api/user/topup', { key: code.key })).body.message).toBe(MSG.disabled);
      const on = await admin.put('/api/redemption/?status_only=true', { id: code.id, status: 1 }).expect(200);
      expect(on.body.data.status).toBe(1);
      for (const status of [3, 0, '1', null, 1.5]) {
        const res = await admin.put('/api/redemption/?status_only=true', { id: code.id, status }).expect(200);
        expect(res.body).toMatchObject({ success: false, message: expect.stringContaining(MSG.status) });
      }
      await alice.post('/api/user/topup', { key: code.key }).expect(200);
      for (const status of [1, 2]) {
        const res = await admin.put('/api/redemption/?status_only=true', { id: code.id, status }).expect(200);
        expect(res.body).toMatchObject({ success: false, message: MSG.usedLocked });
      }
      expect((await repo().findOneByOrFail({ id: code.id })).status).toBe(3);
    });
  });

  // ---------------------------------------------------------------- delete

  describe('delete', () => {
    it('deletes one code; it disappears from lists and can no longer be redeemed', async () => {
      const code = await createOne({ name: 'del-1', quota: 5 });
      const res = await admin.delete(`/api/redemption/${code.id}/`).expect(200);
      expect(res.body).toMatchObject({ success: true, data: null });
      const list = await admin.get('/api/redemption/search?keyword=del-1').expect(200);
      expect(list.body.data.total).toBe(0);
      expect((await alice.post('/api/user/topup', { key: code.key })).body.message).toBe(MSG.invalid);
      expect((await admin.delete(`/api/redemption/${code.id}`).expect(200)).body.message).toBe(MSG.notFound);
      expect((await admin.delete('/api/redemption/0').expect(200)).body.message).toBe(MSG.notFound);
    });

    it('delete invalid removes used, disabled and expired codes and keeps the usable ones', async () => {
      const ok = await createOne({ name: 'inv-ok', quota: 1 });
      const later = await createOne({ name: 'inv-later', quota: 1, expired_time: now() + 3600 });
      const used = await createOne({ name: 'inv-used', quota: 1 });
      await bob.post('/api/user/topup', { key: used.key }).expect(200);
      const off = await createOne({ name: 'inv-off', quota: 1 });
      await admin.put('/api/redemption/?status_only=true', { id: off.id, status: 2 }).expect(200);
      const old = await createOne({ name: 'inv-old', quota: 1 });
      await repo().update({ id: old.id }, { expired_time: now() - 1 });
      const invalidBefore = await repo()
        .createQueryBuilder('r')
        .where('r.deleted_at IS NULL')
        .andWhere('(r.status IN (2, 3) OR (r.expired_time <> 0 AND r.expired_time <= :now))', { now: now() })
        .getCount();
      const res = await admin.delete('/api/redemption/invalid').expect(200);
      expect(res.body).toMatchObject({ success: true, data: invalidBefore });
      expect(invalidBefore).toBeGreaterThanOrEqual(3);
      const left = await admin.get('/api/redemption/search?keyword=inv-&page_size=100').expect(200);
      expect((left.body.data.items as CodeBody[]).map((c) => c.name).sort()).toEqual(['inv-later', 'inv-ok']);
      expect([ok.id, later.id]).toEqual(
        expect.arrayContaining(left.body.data.items.map((c: CodeBody) => c.id)),
      );
      expect((await admin.delete('/api/redemption/invalid').expect(200)).body.data).toBe(0);
    });
  });

  // ---------------------------------------------------------------- redeem

  describe('redeem (POST /api/user/topup)', () => {
    it('credits the balance, marks the code used and writes a top-up log, together', async () => {
      const code = await createOne({ name: 'gift', quota: 1500000 });
      const before = await quotaOf(t, alice.userId!);
      const res = await alice.post('/api/user/topup', { key: ` ${code.key} ` }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: 1500000 });
      expect(await quotaOf(t, alice.userId!)).toBe(before + 1500000);
      const row = await repo().findOneByOrFail({ id: code.id });
      expect({ status: row.status, used_user_id: row.used_user_id }).toEqual({
        status: 3,
        used_user_id: alice.userId,
      });
      expect(Math.abs(Number(row.redeemed_time) - now())).toBeLessThan(5);
      const logs = await t.ds.getRepository(LogEntry).findBy({ user_id: alice.userId!, type: 1 });
      const log = logs.find((l) => (l.content ?? '').includes(`兑换码ID ${code.id}`))!;
      expect(log).toBeDefined();
      expect(Number(log.quota)).toBe(1500000);
      expect(log.content).toBe(`通过兑换码充值 $3.00，兑换码ID ${code.id}`);
      expect(log.username).toBe(alice.username);
      const self = await alice.get('/api/user/self').expect(200);
      expect(self.body.data.quota).toBe(before + 1500000);
    });

    it('the relay view of the balance follows at once (user cache told, ledger estimate dropped)', async () => {
      const ledger = t.app.get(QuotaLedgerService);
      const code = await createOne({ name: 'relay', quota: 777 });
      const before = await ledger.balanceOf(bob.userId!);
      userEvents.length = 0;
      await bob.post('/api/user/topup', { key: code.key }).expect(200);
      expect(userEvents.some((e) => e.keys.map(Number).includes(bob.userId!))).toBe(true);
      expect(await ledger.balanceOf(bob.userId!)).toBe(before + 777);
    });

    it('a code works once; disabled, expired, deleted and unknown codes are refused with their reason', async () => {
      const code = await createOne({ name: 'once', quota: 10 });
      expect((await alice.post('/api/user/topup', { key: code.key })).body.success).toBe(true);
      const balance = await quotaOf(t, bob.userId!);
      const again = await bob.post('/api/user/topup', { key: code.key }).expect(200);
      expect(again.body).toMatchObject({ success: false, message: MSG.used, data: null });
      const off = await createOne({ name: 'off', quota: 10 });
      await admin.put('/api/redemption/?status_only=true', { id: off.id, status: 2 }).expect(200);
      expect((await bob.post('/api/user/topup', { key: off.key })).body.message).toBe(MSG.disabled);
      const old = await createOne({ name: 'old', quota: 10, expired_time: now() + 3600 });
      await repo().update({ id: old.id }, { expired_time: now() - 1 });
      expect((await bob.post('/api/user/topup', { key: old.key })).body.message).toBe(MSG.expired);
      expect((await repo().findOneByOrFail({ id: old.id })).status).toBe(1);
      expect((await bob.post('/api/user/topup', { key: 'f'.repeat(32) })).body.message).toBe(MSG.invalid);
      expect((await bob.post('/api/user/topup', { key: code.key.toUpperCase() })).body.message).toBe(
        MSG.invalid,
      );
      expect(await quotaOf(t, bob.userId!)).toBe(balance);
      const en = await bob.post('/api/user/topup', { key: code.key }).set('Accept-Language', 'en');
      expect(en.body.message).toBe('This redemption code has already been used');
    });

    it('refuses empty, non-text, over-long and malformed input without crediting anything', async () => {
      const balance = await quotaOf(t, bob.userId!);
      const logs = await t.ds.getRepository(LogEntry).countBy({ user_id: bob.userId! });
      for (const [body, msg] of [
        [{ key: '' }, MSG.keyRequired],
        [{ key: '   ' }, MSG.keyRequired],
        [{}, MSG.keyRequired],
        [{ key: null }, MSG.keyRequired],
        [{ key: 12345 }, MSG.invalid],
        [{ key: ['a'] }, MSG.invalid],
        [{ key: { $ne: '' } }, MSG.invalid],
        [{ key: 'k'.repeat(65) }, MSG.invalid],
        [{ key: "' OR '1'='1" }, MSG.invalid],
        [{ key: '兑换码🎁' }, MSG.invalid],
        [[{ key: 'x' }], MSG.invalidParams],
      ] as const) {
        const res = await bob.post('/api/user/topup', body).expect(200);
        expect(res.body).toMatchObject({ success: false, message: expect.stringContaining(msg), data: null });
      }
      const broken = await bob
        .post('/api/user/topup', '{"key": ')
        .set('Content-Type', 'application/json')
        .expect(200);
      expect(broken.body).toMatchObject({ success: false, message: MSG.invalidJson });
      expect(await quotaOf(t, bob.userId!)).toBe(balance);
      expect(await t.ds.getRepository(LogEntry).countBy({ user_id: bob.userId! })).toBe(logs);
    });

    it('50 concurrent attempts on one code credit it exactly once', async () => {
      const racers = [alice, bob, await makeUser(t, root), await makeUser(t, root), await makeUser(t, root)];
      const quota = 123457;
      const code = await createOne({ name: 'race', quota });
      const before = await Promise.all(racers.map((r) => quotaOf(t, r.userId!)));
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          racers[i % racers.length].post('/api/user/topup', { key: code.key }),
        ),
      );
      const wins = results.filter((r) => r.body.success);
      expect(results.every((r) => r.status === 200)).toBe(true);
      expect(wins).toHaveLength(1);
      expect(wins[0].body.data).toBe(quota);
      expect(results.filter((r) => !r.body.success).every((r) => r.body.message === MSG.used)).toBe(true);
      const after = await Promise.all(racers.map((r) => quotaOf(t, r.userId!)));
      const gained = after.reduce((sum, q, i) => sum + (q - before[i]), 0);
      expect(gained).toBe(quota);
      const row = await repo().findOneByOrFail({ id: code.id });
      const winner = racers.findIndex((r) => r.userId === row.used_user_id);
      expect(after[winner] - before[winner]).toBe(quota);
      const logs = await t.ds
        .getRepository(LogEntry)
        .createQueryBuilder('l')
        .where('l.type = 1 AND l.content LIKE :c', { c: `%兑换码ID ${code.id}` })
        .getMany();
      expect(logs).toHaveLength(1);
      expect(Number(logs[0].quota)).toBe(quota);
    });

    it('many codes redeemed at once by one user all credit, each once', async () => {
      const keys = await create({ name: 'par', quota: 1000, count: 30 });
      const before = await quotaOf(t, alice.userId!);
      const results = await Promise.all(keys.map((key) => alice.post('/api/user/topup', { key })));
      expect(results.every((r) => r.body.success)).toBe(true);
      expect(await quotaOf(t, alice.userId!)).toBe(before + 30 * 1000);
      expect(await repo().countBy({ name: 'par', status: 3 })).toBe(30);
    });

    it('a code edited to a new quota credits the new quota; a balance that would pass 2^53 is refused whole', async () => {
      const code = await createOne({ name: 'big', quota: 1 });
      await admin.put('/api/redemption/', { id: code.id, quota: Number.MAX_SAFE_INTEGER }).expect(200);
      const before = await quotaOf(t, bob.userId!);
      const res = await bob.post('/api/user/topup', { key: code.key }).expect(200);
      expect(res.body).toMatchObject({ success: false, message: '充值后的余额超出系统上限' });
      expect(await quotaOf(t, bob.userId!)).toBe(before);
      expect((await repo().findOneByOrFail({ id: code.id })).status).toBe(1);
      await admin.put('/api/redemption/', { id: code.id, quota: 4321 }).expect(200);
      expect((await bob.post('/api/user/topup', { key: code.key })).body.data).toBe(4321);
    });
  });
});

/**
 * User administration as an operator sees it: the paged list and search, reading, creating and editing
 * users (quota edits as deltas), the manage actions with their role rules, the balance ledger under
 * concurrency, and deregistered accounts. Real HTTP against the real app on the Jest project's database.
 */
import { LogEntry, LogType, Role, User, UserStatus } from '../../server/src/database/entities';
import { currentDriver } from '../support/databases';
import { ApiClient, makeUser, setupRoot, startApp, TestApp, uname } from '../support/test-app';

const MSG = {
  required: '用户名和密码不能为空！',
  taken: '用户名已存在',
  notFound: '用户不存在',
  alreadyAdmin: '该用户已经是管理员',
  alreadyUser: '该用户已经是普通用户',
  deregistered: '该用户已注销',
  cannotPromote: '普通管理员用户无法提升其他用户为管理员',
  cannotTouchRoot: '无法禁用、删除或降级超级管理员',
  belowZero: '调整后额度不能小于 0',
  quotaInvalid: '额度必须是整数',
  changedMeanwhile: '额度已被其他操作修改',
  loginFailed: '用户名或密码错误',
};

describe('user administration', () => {
  let t: TestApp;
  let root: ApiClient;
  let admin: ApiClient & { username: string };
  let admin2: ApiClient & { username: string };
  let plain: ApiClient & { username: string; password: string };

  const users = () => t.ds.getRepository(User);
  const row = (id: number) => users().findOneByOrFail({ id });
  const quotaOf = async (id: number) => (await row(id)).quota;
  const setQuota = (id: number, quota: number) => users().update({ id }, { quota });
  const allManageLogs = (userId: number) =>
    t.ds
      .getRepository(LogEntry)
      .find({ where: { user_id: userId, type: LogType.Manage }, order: { id: 'ASC' } });
  /** The account-record logs: an admin created the user, or changed its profile fields. */
  const ACCOUNT_LOG = /^管理员(创建了用户|修改了用户信息)/;
  const accountLogs = async (userId: number) =>
    (await allManageLogs(userId)).filter((l) => ACCOUNT_LOG.test(l.content ?? ''));
  /** Management logs of quota, status and role changes. */
  const manageLogs = async (userId: number) =>
    (await allManageLogs(userId)).filter((l) => !ACCOUNT_LOG.test(l.content ?? ''));

  /** Creates a user through the admin API and returns its id. */
  async function create(
    username: string,
    extra: { password?: string; display_name?: string } = {},
  ): Promise<number> {
    const res = await root.post('/api/user/', {
      username,
      password: extra.password ?? 'password-1',
      display_name: extra.display_name,
    });
    expect(res.status).toBe(200);
    if (!res.body.success) throw new Error(`create ${username}: ${res.body.message}`);
    return (await users().findOneByOrFail({ username })).id;
  }

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    admin2 = await makeUser(t, root, { role: 'admin' });
    plain = await makeUser(t, root);
  });
  afterAll(() => t.close());

  // ---------------------------------------------------------------- list

  describe('GET /api/user/ (paged list)', () => {
    let total = 0;
    beforeAll(async () => {
      // Enough users to need several pages and to reach the page-size cap of 100.
      const names = Array.from({ length: 104 }, () => uname('l'));
      for (let i = 0; i < names.length; i += 15)
        await Promise.all(names.slice(i, i + 15).map((n) => create(n)));
      total = await users().count();
      expect(total).toBeGreaterThan(100);
    });

    it('answers {items, total, page, page_size} with 10 items by default', async () => {
      const res = await admin.get('/api/user/').expect(200);
      expect(res.body.success).toBe(true);
      expect(Object.keys(res.body.data).sort()).toEqual(['items', 'page', 'page_size', 'total']);
      expect(res.body.data).toMatchObject({ total, page: 1, page_size: 10 });
      expect(res.body.data.items).toHaveLength(10);
      for (const u of res.body.data.items) {
        expect(u).not.toHaveProperty('password');
        expect(u).not.toHaveProperty('access_token');
        expect(u).not.toHaveProperty('access_token_hash');
        expect(u).toHaveProperty('DeletedAt', null);
        expect(typeof u.quota).toBe('number');
      }
    });

    it('pages cover every user exactly once', async () => {
      const seen: number[] = [];
      for (let p = 1; p <= Math.ceil(total / 40); p++) {
        const res = await admin.get(`/api/user/?p=${p}&page_size=40`).expect(200);
        expect(res.body.data).toMatchObject({ page: p, page_size: 40, total });
        seen.push(...res.body.data.items.map((u: { id: number }) => u.id));
      }
      const all = (await users().find({ select: { id: true } })).map((u) => u.id);
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
      expect([...seen].sort((a, b) => a - b)).toEqual(all.sort((a, b) => a - b));
    });

    it('p=2&page_size=5 is the second slice of the same order', async () => {
      const first = await admin.get('/api/user/?p=1&page_size=10').expect(200);
      const second = await admin.get('/api/user/?p=2&page_size=5').expect(200);
      expect(second.body.data).toMatchObject({ page: 2, page_size: 5, total });
      expect(second.body.data.items.map((u: { id: number }) => u.id)).toEqual(
        first.body.data.items.slice(5, 10).map((u: { id: number }) => u.id),
      );
    });

    it.each([
      ['size=7', 1, 7],
      ['ps=3', 1, 3],
      ['p=0&page_size=4', 1, 4],
      ['p=-5&size=4', 1, 4],
      ['p=abc', 1, 10],
      ['page_size=0', 1, 10],
    ])('accepts %s', async (query, page, size) => {
      const res = await admin.get(`/api/user/?${query}`).expect(200);
      expect(res.body.data).toMatchObject({ page, page_size: size, total });
      expect(res.body.data.items).toHaveLength(size);
    });

    it('caps page_size at 100', async () => {
      const res = await admin.get('/api/user/?page_size=1000').expect(200);
      expect(res.body.data.page_size).toBe(100);
      expect(res.body.data.items).toHaveLength(100);
      const bySize = await admin.get('/api/user/?size=500').expect(200);
      expect(bySize.body.data.items).toHaveLength(100);
    });

    it('a page past the end is empty but keeps the total', async () => {
      const res = await admin.get('/api/user/?p=999&page_size=50').expect(200);
      expect(res.body.data).toEqual({ items: [], total, page: 999, page_size: 50 });
    });
  });

  // ---------------------------------------------------------------- search

  describe('GET /api/user/search', () => {
    const ids: Record<string, number> = {};
    beforeAll(async () => {
      for (const name of ['kw%1', 'kwx1', 'kw_1', 'kwy1', 'kw\\1', 'kwz1', 'kw!1'])
        ids[name] = await create(name);
      ids.zebra = await create(uname('z'), { display_name: 'Zebra Crossing' });
      ids.mail = await create(uname('m'));
      await users().update({ id: ids.mail }, { email: 'findme-x@example.org' });
      for (const id of [ids['kwx1'], ids.zebra]) {
        const r = await admin.put('/api/user/', { id, group: 'vip' }).expect(200);
        expect(r.body.success).toBe(true);
      }
    });
    const search = async (query: string) => {
      const res = await admin.get(`/api/user/search?${query}`).expect(200);
      expect(res.body.success).toBe(true);
      return res.body.data as {
        items: Array<{ id: number; username: string; group: string }>;
        total: number;
        page: number;
        page_size: number;
      };
    };
    const names = (d: { items: Array<{ username: string }> }) => d.items.map((u) => u.username).sort();

    it('finds by username fragment', async () => {
      const d = await search('keyword=kw');
      expect(names(d)).toEqual(['kw!1', 'kw%1', 'kw\\1', 'kw_1', 'kwx1', 'kwy1', 'kwz1'].sort());
      expect(d.total).toBe(7);
      expect(d).toMatchObject({ page: 1, page_size: 10 });
    });

    it('matches % literally: "%" does not match everything', async () => {
      expect(names(await search(`keyword=${encodeURIComponent('%')}`))).toEqual(['kw%1']);
      expect(names(await search(`keyword=${encodeURIComponent('kw%')}`))).toEqual(['kw%1']);
      expect(names(await search(`keyword=${encodeURIComponent('%%')}`))).toEqual([]);
    });

    it('matches _ literally: "kw_" does not match kwx1', async () => {
      expect(names(await search(`keyword=${encodeURIComponent('_')}`))).toEqual(['kw_1']);
      expect(names(await search(`keyword=${encodeURIComponent('kw_1')}`))).toEqual(['kw_1']);
    });

    it('matches a backslash and an exclamation mark literally', async () => {
      expect(names(await search(`keyword=${encodeURIComponent('kw\\1')}`))).toEqual(['kw\\1']);
      expect(names(await search(`keyword=${encodeURIComponent('\\')}`))).toEqual(['kw\\1']);
      expect(names(await search(`keyword=${encodeURIComponent('!')}`))).toEqual(['kw!1']);
      expect(names(await search(`keyword=${encodeURIComponent('kw!%')}`))).toEqual([]);
    });

    it('finds by display name and by email', async () => {
      expect((await search('keyword=Zebra%20Cross')).items.map((u) => u.id)).toEqual([ids.zebra]);
      expect((await search(`keyword=${encodeURIComponent('findme-x@exa')}`)).items.map((u) => u.id)).toEqual([
        ids.mail,
      ]);
    });

    it('finds by id', async () => {
      const d = await search(`keyword=${ids.zebra}&page_size=100`);
      expect(d.items.map((u) => u.id)).toContain(ids.zebra);
      // Anything else listed must contain the digits somewhere searchable.
      for (const u of d.items) if (u.id !== ids.zebra) expect(JSON.stringify(u)).toContain(String(ids.zebra));
    });

    it('filters by group, alone and with a keyword', async () => {
      const d = await search('group=vip');
      expect(d.items.map((u) => u.id).sort()).toEqual([ids['kwx1'], ids.zebra].sort());
      expect(d.items.every((u) => u.group === 'vip')).toBe(true);
      expect((await search('keyword=kw&group=vip')).items.map((u) => u.id)).toEqual([ids['kwx1']]);
      expect((await search('group=nosuchgroup')).total).toBe(0);
    });

    it('pages search results', async () => {
      const a = await search('keyword=kw&page_size=4&p=1');
      const b = await search('keyword=kw&ps=4&p=2');
      expect(a).toMatchObject({ total: 7, page: 1, page_size: 4 });
      expect(b).toMatchObject({ total: 7, page: 2, page_size: 4 });
      expect(a.items).toHaveLength(4);
      expect(b.items).toHaveLength(3);
      expect(new Set([...a.items, ...b.items].map((u) => u.id)).size).toBe(7);
    });

    it('an empty keyword lists everyone', async () => {
      expect((await search('keyword=')).total).toBe(await users().count());
    });

    it('is admin-only', async () => {
      await plain.get('/api/user/search?keyword=kw').expect(403);
      await new ApiClient(t.url).get('/api/user/search?keyword=kw').expect(401);
    });
  });

  // ---------------------------------------------------------------- read one

  describe('GET /api/user/{id}', () => {
    it('admin reads an ordinary user, without secrets', async () => {
      const res = await admin.get(`/api/user/${plain.userId}`).expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        id: plain.userId,
        username: plain.username,
        role: Role.User,
        status: UserStatus.Enabled,
      });
      expect(res.body.data).not.toHaveProperty('password');
      expect(res.body.data).not.toHaveProperty('access_token');
    });

    it('admin cannot read another admin or root', async () => {
      const a = await admin.get(`/api/user/${admin2.userId}`).expect(403);
      expect(a.body).toMatchObject({ success: false });
      expect(JSON.stringify(a.body)).not.toContain(admin2.username);
      await admin.get(`/api/user/${root.userId}`).expect(403);
    });

    it('root reads admins and itself', async () => {
      expect((await root.get(`/api/user/${admin.userId}`).expect(200)).body.data).toMatchObject({
        id: admin.userId,
        role: Role.Admin,
      });
      expect((await root.get(`/api/user/${root.userId}`).expect(200)).body.data).toMatchObject({
        id: root.userId,
        role: Role.Root,
      });
    });

    it('unknown or malformed ids are business failures', async () => {
      expect((await admin.get('/api/user/987654').expect(200)).body).toMatchObject({
        success: false,
        message: MSG.notFound,
      });
      expect((await admin.get('/api/user/abc').expect(200)).body.success).toBe(false);
    });

    it('an ordinary user cannot read anyone through it', async () => {
      await plain.get(`/api/user/${admin.userId}`).expect(403);
      await plain.get(`/api/user/${plain.userId}`).expect(403);
    });
  });

  // ---------------------------------------------------------------- create

  describe('POST /api/user/ (create)', () => {
    it.each([
      [{ username: '', password: 'password-1' }, MSG.required],
      [{ username: 'nopass1', password: '' }, MSG.required],
      [{ password: 'password-1' }, MSG.required],
      [{ username: 'nopass2' }, MSG.required],
      [{}, MSG.required],
      [{ username: 'abcdefghijklm', password: 'password-1' }, '12'],
      [{ username: 'short1', password: '1234567' }, '8'],
      [{ username: 'long1', password: 'x'.repeat(21) }, '20'],
      [{ username: 'has space', password: 'password-1' }, '用户名'],
      [{ username: 'dn1', password: 'password-1', display_name: 'd'.repeat(21) }, '20'],
      [{ username: 12345, password: 'password-1' }, '无效的参数'],
    ])('refuses %j', async (body, message) => {
      const before = await users().count();
      const res = await admin.post('/api/user/', body).expect(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain(message);
      expect(await users().count()).toBe(before);
    });

    it('records who created the user and which profile fields an admin changed, never their values', async () => {
      const name = uname('lg');
      const made = await admin.post('/api/user/', { username: name, password: 'password-1' });
      expect(made.body.success).toBe(true);
      const id = (await users().findOneByOrFail({ username: name })).id;
      const created = await accountLogs(id);
      expect(created.map((l) => l.content)).toEqual([`管理员创建了用户（${admin.username}）`]);
      expect(
        (await admin.put('/api/user/', { id, display_name: 'Shown', password: 'new-secret-pw-9' })).body
          .success,
      ).toBe(true);
      const logs = await accountLogs(id);
      expect(logs).toHaveLength(2);
      expect(logs[1].content).toBe(`管理员修改了用户信息：display_name, password（${admin.username}）`);
      expect(JSON.stringify(logs)).not.toContain('new-secret-pw-9');
      expect(JSON.stringify(logs)).not.toContain('Shown');
      expect(logs.every((l) => l.quota === 0 && l.type === LogType.Manage)).toBe(true);
    });

    it('writes nothing when the edit form is saved unchanged, and names only the fields that changed', async () => {
      const name = uname('nc');
      expect((await admin.post('/api/user/', { username: name, password: 'password-1' })).body.success).toBe(
        true,
      );
      const user = await users().findOneByOrFail({ username: name });
      // What the console's edit drawer sends back untouched: every field as loaded, password empty.
      const form = {
        id: user.id,
        username: user.username,
        display_name: user.display_name,
        group: user.group,
        password: '',
        quota: user.quota,
        original_quota: user.quota,
      };
      expect((await admin.put('/api/user/', form)).body.success).toBe(true);
      expect((await accountLogs(user.id)).map((l) => l.content)).toEqual([
        `管理员创建了用户（${admin.username}）`,
      ]);
      expect((await admin.put('/api/user/', { ...form, group: 'vip' })).body.success).toBe(true);
      const logs = await accountLogs(user.id);
      expect(logs).toHaveLength(2);
      expect(logs[1].content).toBe(`管理员修改了用户信息：group（${admin.username}）`);
    });

    it('creates an ordinary, enabled user who can sign in', async () => {
      const res = await admin
        .post('/api/user/', { username: 'abcdefghijkl', password: '12345678', display_name: 'Twelve' })
        .expect(200);
      expect(res.body).toMatchObject({ success: true });
      const u = await users().findOneByOrFail({ username: 'abcdefghijkl' });
      expect(u).toMatchObject({
        role: Role.User,
        status: UserStatus.Enabled,
        display_name: 'Twelve',
        deleted_at: null,
      });
      expect(u.password).not.toBe('12345678');
      const c = await new ApiClient(t.url).login('abcdefghijkl', '12345678');
      expect((await c.get('/api/user/self').expect(200)).body.data.username).toBe('abcdefghijkl');
      const max = await admin
        .post('/api/user/', { username: 'maxpass1', password: 'y'.repeat(20) })
        .expect(200);
      expect(max.body.success).toBe(true);
      expect((await users().findOneByOrFail({ username: 'maxpass1' })).display_name).toBe('maxpass1');
    });

    it('refuses a duplicate name and keeps the first account', async () => {
      const id = await create('dupname1', { password: 'first-pass' });
      const before = await users().count();
      const res = await admin
        .post('/api/user/', { username: 'dupname1', password: 'second-pass' })
        .expect(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain(MSG.taken);
      expect(await users().count()).toBe(before);
      await new ApiClient(t.url).login('dupname1', 'first-pass');
      expect((await row(id)).username).toBe('dupname1');
    });

    it('ignores a role in the body (always an ordinary user)', async () => {
      await admin
        .post('/api/user/', { username: 'sneaky1', password: 'password-1', role: Role.Root })
        .expect(200);
      expect((await users().findOneByOrFail({ username: 'sneaky1' })).role).toBe(Role.User);
    });
  });

  // ---------------------------------------------------------------- update

  describe('PUT /api/user/ (edit)', () => {
    it('changes username, display name and password; a blank password keeps the old one', async () => {
      const id = await create('edit1', { password: 'old-pass-1' });
      let res = await admin
        .put('/api/user/', { id, username: 'edit1new', display_name: 'Edited', password: '' })
        .expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ id, username: 'edit1new', display_name: 'Edited' });
      expect(await row(id)).toMatchObject({ username: 'edit1new', display_name: 'Edited' });
      await new ApiClient(t.url).login('edit1new', 'old-pass-1');
      const oldName = await new ApiClient(t.url).post('/api/user/login', {
        username: 'edit1',
        password: 'old-pass-1',
      });
      expect(oldName.body.success).toBe(false);

      res = await admin.put('/api/user/', { id, password: 'new-pass-2' }).expect(200);
      expect(res.body.success).toBe(true);
      await new ApiClient(t.url).login('edit1new', 'new-pass-2');
      const old = await new ApiClient(t.url).post('/api/user/login', {
        username: 'edit1new',
        password: 'old-pass-1',
      });
      expect(old.body).toMatchObject({ success: false });
      expect(old.body.message).toContain(MSG.loginFailed);
    });

    it('changes the group', async () => {
      const id = await create(uname('g'));
      expect((await admin.put('/api/user/', { id, group: 'svip' }).expect(200)).body.success).toBe(true);
      expect((await row(id)).group).toBe('svip');
      const bad = await admin.put('/api/user/', { id, group: '   ' }).expect(200);
      expect(bad.body.success).toBe(false);
      expect((await row(id)).group).toBe('svip');
    });

    it('never changes role, status, email or bound ids', async () => {
      const id = await create(uname('r'));
      const before = await row(id);
      const res = await admin
        .put('/api/user/', {
          id,
          display_name: 'still-user',
          role: Role.Root,
          status: 2,
          email: 'x@y.com',
          github_id: 'gh1',
          aff_quota: 99,
          used_quota: 5,
        })
        .expect(200);
      expect(res.body.success).toBe(true);
      const after = await row(id);
      expect(after).toMatchObject({
        role: Role.User,
        status: before.status,
        email: before.email,
        github_id: null,
        aff_quota: 0,
        used_quota: 0,
      });
      expect(after.display_name).toBe('still-user');
      // Root cannot either: role changes go through manage.
      await root.put('/api/user/', { id, role: Role.Admin }).expect(200);
      expect((await row(id)).role).toBe(Role.User);
    });

    it('refuses a taken username, a too-long one, and a bad password, changing nothing', async () => {
      const id = await create('keepme1');
      await create('taken1');
      const before = await row(id);
      for (const body of [
        { username: 'taken1' },
        { username: 'abcdefghijklm' },
        { password: 'short' },
        { username: 'taken1', display_name: 'changed' },
      ]) {
        const res = await admin.put('/api/user/', { id, ...body }).expect(200);
        expect(res.body.success).toBe(false);
      }
      expect(await row(id)).toEqual(before);
    });

    it('admins cannot edit admins or root; root can edit admins', async () => {
      const before = await row(admin2.userId!);
      await admin.put('/api/user/', { id: admin2.userId, display_name: 'hacked' }).expect(403);
      await admin.put('/api/user/', { id: root.userId, password: 'hacked-pass-1' }).expect(403);
      expect(await row(admin2.userId!)).toEqual(before);
      await new ApiClient(t.url).login('root', 'root-pass-1');
      const ok = await root.put('/api/user/', { id: admin2.userId, display_name: 'by-root' }).expect(200);
      expect(ok.body.success).toBe(true);
      expect((await row(admin2.userId!)).display_name).toBe('by-root');
    });

    it('an unknown id is a business failure', async () => {
      expect(
        (await admin.put('/api/user/', { id: 987654, display_name: 'x' }).expect(200)).body,
      ).toMatchObject({ success: false, message: MSG.notFound });
    });

    describe('quota', () => {
      it('applies the edit as a delta from original_quota: two admins from the same loaded value both count', async () => {
        const id = await create(uname('q'));
        await setQuota(id, 1000);
        const a = await admin.put('/api/user/', { id, quota: 1500, original_quota: 1000 }).expect(200);
        expect(a.body.success).toBe(true);
        const b = await admin2.put('/api/user/', { id, quota: 800, original_quota: 1000 }).expect(200);
        expect(b.body.success).toBe(true);
        expect(await quotaOf(id)).toBe(1300);
        expect(b.body.data.quota).toBe(1300);
        const logs = await manageLogs(id);
        expect(logs.map((l) => l.quota)).toEqual([500, -200]);
        expect(logs.every((l) => l.type === LogType.Manage && l.user_id === id)).toBe(true);
      });

      it('without original_quota sets the balance and logs the difference', async () => {
        const id = await create(uname('q'));
        await setQuota(id, 1000);
        expect((await admin.put('/api/user/', { id, quota: 1234 }).expect(200)).body.success).toBe(true);
        expect(await quotaOf(id)).toBe(1234);
        expect((await admin.put('/api/user/', { id, quota: 34 }).expect(200)).body.success).toBe(true);
        expect(await quotaOf(id)).toBe(34);
        expect((await manageLogs(id)).map((l) => l.quota)).toEqual([234, -1200]);
      });

      it('an unchanged quota writes no log', async () => {
        const id = await create(uname('q'));
        await setQuota(id, 700);
        await admin.put('/api/user/', { id, quota: 700, display_name: 'same-quota' }).expect(200);
        await admin.put('/api/user/', { id, quota: 900, original_quota: 900 }).expect(200);
        expect(await quotaOf(id)).toBe(700);
        expect(await manageLogs(id)).toHaveLength(0);
      });

      it.each([
        [{ quota: -1 }],
        [{ quota: 1.5 }],
        [{ quota: 2 ** 53 + 2 }],
        [{ quota: 1e308 }],
        [{ quota: 'lots' }],
        [{ quota: 100, original_quota: 1.5 }],
        [{ quota: 100, original_quota: -(2 ** 60) }],
      ])('refuses %j and changes nothing', async (body) => {
        const id = await create(uname('q'));
        await setQuota(id, 500);
        const res = await admin.put('/api/user/', { id, display_name: 'should-not', ...body }).expect(200);
        expect(res.body.success).toBe(false);
        expect(await row(id)).toMatchObject({
          quota: 500,
          display_name: expect.not.stringMatching('should-not'),
        });
        expect(await manageLogs(id)).toHaveLength(0);
      });

      it('a delta that would take the balance below zero is refused', async () => {
        const id = await create(uname('q'));
        await setQuota(id, 100);
        // The admin loaded 1000 long ago; the user has spent most of it since.
        const res = await admin.put('/api/user/', { id, quota: 0, original_quota: 1000 }).expect(200);
        expect(res.body).toMatchObject({ success: false, message: MSG.belowZero });
        expect(await quotaOf(id)).toBe(100);
        expect(await manageLogs(id)).toHaveLength(0);
      });

      const lockable = currentDriver() !== 'sqlite';
      (lockable ? it : it.skip)(
        'refuses an absolute edit when the balance changed meanwhile (row held by another transaction)',
        async () => {
          const id = await create(uname('q'));
          await setQuota(id, 1000);
          const qr = t.ds.createQueryRunner();
          await qr.connect();
          let put: Promise<{ body: { success: boolean; message: string } }> | undefined;
          try {
            await qr.startTransaction();
            await qr.query(`UPDATE users SET quota = quota + 7 WHERE id = ${Number(id)}`);
            // The admin loaded 1000 and saves 5000; the write waits for the row the other transaction holds.
            put = admin.put('/api/user/', { id, quota: 5000 }).then((r) => r);
            await waitForLockWait(t);
            await qr.commitTransaction();
          } finally {
            if (qr.isTransactionActive) await qr.rollbackTransaction();
            await qr.release();
          }
          if (put === undefined) throw new Error('the edit was never sent');
          const res = await put;
          expect(res.body.success).toBe(false);
          expect(res.body.message).toContain(MSG.changedMeanwhile);
          expect(await quotaOf(id)).toBe(1007);
          expect(await manageLogs(id)).toHaveLength(0);
        },
      );

      it('an absolute edit racing add_quota either lands exactly on its target or is refused', async () => {
        for (let round = 0; round < 4; round++) {
          const id = await create(uname('race'));
          await setQuota(id, 1000);
          const calls = [
            ...Array.from({ length: 12 }, () =>
              admin2.post('/api/user/manage', { id, action: 'add_quota', value: 1 }),
            ),
            admin.put('/api/user/', { id, quota: 5000 }),
            ...Array.from({ length: 12 }, () =>
              admin2.post('/api/user/manage', { id, action: 'add_quota', value: 1 }),
            ),
          ];
          const results = await Promise.all(calls);
          const put = results[12];
          if (!put.body.success) expect(put.body.message).toContain(MSG.changedMeanwhile);
          for (const r of results.filter((_, i) => i !== 12)) expect(r.body.success).toBe(true);
          // Replay the ledger in order: the edit's own log line must bring the balance to exactly 5000.
          const logs = await manageLogs(id);
          let running = 1000;
          let edits = 0;
          for (const l of logs) {
            running += l.quota;
            if (!(l.content ?? '').includes('增加额度')) {
              edits++;
              expect(running).toBe(5000);
            }
          }
          expect(edits).toBe(put.body.success ? 1 : 0);
          expect(await quotaOf(id)).toBe(running);
          expect(logs).toHaveLength(24 + edits);
        }
      });
    });
  });

  // ---------------------------------------------------------------- manage

  describe('POST /api/user/manage', () => {
    const manage = (c: ApiClient, id: number | null, action: string, value?: unknown) =>
      c.post('/api/user/manage', value === undefined ? { id, action } : { id, action, value });

    it('root promotes and demotes; data carries {status, role}; the change applies at once', async () => {
      const u = await makeUser(t, root);
      await u.get('/api/user/').expect(403);
      const p = await manage(root, u.userId, 'promote').expect(200);
      expect(p.body).toEqual({
        success: true,
        message: '',
        data: { status: UserStatus.Enabled, role: Role.Admin },
      });
      expect((await row(u.userId!)).role).toBe(Role.Admin);
      await u.get('/api/user/').expect(200);

      const again = await manage(root, u.userId, 'promote').expect(200);
      expect(again.body).toMatchObject({ success: false, message: MSG.alreadyAdmin });

      const d = await manage(root, u.userId, 'demote').expect(200);
      expect(d.body).toEqual({
        success: true,
        message: '',
        data: { status: UserStatus.Enabled, role: Role.User },
      });
      await u.get('/api/user/').expect(403);
      const d2 = await manage(root, u.userId, 'demote').expect(200);
      expect(d2.body).toMatchObject({ success: false, message: MSG.alreadyUser });
      expect((await row(u.userId!)).role).toBe(Role.User);
      const logs = await manageLogs(u.userId!);
      expect(logs).toHaveLength(2);
      expect(logs.every((l) => l.quota === 0)).toBe(true);
    });

    it('an admin cannot promote', async () => {
      const id = await create(uname('p'));
      const res = await manage(admin, id, 'promote').expect(200);
      expect(res.body).toMatchObject({ success: false, message: MSG.cannotPromote });
      expect((await row(id)).role).toBe(Role.User);
    });

    it('an admin cannot act on another admin or on root (403, nothing changes)', async () => {
      const snapA = await row(admin2.userId!);
      const snapR = await row(root.userId!);
      for (const action of ['promote', 'demote', 'disable', 'enable', 'delete']) {
        await manage(admin, admin2.userId, action).expect(403);
        await manage(admin, root.userId, action).expect(403);
      }
      await manage(admin, admin2.userId, 'add_quota', 100).expect(403);
      await manage(admin, root.userId, 'add_quota', 100).expect(403);
      expect(await row(admin2.userId!)).toEqual(snapA);
      expect(await row(root.userId!)).toEqual(snapR);
      expect(await manageLogs(root.userId!)).toHaveLength(0);
    });

    it('nobody deletes, disables or demotes root', async () => {
      const snap = await row(root.userId!);
      for (const action of ['delete', 'disable', 'demote']) {
        const res = await manage(root, root.userId, action).expect(200);
        expect(res.body).toMatchObject({ success: false, message: MSG.cannotTouchRoot });
      }
      expect(await row(root.userId!)).toEqual(snap);
      await root.get('/api/user/self').expect(200);
    });

    it('disable locks the user out at once; enable lets them back', async () => {
      const u = await makeUser(t, root);
      await u.get('/api/user/self').expect(200);
      const dis = await manage(admin, u.userId, 'disable').expect(200);
      expect(dis.body).toEqual({
        success: true,
        message: '',
        data: { status: UserStatus.Disabled, role: Role.User },
      });
      await u.get('/api/user/self').expect(403);
      const login = await new ApiClient(t.url)
        .post('/api/user/login', { username: u.username, password: u.password })
        .expect(200);
      expect(login.body.success).toBe(false);

      const en = await manage(admin, u.userId, 'enable').expect(200);
      expect(en.body.data).toEqual({ status: UserStatus.Enabled, role: Role.User });
      await u.get('/api/user/self').expect(200);
      await new ApiClient(t.url).login(u.username, u.password);
    });

    it('demoting an admin removes admin access at once', async () => {
      const a = await makeUser(t, root, { role: 'admin' });
      await a.get('/api/option/').expect(200);
      await manage(root, a.userId, 'demote').expect(200);
      await a.get('/api/option/').expect(403);
      await a.get('/api/user/self').expect(200);
    });

    it('refuses an unknown action or user', async () => {
      const id = await create(uname('x'));
      const snap = await row(id);
      for (const action of ['nuke', '', 'PROMOTE']) {
        const res = await manage(root, id, action).expect(200);
        expect(res.body.success).toBe(false);
      }
      expect((await manage(root, 987654, 'disable').expect(200)).body).toMatchObject({
        success: false,
        message: MSG.notFound,
      });
      expect(await row(id)).toEqual(snap);
    });

    describe('add_quota', () => {
      it('adds and subtracts, logging each delta as a type-3 row', async () => {
        const id = await create(uname('a'));
        const r1 = await manage(admin, id, 'add_quota', 500).expect(200);
        expect(r1.body).toMatchObject({
          success: true,
          data: { status: UserStatus.Enabled, role: Role.User },
        });
        expect((await manage(admin, id, 'add_quota', -200).expect(200)).body.success).toBe(true);
        expect(await quotaOf(id)).toBe(300);
        expect((await manageLogs(id)).map((l) => l.quota)).toEqual([500, -200]);
      });

      it('never goes below zero: the whole balance may go, not more', async () => {
        const id = await create(uname('a'));
        await setQuota(id, 300);
        const res = await manage(admin, id, 'add_quota', -301).expect(200);
        expect(res.body).toMatchObject({ success: false, message: MSG.belowZero });
        expect(await quotaOf(id)).toBe(300);
        expect((await manage(admin, id, 'add_quota', -300).expect(200)).body.success).toBe(true);
        expect(await quotaOf(id)).toBe(0);
        expect((await manage(admin, id, 'add_quota', -1).expect(200)).body.success).toBe(false);
        expect(await quotaOf(id)).toBe(0);
        expect((await manageLogs(id)).map((l) => l.quota)).toEqual([-300]);
      });

      it.each([
        ['2^53 + 2', 2 ** 53 + 2],
        ['-(2^53 + 2)', -(2 ** 53 + 2)],
        ['1e308', 1e308],
        ['a float', 12.5],
        ['zero', 0],
        ['a numeric string', '100'],
        ['a word', 'lots'],
        ['null', null],
        ['an object', { n: 1 }],
        ['a list', [1]],
        ['true', true],
      ])('refuses %s and changes nothing', async (_label, value) => {
        const id = await create(uname('a'));
        await setQuota(id, 1000);
        const res = await manage(admin, id, 'add_quota', value).expect(200);
        expect(res.body.success).toBe(false);
        expect(await quotaOf(id)).toBe(1000);
        expect(await manageLogs(id)).toHaveLength(0);
      });

      it('refuses a huge literal that JSON cannot hold exactly', async () => {
        const id = await create(uname('a'));
        await setQuota(id, 1000);
        for (const literal of ['9007199254740993', '1e400', '-1e400', '123456789012345678901234567890']) {
          const res = await admin.agent
            .post('/api/user/manage')
            .set('New-Api-User', String(admin.userId))
            .set('Content-Type', 'application/json')
            .send(`{"id": ${id}, "action": "add_quota", "value": ${literal}}`)
            .expect(200);
          expect(res.body.success).toBe(false);
        }
        expect(await quotaOf(id)).toBe(1000);
      });

      it('refuses to push the balance beyond 2^53', async () => {
        const id = await create(uname('a'));
        await setQuota(id, Number.MAX_SAFE_INTEGER - 10);
        expect((await manage(admin, id, 'add_quota', 11).expect(200)).body.success).toBe(false);
        expect(await quotaOf(id)).toBe(Number.MAX_SAFE_INTEGER - 10);
        expect((await manage(admin, id, 'add_quota', 10).expect(200)).body.success).toBe(true);
        expect(await quotaOf(id)).toBe(Number.MAX_SAFE_INTEGER);
      });

      it('20 parallel +10 land exactly', async () => {
        const id = await create(uname('c'));
        await setQuota(id, 1000);
        const res = await Promise.all(
          Array.from({ length: 20 }, (_, i) => manage(i % 2 ? admin : admin2, id, 'add_quota', 10)),
        );
        expect(res.every((r) => r.status === 200 && r.body.success)).toBe(true);
        expect(await quotaOf(id)).toBe(1200);
        const logs = await manageLogs(id);
        expect(logs).toHaveLength(20);
        expect(logs.reduce((s, l) => s + l.quota, 0)).toBe(200);
      });

      it('20 parallel +10 / −10 mixed leave the balance unchanged', async () => {
        const id = await create(uname('c'));
        await setQuota(id, 1000);
        const res = await Promise.all(
          Array.from({ length: 20 }, (_, i) => manage(root, id, 'add_quota', i % 2 ? 10 : -10)),
        );
        expect(res.every((r) => r.body.success)).toBe(true);
        expect(await quotaOf(id)).toBe(1000);
        expect(await manageLogs(id)).toHaveLength(20);
      });

      it('20 parallel −10 from 150: exactly 15 succeed and the balance stops at zero', async () => {
        const id = await create(uname('c'));
        await setQuota(id, 150);
        const res = await Promise.all(Array.from({ length: 20 }, () => manage(admin, id, 'add_quota', -10)));
        const ok = res.filter((r) => r.body.success);
        expect(ok).toHaveLength(15);
        for (const r of res.filter((x) => !x.body.success)) expect(r.body.message).toBe(MSG.belowZero);
        expect(await quotaOf(id)).toBe(0);
        expect(await manageLogs(id)).toHaveLength(15);
      });
    });
  });

  // ---------------------------------------------------------------- deregistered

  describe('deregistered users', () => {
    let gone: ApiClient & { username: string; password: string };
    let goneId: number;
    beforeAll(async () => {
      gone = await makeUser(t, root, { username: 'goner1', password: 'goner-pass-1' });
      goneId = gone.userId!;
      await setQuota(goneId, 500);
      await gone.get('/api/user/self').expect(200);
      const res = await root.post('/api/user/manage', { id: goneId, action: 'delete' }).expect(200);
      expect(res.body).toMatchObject({
        success: true,
        data: { status: expect.any(Number), role: Role.User },
      });
    });

    it('are soft-deleted and listed with DeletedAt set', async () => {
      const r = await row(goneId);
      expect(r.deleted_at).toEqual(expect.any(Number));
      expect(Math.abs(r.deleted_at! - Date.now() / 1000)).toBeLessThan(120);
      const found = await admin.get('/api/user/search?keyword=goner1').expect(200);
      expect(found.body.data.items).toHaveLength(1);
      const item = found.body.data.items[0];
      expect(item).toMatchObject({ id: goneId, username: 'goner1' });
      expect(typeof item.DeletedAt).toBe('string');
      expect(new Date(item.DeletedAt).getTime() / 1000).toBeCloseTo(r.deleted_at!, 0);
      const seen: Array<{ id: number; DeletedAt: string | null }> = [];
      for (let p = 1; ; p++) {
        const page = await admin.get(`/api/user/?p=${p}&page_size=100`).expect(200);
        seen.push(...page.body.data.items);
        if (page.body.data.items.length < 100) break;
      }
      expect(seen.find((u) => u.id === goneId)?.DeletedAt).toBe(item.DeletedAt);
      expect(seen.filter((u) => u.DeletedAt !== null).map((u) => u.id)).toEqual([goneId]);
    });

    it('cannot sign in, and an open session stops working at once', async () => {
      const res = await new ApiClient(t.url)
        .post('/api/user/login', { username: 'goner1', password: 'goner-pass-1' })
        .expect(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain(MSG.loginFailed);
      await gone.get('/api/user/self').expect(401);
    });

    it('keep their name reserved', async () => {
      const create1 = await root
        .post('/api/user/', { username: 'goner1', password: 'password-1' })
        .expect(200);
      expect(create1.body).toMatchObject({ success: false });
      expect(create1.body.message).toContain(MSG.taken);
      const other = await create(uname('o'));
      const rename = await root.put('/api/user/', { id: other, username: 'goner1' }).expect(200);
      expect(rename.body.success).toBe(false);
      expect((await row(other)).username).not.toBe('goner1');
      const reg = await new ApiClient(t.url)
        .post('/api/user/register', { username: 'goner1', password: 'password-1', password2: 'password-1' })
        .expect(200);
      expect(reg.body.success).toBe(false);
      expect(await users().countBy({ username: 'goner1' })).toBe(1);
    });

    it.each(['enable', 'disable', 'promote', 'demote', 'delete'])(
      'answer "already deregistered" to %s and do not change',
      async (action) => {
        const snap = await row(goneId);
        const res = await root.post('/api/user/manage', { id: goneId, action }).expect(200);
        expect(res.body).toMatchObject({ success: false, message: MSG.deregistered });
        expect(await row(goneId)).toEqual(snap);
      },
    );

    it('get no quota either', async () => {
      const res = await root
        .post('/api/user/manage', { id: goneId, action: 'add_quota', value: 100 })
        .expect(200);
      expect(res.body).toMatchObject({ success: false, message: MSG.deregistered });
      expect(await quotaOf(goneId)).toBe(500);
    });
  });
});

/** Waits until a statement of this database is blocked on a row lock (the app's write behind our lock). */
async function waitForLockWait(t: TestApp): Promise<void> {
  const sql =
    currentDriver() === 'postgres'
      ? `SELECT count(*)::int AS c FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`
      : // MariaDB lists the blocked statement in the process list (innodb_trx may not show it yet).
        `SELECT count(*) AS c FROM information_schema.processlist
         WHERE db = DATABASE() AND id <> CONNECTION_ID() AND info LIKE 'UPDATE \`users\`%'`;
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const rows: Array<{ c: number | string }> = await t.ds.query(sql);
    if (Number(rows[0].c) > 0) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('the app never waited on the locked row');
}

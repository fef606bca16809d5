import * as bcrypt from 'bcrypt';
import request from 'supertest';
import { In } from 'typeorm';
import { LogEntry, LogType, Role, User, UserStatus } from '../../server/src/database/entities';
import {
  ApiClient,
  makeUser,
  ROOT,
  setupRoot,
  startApp,
  TestApp,
  uname,
  putOption,
} from '../support/test-app';

const MSG = {
  required: '用户名和密码不能为空！',
  tooShort: '密码长度不得小于 8 位！',
  mismatch: '两次输入的密码不一致',
  taken: '用户名已存在',
  loginFailed: '用户名或密码错误',
  loginFields: '请输入用户名和密码！',
};

/** The `name=value` part of the session cookie a response sets. */
function sessionCookie(res: request.Response): string {
  const raw = res.headers['set-cookie'] as unknown as string[] | undefined;
  const cookie = (raw ?? []).find((c) => c.startsWith('session='));
  if (!cookie) throw new Error('no session cookie set');
  return cookie.split(';')[0];
}

describe('sign-up, sign-in and sessions', () => {
  let t: TestApp;
  let root: ApiClient;

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
  });
  afterAll(() => t.close());

  const users = () => t.ds.getRepository(User);
  const row = (username: string) => users().findOneBy({ username });
  const register = (body: unknown, ip = '127.0.0.1') => {
    const c = new ApiClient(t.url);
    c.ip = ip;
    return c.post('/api/user/register', body);
  };
  const login = (username: unknown, password: unknown) =>
    new ApiClient(t.url).post('/api/user/login', { username, password });
  const setOption = (key: string, value: string | number | boolean) => putOption(root, key, value);
  /** Inserts a user row directly (for states the API cannot produce, like a legacy password). */
  async function insertUser(fields: Partial<User> & { username: string; plain: string }): Promise<User> {
    const { plain, ...rest } = fields;
    await users().insert({
      display_name: rest.username,
      role: Role.User,
      status: UserStatus.Enabled,
      group: 'default',
      aff_code: `x${Math.random().toString(36).slice(2, 12)}`,
      created_at: Math.floor(Date.now() / 1000),
      setting: '',
      ...rest,
      password: await bcrypt.hash(plain, 4),
    });
    return (await row(rest.username))!;
  }

  describe('registration', () => {
    it('username_lookalikes: refuses names that pass for another (Cyrillic о, full-width, bidi, combining marks, dotless ı) at sign-up and rename', async () => {
      const base = uname('look');
      expect(
        (await register({ username: base, password: 'pass-word-1', password2: 'pass-word-1' })).body.success,
      ).toBe(true);
      const lookalikes = [
        base.replace('o', '\u043e'), // Cyrillic о
        base.replace(/./g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)), // full-width
        `${base}\u202e`,
        base.replace('o', 'o\u0338'),
        base.replace('o', '\u0131'),
      ];
      for (const username of lookalikes) {
        const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' });
        expect({ username, success: res.body.success }).toEqual({ username, success: false });
      }
      const mixed = await register({
        username: base.replace('o', '\u043e'),
        password: 'pass-word-1',
        password2: 'pass-word-1',
      });
      expect(mixed.body.message).toBe(
        '用户名不能包含全角字符、组合符号或方向控制符，也不能混用拉丁字母与西里尔或希腊字母',
      );
      expect(await users().countBy({ username: In(lookalikes) })).toBe(0);
      // one script of its own, and Chinese, are names like any other
      for (const username of [`用户${base.slice(-4)}`, `иван${base.slice(-4)}`]) {
        const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' });
        expect({ username, success: res.body.success }).toEqual({ username, success: true });
      }
      // an admin's rename follows the same rules, and a display name carries no direction control
      const victim = await makeUser(t, root);
      const renamed = await root.put('/api/user/', {
        id: victim.userId,
        username: base.replace('o', '\u043e'),
      });
      expect(renamed.body.success).toBe(false);
      const bidi = await root.put('/api/user/', { id: victim.userId, display_name: '\u202eroot' });
      expect(bidi.body.success).toBe(false);
      expect(await users().findOneByOrFail({ id: victim.userId! })).toMatchObject({
        username: victim.username,
      });
    });

    it('creates an ordinary user who can then sign in', async () => {
      const username = uname('reg');
      const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' }).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: null });

      const u = await row(username);
      expect(u).toMatchObject({
        role: Role.User,
        status: UserStatus.Enabled,
        group: 'default',
        display_name: username,
        deleted_at: null,
      });
      expect(u!.password).not.toBe('pass-word-1');
      expect(await bcrypt.compare('pass-word-1', u!.password)).toBe(true);

      const ok = await login(username, 'pass-word-1').expect(200);
      expect(ok.body).toEqual({
        success: true,
        message: '',
        data: { id: u!.id, username, display_name: username, role: 1, status: 1, group: 'default' },
      });
      const cookie = (ok.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('session='))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      expect(cookie).toMatch(/Path=\//);
      expect(cookie).not.toMatch(/Secure/i);
    });

    it('allows 12-character usernames and refuses 13, counting code points', async () => {
      // Three characters whatever the process id: the CJK name below is the tag and nine characters.
      const tag = uname('').slice(-3).padStart(3, '0');
      const ascii12 = `a${tag}`.padEnd(12, 'z');
      const cjk12 = `${tag}用户名称测试长度啊`.slice(0, 12);
      // Each emoji is two UTF-16 units but one character: 12 of them must fit.
      const emoji12 = tag + '😀'.repeat(12 - tag.length);
      expect(emoji12.length).toBeGreaterThan(12);
      for (const username of [ascii12, cjk12, emoji12]) {
        expect([...username]).toHaveLength(12);
        const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' }).expect(
          200,
        );
        expect(res.body).toMatchObject({ success: true });
        expect((await row(username))?.username).toBe(username);
        const ok = await login(username, 'pass-word-1');
        expect(ok.body.data.username).toBe(username);
      }
      for (const username of [`${ascii12}x`, `${cjk12}字`, `${emoji12}😀`]) {
        const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' }).expect(
          200,
        );
        expect(res.body.success).toBe(false);
        expect(res.body.message).toContain('12');
        expect(await row(username)).toBeNull();
      }
    });

    it('enforces the 8 to 20 character password rule with the spec messages', async () => {
      const short = uname('pw');
      const r1 = await register({ username: short, password: '1234567', password2: '1234567' }).expect(200);
      expect(r1.body).toEqual({ success: false, message: MSG.tooShort, data: null });
      expect(await row(short)).toBeNull();

      const long = uname('pw');
      const p21 = 'a'.repeat(21);
      const r2 = await register({ username: long, password: p21, password2: p21 }).expect(200);
      expect(r2.body.success).toBe(false);
      expect(r2.body.message).toContain('20');
      expect(await row(long)).toBeNull();

      for (const password of ['12345678', 'b'.repeat(20)]) {
        const username = uname('pw');
        const ok = await register({ username, password, password2: password }).expect(200);
        expect(ok.body).toMatchObject({ success: true });
        expect((await login(username, password)).body.success).toBe(true);
      }
    });

    it('refuses a confirmation that does not match', async () => {
      const username = uname('mm');
      const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-2' }).expect(200);
      expect(res.body).toEqual({ success: false, message: MSG.mismatch, data: null });
      expect(await row(username)).toBeNull();
    });

    it.each([
      [{}],
      [{ username: 'onlyname' }],
      [{ password: 'pass-word-1', password2: 'pass-word-1' }],
      [{ username: '', password: 'pass-word-1', password2: 'pass-word-1' }],
      [{ username: '    ', password: 'pass-word-1', password2: 'pass-word-1' }],
      [{ username: 'nopass', password: '', password2: '' }],
    ])('requires username and password: %j', async (body) => {
      const before = await users().count();
      const res = await register(body).expect(200);
      expect(res.body).toEqual({ success: false, message: MSG.required, data: null });
      expect(await users().count()).toBe(before);
    });

    it.each([
      [{ username: 12345, password: 'pass-word-1', password2: 'pass-word-1' }],
      [{ username: ['arr'], password: 'pass-word-1', password2: 'pass-word-1' }],
      [{ username: { $ne: null }, password: 'pass-word-1', password2: 'pass-word-1' }],
      [{ username: 'typed1', password: 12345678, password2: 12345678 }],
      [{ username: 'typed2', password: true, password2: true }],
      [{ username: 'typed3', password: 'pass-word-1', password2: ['pass-word-1'] }],
      [{ username: 'typed4', password: 'pass-word-1', password2: 'pass-word-1', aff_code: 42 }],
      [{ username: 'typed5', password: 'pass-word-1', password2: 'pass-word-1', email: { a: 1 } }],
      [{ username: null, password: null }],
      [[1, 2, 3]],
      ['just a string'],
    ])('answers wrongly typed JSON with success:false, never 500: %j', async (body) => {
      const before = await users().count();
      const res = await new ApiClient(t.url)
        .post('/api/user/register')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(typeof res.body.message).toBe('string');
      expect(res.body.message).not.toBe('');
      expect(await users().count()).toBe(before);
    });

    it('answers malformed JSON with success:false, never 500', async () => {
      for (const path of ['/api/user/register', '/api/user/login']) {
        const res = await request(t.url)
          .post(path)
          .set('Content-Type', 'application/json')
          .send('{"username": "x", ');
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(false);
      }
    });

    it.each(['username', 'password', 'password2'])(
      'refuses a 1 MB %s clearly, writing nothing',
      async (field) => {
        const body = {
          username: uname('big'),
          password: 'pass-word-1',
          password2: 'pass-word-1',
          [field]: 'A'.repeat(1 << 20),
        };
        const before = await users().count();
        const res = await register(body);
        expect([200, 413]).toContain(res.status);
        expect(res.body.success).toBe(false);
        expect(res.body.message).toBeTruthy();
        expect(res.body.message.length).toBeLessThan(200);
        expect(await users().count()).toBe(before);
      },
    );

    it.each(['aff_code', 'email', 'verification_code'])(
      'ignores a 1 MB %s that plays no part (no invitation, email verification off)',
      async (field) => {
        const username = uname('big');
        const res = await register({
          username,
          password: 'pass-word-1',
          password2: 'pass-word-1',
          [field]: 'A'.repeat(1 << 20),
        });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(true);
        expect(await row(username)).toMatchObject({ inviter_id: 0, email: null });
      },
    );

    it('refuses a 1 MB login name or password without a 500', async () => {
      const big = 'A'.repeat(1024 * 1024);
      for (const body of [
        { username: big, password: 'pass-word-1' },
        { username: ROOT.username, password: big },
      ]) {
        const res = await new ApiClient(t.url).post('/api/user/login', body);
        expect([200, 413]).toContain(res.status);
        expect(res.body.success).toBe(false);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('never answers 500 to NUL characters (PostgreSQL cannot store them)', async () => {
      const nul = [
        ['/api/user/login', { username: 'ro\u0000ot', password: ROOT.password }],
        ['/api/user/login', { username: 'x\u0000@example.com', password: 'pass-word-1' }],
        [
          '/api/user/register',
          {
            username: uname('nul'),
            password: 'pass-word-1',
            password2: 'pass-word-1',
            aff_code: 'ab\u0000c',
          },
        ],
      ] as const;
      for (const [path, body] of nul) {
        const res = await new ApiClient(t.url).post(path, body);
        expect({ path, status: res.status }).toEqual({ path, status: 200 });
        if (path === '/api/user/login') expect(res.body.success).toBe(false);
      }
    });

    it('stores SQL metacharacters and LIKE wildcards in usernames literally', async () => {
      const tag = uname('').slice(-2);
      const names = [`q'${tag}"x`, `d;--${tag}`, `o'OR'1'='1`, `b\\${tag}\\`, `%${tag}`, `_${tag}`];
      for (const username of names) {
        const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' }).expect(
          200,
        );
        expect(res.body).toMatchObject({ success: true });
        const u = await row(username);
        expect(u?.username).toBe(username);
        expect((await login(username, 'pass-word-1')).body.data).toMatchObject({ id: u!.id, username });
      }
      // A LIKE-based check would find `a15c` when asked for `a_5c` (or `b15zz` for `b15%`): each wildcard
      // name must be a separate account of its own.
      for (const [plain, wild] of [
        [`a${tag}c`, `a_${tag.slice(1)}c`],
        [`b${tag}zz`, `b${tag}%`],
      ]) {
        expect(
          (await register({ username: plain, password: 'pass-word-1', password2: 'pass-word-1' })).body
            .success,
        ).toBe(true);
        expect((await login(wild, 'pass-word-1')).body.success).toBe(false);
        expect(
          (await register({ username: wild, password: 'pass-word-2', password2: 'pass-word-2' })).body
            .success,
        ).toBe(true);
        const w = await row(wild);
        expect((await login(wild, 'pass-word-2')).body.data).toMatchObject({ id: w!.id, username: wild });
        expect((await login(wild, 'pass-word-1')).body.success).toBe(false);
        expect((await login(plain, 'pass-word-1')).body.data.username).toBe(plain);
      }
    });

    it('trims surrounding spaces and refuses whitespace or control characters inside a name', async () => {
      const core = uname('trim');
      const res = await register({
        username: `  ${core}  `,
        password: 'pass-word-1',
        password2: 'pass-word-1',
      });
      expect(res.body.success).toBe(true);
      expect(await row(core)).not.toBeNull();
      const before = await users().count();
      for (const username of ['a b', 'tab\there', 'nul\u0000x', 'zw\u200bsp', 'nl\nx']) {
        const r = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' });
        expect(r.status).toBe(200);
        expect(r.body.success).toBe(false);
      }
      expect(await users().count()).toBe(before);
    });

    it('creates exactly one account when ten sign-ups race for the same name', async () => {
      const username = uname('race');
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          register({ username, password: `pass-word-${i}`, password2: `pass-word-${i}` }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      const wins = results.filter((r) => r.body.success);
      expect(wins).toHaveLength(1);
      for (const r of results.filter((x) => !x.body.success)) expect(r.body.message).toContain(MSG.taken);
      expect(await users().countBy({ username })).toBe(1);
      // The stored password is the winner's.
      const winner = results.indexOf(wins[0]);
      expect((await login(username, `pass-word-${winner}`)).body.success).toBe(true);
    });

    it('creates every account when ten different sign-ups run at once', async () => {
      const names = Array.from({ length: 10 }, () => uname('par'));
      const results = await Promise.all(
        names.map((username) => register({ username, password: 'pass-word-1', password2: 'pass-word-1' })),
      );
      expect(results.map((r) => r.body.success)).toEqual(Array(10).fill(true));
      for (const username of names) expect(await users().countBy({ username })).toBe(1);
    });

    it('compares usernames exactly on every database (case and emoji are not folded)', async () => {
      const base = uname('Cs');
      for (const name of [base, base.toLowerCase(), '😀😀', '🎉🎉']) {
        const res = await register({ username: name, password: 'pass-word-1' }).expect(200);
        expect([name, res.body.success]).toEqual([name, true]);
      }
      expect((await row(base.toLowerCase()))!.id).not.toBe((await row(base))!.id);
      const upper = await login(ROOT.username.toUpperCase(), ROOT.password).expect(200);
      expect(upper.body.success).toBe(false);
    });

    it('refuses a username that is already taken', async () => {
      const username = uname('dup');
      await register({ username, password: 'pass-word-1', password2: 'pass-word-1' }).expect(200);
      const again = await register({ username, password: 'pass-word-2', password2: 'pass-word-2' }).expect(
        200,
      );
      expect(again.body.success).toBe(false);
      expect(again.body.message).toContain(MSG.taken);
      expect((await login(username, 'pass-word-1')).body.success).toBe(true);
      expect((await login(username, 'pass-word-2')).body.success).toBe(false);
    });

    it('refuses every sign-up when RegisterEnabled is off', async () => {
      await setOption('RegisterEnabled', false);
      try {
        const username = uname('off');
        const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' }).expect(
          200,
        );
        expect(res.body).toMatchObject({ success: false, message: '管理员关闭了新用户注册' });
        expect(await row(username)).toBeNull();
        const status = await request(t.url).get('/api/status').expect(200);
        expect(status.body.success).toBe(true);
      } finally {
        await setOption('RegisterEnabled', true);
      }
      const username = uname('on');
      expect(
        (await register({ username, password: 'pass-word-1', password2: 'pass-word-1' })).body.success,
      ).toBe(true);
    });

    it('refuses password sign-up when PasswordRegisterEnabled is off, but password login still works', async () => {
      const existing = await makeUser(t, root);
      await setOption('PasswordRegisterEnabled', false);
      try {
        const username = uname('off');
        const res = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' }).expect(
          200,
        );
        expect(res.body.success).toBe(false);
        expect(res.body.message).toContain('管理员关闭了通过密码进行注册');
        expect(await row(username)).toBeNull();
        expect((await login(existing.username, existing.password)).body.success).toBe(true);
      } finally {
        await setOption('PasswordRegisterEnabled', true);
      }
    });
  });

  describe('login', () => {
    it('login_json_only: a form-encoded or text sign-in (a cross-site form can post those) is refused and opens no session', async () => {
      const u = await makeUser(t, root);
      const form = `username=${encodeURIComponent(u.username)}&password=${encodeURIComponent(u.password)}`;
      for (const [type, body] of [
        ['application/x-www-form-urlencoded', form],
        ['text/plain', JSON.stringify({ username: u.username, password: u.password })],
      ]) {
        for (const path of [
          '/api/user/login',
          '/api/user/register',
          '/api/user/login/2fa',
          '/api/user/passkey/login',
        ]) {
          const res = await request(t.url).post(path).set('Content-Type', type).send(body);
          expect({ path, type, success: res.body.success }).toEqual({ path, type, success: false });
          // (text/plain has no parser and was refused already; the form is what the JSON rule closes)
          if (type !== 'text/plain') expect(res.status).toBe(415);
          expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/(^|,)\s*session=[^;]/);
        }
      }
      const en = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'application/x-www-form-urlencoded')
        .set('Accept-Language', 'en')
        .send(form);
      expect(en.body.message).toBe('The request body must be JSON (Content-Type: application/json)');
      expect((await login(u.username, u.password)).body.success).toBe(true);
    });

    it('signs in by username or by email (case-insensitive email)', async () => {
      const u = await makeUser(t, root);
      const email = `${u.username}@Example.com`;
      await users().update({ id: u.userId! }, { email: email.toLowerCase() });
      for (const name of [u.username, email.toLowerCase(), email.toUpperCase(), `  ${email}  `]) {
        const res = await login(name, u.password).expect(200);
        expect(res.body).toMatchObject({ success: true, data: { id: u.userId, username: u.username } });
      }
      // An email-looking name that belongs to nobody, and the right email with a wrong password.
      expect((await login(`nobody-${u.username}@example.com`, u.password)).body.success).toBe(false);
      expect((await login(email, 'wrong-password')).body.success).toBe(false);
    });

    it('marks the session cookie Secure when the proxy says the request came over https', async () => {
      const u = await makeUser(t, root);
      const res = await new ApiClient(t.url)
        .post('/api/user/login', { username: u.username, password: u.password })
        .set('X-Forwarded-Proto', 'https')
        .expect(200);
      const cookie = (res.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('session='),
      )!;
      expect(cookie).toMatch(/;\s*Secure/i);
      expect(cookie).toMatch(/HttpOnly/i);
    });

    it('gives the same message for a wrong password and for an unknown user', async () => {
      const u = await makeUser(t, root);
      const wrongPassword = await login(u.username, 'not-the-password').expect(200);
      const unknownUser = await login(`ghost${u.username}`.slice(0, 12), 'not-the-password').expect(200);
      expect(wrongPassword.body.success).toBe(false);
      expect(wrongPassword.body.message).toContain(MSG.loginFailed);
      expect(unknownUser.body).toEqual(wrongPassword.body);
      expect(wrongPassword.headers['set-cookie']).toBeUndefined();
      expect(unknownUser.headers['set-cookie']).toBeUndefined();
    });

    it.each([[{ username: '', password: 'x' }], [{ username: 'root', password: '' }], [{}]])(
      'asks for both fields: %j',
      async (body) => {
        const res = await new ApiClient(t.url).post('/api/user/login', body).expect(200);
        expect(res.body).toEqual({ success: false, message: MSG.loginFields, data: null });
      },
    );

    it.each([
      [{ username: 1, password: 2 }],
      [{ username: ['root'], password: ['root-pass-1'] }],
      [{ username: { $gt: '' }, password: { $gt: '' } }],
      [{ username: 'root', password: true }],
    ])('never lets wrongly typed credentials in, and never 500s: %j', async (body) => {
      const res = await new ApiClient(t.url).post('/api/user/login', body);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(res.headers['set-cookie']).toBeUndefined();
    });

    it('refuses banned and deregistered users with the right password', async () => {
      const banned = await makeUser(t, root);
      const gone = await makeUser(t, root);
      expect(
        (await root.post('/api/user/manage', { id: banned.userId, action: 'disable' })).body.success,
      ).toBe(true);
      expect((await root.post('/api/user/manage', { id: gone.userId, action: 'delete' })).body.success).toBe(
        true,
      );
      for (const u of [banned, gone]) {
        const res = await login(u.username, u.password).expect(200);
        expect(res.body.success).toBe(false);
        expect(res.headers['set-cookie']).toBeUndefined();
      }
      // Re-enabled, the banned user is back.
      expect(
        (await root.post('/api/user/manage', { id: banned.userId, action: 'enable' })).body.success,
      ).toBe(true);
      expect((await login(banned.username, banned.password)).body.success).toBe(true);
    });

    it('refuses password login when PasswordLoginEnabled is off', async () => {
      const u = await makeUser(t, root);
      await setOption('PasswordLoginEnabled', false);
      try {
        const res = await login(u.username, u.password).expect(200);
        expect(res.body).toMatchObject({ success: false, message: '管理员关闭了密码登录' });
        expect(res.headers['set-cookie']).toBeUndefined();
        // Sessions that already exist keep working.
        expect((await u.get('/api/user/self')).body.success).toBe(true);
      } finally {
        await setOption('PasswordLoginEnabled', true);
      }
      expect((await login(u.username, u.password)).body.success).toBe(true);
    });

    it('warns root about the legacy default password, and nobody else', async () => {
      const legacy = await insertUser({ username: uname('legacy'), plain: '123456', role: Role.Root });
      const res = await login(legacy.username, '123456').expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.id).toBe(legacy.id);
      expect(res.body.message).toContain('默认密码');
      const en = await new ApiClient(t.url)
        .post('/api/user/login', { username: legacy.username, password: '123456' })
        .set('Accept-Language', 'en-US,en;q=0.9');
      expect(en.body.message).toMatch(/default password/i);

      const normal = await login(ROOT.username, ROOT.password);
      expect(normal.body).toMatchObject({ success: true, message: '' });
      const plainUser = await insertUser({ username: uname('plain'), plain: '123456' });
      const ordinary = await login(plainUser.username, '123456');
      expect(ordinary.body).toMatchObject({ success: true, message: '' });
    });
  });

  describe('login rate limit', () => {
    let limited: TestApp;
    beforeAll(async () => {
      limited = await startApp({ LOGIN_RATE_LIMIT: '3' });
      await request(limited.url)
        .post('/api/setup')
        .send({ username: 'boss', password: 'boss-pass-1', confirmPassword: 'boss-pass-1' })
        .expect(200);
    });
    afterAll(() => limited.close());

    it('answers 429 on the 4th attempt from one address, while another address still gets in', async () => {
      const attacker = new ApiClient(limited.url);
      attacker.ip = '203.0.113.7';
      for (let i = 0; i < 3; i++) {
        const res = await attacker.post('/api/user/login', { username: 'boss', password: `wrong-${i}` });
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(false);
      }
      const blocked = await attacker.post('/api/user/login', { username: 'boss', password: 'boss-pass-1' });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toMatchObject({
        success: false,
        message: expect.stringContaining('请求次数过多'),
      });
      expect(blocked.headers['set-cookie']).toBeUndefined();

      const other = new ApiClient(limited.url);
      other.ip = '198.51.100.23';
      const ok = await other.post('/api/user/login', { username: 'boss', password: 'boss-pass-1' });
      expect(ok.status).toBe(200);
      expect(ok.body.success).toBe(true);
    });

    it('limits guesses of sign-up and email-binding codes the same way', async () => {
      const guesser = new ApiClient(limited.url);
      guesser.ip = '203.0.113.50';
      await guesser.login('boss', 'boss-pass-1');
      for (let i = 0; i < 3; i++) {
        const res = await guesser.get(`/api/oauth/email/bind?email=victim@example.com&code=${100000 + i}`);
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(false);
      }
      expect((await guesser.get('/api/oauth/email/bind?email=victim@example.com&code=100003')).status).toBe(
        429,
      );

      const signup = new ApiClient(limited.url);
      signup.ip = '203.0.113.51';
      for (let i = 0; i < 3; i++)
        expect((await signup.post('/api/user/register', { username: `lim${i}` })).status).toBe(200);
      expect((await signup.post('/api/user/register', { username: 'lim3' })).status).toBe(429);
    });
  });

  describe('sessions', () => {
    it('logout revokes the session, even if the old cookie is replayed', async () => {
      const u = await makeUser(t, root);
      const second = await new ApiClient(t.url).login(u.username, u.password);
      const res = await new ApiClient(t.url).post('/api/user/login', {
        username: u.username,
        password: u.password,
      });
      const cookie = sessionCookie(res);
      const viaCookie = () =>
        request(t.url).get('/api/user/self').set('Cookie', cookie).set('New-Api-User', String(u.userId));
      expect((await viaCookie()).body).toMatchObject({ success: true, data: { id: u.userId } });

      const out = await request(t.url)
        .get('/api/user/logout')
        .set('Cookie', cookie)
        .set('New-Api-User', String(u.userId))
        .expect(200);
      expect(out.body.success).toBe(true);
      const cleared = (out.headers['set-cookie'] as unknown as string[]).find((c) =>
        c.startsWith('session='),
      );
      expect(cleared).toMatch(/session=;|Max-Age=0|Expires=Thu, 01 Jan 1970/);

      const replay = await viaCookie();
      expect(replay.status).toBe(401);
      expect(replay.body.success).toBe(false);
      // Only that session ended: the user's other session goes on.
      expect((await second.get('/api/user/self')).body.success).toBe(true);
      expect((await u.get('/api/user/self')).body.success).toBe(true);
    });

    it('logout through the client clears its own access', async () => {
      const u = await makeUser(t, root);
      expect((await u.get('/api/user/logout')).body.success).toBe(true);
      expect((await u.get('/api/user/self')).status).toBe(401);
    });

    it('requires New-Api-User to be present and to match the session', async () => {
      const u = await makeUser(t, root);
      const self = () => u.agent.get('/api/user/self');
      const missing = await self();
      expect(missing.status).toBe(401);
      expect(missing.body.success).toBe(false);
      for (const value of [String(u.userId! + 1), '1', 'abc', `${u.userId}x`, '']) {
        const res = await self().set('New-Api-User', value);
        expect(res.status).toBe(401);
      }
      expect((await self().set('New-Api-User', String(u.userId))).status).toBe(200);
    });

    it('refuses a tampered or forged cookie', async () => {
      const u = await makeUser(t, root);
      const res = await new ApiClient(t.url).post('/api/user/login', {
        username: u.username,
        password: u.password,
      });
      const cookie = decodeURIComponent(sessionCookie(res).slice('session='.length));
      // Signed value: `<sid>.<uid>.<iat>.<signature>`.
      const parts = cookie.split('.');
      expect(parts.length).toBeGreaterThanOrEqual(4);
      const call = (value: string, uid: number) =>
        request(t.url)
          .get('/api/user/self')
          .set('Cookie', `session=${encodeURIComponent(value)}`)
          .set('New-Api-User', String(uid));

      expect((await call(cookie, u.userId!)).status).toBe(200);
      const rootId = root.userId!;
      const asRoot = [parts[0], String(rootId), ...parts.slice(2)].join('.');
      const sig = parts[parts.length - 1];
      const flipped = [...parts.slice(0, -1), (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)].join('.');
      const unsigned = parts.slice(0, 3).join('.');
      for (const [value, uid] of [
        [asRoot, rootId],
        [flipped, u.userId!],
        [unsigned, u.userId!],
        ['garbage', u.userId!],
      ] as Array<[string, number]>) {
        const r = await call(value, uid);
        expect(r.status).toBe(401);
        expect(r.body.success).toBe(false);
      }
    });

    it('answers 401 without any credentials', async () => {
      const res = await request(t.url).get('/api/user/self');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, message: '未登录或登录已过期，请重新登录' });
    });

    it('cuts off a user banned by root on the very next request', async () => {
      const u = await makeUser(t, root);
      expect((await u.get('/api/user/self')).status).toBe(200);
      const ban = await root.post('/api/user/manage', { id: u.userId, action: 'disable' });
      expect(ban.body).toMatchObject({ success: true, data: { status: UserStatus.Disabled } });

      const after = await u.get('/api/user/self');
      expect(after.status).toBe(403);
      expect(after.body).toMatchObject({ success: false, message: '用户已被封禁' });
      expect((await u.get('/api/user/token')).status).toBe(403);

      expect((await root.post('/api/user/manage', { id: u.userId, action: 'enable' })).body.success).toBe(
        true,
      );
      expect((await u.get('/api/user/self')).status).toBe(200);
    });

    it('cuts off a user deregistered by root on the very next request', async () => {
      const u = await makeUser(t, root);
      expect((await u.get('/api/user/self')).status).toBe(200);
      expect((await root.post('/api/user/manage', { id: u.userId, action: 'delete' })).body.success).toBe(
        true,
      );
      const after = await u.get('/api/user/self');
      expect(after.status).toBe(401);
      expect(after.body.success).toBe(false);
    });
  });

  describe('access tokens', () => {
    const withToken = (authorization: string, uid?: number) => {
      const r = request(t.url).get('/api/user/self').set('Authorization', authorization);
      return uid === undefined ? r : r.set('New-Api-User', String(uid));
    };

    it('issues a token that works as "Bearer <t>" and as "<t>", and is stored only as a hash', async () => {
      const u = await makeUser(t, root);
      const res = await u.get('/api/user/token').expect(200);
      expect(res.body.success).toBe(true);
      const token = res.body.data as string;
      expect(typeof token).toBe('string');
      expect(token.length).toBeGreaterThanOrEqual(16);

      const stored = await users().findOneByOrFail({ id: u.userId! });
      expect(stored.access_token_hash).toBeTruthy();
      expect(stored.access_token_hash).not.toBe(token);
      expect(stored.access_token_hash).not.toContain(token);
      expect(JSON.stringify(stored)).not.toContain(token);

      for (const auth of [`Bearer ${token}`, token, `bearer ${token}`]) {
        const self = await withToken(auth, u.userId!);
        expect(self.status).toBe(200);
        expect(self.body.data).toMatchObject({ id: u.userId, username: u.username });
        expect(JSON.stringify(self.body)).not.toContain(token);
        expect(JSON.stringify(self.body)).not.toContain(stored.access_token_hash!);
      }
    });

    it('needs New-Api-User equal to the token owner', async () => {
      const u = await makeUser(t, root);
      const token = (await u.get('/api/user/token')).body.data as string;
      expect((await withToken(`Bearer ${token}`)).status).toBe(401);
      expect((await withToken(`Bearer ${token}`, root.userId!)).status).toBe(401);
      expect((await withToken(`Bearer ${token}`, u.userId!)).status).toBe(200);
    });

    it('stops the old token when a new one is issued', async () => {
      const u = await makeUser(t, root);
      const first = (await u.get('/api/user/token')).body.data as string;
      expect((await withToken(`Bearer ${first}`, u.userId!)).status).toBe(200);
      const second = (await u.get('/api/user/token')).body.data as string;
      expect(second).not.toBe(first);
      const old = await withToken(`Bearer ${first}`, u.userId!);
      expect(old.status).toBe(401);
      expect(old.body.success).toBe(false);
      expect((await withToken(`Bearer ${second}`, u.userId!)).status).toBe(200);
    });

    it('refuses unknown tokens and tokens of banned users', async () => {
      expect((await withToken('Bearer ' + 'Z'.repeat(32), 1)).status).toBe(401);
      expect((await withToken('Bearer short', 1)).status).toBe(401);
      const u = await makeUser(t, root);
      const token = (await u.get('/api/user/token')).body.data as string;
      expect((await root.post('/api/user/manage', { id: u.userId, action: 'disable' })).body.success).toBe(
        true,
      );
      const res = await withToken(`Bearer ${token}`, u.userId!);
      expect(res.status).toBe(403);
      expect(res.body.success).toBe(false);
    });

    it('grants an admin token admin access, and a user token none', async () => {
      const admin = await makeUser(t, root, { role: 'admin' });
      const user = await makeUser(t, root);
      const at = (await admin.get('/api/user/token')).body.data as string;
      const ut = (await user.get('/api/user/token')).body.data as string;
      const list = (tok: string, uid: number) =>
        request(t.url)
          .get('/api/user/')
          .set('Authorization', `Bearer ${tok}`)
          .set('New-Api-User', String(uid));
      expect((await list(at, admin.userId!)).status).toBe(200);
      expect((await list(ut, user.userId!)).status).toBe(403);
    });
  });

  describe('invitations', () => {
    afterAll(async () => {
      for (const key of ['QuotaForNewUser', 'QuotaForInviter', 'QuotaForInvitee']) await setOption(key, 0);
    });

    it('rewards inviter and invitee and writes type-4 logs', async () => {
      await setOption('QuotaForNewUser', 1000);
      await setOption('QuotaForInviter', 300);
      await setOption('QuotaForInvitee', 200);
      const inviter = await makeUser(t, root);
      const aff = await inviter.get('/api/user/aff');
      const code = aff.body.data as string;
      expect(code).toMatch(/^[A-Za-z0-9]{4,}$/);
      const before = await users().findOneByOrFail({ id: inviter.userId! });

      const invitee = uname('inv');
      const res = await register({
        username: invitee,
        password: 'pass-word-1',
        password2: 'pass-word-1',
        aff_code: code,
      });
      expect(res.body).toMatchObject({ success: true });

      const created = await row(invitee);
      expect(created).toMatchObject({ quota: 1200, inviter_id: inviter.userId });
      const after = await users().findOneByOrFail({ id: inviter.userId! });
      expect(after.aff_count).toBe(before.aff_count + 1);
      expect(after.aff_quota).toBe(before.aff_quota + 300);
      expect(after.aff_history_quota).toBe(before.aff_history_quota + 300);
      expect(after.quota).toBe(before.quota);

      const logs = t.ds.getRepository(LogEntry);
      const inviteeLogs = await logs.find({ where: { user_id: created!.id }, order: { id: 'ASC' } });
      expect(inviteeLogs.every((l) => l.type === LogType.System)).toBe(true);
      expect(inviteeLogs.map((l) => l.quota).sort((a, b) => a - b)).toEqual([200, 1000]);
      const inviterLogs = await logs.findBy({ user_id: inviter.userId!, type: LogType.System });
      expect(inviterLogs).toHaveLength(1);
      expect(inviterLogs[0].content).toContain(invitee);

      // A second invitation adds up.
      const second = uname('inv');
      expect(
        (
          await register({
            username: second,
            password: 'pass-word-1',
            password2: 'pass-word-1',
            aff_code: code,
          })
        ).body.success,
      ).toBe(true);
      const again = await users().findOneByOrFail({ id: inviter.userId! });
      expect(again).toMatchObject({
        aff_count: before.aff_count + 2,
        aff_quota: before.aff_quota + 600,
        aff_history_quota: before.aff_history_quota + 600,
      });
      // The inviter sees the reward in GET /api/user/self.
      expect((await inviter.get('/api/user/self')).body.data).toMatchObject({
        aff_count: 2,
        aff_quota: 600,
        aff_history_quota: 600,
      });
    });

    it('counts every one of several simultaneous invited sign-ups', async () => {
      await setOption('QuotaForInviter', 300);
      const inviter = await makeUser(t, root);
      const code = (await inviter.get('/api/user/aff')).body.data as string;
      const names = Array.from({ length: 5 }, () => uname('pinv'));
      const results = await Promise.all(
        names.map((username) =>
          register({ username, password: 'pass-word-1', password2: 'pass-word-1', aff_code: code }),
        ),
      );
      expect(results.map((r) => r.body.success)).toEqual(Array(5).fill(true));
      expect(await users().findOneByOrFail({ id: inviter.userId! })).toMatchObject({
        aff_count: 5,
        aff_quota: 1500,
        aff_history_quota: 1500,
      });
      expect(await users().countBy({ inviter_id: inviter.userId! })).toBe(5);
    });

    it('ignores an unknown invitation code (no invitee bonus, nobody rewarded)', async () => {
      await setOption('QuotaForNewUser', 1000);
      await setOption('QuotaForInvitee', 200);
      const username = uname('noinv');
      const totalAffBefore = (await users().find()).reduce((s, u) => s + u.aff_quota, 0);
      const res = await register({
        username,
        password: 'pass-word-1',
        password2: 'pass-word-1',
        aff_code: 'NoSuchCode',
      });
      expect(res.body.success).toBe(true);
      expect(await row(username)).toMatchObject({ quota: 1000, inviter_id: 0 });
      expect((await users().find()).reduce((s, u) => s + u.aff_quota, 0)).toBe(totalAffBefore);
    });

    it('does not reward a deregistered inviter', async () => {
      await setOption('QuotaForInviter', 300);
      await setOption('QuotaForInvitee', 200);
      await setOption('QuotaForNewUser', 0);
      const inviter = await makeUser(t, root);
      const code = (await inviter.get('/api/user/aff')).body.data as string;
      expect(
        (await root.post('/api/user/manage', { id: inviter.userId, action: 'delete' })).body.success,
      ).toBe(true);
      const username = uname('late');
      expect(
        (await register({ username, password: 'pass-word-1', password2: 'pass-word-1', aff_code: code })).body
          .success,
      ).toBe(true);
      expect(await row(username)).toMatchObject({ quota: 0, inviter_id: 0 });
      expect(await users().findOneByOrFail({ id: inviter.userId! })).toMatchObject({
        aff_count: 0,
        aff_quota: 0,
      });
    });
  });
});

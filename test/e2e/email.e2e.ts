import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { User, VerificationCode } from '../../server/src/database/entities';
import { MockSmtp } from '../support/mock-smtp';
import { MockTurnstile } from '../support/mock-turnstile';
import { ApiClient, makeUser, setupRoot, startApp, TestApp, uname, putOption } from '../support/test-app';

const MSG = {
  codeInvalid: '验证码错误或已过期',
  emailTaken: '邮箱地址已被占用',
  emailRequired: '请输入邮箱！',
  codeRequired: '请输入邮箱验证码！',
  resetInvalid: '重置链接非法或已过期',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A local port nothing listens on (connections are refused at once). */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });

describe('email codes, binding, password reset and Turnstile', () => {
  let t: TestApp;
  let root: ApiClient;
  let smtp: MockSmtp;
  let turnstile: MockTurnstile;
  let ipSeq = 0;

  beforeAll(async () => {
    smtp = await MockSmtp.start();
    turnstile = await MockTurnstile.start();
    t = await startApp({ TURNSTILE_VERIFY_URL: turnstile.url });
    root = await setupRoot(t);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
    await turnstile.close();
  });

  const users = () => t.ds.getRepository(User);
  const codes = () => t.ds.getRepository(VerificationCode);
  /** A fresh anonymous client on its own address. */
  const anon = () => {
    const c = new ApiClient(t.url);
    ipSeq += 1;
    c.ip = `10.0.${ipSeq >> 8}.${ipSeq & 255}`;
    return c;
  };
  const sendCode = (email: string, purpose?: string, c: ApiClient = anon()) =>
    c.get(`/api/verification?email=${encodeURIComponent(email)}${purpose ? `&purpose=${purpose}` : ''}`);
  const register = (body: Record<string, unknown>) => anon().post('/api/user/register', body);
  const login = (username: string, password: string) =>
    anon().post('/api/user/login', { username, password });
  const email = (prefix = 'm') => `${uname(prefix)}@example.com`.toLowerCase();
  const setOption = (key: string, value: string | number | boolean) => putOption(root, key, value);

  describe('without SMTP', () => {
    it('says clearly that SMTP is not configured, for codes and for password reset alike', async () => {
      const res = await sendCode(email()).expect(200);
      expect(res.body).toMatchObject({ success: false, message: 'SMTP 服务器未配置' });
      const en = await anon().get('/api/verification?email=x@example.com').set('Accept-Language', 'en');
      expect(en.body.message).toMatch(/SMTP/);

      const u = await makeUser(t, root);
      const addr = email('nosmtp');
      await users().update({ id: u.userId! }, { email: addr });
      const reset = await anon().get(`/api/reset_password?email=${addr}`).expect(200);
      expect(reset.body).toMatchObject({ success: false, message: 'SMTP 服务器未配置' });
      // The same answer for an address nobody has: nothing about accounts is revealed.
      const unknown = await anon()
        .get(`/api/reset_password?email=${email('nobody')}`)
        .expect(200);
      expect(unknown.body).toEqual(reset.body);
      expect(smtp.messages).toHaveLength(0);
      expect(await codes().count()).toBe(0);
    });
  });

  describe('with SMTP', () => {
    beforeAll(() =>
      smtp.configure(root, {
        account: 'mailer@gatehouse.test',
        token: 'smtp-pass-123',
        from: 'noreply@gatehouse.test',
      }),
    );

    it('sends a 6-digit code with the configured account, secret and sender; stores only a hash', async () => {
      const addr = email('code');
      const res = await sendCode(addr).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: null });
      const mail = await smtp.waitFor(addr);
      expect(mail.auth).toEqual({ username: 'mailer@gatehouse.test', password: 'smtp-pass-123' });
      expect(mail.from).toBe('noreply@gatehouse.test');
      expect(mail.to).toEqual([addr]);
      const code = await smtp.codeFor(addr);
      expect(code).toMatch(/^\d{6}$/);
      const rows = await codes().findBy({ target: addr });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ purpose: 'register', used_at: null });
      expect(rows[0].expires_at - rows[0].created_at).toBe(180);
      expect(JSON.stringify(rows[0])).not.toContain(code);
    });

    it.each([
      [''],
      ['not-an-email'],
      ['a@b'],
      ['two@@example.com'],
      ['x'.repeat(300) + '@example.com'],
      ['nul\u0000x@example.com'],
      ['tab\tx@example.com'],
    ])('refuses a bad address %j without sending', async (addr) => {
      const before = smtp.messages.length;
      const res = await sendCode(addr);
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      await sleep(50);
      expect(smtp.messages.length).toBe(before);
    });

    it('refuses a resend within 30 s and says how long to wait', async () => {
      const addr = email('resend');
      expect((await sendCode(addr)).body.success).toBe(true);
      await smtp.waitFor(addr);
      const again = await sendCode(addr).expect(200);
      expect(again.body.success).toBe(false);
      const seconds = Number(/(\d+)\s*秒/.exec(again.body.message)?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(30);
      await sleep(100);
      expect(smtp.to(addr)).toHaveLength(1);

      // 31 s later (moved back in the database) a new code is sent.
      await codes()
        .createQueryBuilder()
        .update()
        .set({ created_at: () => 'created_at - 31' })
        .where('target = :addr', { addr })
        .execute();
      expect((await sendCode(addr)).body.success).toBe(true);
      await smtp.waitFor(addr, 2);
    });

    it('reports a mail that could not be sent, and lets the user retry at once', async () => {
      const closed = await closedPort();
      const addr = email('down');
      await setOption('SMTPPort', String(closed));
      let res: request.Response;
      try {
        res = await sendCode(addr);
      } finally {
        await setOption('SMTPPort', String(smtp.port));
      }
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, message: '邮件发送失败，请稍后再试' });
      const retry = await sendCode(addr);
      expect(retry.body).toMatchObject({ success: true });
      expect(await smtp.codeFor(addr)).toMatch(/^\d{6}$/);
    });

    describe('registration with EmailVerificationEnabled', () => {
      beforeAll(() => setOption('EmailVerificationEnabled', 'true'));
      afterAll(() => setOption('EmailVerificationEnabled', 'false'));

      it('needs an email and a code', async () => {
        const username = uname('ev');
        const noEmail = await register({ username, password: 'pass-word-1', password2: 'pass-word-1' });
        expect(noEmail.body).toMatchObject({ success: false, message: MSG.emailRequired });
        const noCode = await register({
          username,
          password: 'pass-word-1',
          password2: 'pass-word-1',
          email: email(),
        });
        expect(noCode.body).toMatchObject({ success: false, message: MSG.codeRequired });
        expect(await users().countBy({ username })).toBe(0);
      });

      it('refuses a 1 MB email or code clearly, writing nothing', async () => {
        const big = 'a'.repeat(1024 * 1024);
        const addr = email('big');
        for (const extra of [
          { email: `${big}@example.com`, verification_code: '123456' },
          { email: addr, verification_code: big },
        ]) {
          const username = uname('big');
          const res = await register({
            username,
            password: 'pass-word-1',
            password2: 'pass-word-1',
            ...extra,
          });
          expect([200, 413]).toContain(res.status);
          expect(res.body.success).toBe(false);
          expect(res.body.message.length).toBeLessThan(200);
          expect(await users().countBy({ username })).toBe(0);
        }
        // A query string cannot hold 1 MB (the HTTP server stops at 16 KB of headers): 10 KB then.
        const code = await sendCode(`${'a'.repeat(10_000)}@example.com`);
        expect(code.status).toBe(200);
        expect(code.body).toMatchObject({ success: false, message: '邮箱地址格式不正确' });
      });

      it('refuses a wrong code, accepts the right one once', async () => {
        const addr = email('reg');
        expect((await sendCode(addr)).body.success).toBe(true);
        const code = await smtp.codeFor(addr);
        const wrongCode = code === '000000' ? '111111' : '000000';
        const username = uname('reg');
        const base = { username, password: 'pass-word-1', password2: 'pass-word-1', email: addr };

        const wrong = await register({ ...base, verification_code: wrongCode });
        expect(wrong.body).toMatchObject({ success: false, message: MSG.codeInvalid });
        expect(await users().countBy({ username })).toBe(0);

        const ok = await register({ ...base, verification_code: code });
        expect(ok.body).toMatchObject({ success: true });
        expect(await users().findOneBy({ username })).toMatchObject({ email: addr });
        expect((await login(addr, 'pass-word-1')).body.data).toMatchObject({ username });
        expect((await codes().findOneByOrFail({ target: addr })).used_at).toEqual(expect.any(Number));

        // Free the address again (as if the account had changed it): the code alone must still be spent.
        await users().update({ username }, { email: null });
        const reuse = await register({ ...base, username: uname('reg'), verification_code: code });
        expect(reuse.body).toMatchObject({ success: false, message: MSG.codeInvalid });
      });

      it('lets only one of two simultaneous sign-ups spend a code', async () => {
        const addr = email('twin');
        expect((await sendCode(addr)).body.success).toBe(true);
        const code = await smtp.codeFor(addr);
        const names = [uname('twa'), uname('twb')];
        const results = await Promise.all(
          names.map((username) =>
            register({
              username,
              password: 'pass-word-1',
              password2: 'pass-word-1',
              email: addr,
              verification_code: code,
            }),
          ),
        );
        expect(results.map((r) => r.status)).toEqual([200, 200]);
        expect(results.filter((r) => r.body.success)).toHaveLength(1);
        expect(await users().countBy({ email: addr })).toBe(1);
      });

      it('refuses an expired code', async () => {
        const addr = email('exp');
        expect((await sendCode(addr)).body.success).toBe(true);
        const code = await smtp.codeFor(addr);
        const now = Math.floor(Date.now() / 1000);
        await codes().update({ target: addr }, { expires_at: now - 1 });
        const username = uname('exp');
        const res = await register({
          username,
          password: 'pass-word-1',
          password2: 'pass-word-1',
          email: addr,
          verification_code: code,
        });
        expect(res.body).toMatchObject({ success: false, message: MSG.codeInvalid });
        expect(await users().countBy({ username })).toBe(0);
      });

      it('refuses a code sent to another address', async () => {
        const a = email('ca');
        const b = email('cb');
        expect((await sendCode(a)).body.success).toBe(true);
        const code = await smtp.codeFor(a);
        const res = await register({
          username: uname('cx'),
          password: 'pass-word-1',
          password2: 'pass-word-1',
          email: b,
          verification_code: code,
        });
        expect(res.body).toMatchObject({ success: false, message: MSG.codeInvalid });
      });

      it('refuses an email that is already taken, for the code and for sign-up', async () => {
        const u = await makeUser(t, root);
        const addr = email('taken');
        await users().update({ id: u.userId! }, { email: addr });
        for (const variant of [addr, addr.toUpperCase()]) {
          const before = smtp.messages.length;
          const res = await sendCode(variant);
          expect(res.body).toMatchObject({ success: false, message: MSG.emailTaken });
          await sleep(50);
          expect(smtp.messages.length).toBe(before);
        }
        const reg = await register({
          username: uname('tk'),
          password: 'pass-word-1',
          password2: 'pass-word-1',
          email: addr,
          verification_code: '123456',
        });
        expect(reg.body).toMatchObject({ success: false, message: MSG.emailTaken });
      });

      it('keeps the email of a deregistered account reserved', async () => {
        const u = await makeUser(t, root);
        const addr = email('gone');
        await users().update({ id: u.userId! }, { email: addr });
        expect((await u.delete('/api/user/self', { username: u.username })).body.success).toBe(true);
        expect((await sendCode(addr)).body).toMatchObject({ success: false, message: MSG.emailTaken });
      });

      it('refuses a bind-purpose code for sign-up', async () => {
        const addr = email('bfr');
        expect((await sendCode(addr, 'bind')).body.success).toBe(true);
        const code = await smtp.codeFor(addr);
        const username = uname('bfr');
        const res = await register({
          username,
          password: 'pass-word-1',
          password2: 'pass-word-1',
          email: addr,
          verification_code: code,
        });
        expect(res.body).toMatchObject({ success: false, message: MSG.codeInvalid });
        expect(await users().countBy({ username })).toBe(0);
      });
    });

    describe('address rules', () => {
      afterEach(async () => {
        await setOption('EmailDomainRestrictionEnabled', 'false');
        await setOption('EmailAliasRestrictionEnabled', 'false');
      });

      it('EmailDomainRestrictionEnabled allows only whitelisted domains (exactly)', async () => {
        await setOption('EmailDomainWhitelist', 'example.com,corp.example.org');
        await setOption('EmailDomainRestrictionEnabled', 'true');
        for (const addr of [
          `${uname('d')}@other.net`,
          `${uname('d')}@sub.example.com`,
          `${uname('d')}@example.com.evil.net`,
        ]) {
          const before = smtp.messages.length;
          const res = await sendCode(addr);
          expect(res.body.success).toBe(false);
          expect(res.body.message).toContain('白名单');
          await sleep(50);
          expect(smtp.messages.length).toBe(before);
        }
        for (const addr of [email('ok'), `${uname('ok')}@CORP.example.org`]) {
          expect((await sendCode(addr)).body).toMatchObject({ success: true });
          await smtp.waitFor(addr.toLowerCase());
        }
      });

      it('EmailAliasRestrictionEnabled refuses + aliases (and dotted gmail)', async () => {
        await setOption('EmailAliasRestrictionEnabled', 'true');
        for (const addr of [`a+${uname('al')}@example.com`, `x.${uname('al')}@gmail.com`]) {
          const res = await sendCode(addr);
          expect(res.body.success).toBe(false);
          expect(res.body.message).toContain('别名');
        }
        expect((await sendCode(email('plain'))).body.success).toBe(true);
        await setOption('EmailAliasRestrictionEnabled', 'false');
        expect((await sendCode(`a+${uname('al')}@example.com`)).body.success).toBe(true);
      });
    });

    describe('binding an email', () => {
      const bind = (c: ApiClient, addr: string, code: string) =>
        c.get(`/api/oauth/email/bind?email=${encodeURIComponent(addr)}&code=${encodeURIComponent(code)}`);

      it('binds with a bind-purpose code while signed in', async () => {
        const u = await makeUser(t, root);
        const addr = email('bind');
        expect((await sendCode(addr, 'bind')).body.success).toBe(true);
        const code = await smtp.codeFor(addr);
        expect((await codes().findOneByOrFail({ target: addr })).purpose).toBe('bind');

        const res = await bind(u, addr, code).expect(200);
        expect(res.body).toMatchObject({ success: true });
        expect((await users().findOneByOrFail({ id: u.userId! })).email).toBe(addr);
        expect((await u.get('/api/user/self')).body.data.email).toBe(addr);
        expect((await login(addr, u.password)).body.data).toMatchObject({ id: u.userId });

        // Spent: another user cannot bind the address with the same code.
        const other = await makeUser(t, root);
        expect((await bind(other, addr, code)).body.success).toBe(false);
        expect((await users().findOneByOrFail({ id: other.userId! })).email).toBeNull();
      });

      it('does not accept a register-purpose code', async () => {
        const u = await makeUser(t, root);
        const addr = email('rb');
        expect((await sendCode(addr)).body.success).toBe(true);
        const code = await smtp.codeFor(addr);
        const res = await bind(u, addr, code);
        expect(res.body).toMatchObject({ success: false, message: MSG.codeInvalid });
        expect((await users().findOneByOrFail({ id: u.userId! })).email).toBeNull();
      });

      it('needs a session, an email and a code', async () => {
        const u = await makeUser(t, root);
        const anonymous = await request(t.url).get('/api/oauth/email/bind?email=a@example.com&code=123456');
        expect(anonymous.status).toBe(401);
        expect((await u.get('/api/oauth/email/bind?code=123456')).body).toMatchObject({
          success: false,
          message: MSG.emailRequired,
        });
        expect((await u.get('/api/oauth/email/bind?email=a@example.com')).body).toMatchObject({
          success: false,
          message: MSG.codeRequired,
        });
        expect((await bind(u, 'a@example.com', '000000')).body).toMatchObject({
          success: false,
          message: MSG.codeInvalid,
        });
      });

      it('refuses an address another account has', async () => {
        const holder = await makeUser(t, root);
        const u = await makeUser(t, root);
        const addr = email('hold');
        expect((await sendCode(addr, 'bind')).body.success).toBe(true);
        const code = await smtp.codeFor(addr);
        expect((await bind(holder, addr, code)).body.success).toBe(true);
        const res = await bind(u, addr, code);
        expect(res.body.success).toBe(false);
        expect((await users().findOneByOrFail({ id: u.userId! })).email).toBeNull();
      });
    });

    describe('password reset', () => {
      const linkIn = (body: string) => {
        const m = /(\S*?)\/user\/reset\?email=([^&"<\s]+)&(?:amp;)?token=([A-Za-z0-9]+)/.exec(body);
        if (!m) throw new Error(`no reset link in ${body}`);
        return { base: m[1], email: decodeURIComponent(m[2]), token: m[3] };
      };
      const reset = (body: unknown) => anon().post('/api/user/reset', body);

      it('never builds the link from the Host header: without ServerAddress a clear error, for any address', async () => {
        const u = await makeUser(t, root);
        const addr = email('host');
        await users().update({ id: u.userId! }, { email: addr });
        const known = await anon()
          .get(`/api/reset_password?email=${addr}`)
          .set('Host', 'evil.example.net')
          .expect(200);
        const unknown = await anon()
          .get(`/api/reset_password?email=${email('nohost')}`)
          .set('X-Forwarded-Host', 'evil.example.net')
          .expect(200);
        expect(known.body).toEqual({ success: false, message: '请先填写服务器地址', data: null });
        expect(unknown.body).toEqual(known.body);
        await sleep(200);
        expect(smtp.to(addr)).toHaveLength(0);

        await setOption('ServerAddress', 'https://gw.example.com');
        for (const header of ['Host', 'X-Forwarded-Host']) {
          await codes().delete({ target: addr });
          expect(
            (await anon().get(`/api/reset_password?email=${addr}`).set(header, 'evil.example.net')).body
              .success,
          ).toBe(true);
        }
        const mails = [await smtp.waitFor(addr, 1), await smtp.waitFor(addr, 2)];
        for (const m of mails) {
          expect(m.body).toContain('https://gw.example.com/user/reset?');
          expect(m.body).not.toContain('evil.example.net');
        }
      });

      it('mails a single-use link whose token yields a new password', async () => {
        await setOption('ServerAddress', 'https://gw.example.com/');
        const u = await makeUser(t, root);
        const addr = email('rst');
        await users().update({ id: u.userId! }, { email: addr });

        const res = await anon()
          .get(`/api/reset_password?email=${encodeURIComponent(addr)}`)
          .expect(200);
        expect(res.body).toEqual({ success: true, message: '', data: null });
        const mail = await smtp.waitFor(addr);
        const link = linkIn(mail.body);
        expect(link.base).toMatch(/https:\/\/gw\.example\.com$/);
        expect(link.email).toBe(addr);

        const done = await reset({ email: link.email, token: link.token }).expect(200);
        expect(done.body.success).toBe(true);
        const password = done.body.data as string;
        expect(typeof password).toBe('string');
        expect(password.length).toBeGreaterThanOrEqual(8);
        expect((await login(u.username, password)).body.success).toBe(true);
        expect((await login(u.username, u.password)).body.success).toBe(false);

        const again = await reset({ email: link.email, token: link.token });
        expect(again.body).toMatchObject({ success: false, message: MSG.resetInvalid });
        expect((await login(u.username, password)).body.success).toBe(true);
      });

      it('answers an unknown address exactly like a known one and sends nothing', async () => {
        const u = await makeUser(t, root);
        const known = email('kn');
        await users().update({ id: u.userId! }, { email: known });
        const unknown = email('unk');
        const a = await anon().get(`/api/reset_password?email=${unknown}`).expect(200);
        const b = await anon().get(`/api/reset_password?email=${known}`).expect(200);
        expect(a.body).toEqual(b.body);
        expect(a.body.success).toBe(true);
        await smtp.waitFor(known);
        await sleep(200);
        expect(smtp.to(unknown)).toHaveLength(0);
        expect(await codes().countBy({ target: unknown })).toBe(0);
        // A second request within 30 s: same answer, no second mail.
        const c = await anon().get(`/api/reset_password?email=${known}`).expect(200);
        expect(c.body).toEqual(b.body);
        await sleep(200);
        expect(smtp.to(known)).toHaveLength(1);
      });

      it('never answers 500 to NUL characters in the address', async () => {
        const bad = encodeURIComponent('nul\u0000x@example.com');
        const a = await anon().get(`/api/reset_password?email=${bad}`);
        expect(a.status).toBe(200);
        const b = await reset({ email: 'nul\u0000x@example.com', token: 'A'.repeat(32) });
        expect(b.status).toBe(200);
        expect(b.body.success).toBe(false);
        const u = await makeUser(t, root);
        const c = await u.get(`/api/oauth/email/bind?email=${bad}&code=123456`);
        expect(c.status).toBe(200);
        expect(c.body.success).toBe(false);
      });

      it('answers success when the reset mail fails, and a retry right away sends it', async () => {
        const u = await makeUser(t, root);
        const addr = email('rdown');
        await users().update({ id: u.userId! }, { email: addr });
        await setOption('SMTPPort', String(await closedPort()));
        let first: request.Response;
        try {
          first = await anon().get(`/api/reset_password?email=${addr}`);
        } finally {
          await setOption('SMTPPort', String(smtp.port));
        }
        expect(first.body).toEqual({ success: true, message: '', data: null });
        expect((await anon().get(`/api/reset_password?email=${addr}`)).body.success).toBe(true);
        const link = linkIn((await smtp.waitFor(addr)).body);
        expect((await reset({ email: link.email, token: link.token })).body.success).toBe(true);
      });

      it('refuses wrong, foreign, expired and malformed tokens', async () => {
        const u = await makeUser(t, root);
        const addr = email('rw');
        await users().update({ id: u.userId! }, { email: addr });
        expect((await anon().get(`/api/reset_password?email=${addr}`)).body.success).toBe(true);
        const link = linkIn((await smtp.waitFor(addr)).body);

        const other = await makeUser(t, root);
        const otherAddr = email('ro');
        await users().update({ id: other.userId! }, { email: otherAddr });

        for (const body of [
          { email: addr, token: link.token.slice(0, -1) + (link.token.endsWith('A') ? 'B' : 'A') },
          { email: otherAddr, token: link.token },
          { email: addr },
          { token: link.token },
          { email: addr, token: 12345 },
          { email: addr, token: '' },
        ]) {
          const res = await reset(body);
          expect(res.status).toBe(200);
          expect(res.body.success).toBe(false);
        }
        expect((await login(other.username, other.password)).body.success).toBe(true);

        await codes().update({ target: addr }, { expires_at: Math.floor(Date.now() / 1000) - 1 });
        const expired = await reset({ email: addr, token: link.token });
        expect(expired.body).toMatchObject({ success: false, message: MSG.resetInvalid });
        expect((await login(u.username, u.password)).body.success).toBe(true);
      });
    });
  });

  describe('Turnstile', () => {
    const SECRET = 'ts-secret-0123456789';
    beforeAll(async () => {
      turnstile.expectedSecret = SECRET;
      turnstile.accepted.add('good-token');
      await setOption('TurnstileSiteKey', 'site-key-abc');
      await setOption('TurnstileSecretKey', SECRET);
      await setOption('TurnstileCheckEnabled', 'true');
    });
    afterAll(() => setOption('TurnstileCheckEnabled', 'false'));

    /** makeUser signs in without a token, which the check refuses: create through the admin API only. */
    async function createUser(): Promise<{ id: number; username: string; password: string }> {
      const username = uname('tu');
      const password = 'pass-word-1';
      const res = await root.post('/api/user/', { username, password });
      if (!res.body.success) throw new Error(res.body.message);
      return { id: (await users().findOneByOrFail({ username })).id, username, password };
    }

    it('is announced in the public status without the secret', async () => {
      const res = await request(t.url).get('/api/status').expect(200);
      expect(res.body.data).toMatchObject({ turnstile_check: true, turnstile_site_key: 'site-key-abc' });
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
    });

    it('refuses login without a token, with a rejected token; accepts an accepted one', async () => {
      const u = await createUser();
      const creds = { username: u.username, password: u.password };
      const calls = turnstile.calls.length;

      const none = await anon().post('/api/user/login', creds).expect(200);
      expect(none.body).toMatchObject({ success: false, message: 'Turnstile token 为空' });
      expect(none.headers['set-cookie']).toBeUndefined();
      expect(turnstile.calls.length).toBe(calls);

      const bad = await anon().post('/api/user/login?turnstile=bad-token', creds).expect(200);
      expect(bad.body.success).toBe(false);
      expect(bad.body.message).toContain('Turnstile');
      expect(bad.headers['set-cookie']).toBeUndefined();

      const c = anon();
      const good = await c.post('/api/user/login?turnstile=good-token', creds).expect(200);
      expect(good.body).toMatchObject({ success: true, data: { id: u.id } });
      const last = turnstile.calls[turnstile.calls.length - 1];
      expect(last).toMatchObject({ secret: SECRET, response: 'good-token', remoteip: c.ip });
      expect(last.contentType).toContain('application/x-www-form-urlencoded');
    });

    it('guards sign-up and code requests too', async () => {
      const username = uname('ts');
      const body = { username, password: 'pass-word-1', password2: 'pass-word-1' };
      expect((await register(body)).body).toMatchObject({ success: false, message: 'Turnstile token 为空' });
      expect((await anon().post('/api/user/register?turnstile=nope', body)).body.success).toBe(false);
      expect(await users().countBy({ username })).toBe(0);
      expect((await anon().post('/api/user/register?turnstile=good-token', body)).body.success).toBe(true);

      const addr = email('tsv');
      expect((await sendCode(addr)).body).toMatchObject({ success: false, message: 'Turnstile token 为空' });
      expect((await anon().get(`/api/verification?email=${addr}&turnstile=good-token`)).body.success).toBe(
        true,
      );
      await smtp.waitFor(addr);
    });

    it('fails closed when the secret the site sends is wrong', async () => {
      await setOption('TurnstileSecretKey', 'some-other-secret');
      try {
        const u = await createUser();
        const res = await anon().post('/api/user/login?turnstile=good-token', {
          username: u.username,
          password: u.password,
        });
        expect(res.body.success).toBe(false);
        expect(res.headers['set-cookie']).toBeUndefined();
        expect(turnstile.calls[turnstile.calls.length - 1].secret).toBe('some-other-secret');
      } finally {
        await setOption('TurnstileSecretKey', SECRET);
      }
    });
  });
});

/**
 * Third-party sign-in end to end against the local mock providers (test/mocks/oauth-provider.ts):
 * each provider signs in, signs up (with and without registration open, with an invitation code) and
 * binds; forged, replayed, foreign, expired and tampered callbacks are refused and change nothing.
 */
import request from 'supertest';
import { MessageKey, translate } from '../../server/src/common/i18n/messages';
import { LogEntry, LogType, User } from '../../server/src/database/entities';
import { MockOAuthProvider, MockPerson, signTelegram } from '../mocks/oauth-provider';
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

const BOT_TOKEN = '7000001:telegram-bot-token-S3cr3t';
const NEW_USER_QUOTA = 1000;
const INVITEE_QUOTA = 300;
const INVITER_QUOTA = 200;

const msg = (key: MessageKey, params: Record<string, unknown> = {}) => translate(key, 'zh', params);

/** Every answer the server gave in this file, to prove no secret ever left it. */
const answers: string[] = [];

/** A browser: keeps cookies, sends New-Api-User once signed in, records every answer. */
class Browser extends ApiClient {
  async open(path: string): Promise<request.Response> {
    const res = await this.get(path);
    answers.push(JSON.stringify({ headers: res.headers, body: res.text }));
    return res;
  }
  /** A top-level navigation: cookies but no New-Api-User header (what a redirect sends). */
  async navigate(path: string): Promise<request.Response> {
    const res = await this.agent.get(path).redirects(0);
    answers.push(JSON.stringify({ headers: res.headers, body: res.text }));
    return res;
  }
  async signedIn(res: request.Response): Promise<this> {
    expect(res.body).toMatchObject({ success: true });
    this.userId = res.body.data.id;
    return this;
  }
}

let personSeq = 5000;

describe('third-party sign-in', () => {
  let t: TestApp;
  let root: ApiClient;
  let mock: MockOAuthProvider;

  const users = () => t.ds.getRepository(User);
  const browser = () => new Browser(t.url);
  const setOption = (key: string, value: string | number | boolean) => putOption(root, key, value);
  const person = (prefix: string, extra: Partial<MockPerson> = {}) => {
    const key = uname(prefix);
    personSeq += 1;
    mock.addPerson(key, { id: personSeq, login: key, name: `Name ${key}`, ...extra });
    return { key, id: personSeq };
  };
  const userCount = () => users().count();

  /** The GitHub round trip: state for this browser, the provider's page as `who`, then the callback. */
  async function github(b: Browser, who: string, aff?: string) {
    const st = await b.open(`/api/oauth/state?provider=github${aff ? `&aff=${aff}` : ''}`);
    expect(st.body).toMatchObject({ success: true });
    const { code, state } = await mock.authorize(st.body.data.authorize_url, who);
    return b.open(`/api/oauth/github?code=${code}&state=${state}`);
  }
  async function oidc(b: Browser, who: string, aff?: string) {
    const st = await b.open(`/api/oauth/state?provider=oidc${aff ? `&aff=${aff}` : ''}`);
    expect(st.body).toMatchObject({ success: true });
    const { code, state } = await mock.authorize(st.body.data.authorize_url, who);
    return b.open(`/api/oauth/oidc?code=${code}&state=${state}`);
  }
  async function linuxdo(b: Browser, who: string) {
    const st = await b.open('/api/oauth/state?provider=linuxdo');
    expect(st.body).toMatchObject({ success: true });
    const { code, state } = await mock.authorize(st.body.data.authorize_url, who);
    return b.open(`/api/oauth/linuxdo?code=${code}&state=${state}`);
  }
  const telegramQuery = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const telegramFields = (id: string, extra: Record<string, string> = {}) =>
    signTelegram(
      {
        id,
        first_name: 'Tele',
        username: `tg${id}`,
        auth_date: String(Math.floor(Date.now() / 1000)),
        ...extra,
      },
      BOT_TOKEN,
    );

  beforeAll(async () => {
    mock = await MockOAuthProvider.start();
    t = await startApp({
      ALLOW_PRIVATE_OUTBOUND: 'true',
      GITHUB_OAUTH_URL: `${mock.url}/github`,
      GITHUB_API_URL: `${mock.url}/github-api`,
      LINUXDO_OAUTH_URL: `${mock.url}/linuxdo`,
    });
    root = await setupRoot(t);
    await setOption('QuotaForNewUser', NEW_USER_QUOTA);
    await setOption('QuotaForInvitee', INVITEE_QUOTA);
    await setOption('QuotaForInviter', INVITER_QUOTA);
  });
  afterAll(async () => {
    await t.close();
    await mock.close();
  });

  describe('while every provider is off', () => {
    it('each sign-in route answers a clear refusal and creates nobody', async () => {
      const before = await userCount();
      const b = browser();
      const cases: Array<[string, string]> = [
        ['/api/oauth/github?code=c&state=s', 'GitHub'],
        ['/api/oauth/oidc?code=c&state=s', 'OIDC'],
        ['/api/oauth/linuxdo?code=c&state=s', 'LinuxDO'],
        ['/api/oauth/wechat?code=ABC123', 'WeChat'],
        ['/api/oauth/telegram/login?id=1&auth_date=1&hash=00', 'Telegram'],
        ['/api/oauth/state?provider=oidc', 'OIDC'],
      ];
      for (const [path, provider] of cases) {
        const res = await b.open(path);
        expect({ path, status: res.status, body: res.body }).toEqual({
          path,
          status: 200,
          body: { success: false, message: msg('oauth_disabled', { provider }), data: null },
        });
      }
      expect(await userCount()).toBe(before);
    });

    it('an enabled provider without credentials says it is not configured', async () => {
      await setOption('GitHubOAuthEnabled', true);
      const res = await browser().open('/api/oauth/state?provider=github');
      expect(res.body).toEqual({
        success: false,
        message: msg('oauth_not_configured', { provider: 'GitHub' }),
        data: null,
      });
    });
  });

  describe('configured', () => {
    beforeAll(async () => {
      await setOption('GitHubOAuthEnabled', true);
      await setOption('GitHubClientId', mock.clients.github.id);
      await setOption('GitHubClientSecret', mock.clients.github.secret);
      await setOption('oidc.enabled', true);
      await setOption('oidc.client_id', mock.clients.oidc.id);
      await setOption('oidc.client_secret', mock.clients.oidc.secret);
      await setOption('oidc.well_known', `${mock.url}/.well-known/openid-configuration`);
      await setOption('LinuxDOOAuthEnabled', true);
      await setOption('LinuxDOClientId', mock.clients.linuxdo.id);
      await setOption('LinuxDOClientSecret', mock.clients.linuxdo.secret);
      await setOption('WeChatAuthEnabled', true);
      await setOption('WeChatServerAddress', `${mock.url}/wechat`);
      await setOption('WeChatServerToken', mock.wechatToken);
      await setOption('TelegramOAuthEnabled', true);
      await setOption('TelegramBotToken', BOT_TOKEN);
      await setOption('TelegramBotName', 'gatehouse_bot');
      await setOption('ServerAddress', 'https://gw.example.com');
    });

    describe('state', () => {
      it('is an unguessable string bound to this browser by an HttpOnly cookie', async () => {
        const b = browser();
        const a1 = await b.open('/api/oauth/state');
        const a2 = await b.open('/api/oauth/state');
        expect(a1.body).toMatchObject({ success: true, message: '' });
        expect(a1.body.data).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(a2.body.data).not.toBe(a1.body.data);
        const cookie = (a1.headers['set-cookie'] as unknown as string[]).find((c) =>
          c.startsWith('oauth_browser='),
        )!;
        expect(cookie).toMatch(/HttpOnly/i);
        expect(cookie).toMatch(/SameSite=Lax/i);
        expect(cookie).toMatch(/Path=\/api\/oauth/);
      });

      it('per provider carries the authorization URL the browser goes to', async () => {
        const gh = await browser().open('/api/oauth/state?provider=github');
        const ghUrl = new URL(gh.body.data.authorize_url);
        expect(`${ghUrl.origin}${ghUrl.pathname}`).toBe(`${mock.url}/github/login/oauth/authorize`);
        expect(Object.fromEntries(ghUrl.searchParams)).toEqual({
          client_id: mock.clients.github.id,
          state: gh.body.data.state,
          scope: 'user:email',
        });

        const od = await browser().open('/api/oauth/state?provider=oidc');
        const d = od.body.data;
        expect(d).toEqual({
          state: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          authorize_url: expect.any(String),
          redirect_uri: 'https://gw.example.com/oauth/oidc',
          scope: 'openid profile email',
          nonce: expect.any(String),
          code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          code_challenge_method: 'S256',
        });
        const odUrl = new URL(d.authorize_url);
        expect(`${odUrl.origin}${odUrl.pathname}`).toBe(`${mock.url}/authorize`);
        expect(Object.fromEntries(odUrl.searchParams)).toEqual({
          client_id: mock.clients.oidc.id,
          response_type: 'code',
          redirect_uri: d.redirect_uri,
          scope: d.scope,
          state: d.state,
          nonce: d.nonce,
          code_challenge: d.code_challenge,
          code_challenge_method: 'S256',
        });

        const ld = await browser().open('/api/oauth/state?provider=linuxdo');
        const ldUrl = new URL(ld.body.data.authorize_url);
        expect(ldUrl.searchParams.get('redirect_uri')).toBe('https://gw.example.com/oauth/linuxdo');
        expect(ldUrl.searchParams.get('client_id')).toBe(mock.clients.linuxdo.id);
      });

      it('refuses an unknown provider and ignores a malformed invitation code', async () => {
        const res = await browser().open('/api/oauth/state?provider=gitlab');
        expect(res.body).toEqual({ success: false, message: msg('oauth_provider_unknown'), data: null });
        const ok = await browser().open(`/api/oauth/state?aff=${encodeURIComponent("x' OR 1=1 --")}`);
        expect(ok.body.success).toBe(true);
        const arr = await browser().open('/api/oauth/state?provider=github&provider=oidc');
        expect(arr.body).toEqual({ success: false, message: msg('oauth_provider_unknown'), data: null });
      });
    });

    describe('GitHub', () => {
      it('signs up on first sign-in: the new account gets the new-user quota and a session', async () => {
        const p = person('gh');
        const b = browser();
        const res = await github(b, p.key);
        expect(res.body).toEqual({
          success: true,
          message: '',
          data: {
            id: expect.any(Number),
            username: p.key,
            display_name: `Name ${p.key}`,
            role: 1,
            status: 1,
            group: 'default',
          },
        });
        await b.signedIn(res);
        const self = await b.open('/api/user/self');
        expect(self.body.data).toMatchObject({
          id: res.body.data.id,
          github_id: String(p.id),
          quota: NEW_USER_QUOTA,
        });
        const row = await users().findOneByOrFail({ id: res.body.data.id });
        expect(row.password).toBe('');
        const logs = await t.ds.getRepository(LogEntry).findBy({ user_id: row.id, type: LogType.System });
        expect(logs.map((l) => l.quota)).toEqual([NEW_USER_QUOTA]);
        // The token exchange carried the client credentials; the profile was read with the token.
        const tokenCall = mock.callsTo('/github/login/oauth/access_token').at(-1)!;
        expect(tokenCall.form).toMatchObject({ client_id: mock.clients.github.id, code: expect.any(String) });
      });

      it('signs in to the same account the next time (and with a bare state the console builds the URL from)', async () => {
        const p = person('gh');
        const first = await github(browser(), p.key);
        const count = await userCount();
        const b = browser();
        const st = await b.open('/api/oauth/state');
        const page = `${mock.url}/github/login/oauth/authorize?client_id=${mock.clients.github.id}&state=${st.body.data}`;
        const { code, state } = await mock.authorize(page, p.key);
        const again = await b.open(`/api/oauth/github?code=${code}&state=${state}`);
        expect(again.body.data.id).toBe(first.body.data.id);
        expect(await userCount()).toBe(count);
      });

      it('gives a generated username of at most 12 characters when the GitHub login does not fit or is taken', async () => {
        const long = person('ghlong');
        mock.users.get(long.key)!.login = 'a-very-long-github-login';
        const res = await github(browser(), long.key);
        expect(res.body.data.username).toMatch(/^github_[a-z0-9]{5}$/);
        const taken = person('ghtaken');
        mock.users.get(taken.key)!.login = 'root';
        const res2 = await github(browser(), taken.key);
        expect(res2.body.data.username).toMatch(/^github_[a-z0-9]{5}$/);
      });

      it('applies the invitation code of the state: grants to both sides, with logs', async () => {
        const inviter = await makeUser(t, root);
        const code = (await inviter.get('/api/user/aff')).body.data as string;
        const before = await users().findOneByOrFail({ id: inviter.userId! });
        const p = person('ghinv');
        const res = await github(browser(), p.key, code);
        expect(res.body.success).toBe(true);
        const invitee = await users().findOneByOrFail({ id: res.body.data.id });
        expect(invitee.quota).toBe(NEW_USER_QUOTA + INVITEE_QUOTA);
        expect(invitee.inviter_id).toBe(inviter.userId);
        const after = await users().findOneByOrFail({ id: inviter.userId! });
        expect(after.aff_count).toBe(before.aff_count + 1);
        expect(after.aff_quota).toBe(before.aff_quota + INVITER_QUOTA);
        expect(after.aff_history_quota).toBe(before.aff_history_quota + INVITER_QUOTA);
      });

      it('refuses a new identity while registration is closed, but still signs in a known one', async () => {
        const known = person('ghknown');
        const existing = await github(browser(), known.key);
        await setOption('RegisterEnabled', false);
        try {
          const count = await userCount();
          const p = person('ghclosed');
          const res = await github(browser(), p.key);
          expect(res.body).toEqual({ success: false, message: msg('register_disabled'), data: null });
          expect(res.headers['set-cookie'] ?? []).not.toEqual(
            expect.arrayContaining([expect.stringMatching(/^session=/)]),
          );
          expect(await userCount()).toBe(count);
          const again = await github(browser(), known.key);
          expect(again.body.data.id).toBe(existing.body.data.id);
        } finally {
          await setOption('RegisterEnabled', true);
        }
      });

      it('binds to the signed-in user (message "bind"), and refuses an identity another account holds', async () => {
        const me = await makeUser(t, root);
        const b = browser();
        await b.login(me.username, me.password);
        const p = person('ghbind');
        const res = await github(b, p.key);
        expect(res.body).toEqual({ success: true, message: 'bind', data: null });
        expect((await users().findOneByOrFail({ id: me.userId! })).github_id).toBe(String(p.id));
        // Binding the same identity again is harmless.
        expect((await github(b, p.key)).body).toEqual({ success: true, message: 'bind', data: null });

        const other = await makeUser(t, root);
        const b2 = browser();
        await b2.login(other.username, other.password);
        const before = await users().findOneByOrFail({ id: other.userId! });
        const clash = await github(b2, p.key);
        expect(clash.body).toEqual({
          success: false,
          message: msg('oauth_bound_elsewhere', { provider: 'GitHub' }),
          data: null,
        });
        expect(await users().findOneByOrFail({ id: other.userId! })).toEqual(before);
        // Signing in with the bound identity reaches its owner.
        const signIn = await github(browser(), p.key);
        expect(signIn.body.data.id).toBe(me.userId);
      });

      it('refuses a replayed state, and a state used twice at the same moment works once', async () => {
        const p = person('ghreplay');
        const b = browser();
        const st = await b.open('/api/oauth/state?provider=github');
        const { code, state } = await mock.authorize(st.body.data.authorize_url, p.key);
        const first = await b.open(`/api/oauth/github?code=${code}&state=${state}`);
        expect(first.body.success).toBe(true);
        const replay = await b.open(`/api/oauth/github?code=${code}&state=${state}`);
        expect(replay.body).toEqual({ success: false, message: msg('oauth_state_invalid'), data: null });

        const st2 = await b.open('/api/oauth/state?provider=github');
        const fresh = await mock.authorize(st2.body.data.authorize_url, p.key);
        const both = await Promise.all([
          b.open(`/api/oauth/github?code=${fresh.code}&state=${fresh.state}`),
          b.open(`/api/oauth/github?code=${fresh.code}&state=${fresh.state}`),
        ]);
        expect(both.map((r) => r.body.success).sort()).toEqual([false, true]);
        expect(both.find((r) => !r.body.success)!.body.message).toBe(msg('oauth_state_invalid'));
      });

      it('two simultaneous first sign-ins of one identity make one account', async () => {
        const p = person('ghrace');
        const count = await userCount();
        const tabs = [browser(), browser(), browser()];
        const callbacks = await Promise.all(
          tabs.map(async (b) => {
            const st = await b.open('/api/oauth/state?provider=github');
            const { code, state } = await mock.authorize(st.body.data.authorize_url, p.key);
            return `/api/oauth/github?code=${code}&state=${state}`;
          }),
        );
        const results = await Promise.all(tabs.map((b, i) => b.open(callbacks[i])));
        expect(results.map((r) => r.body.success)).toEqual([true, true, true]);
        expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
        expect(await userCount()).toBe(count + 1);
        const logs = await t.ds
          .getRepository(LogEntry)
          .findBy({ user_id: results[0].body.data.id as number });
        expect(logs).toHaveLength(1);
      });

      it('refuses a state issued to another browser (and it is then used up)', async () => {
        const p = person('ghforeign');
        const victim = browser();
        const attacker = browser();
        const st = await attacker.open('/api/oauth/state?provider=github');
        const { code, state } = await mock.authorize(st.body.data.authorize_url, p.key);
        const count = await userCount();
        const res = await victim.open(`/api/oauth/github?code=${code}&state=${state}`);
        expect(res.body).toEqual({ success: false, message: msg('oauth_state_mismatch'), data: null });
        // A browser without the cookie at all, and one with a forged cookie, fare no better.
        const st2 = await attacker.open('/api/oauth/state?provider=github');
        const noCookie = await request(t.url).get(`/api/oauth/github?code=x&state=${st2.body.data.state}`);
        expect(noCookie.body.message).toBe(msg('oauth_state_mismatch'));
        const st3 = await attacker.open('/api/oauth/state?provider=github');
        const forged = await request(t.url)
          .get(`/api/oauth/github?code=x&state=${st3.body.data.state}`)
          .set('Cookie', `oauth_browser=${'A'.repeat(32)}`);
        expect(forged.body.message).toBe(msg('oauth_state_mismatch'));
        expect(await userCount()).toBe(count);
      });

      it('refuses to bind with a state fetched before signing in (another session)', async () => {
        const me = await makeUser(t, root);
        const b = browser();
        const st = await b.open('/api/oauth/state?provider=github'); // anonymous
        await b.login(me.username, me.password);
        const p = person('ghsess');
        const { code, state } = await mock.authorize(st.body.data.authorize_url, p.key);
        const res = await b.open(`/api/oauth/github?code=${code}&state=${state}`);
        expect(res.body).toEqual({ success: false, message: msg('oauth_state_mismatch'), data: null });
        expect((await users().findOneByOrFail({ id: me.userId! })).github_id).toBeNull();
      });

      it('refuses an expired state', async () => {
        const p = person('ghexp');
        const b = browser();
        const st = await b.open('/api/oauth/state?provider=github');
        const { code, state } = await mock.authorize(st.body.data.authorize_url, p.key);
        const realNow = Date.now.bind(Date);
        const spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 11 * 60 * 1000);
        let res: request.Response;
        try {
          res = await b.open(`/api/oauth/github?code=${code}&state=${state}`);
        } finally {
          spy.mockRestore();
        }
        expect(res.body).toEqual({ success: false, message: msg('oauth_state_expired'), data: null });
      });

      it('refuses malformed callbacks: no state, a made-up state, no code, a code the provider rejects', async () => {
        const b = browser();
        const count = await userCount();
        expect((await b.open('/api/oauth/github?code=abc')).body.message).toBe(msg('oauth_state_invalid'));
        expect((await b.open(`/api/oauth/github?code=abc&state=${'x'.repeat(43)}`)).body.message).toBe(
          msg('oauth_state_invalid'),
        );
        expect((await b.open('/api/oauth/github?code=abc&state=%00%01')).body.message).toBe(
          msg('oauth_state_invalid'),
        );
        expect((await b.open('/api/oauth/github?code=a&code=b&state=s&state=t')).body.message).toBe(
          msg('oauth_state_invalid'),
        );
        const st = await b.open('/api/oauth/state');
        expect((await b.open(`/api/oauth/github?state=${st.body.data}`)).body.message).toBe(
          msg('oauth_code_missing'),
        );
        const st2 = await b.open('/api/oauth/state');
        const bad = await b.open(`/api/oauth/github?code=not-a-code&state=${st2.body.data}`);
        expect(bad.body).toEqual({
          success: false,
          message: msg('oauth_exchange_failed', { provider: 'GitHub' }),
          data: null,
        });
        // The state is used up even though the exchange failed.
        expect((await b.open(`/api/oauth/github?code=not-a-code&state=${st2.body.data}`)).body.message).toBe(
          msg('oauth_state_invalid'),
        );
        expect(await userCount()).toBe(count);
      });

      it('refuses a state issued for OIDC (and an OIDC callback refuses a GitHub one)', async () => {
        const b = browser();
        const st = await b.open('/api/oauth/state?provider=oidc');
        expect((await b.open(`/api/oauth/github?code=x&state=${st.body.data.state}`)).body.message).toBe(
          msg('oauth_state_mismatch'),
        );
        const st2 = await b.open('/api/oauth/state?provider=github');
        expect((await b.open(`/api/oauth/oidc?code=x&state=${st2.body.data.state}`)).body.message).toBe(
          msg('oauth_state_mismatch'),
        );
        const st3 = await b.open('/api/oauth/state');
        expect((await b.open(`/api/oauth/oidc?code=x&state=${st3.body.data}`)).body.message).toBe(
          msg('oauth_state_mismatch'),
        );
      });

      it('refuses to sign in to a banned account', async () => {
        const p = person('ghban');
        const res = await github(browser(), p.key);
        const id = res.body.data.id as number;
        expect((await root.post('/api/user/manage', { id, action: 'disable' })).body.success).toBe(true);
        const again = await github(browser(), p.key);
        expect(again.body).toEqual({ success: false, message: msg('oauth_user_banned'), data: null });
        expect(again.headers['set-cookie'] ?? []).not.toEqual(
          expect.arrayContaining([expect.stringMatching(/^session=/)]),
        );
      });
    });

    describe('OIDC', () => {
      it('signs up with PKCE and a nonce; the ID token names the account; a verified email is kept', async () => {
        const p = person('oi', { emailVerified: true });
        mock.users.get(p.key)!.email = `oi${p.id}@example.com`;
        const b = browser();
        const res = await oidc(b, p.key);
        expect(res.body).toMatchObject({ success: true, data: { username: p.key } });
        const row = await users().findOneByOrFail({ id: res.body.data.id });
        expect(row).toMatchObject({
          oidc_id: `sub-${p.id}`,
          email: `oi${p.id}@example.com`,
          quota: NEW_USER_QUOTA,
        });
        const token = mock.callsTo('/token').at(-1)!;
        expect(token.form).toMatchObject({
          grant_type: 'authorization_code',
          code_verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43,128}$/),
          redirect_uri: 'https://gw.example.com/oauth/oidc',
          client_id: mock.clients.oidc.id,
        });
        expect(mock.callsTo('/jwks').length).toBeGreaterThan(0);
        await b.signedIn(res);
        expect((await b.open('/api/user/self')).body.data.oidc_id).toBe(`sub-${p.id}`);
      });

      it('keeps no unverified email and signs in again to the same account', async () => {
        const p = person('oiu', { email: `unverified-${uname('e')}@example.com`, emailVerified: false });
        const first = await oidc(browser(), p.key);
        expect((await users().findOneByOrFail({ id: first.body.data.id })).email).toBeNull();
        const again = await oidc(browser(), p.key);
        expect(again.body.data.id).toBe(first.body.data.id);
      });

      it('applies an invitation code', async () => {
        const inviter = await makeUser(t, root);
        const code = (await inviter.get('/api/user/aff')).body.data as string;
        const res = await oidc(browser(), person('oiinv').key, code);
        expect((await users().findOneByOrFail({ id: res.body.data.id })).quota).toBe(
          NEW_USER_QUOTA + INVITEE_QUOTA,
        );
        expect((await users().findOneByOrFail({ id: inviter.userId! })).aff_count).toBe(1);
      });

      it.each([
        ['bad-signature', 'oidc_id_token_invalid'],
        ['wrong-nonce', 'oidc_id_token_invalid'],
        ['wrong-audience', 'oidc_id_token_invalid'],
        ['wrong-issuer', 'oidc_id_token_invalid'],
        ['expired', 'oidc_id_token_invalid'],
        ['missing', 'oidc_id_token_invalid'],
      ] as const)('refuses an ID token with fault %s and creates nobody', async (fault, key) => {
        const p = person('oibad');
        const count = await userCount();
        mock.idTokenFault = fault;
        try {
          const res = await oidc(browser(), p.key);
          expect(res.body).toEqual({
            success: false,
            message: msg(key as MessageKey, { provider: 'OIDC' }),
            data: null,
          });
        } finally {
          mock.idTokenFault = null;
        }
        expect(await userCount()).toBe(count);
        expect(await users().countBy({ oidc_id: `sub-${p.id}` })).toBe(0);
      });

      it('refuses a callback whose code was issued for another PKCE challenge', async () => {
        const p = person('oipkce');
        const b = browser();
        const mine = await b.open('/api/oauth/state?provider=oidc');
        const theirs = await b.open('/api/oauth/state?provider=oidc');
        // The attacker's code (authorised with their challenge) pasted into my state.
        const attack = await mock.authorize(theirs.body.data.authorize_url, p.key);
        const res = await b.open(`/api/oauth/oidc?code=${attack.code}&state=${mine.body.data.state}`);
        expect(res.body).toEqual({
          success: false,
          message: msg('oauth_exchange_failed', { provider: 'OIDC' }),
          data: null,
        });
      });

      it('binds, and refuses an identity bound elsewhere', async () => {
        const p = person('oibind');
        const owner = await makeUser(t, root);
        const b = browser();
        await b.login(owner.username, owner.password);
        expect((await oidc(b, p.key)).body).toEqual({ success: true, message: 'bind', data: null });
        const other = await makeUser(t, root);
        const b2 = browser();
        await b2.login(other.username, other.password);
        expect((await oidc(b2, p.key)).body.message).toBe(msg('oauth_bound_elsewhere', { provider: 'OIDC' }));
        expect((await users().findOneByOrFail({ id: other.userId! })).oidc_id).toBeNull();
      });

      it('works from the three endpoints alone (no discovery)', async () => {
        await setOption('oidc.well_known', '');
        await setOption('oidc.authorization_endpoint', `${mock.url}/authorize`);
        await setOption('oidc.token_endpoint', `${mock.url}/token`);
        await setOption('oidc.user_info_endpoint', `${mock.url}/userinfo`);
        try {
          const discoveries = mock.callsTo('/.well-known/openid-configuration').length;
          const p = person('oiman');
          const res = await oidc(browser(), p.key);
          expect(res.body).toMatchObject({ success: true, data: { username: p.key } });
          expect((await users().findOneByOrFail({ id: res.body.data.id })).oidc_id).toBe(`sub-${p.id}`);
          expect(mock.callsTo('/.well-known/openid-configuration').length).toBe(discoveries);
          mock.idTokenFault = 'wrong-nonce';
          const bad = await oidc(browser(), person('oiman').key);
          expect(bad.body.message).toBe(msg('oidc_id_token_invalid'));
        } finally {
          mock.idTokenFault = null;
          await setOption('oidc.well_known', `${mock.url}/.well-known/openid-configuration`);
        }
      });

      it('says so when the discovery document cannot be loaded', async () => {
        mock.discoveryBroken = true;
        await setOption('oidc.well_known', `${mock.url}/.well-known/openid-configuration?v=2`);
        try {
          const res = await browser().open('/api/oauth/state?provider=oidc');
          expect(res.body).toEqual({ success: false, message: msg('oidc_discovery_failed'), data: null });
        } finally {
          mock.discoveryBroken = false;
          await setOption('oidc.well_known', `${mock.url}/.well-known/openid-configuration`);
        }
      });
    });

    describe('LinuxDO', () => {
      it('signs up, signs in again, binds and refuses a clash', async () => {
        const p = person('ld', { trustLevel: 2 });
        const res = await linuxdo(browser(), p.key);
        expect(res.body).toMatchObject({ success: true, data: { username: p.key } });
        expect((await users().findOneByOrFail({ id: res.body.data.id })).linux_do_id).toBe(String(p.id));
        const token = mock.callsTo('/linuxdo/oauth2/token').at(-1)!;
        expect(token.headers.authorization).toMatch(/^Basic /);
        expect(token.form).toMatchObject({ redirect_uri: 'https://gw.example.com/oauth/linuxdo' });
        expect((await linuxdo(browser(), p.key)).body.data.id).toBe(res.body.data.id);

        const me = await makeUser(t, root);
        const b = browser();
        await b.login(me.username, me.password);
        const q = person('ldb');
        expect((await linuxdo(b, q.key)).body).toEqual({ success: true, message: 'bind', data: null });
        expect((await linuxdo(b, p.key)).body.message).toBe(
          msg('oauth_bound_elsewhere', { provider: 'LinuxDO' }),
        );
      });

      it('enforces the minimum trust level and refuses inactive or silenced accounts', async () => {
        await setOption('LinuxDOMinimumTrustLevel', 2);
        try {
          const count = await userCount();
          const low = await linuxdo(browser(), person('ldlow', { trustLevel: 1 }).key);
          expect(low.body).toEqual({
            success: false,
            message: msg('linuxdo_trust_level_low', { level: 2 }),
            data: null,
          });
          const inactive = await linuxdo(browser(), person('ldoff', { trustLevel: 3, active: false }).key);
          expect(inactive.body.message).toBe(msg('linuxdo_user_inactive'));
          const silenced = await linuxdo(browser(), person('ldsil', { trustLevel: 3, silenced: true }).key);
          expect(silenced.body.message).toBe(msg('linuxdo_user_inactive'));
          expect(await userCount()).toBe(count);
          expect((await linuxdo(browser(), person('ldok', { trustLevel: 2 }).key)).body.success).toBe(true);
        } finally {
          await setOption('LinuxDOMinimumTrustLevel', 0);
        }
      });
    });

    describe('WeChat', () => {
      it('signs up with a scan code (with an invitation code), then signs in with the next one', async () => {
        const inviter = await makeUser(t, root);
        const aff = (await inviter.get('/api/user/aff')).body.data as string;
        const openid = `oWx${uname('o')}`;
        const b = browser();
        const res = await b.open(`/api/oauth/wechat?code=${mock.wechatCode(openid)}&aff=${aff}`);
        expect(res.body).toMatchObject({
          success: true,
          data: { username: expect.stringMatching(/^wechat_[a-z0-9]{5}$/) },
        });
        const row = await users().findOneByOrFail({ id: res.body.data.id });
        expect(row).toMatchObject({
          wechat_id: openid,
          quota: NEW_USER_QUOTA + INVITEE_QUOTA,
          inviter_id: inviter.userId,
        });
        await b.signedIn(res);
        expect((await b.open('/api/user/self')).status).toBe(200);
        const call = mock.callsTo('/wechat/api/wechat/user').at(-1)!;
        expect(call.headers.authorization).toBe(mock.wechatToken);
        const again = await browser().open(`/api/oauth/wechat?code=${mock.wechatCode(openid)}`);
        expect(again.body.data.id).toBe(res.body.data.id);
      });

      it('refuses a wrong, reused or malformed code and creates nobody', async () => {
        const count = await userCount();
        const code = mock.wechatCode(`oWx${uname('o')}`);
        expect((await browser().open('/api/oauth/wechat?code=ZZZZZZ')).body).toEqual({
          success: false,
          message: msg('wechat_code_invalid'),
          data: null,
        });
        expect((await browser().open(`/api/oauth/wechat?code=${code}`)).body.success).toBe(true);
        expect((await browser().open(`/api/oauth/wechat?code=${code}`)).body.message).toBe(
          msg('wechat_code_invalid'),
        );
        expect((await browser().open('/api/oauth/wechat')).body.message).toBe(msg('wechat_code_invalid'));
        expect((await browser().open('/api/oauth/wechat?code=../../x')).body.message).toBe(
          msg('wechat_code_invalid'),
        );
        expect(await userCount()).toBe(count + 1);
      });

      it('refuses sign-up while registration is closed', async () => {
        await setOption('RegisterEnabled', false);
        try {
          const count = await userCount();
          const res = await browser().open(`/api/oauth/wechat?code=${mock.wechatCode(`oWx${uname('o')}`)}`);
          expect(res.body.message).toBe(msg('register_disabled'));
          expect(await userCount()).toBe(count);
        } finally {
          await setOption('RegisterEnabled', true);
        }
      });

      it('binds to the signed-in user and refuses an account bound elsewhere', async () => {
        const me = await makeUser(t, root);
        const openid = `oWx${uname('b')}`;
        const bind = await me.get(`/api/oauth/wechat/bind?code=${mock.wechatCode(openid)}`);
        expect(bind.body).toEqual({ success: true, message: 'bind', data: null });
        expect((await users().findOneByOrFail({ id: me.userId! })).wechat_id).toBe(openid);
        const other = await makeUser(t, root);
        const clash = await other.get(`/api/oauth/wechat/bind?code=${mock.wechatCode(openid)}`);
        expect(clash.body.message).toBe(msg('oauth_bound_elsewhere', { provider: 'WeChat' }));
        expect((await browser().open('/api/oauth/wechat/bind?code=ABC')).status).toBe(401);
      });

      it('reports a server that refuses our token, without passing its words on', async () => {
        await setOption('WeChatServerToken', 'not-the-token');
        try {
          const res = await browser().open(`/api/oauth/wechat?code=${mock.wechatCode('oWxNope')}`);
          expect(res.body).toEqual({ success: false, message: msg('wechat_code_invalid'), data: null });
        } finally {
          await setOption('WeChatServerToken', mock.wechatToken);
        }
      });
    });

    describe('binding needs a fresh check', () => {
      it('step_up_for_binding: a stale session binds no WeChat, Telegram or GitHub identity; after a check it does', async () => {
        const me = await makeUser(t, root);
        const b = browser();
        await b.login(me.username, me.password);
        const tgId = String(900000 + personSeq++);
        const openid = `oWx${uname('s')}`;
        const realNow = Date.now.bind(Date);
        const spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 11 * 60 * 1000);
        try {
          const stale = [
            await me.get(`/api/oauth/wechat/bind?code=${mock.wechatCode(openid)}`),
            await b.open(`/api/oauth/telegram/bind?${telegramQuery(telegramFields(tgId))}`),
            await b.open('/api/oauth/state?provider=github'),
          ];
          for (const res of stale) {
            expect(res.status).toBe(403);
            expect(res.body.data).toEqual({ step_up_required: true });
          }
          // nor does the state a Telegram redirect bind would need
          const st = await b.open('/api/oauth/state');
          expect(st.status).toBe(403);
          const row = await users().findOneByOrFail({ id: me.userId! });
          expect([row.wechat_id, row.telegram_id, row.github_id]).toEqual([null, null, null]);

          expect((await me.post('/api/user/step_up', { password: me.password })).body.success).toBe(true);
          const bound = await me.get(`/api/oauth/wechat/bind?code=${mock.wechatCode(openid)}`);
          expect(bound.body).toEqual({ success: true, message: 'bind', data: null });
          expect((await b.post('/api/user/step_up', { password: me.password })).body.success).toBe(true);
          const tg = await b.open(`/api/oauth/telegram/bind?${telegramQuery(telegramFields(tgId))}`);
          expect(tg.body).toEqual({ success: true, message: 'bind', data: null });
          expect((await github(b, person('ghfresh').key)).body).toEqual({
            success: true,
            message: 'bind',
            data: null,
          });
        } finally {
          spy.mockRestore();
        }
      });
    });

    describe('Telegram', () => {
      it('binds (console call), then logs in the bound account; an unbound account cannot log in', async () => {
        const me = await makeUser(t, root);
        const b = browser();
        await b.login(me.username, me.password);
        const tgId = String(900000 + personSeq++);
        const bind = await b.open(`/api/oauth/telegram/bind?${telegramQuery(telegramFields(tgId))}`);
        expect(bind.body).toEqual({ success: true, message: 'bind', data: null });
        expect((await users().findOneByOrFail({ id: me.userId! })).telegram_id).toBe(tgId);

        const login = await browser().open(
          `/api/oauth/telegram/login?${telegramQuery(telegramFields(tgId, { last_name: 'X' }))}`,
        );
        expect(login.body).toMatchObject({ success: true, data: { id: me.userId } });

        const count = await userCount();
        const stranger = await browser().open(
          `/api/oauth/telegram/login?${telegramQuery(telegramFields('123456789'))}`,
        );
        expect(stranger.body).toEqual({ success: false, message: msg('telegram_not_bound'), data: null });
        expect(await userCount()).toBe(count);

        const other = await makeUser(t, root);
        const clash = await other.get(
          `/api/oauth/telegram/bind?${telegramQuery(telegramFields(tgId, { photo_url: 'https://t.me/i/x.jpg' }))}`,
        );
        expect(clash.body.message).toBe(msg('oauth_bound_elsewhere', { provider: 'Telegram' }));
      });

      it('refuses a tampered payload, a wrong bot token, a stale or future auth_date and a replay', async () => {
        const me = await makeUser(t, root);
        const tgId = String(900000 + personSeq++);
        expect(
          (await me.get(`/api/oauth/telegram/bind?${telegramQuery(telegramFields(tgId))}`)).body.success,
        ).toBe(true);
        const login = (q: Record<string, string>) =>
          browser().open(`/api/oauth/telegram/login?${telegramQuery(q)}`);

        const tampered = { ...telegramFields(tgId), username: 'someone_else' };
        expect((await login(tampered)).body).toEqual({
          success: false,
          message: msg('telegram_hash_invalid'),
          data: null,
        });
        const otherId = { ...telegramFields('1'), id: tgId };
        expect((await login(otherId)).body.message).toBe(msg('telegram_hash_invalid'));
        const foreignBot = signTelegram(
          { id: tgId, auth_date: String(Math.floor(Date.now() / 1000)) },
          '1:another-bot',
        );
        expect((await login(foreignBot)).body.message).toBe(msg('telegram_hash_invalid'));
        expect((await login({ id: tgId, auth_date: '1' })).body.message).toBe(msg('telegram_hash_invalid'));
        expect((await login({ ...telegramFields(tgId), hash: 'zz' })).body.message).toBe(
          msg('telegram_hash_invalid'),
        );
        const extra = { ...telegramFields(tgId), is_admin: 'true' };
        expect((await login(extra)).body.message).toBe(msg('telegram_hash_invalid'));

        const stale = telegramFields(tgId, { auth_date: String(Math.floor(Date.now() / 1000) - 2 * 3600) });
        expect((await login(stale)).body).toEqual({
          success: false,
          message: msg('telegram_auth_expired'),
          data: null,
        });
        const future = telegramFields(tgId, { auth_date: String(Math.floor(Date.now() / 1000) + 3600) });
        expect((await login(future)).body.message).toBe(msg('telegram_auth_expired'));

        // (the bind above used a payload of this same second: that exact payload is already spent)
        const fields = telegramFields(tgId, { first_name: 'Again' });
        expect((await login(fields)).body.success).toBe(true);
        expect((await login(fields)).body).toEqual({
          success: false,
          message: msg('telegram_auth_used'),
          data: null,
        });
      });

      it('binds by the widget redirect only with a state of this user, answering with a redirect to /personal', async () => {
        const me = await makeUser(t, root);
        const b = browser();
        await b.login(me.username, me.password);
        const tgId = String(900000 + personSeq++);

        const noState = await b.navigate(`/api/oauth/telegram/bind?${telegramQuery(telegramFields(tgId))}`);
        expect(noState.status).toBe(302);
        const noStateTarget = new URL(noState.headers.location, t.url);
        expect(noStateTarget.pathname).toBe('/personal');
        expect(noStateTarget.searchParams.get('bind_error')).toBe(msg('telegram_bind_state_required'));

        const foreign = await browser().open('/api/oauth/state?provider=telegram');
        const bad = await b.navigate(
          `/api/oauth/telegram/bind?state=${foreign.body.data.state}&${telegramQuery(telegramFields(tgId))}`,
        );
        expect(new URL(bad.headers.location, t.url).searchParams.get('bind_error')).toBe(
          msg('oauth_state_mismatch'),
        );
        expect((await users().findOneByOrFail({ id: me.userId! })).telegram_id).toBeNull();

        const st = await b.open('/api/oauth/state?provider=telegram');
        const ok = await b.navigate(
          `/api/oauth/telegram/bind?state=${st.body.data.state}&${telegramQuery(telegramFields(tgId))}`,
        );
        expect(ok.status).toBe(302);
        expect(ok.headers.location).toBe('/personal?bind=telegram');
        expect((await users().findOneByOrFail({ id: me.userId! })).telegram_id).toBe(tgId);

        // Without a session a redirect gets the usual 401.
        expect(
          (await browser().navigate(`/api/oauth/telegram/bind?${telegramQuery(telegramFields(tgId))}`))
            .status,
        ).toBe(401);
      });
    });

    it('never returns a credential: not in any answer above, the options list or the status', async () => {
      const options = await root.get('/api/option/');
      const status = await request(t.url).get('/api/status');
      const everything = [...answers, options.text, status.text].join('\n');
      for (const secret of [
        mock.clients.github.secret,
        mock.clients.oidc.secret,
        mock.clients.linuxdo.secret,
        mock.wechatToken,
        BOT_TOKEN,
      ]) {
        expect(everything).not.toContain(secret);
      }
      expect(everything).not.toContain('code_verifier');
      expect(answers.length).toBeGreaterThan(50);
    });
  });
});

describe('sign-in states across nodes (Redis)', () => {
  let a: TestApp;
  let b: TestApp;
  let mock: MockOAuthProvider;

  beforeAll(async () => {
    mock = await MockOAuthProvider.start();
    const env = {
      GITHUB_OAUTH_URL: `${mock.url}/github`,
      GITHUB_API_URL: `${mock.url}/github-api`,
      REDIS_CONN_STRING: REDIS_URL,
      REDIS_PREFIX: `gh_oauth_${process.pid}_${Date.now()}`,
      ALLOW_PRIVATE_OUTBOUND: 'true',
    };
    a = await startApp(env);
    b = await startNode(a, { ...env, NODE_TYPE: 'slave' });
    const root = await setupRoot(a);
    await putOption(root, 'GitHubOAuthEnabled', true);
    await putOption(root, 'GitHubClientId', mock.clients.github.id);
    await putOption(root, 'GitHubClientSecret', mock.clients.github.secret);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await mock.close();
  });

  it('a state issued by one node is accepted once by another', async () => {
    mock.addPerson('multi', { id: 77001, login: 'multi' });
    const cookieJar = request.agent(a.url);
    const st = await cookieJar.get('/api/oauth/state?provider=github');
    expect(st.body.success).toBe(true);
    const cookie = (st.headers['set-cookie'] as unknown as string[]).map((c) => c.split(';')[0]).join('; ');
    const { code, state } = await mock.authorize(st.body.data.authorize_url, 'multi');
    // Option caches of node b catch up through the bus; wait until it sees GitHub enabled.
    for (let i = 0; i < 50; i++) {
      const s = await request(b.url).get('/api/status');
      if (s.body.data?.github_oauth) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const onB = await request(b.url)
      .get(`/api/oauth/github?code=${code}&state=${state}`)
      .set('Cookie', cookie);
    expect(onB.body).toMatchObject({ success: true, data: { username: 'multi' } });
    const replayOnA = await request(a.url)
      .get(`/api/oauth/github?code=${code}&state=${state}`)
      .set('Cookie', cookie);
    expect(replayOnA.body).toEqual({ success: false, message: msg('oauth_state_invalid'), data: null });
  });
});

/**
 * Third-party sign-in in the built console (host-app/dist) in Debian's Chromium against the REAL server
 * and the local mock provider (test/mocks/oauth-provider.ts): the GitHub and OIDC buttons start at
 * `GET /api/oauth/state?provider=…` and follow the server's `authorize_url`; the mock's login page sends
 * the browser back to `/oauth/{provider}`, whose page signs in a new user; a signed-in user binds GitHub
 * from the personal page; a replayed callback URL is refused with the server's own message.
 *
 * The mock's authorize endpoints stand in for the provider's login page and need `login_hint` to know
 * who "logs in": the browser's requests to the mock get it added on the way (Playwright routing).
 */
import type { BrowserContext, Page } from 'playwright-core';
import { translate } from '../../server/src/common/i18n/messages';
import { MockOAuthProvider } from '../mocks/oauth-provider';
import { ApiClient, makeUser, putOption, setupRoot, startApp, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';
import type { components } from '../../console-kit/src/api/schema.gen';

/** The wire types of the OpenAPI document (the console's generated types). */
type Schemas = components['schemas'];

type UserView = Schemas['UserView'];

const AUTHORIZE_PATHS = new Set(['/authorize', '/github/login/oauth/authorize', '/linuxdo/oauth2/authorize']);

describe('third-party sign-in in the console against the real server and a mock provider', () => {
  let app: TestApp | undefined;
  let mock: MockOAuthProvider | undefined;
  let root: ApiClient | undefined;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];
  /** Who logs in at the mock provider's page next. */
  let who = '';

  beforeAll(async () => {
    assertBrowserPrerequisites();
    mock = await MockOAuthProvider.start();
    app = await startApp({
      STATIC_DIR: CONSOLE_DIST,
      ALLOW_PRIVATE_OUTBOUND: 'true',
      GITHUB_OAUTH_URL: `${mock.url}/github`,
      GITHUB_API_URL: `${mock.url}/github-api`,
      LINUXDO_OAUTH_URL: `${mock.url}/linuxdo`,
    });
    // GitHub sends the browser to the app's registered callback (no redirect_uri in the request).
    mock.githubCallback = `${app.url}/oauth/github`;
    root = await setupRoot(app);
    await putOption(root, 'GitHubOAuthEnabled', true);
    await putOption(root, 'GitHubClientId', mock.clients.github.id);
    await putOption(root, 'GitHubClientSecret', mock.clients.github.secret);
    await putOption(root, 'oidc.enabled', true);
    await putOption(root, 'oidc.client_id', mock.clients.oidc.id);
    await putOption(root, 'oidc.client_secret', mock.clients.oidc.secret);
    await putOption(root, 'oidc.well_known', `${mock.url}/.well-known/openid-configuration`);
    mock.addPerson('octo', { id: 4101, login: 'octocat', name: 'Octo Cat' });
    mock.addPerson('idp-user', {
      id: 4202,
      login: 'idpuser',
      name: 'Idp User',
      email: 'idp@example.com',
      emailVerified: true,
    });
    mock.addPerson('binder', { id: 4303, login: 'binder-gh', name: 'Binder' });
  }, 60_000);

  afterAll(async () => {
    for (const harness of browsers) await harness.close();
    await app?.close();
    await mock?.close();
  });

  function ready(): { app: TestApp; mock: MockOAuthProvider; root: ApiClient } {
    if (!app || !mock || !root) throw new Error('beforeAll did not finish: see its error above');
    return { app, mock, root };
  }

  async function browser(locale: string): Promise<BrowserContext> {
    const harness = await launchChromium({ locale });
    browsers.push(harness);
    const provider = ready().mock.url;
    // The person at the provider's login page.
    await harness.context.route(
      (url) => url.origin === provider && AUTHORIZE_PATHS.has(url.pathname),
      async (route) => {
        const url = new URL(route.request().url());
        url.searchParams.set('login_hint', who);
        await route.continue({ url: url.toString() });
      },
    );
    return harness.context;
  }

  async function watchedPage(context: BrowserContext): Promise<Page> {
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    watchErrors(p, pageErrors, /status of (401|404)/);
    return p;
  }

  /** Every address the page's main frame went to, in order. */
  function trackNavigations(p: Page): string[] {
    const seen: string[] = [];
    p.on('framenavigated', (frame) => {
      if (frame === p.mainFrame()) seen.push(frame.url());
    });
    return seen;
  }

  async function userById(id: number): Promise<UserView> {
    const res = await ready().root.get(`/api/user/${id}`);
    expect(res.body.success).toBe(true);
    return res.body.data as UserView;
  }

  async function storedUser(p: Page): Promise<{ id: number; username: string } | null> {
    return JSON.parse((await p.evaluate<string | null>("localStorage.getItem('user')")) ?? 'null') as {
      id: number;
      username: string;
    } | null;
  }

  let githubCallbackUrl = '';
  let githubPage: Page | undefined;

  it('signs up a new user with the GitHub button (zh)', async () => {
    const { app: server, mock: provider } = ready();
    const p = await watchedPage(await browser('zh-CN'));
    const navigations = trackNavigations(p);
    who = 'octo';
    await p.goto(`${server.url}/login`);
    await p.getByRole('button', { name: '使用 GitHub 登录' }).click();
    await p.waitForURL((url) => url.pathname === '/token');
    await p.getByText('登录成功！').first().waitFor();

    // The button asked for a GitHub state and went to the address the server built.
    const authorize = provider.callsTo('/github/login/oauth/authorize').at(-1);
    expect(authorize?.query).toMatchObject({ client_id: provider.clients.github.id, scope: 'user:email' });
    expect(authorize?.query.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    githubCallbackUrl = navigations.find((url) => new URL(url).pathname === '/oauth/github') ?? '';
    expect(new URL(githubCallbackUrl).searchParams.get('state')).toBe(authorize?.query.state);

    const stored = await storedUser(p);
    expect(stored?.username).toBe('octocat');
    const user = await userById(stored?.id ?? 0);
    expect(user.github_id).toBe('4101');
    await p.screenshot({ path: screenshotPath('oauth-github-signed-in') });
    githubPage = p;
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('refuses a replayed callback URL with the server message and changes nothing', async () => {
    const { app: server } = ready();
    expect(githubCallbackUrl.startsWith(`${server.url}/oauth/github?code=`)).toBe(true);
    const before = (await ready().root.get('/api/user/?p=1&page_size=100')).body.data.total as number;
    // A fresh browser (no session) and the signed-in one both get the state refused: it was used up.
    const p = await watchedPage(await browser('zh-CN'));
    await p.goto(githubCallbackUrl);
    await p.getByText(translate('oauth_state_invalid', 'zh')).first().waitFor();
    await p.getByText('操作失败，重定向至登录界面中…').waitFor();
    await p.waitForURL((url) => url.pathname === '/login', { timeout: 10_000 });
    expect(await storedUser(p)).toBeNull();

    const signedIn = githubPage!;
    await signedIn.goto(githubCallbackUrl);
    await signedIn.getByText(translate('oauth_state_invalid', 'zh')).first().waitFor();
    await signedIn.waitForURL((url) => url.pathname === '/personal', { timeout: 10_000 });
    expect((await ready().root.get('/api/user/?p=1&page_size=100')).body.data.total).toBe(before);
  }, 60_000);

  it('signs up with OIDC (PKCE and nonce from the server) in English on a 390 px screen', async () => {
    const { app: server, mock: provider } = ready();
    const p = await watchedPage(await browser('en-US'));
    await p.setViewportSize({ width: 390, height: 844 });
    who = 'idp-user';
    await p.goto(`${server.url}/login`);
    const button = p.getByRole('button', { name: 'Sign in with OIDC' });
    await button.waitFor();
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    await button.click();
    await p.waitForURL((url) => url.pathname === '/token');
    await p.getByText('Login successful!').first().waitFor();

    const authorize = provider.callsTo('/authorize').at(-1);
    expect(authorize?.query).toMatchObject({
      client_id: provider.clients.oidc.id,
      response_type: 'code',
      redirect_uri: `${server.url}/oauth/oidc`,
      code_challenge_method: 'S256',
    });
    expect(authorize?.query.code_challenge).toBeTruthy();
    expect(authorize?.query.nonce).toBeTruthy();
    const stored = await storedUser(p);
    expect(stored?.username).toBe('idpuser');
    expect((await userById(stored?.id ?? 0)).oidc_id).toBe('sub-4202');
    await p.screenshot({ path: screenshotPath('oauth-oidc-390') });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('binds GitHub from the personal page of a signed-in user (zh and en)', async () => {
    const { app: server, root: admin } = ready();
    const account = await makeUser(ready().app, admin);
    const p = await watchedPage(await browser('zh-CN'));
    who = 'binder';
    await p.goto(`${server.url}/login`);
    await p.getByLabel('用户名/邮箱').fill(account.username);
    await p.getByLabel('密码', { exact: true }).fill(account.password);
    await p.getByRole('button', { name: '登录', exact: true }).click();
    await p.waitForURL((url) => url.pathname === '/token');
    await p.goto(`${server.url}/personal`);
    const githubRow = p
      .locator('.MuiStack-root')
      .filter({ has: p.getByText('GitHub', { exact: true }) })
      .last();
    await githubRow.getByText('未绑定').waitFor();
    await githubRow.getByRole('button', { name: '绑定' }).click();
    await p.waitForURL((url) => url.pathname === '/personal' && url.search === '');
    await p.getByText('绑定成功！').first().waitFor();
    await githubRow.getByText('4303').waitFor();
    expect((await userById(account.userId ?? 0)).github_id).toBe('4303');
    // Still the same account in this browser.
    expect((await storedUser(p))?.username).toBe(account.username);

    // The same identity cannot be bound to a second account: the server's refusal is shown.
    const other = await makeUser(ready().app, admin);
    const q = await watchedPage(await browser('en-US'));
    await q.goto(`${server.url}/login`);
    await q.getByLabel('Username or email').fill(other.username);
    await q.getByLabel('Password', { exact: true }).fill(other.password);
    await q.getByRole('button', { name: 'Sign in', exact: true }).click();
    await q.waitForURL((url) => url.pathname === '/token');
    await q.goto(`${server.url}/personal`);
    const row = q
      .locator('.MuiStack-root')
      .filter({ has: q.getByText('GitHub', { exact: true }) })
      .last();
    await row.getByRole('button', { name: 'Bind' }).click();
    await q
      .getByText(translate('oauth_bound_elsewhere', 'en', { provider: 'GitHub' }))
      .first()
      .waitFor();
    await q.waitForURL((url) => url.pathname === '/personal');
    expect((await userById(other.userId ?? 0)).github_id).toBe('');
    expect(pageErrors).toEqual([]);
  }, 90_000);
});

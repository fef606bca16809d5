/**
 * The account screens of the built console (host-app/dist) in Debian's Chromium against the REAL server
 * on a fresh SQLite database, with a local SMTP server catching the codes and a stand-in for Cloudflare's
 * Turnstile: registration with an email code, sign-in, the personal settings page and its actions, the
 * shell (sidebar, language, dark mode, mobile), site text sanitizing, the notice, the OAuth return page,
 * and the embedding example. The tests run in order and share one server and one browser profile.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { formatQuota } from '../../console-kit/src/format/quota';
import { MockSmtp } from '../support/mock-smtp';
import { MockTurnstile } from '../support/mock-turnstile';
import { ApiClient, putOption, setupRoot, startApp, type TestApp } from '../support/test-app';
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

const ALICE = { username: 'alice', password: 'alice-pass-1', email: 'alice@example.com' };
const BOB = { username: 'bob', password: 'bob-pass-01', email: 'bob@example.com' };
const QUOTA_FOR_NEW_USER = 500_000;
const QUOTA_FOR_INVITER = 1_000_000;

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

type SelfView = Schemas['UserView'];

describe('console account screens against the real server (built host-app in Chromium)', () => {
  let app: TestApp | undefined;
  let smtp: MockSmtp | undefined;
  let turnstile: MockTurnstile | undefined;
  let browser: BrowserHarness | undefined;
  let root: ApiClient | undefined;
  let page: Page | undefined;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBrowserPrerequisites();
    smtp = await MockSmtp.start();
    turnstile = await MockTurnstile.start();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST, TURNSTILE_VERIFY_URL: turnstile.url });
    root = await setupRoot(app);
    await smtp.configure(root);
    await putOption(root, 'EmailVerificationEnabled', true);
    await putOption(root, 'QuotaForNewUser', QUOTA_FOR_NEW_USER);
    await putOption(root, 'QuotaForInviter', QUOTA_FOR_INVITER);
    browser = await launchChromium({ locale: 'zh-CN' });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    page = await watchedPage(browser.context);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await smtp?.close();
    await turnstile?.close();
  });

  async function watchedPage(context: BrowserContext): Promise<Page> {
    const p = await context.newPage();
    // Shorter than the tests' own limits, so a missing element fails with its name, not a test timeout.
    p.setDefaultTimeout(15_000);
    watchErrors(p, pageErrors, /status of (401|404)/);
    return p;
  }

  function ready(): { app: TestApp; page: Page; smtp: MockSmtp; root: ApiClient; browser: BrowserHarness } {
    if (!app || !page || !smtp || !root || !browser) {
      throw new Error('beforeAll did not finish: see its error above');
    }
    return { app, page, smtp, root, browser };
  }

  const pathOf = (p: Page): string => new URL(p.url()).pathname;

  async function selfOf(username: string, password: string): Promise<SelfView> {
    const client = await new ApiClient(ready().app.url).login(username, password);
    const res = await client.get('/api/user/self');
    expect(res.body.success).toBe(true);
    return (res.body as Envelope<SelfView>).data;
  }

  async function quotaText(quota: number): Promise<string> {
    const res = await fetch(`${ready().app.url}/api/status`);
    const { data } = (await res.json()) as Envelope<{ display_in_currency: boolean; quota_per_unit: number }>;
    return formatQuota(quota, {
      displayInCurrency: data.display_in_currency,
      quotaPerUnit: data.quota_per_unit,
    });
  }

  async function registerInUi(p: Page, account: typeof ALICE, path = '/register'): Promise<void> {
    const { app: server, smtp: mail } = ready();
    await p.goto(`${server.url}${path}`);
    await p.getByLabel('用户名', { exact: true }).fill(account.username);
    await p.getByLabel('密码', { exact: true }).fill(account.password);
    await p.getByLabel('确认密码').fill(account.password);
    await p.getByLabel('邮箱地址').fill(account.email);
    await p.getByRole('button', { name: '获取验证码' }).click();
    // The next code can be asked for only after 30 seconds.
    const wait = p.getByRole('button', { name: /重新发送 \((30|29|28)\)/ });
    await wait.waitFor();
    expect(await wait.isDisabled()).toBe(true);
    const code = await mail.codeFor(account.email);
    await p.getByLabel('邮箱验证码').fill(code);
    await p.getByRole('button', { name: '注册', exact: true }).click();
    await p.waitForURL((url) => url.pathname === '/login');
    await p.getByText('注册成功！').first().waitFor();
  }

  async function loginInUi(p: Page, username: string, password: string): Promise<void> {
    await p.goto(`${ready().app.url}/login`);
    await p.getByLabel('用户名/邮箱').fill(username);
    await p.getByLabel('密码', { exact: true }).fill(password);
    await p.getByRole('button', { name: '登录', exact: true }).click();
    await p.waitForURL((url) => url.pathname === '/token');
  }

  it('sends a visitor of a protected page to /login and answers unknown paths with the not-found page', async () => {
    const { app: server, page: p } = ready();
    await p.goto(`${server.url}/personal`);
    await p.waitForURL((url) => url.pathname === '/login');
    await p.getByLabel('用户名/邮箱').waitFor();
    expect(await p.getByTestId('sidebar').count()).toBe(0);

    await p.goto(`${server.url}/no/such/page`);
    await p.getByText('页面不存在，请检查地址').waitFor();
    expect(pathOf(p)).toBe('/no/such/page');
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('registers with an email code, then signs in and lands on /token', async () => {
    const { page: p } = ready();
    await registerInUi(p, ALICE);
    await p.screenshot({ path: screenshotPath('account-zh-after-register'), fullPage: true });
    await loginInUi(p, ALICE.username, ALICE.password);

    const stored = JSON.parse(
      (await p.evaluate<string | null>("localStorage.getItem('user')")) ?? 'null',
    ) as {
      username: string;
      role: number;
    };
    expect(stored).toMatchObject({ username: ALICE.username, role: 1 });
    const self = await selfOf(ALICE.username, ALICE.password);
    expect(self).toMatchObject({ email: ALICE.email, quota: QUOTA_FOR_NEW_USER });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('shows an ordinary user the sidebar without the admin group and remembers it collapsed', async () => {
    const { app: server, page: p } = ready();
    await p.goto(`${server.url}/personal`);
    const sidebar = p.getByTestId('sidebar');
    await sidebar.waitFor();
    expect(await sidebar.getByRole('link', { name: 'API 令牌' }).count()).toBe(1);
    expect(await sidebar.getByRole('link', { name: '个人设置' }).count()).toBe(1);
    expect(await sidebar.getByRole('link', { name: '渠道管理' }).count()).toBe(0);
    expect(await sidebar.getByRole('link', { name: '系统设置' }).count()).toBe(0);
    expect((await sidebar.boundingBox())?.width).toBe(200);
    expect((await p.locator('header').first().boundingBox())?.height).toBe(56);

    await sidebar.getByRole('button', { name: '收起侧边栏' }).click();
    await p.waitForFunction(
      'document.querySelector(\'[data-testid="sidebar"]\').getBoundingClientRect().width === 60',
    );
    await p.reload();
    await p.getByTestId('sidebar').waitFor();
    expect(await p.getByTestId('sidebar').getAttribute('data-collapsed')).toBe('true');
    await p.getByTestId('sidebar').getByRole('button', { name: '展开侧边栏' }).click();
    expect(await p.evaluate<string | null>("localStorage.getItem('sidebar-collapsed')")).toBe('false');
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('shows the profile, invite link and models on the personal page', async () => {
    const { app: server, page: p } = ready();
    await p.goto(`${server.url}/personal`);
    await p.getByRole('heading', { name: '个人设置' }).waitFor();
    const self = await selfOf(ALICE.username, ALICE.password);
    expect(await p.getByTestId('profile-balance').textContent()).toBe(await quotaText(self.quota));
    expect(await p.getByTestId('profile-requests').textContent()).toBe('0');
    expect(await p.getByText('普通用户').count()).toBeGreaterThan(0);
    const link = await p.getByTestId('invite-link').inputValue();
    expect(link).toBe(`${server.url}/register?aff=${self.aff_code}`);

    await p.getByRole('button', { name: '复制链接' }).click();
    await p.getByText('邀请链接已复制到剪贴板').waitFor();
    expect(await p.evaluate<string>('navigator.clipboard.readText()')).toBe(link);
    await p.screenshot({ path: screenshotPath('account-zh-personal'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('changes the display name', async () => {
    const { page: p } = ready();
    await p.getByRole('button', { name: '修改显示名称' }).click();
    const dialog = p.getByRole('dialog');
    await dialog.getByLabel('显示名称').fill('爱丽丝');
    await dialog.getByRole('button', { name: '保存' }).click();
    await p.getByTestId('profile-display-name').filter({ hasText: '爱丽丝' }).waitFor();
    expect((await selfOf(ALICE.username, ALICE.password)).display_name).toBe('爱丽丝');
  }, 60_000);

  it('resets the access token, copies it, and the token works against the API', async () => {
    const { app: server, page: p } = ready();
    await p.getByRole('tab', { name: '安全设置' }).click();
    await p.getByRole('button', { name: '生成/重置访问令牌' }).click();
    await p.getByText('令牌已重置并已复制到剪贴板').waitFor();
    const shown = await p.getByTestId('access-token').inputValue();
    expect(shown.length).toBeGreaterThanOrEqual(16);
    expect(await p.evaluate<string>('navigator.clipboard.readText()')).toBe(shown);

    const self = await selfOf(ALICE.username, ALICE.password);
    const res = await fetch(`${server.url}/api/user/self`, {
      headers: { Authorization: `Bearer ${shown}`, 'New-Api-User': String(self.id) },
    });
    expect(((await res.json()) as Envelope<SelfView>).data.username).toBe(ALICE.username);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('saves notification settings through the form', async () => {
    const { page: p } = ready();
    await p.getByRole('tab', { name: '通知设置' }).click();
    await p.getByRole('button', { name: /^1000000 \(\$2\.00\)$/ }).click();
    await p.getByRole('radio', { name: 'Webhook 通知' }).check();
    await p.getByLabel('Webhook 地址').fill('http://hooks.example.com/gatehouse');
    await p.getByRole('button', { name: '保存设置' }).click();
    await p.getByRole('alert').filter({ hasText: 'Webhook 地址必须以 https:// 开头' }).waitFor();

    await p.getByLabel('Webhook 地址').fill('https://hooks.example.com/gatehouse');
    await p.getByLabel('Webhook 密钥').fill('hook-secret-1');
    await p.getByRole('button', { name: '保存设置' }).click();
    await p.getByText('通知设置已更新').waitFor();
    const setting = JSON.parse((await selfOf(ALICE.username, ALICE.password)).setting) as Record<
      string,
      unknown
    >;
    expect(setting).toMatchObject({
      notify_type: 'webhook',
      quota_warning_threshold: 1_000_000,
      webhook_url: 'https://hooks.example.com/gatehouse',
      // The secret is kept but never shown again.
      webhook_secret: '',
    });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('binds a new email address with a code from the bind dialog', async () => {
    const { page: p, smtp: mail } = ready();
    await p.getByRole('tab', { name: '账户绑定' }).click();
    await p.getByRole('button', { name: '修改', exact: true }).click();
    const dialog = p.getByRole('dialog', { name: '绑定邮箱地址' });
    await dialog.getByLabel('新的邮箱地址').fill('alice.new@example.com');
    await dialog.getByRole('button', { name: '获取验证码' }).click();
    await dialog.getByRole('button', { name: /重新发送/ }).waitFor();
    await dialog.getByLabel('验证码').fill(await mail.codeFor('alice.new@example.com'));
    await dialog.getByRole('button', { name: '绑定', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await p.getByText('alice.new@example.com').waitFor();
    expect((await selfOf(ALICE.username, ALICE.password)).email).toBe('alice.new@example.com');
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('changes the password, and only the new one signs in', async () => {
    const { page: p } = ready();
    await p.getByRole('tab', { name: '安全设置' }).click();
    await p.getByRole('button', { name: '修改密码' }).click();
    const dialog = p.getByRole('dialog', { name: '修改密码' });
    await dialog.getByLabel('原密码').fill(ALICE.password);
    await dialog.getByLabel('新密码', { exact: true }).fill('alice-pass-2');
    await dialog.getByLabel('确认新密码').fill('alice-pass-3');
    await dialog.getByRole('button', { name: '修改', exact: true }).click();
    await dialog.getByText('两次输入的密码不一致！').waitFor();
    await dialog.getByLabel('确认新密码').fill('alice-pass-2');
    await dialog.getByRole('button', { name: '修改', exact: true }).click();
    await p.getByText('密码修改成功！').waitFor();
    ALICE.password = 'alice-pass-2';
    await selfOf(ALICE.username, ALICE.password);
    const old = await new ApiClient(ready().app.url).post('/api/user/login', {
      username: ALICE.username,
      password: 'alice-pass-1',
    });
    expect(old.body.success).toBe(false);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('rewards the inviter when someone registers with the invite link, and moves the reward to the balance', async () => {
    const { app: server } = ready();
    const inviter = await selfOf(ALICE.username, ALICE.password);
    // The invitee uses a browser profile of their own.
    const other = await launchChromium({ locale: 'zh-CN' });
    try {
      const q = await watchedPage(other.context);
      await q.goto(`${server.url}/login?aff=${inviter.aff_code}`);
      await q.getByLabel('用户名/邮箱').waitFor();
      expect(await q.evaluate<string | null>("localStorage.getItem('aff')")).toBe(inviter.aff_code);
      await registerInUi(q, BOB, '/register');
    } finally {
      await other.close();
    }
    const rewarded = await selfOf(ALICE.username, ALICE.password);
    expect(rewarded).toMatchObject({ aff_count: 1, aff_quota: QUOTA_FOR_INVITER });

    const p = ready().page;
    await p.goto(`${server.url}/personal`);
    expect(await p.getByTestId('aff-count').textContent()).toBe('1');
    expect(await p.getByTestId('aff-pending').textContent()).toBe(await quotaText(QUOTA_FOR_INVITER));
    await p.getByRole('button', { name: '划转到余额' }).click();
    const dialog = p.getByRole('dialog', { name: '划转邀请额度' });
    await dialog.getByLabel('划转额度').fill('100');
    await dialog.getByRole('button', { name: '划转', exact: true }).click();
    await dialog.getByText(/划转金额最低为/).waitFor();
    await dialog.getByLabel('划转额度').fill(String(QUOTA_FOR_INVITER));
    await dialog.getByRole('button', { name: '划转', exact: true }).click();
    await p.getByText('划转成功').waitFor();
    const after = await selfOf(ALICE.username, ALICE.password);
    expect(after.aff_quota).toBe(0);
    expect(after.quota).toBe(inviter.quota + QUOTA_FOR_INVITER);
    await p
      .getByTestId('profile-balance')
      .filter({ hasText: await quotaText(after.quota) })
      .waitFor();
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('switches to English and dark mode, both remembered across a reload', async () => {
    const { app: server, page: p } = ready();
    await p.goto(`${server.url}/personal`);
    await p.getByRole('button', { name: '语言', exact: true }).click();
    await p.getByRole('menuitem', { name: 'English' }).click();
    await p.getByRole('heading', { name: 'Personal settings' }).waitFor();
    await p.getByRole('button', { name: 'Switch to dark theme' }).click();
    await p.getByRole('button', { name: 'Switch to light theme' }).waitFor();
    await p.reload();
    await p.getByRole('heading', { name: 'Personal settings' }).waitFor();
    expect(await p.evaluate<string | null>("localStorage.getItem('i18nextLng')")).toBe('en');
    expect(await p.evaluate<string | null>("localStorage.getItem('theme-mode')")).toBe('dark');
    // The console's own baseline turns dark; the page around it is not touched.
    const background = await p.evaluate<string>(
      "getComputedStyle(document.querySelector('.MuiScopedCssBaseline-root')).backgroundColor",
    );
    expect(background).toBe('rgb(18, 18, 18)');
    expect(await p.getByRole('tab', { name: 'Notifications' }).count()).toBe(1);
    await p.screenshot({ path: screenshotPath('account-en-dark-personal'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('lays the console out for a 390 px phone: no sidebar, a menu drawer with the page links', async () => {
    const { app: server, page: p } = ready();
    await p.setViewportSize({ width: 390, height: 844 });
    try {
      await p.goto(`${server.url}/personal`);
      await p.getByRole('heading', { name: 'Personal settings' }).waitFor();
      expect(await p.getByTestId('sidebar').count()).toBe(0);
      const overflow = await p.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
      expect(overflow).toBeLessThanOrEqual(0);
      await p.screenshot({ path: screenshotPath('account-en-dark-mobile-personal'), fullPage: true });
      await p.getByRole('button', { name: 'Open menu' }).click();
      const drawer = p.getByRole('presentation').getByRole('navigation', { name: 'Sidebar' });
      await drawer.getByRole('link', { name: 'Pricing' }).waitFor();
      expect(await drawer.getByRole('link', { name: 'API tokens' }).count()).toBe(1);
      await p.screenshot({ path: screenshotPath('account-en-dark-mobile-menu'), animations: 'disabled' });
      await drawer.getByRole('link', { name: 'About' }).click();
      await p.waitForURL((url) => url.pathname === '/about');
    } finally {
      await p.setViewportSize({ width: 1280, height: 800 });
    }
    // Back to Chinese and light for the tests that follow.
    await p.evaluate("localStorage.setItem('i18nextLng', 'zh'); localStorage.setItem('theme-mode', 'light')");
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('sanitizes the admin footer, home page and about texts', async () => {
    const { app: server, page: p, root: admin } = ready();
    await putOption(
      admin,
      'Footer',
      '<p>Footer <b>ok</b> <a href="https://example.com/terms">terms</a><img src="x" onerror="window.__pwned=1">' +
        '<script>window.__pwned=2</script><a href="javascript:window.__pwned=3">bad</a></p>',
    );
    await putOption(
      admin,
      'HomePageContent',
      '# 欢迎来到 Acme\n\n**快速**接入\n\n<img src="y" onerror="window.__pwned=4"><iframe src="https://evil.example"></iframe>',
    );
    await putOption(admin, 'About', 'https://example.com/about-us');
    await p.goto(`${server.url}/`);
    await p.getByRole('heading', { name: '欢迎来到 Acme' }).waitFor();
    const footer = p.getByTestId('custom-footer');
    await footer.getByText('terms').waitFor();
    const footerHtml = await footer.innerHTML();
    expect(footerHtml).not.toMatch(/onerror|script|javascript:/i);
    expect(await footer.getByRole('link', { name: 'terms' }).getAttribute('rel')).toBe('noopener noreferrer');
    const homeHtml = await p.getByTestId('home-content').innerHTML();
    expect(homeHtml).not.toMatch(/onerror|iframe/i);
    await p.screenshot({ path: screenshotPath('account-zh-home-custom'), fullPage: true });

    await p.goto(`${server.url}/about`);
    const frame = p.getByTitle('关于');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe('https://example.com/about-us');
    expect(await p.evaluate<unknown>('window.__pwned')).toBeUndefined();

    await putOption(admin, 'Footer', '');
    await putOption(admin, 'HomePageContent', '');
    await putOption(admin, 'About', '');
    expect(pageErrors.filter((line) => !line.includes('example.com'))).toEqual([]);
    pageErrors.length = 0;
  }, 60_000);

  it('opens the notice on load until it is closed for today', async () => {
    const { app: server, page: p, root: admin } = ready();
    await putOption(admin, 'Notice', '今晚 **22:00** 维护');
    await p.goto(`${server.url}/personal`);
    const dialog = p.getByRole('dialog', { name: '系统公告' });
    await dialog.getByText('维护').waitFor();
    await p.screenshot({ path: screenshotPath('account-zh-notice') });
    await dialog.getByRole('button', { name: '今日关闭' }).click();
    await dialog.waitFor({ state: 'detached' });
    await p.reload();
    await p.getByRole('heading', { name: '个人设置' }).waitFor();
    await p.waitForTimeout(500);
    expect(await p.getByRole('dialog', { name: '系统公告' }).count()).toBe(0);
    await putOption(admin, 'Notice', '');
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('shows the notice once per tab, never over the sign-in form, and again when its text changes', async () => {
    const { app: server, page: p, root: admin } = ready();
    await putOption(admin, 'Notice', '明早 **08:00** 升级');
    await p.evaluate("window.localStorage.removeItem('notice_close_date')");
    await p.goto(`${server.url}/login`);
    await p.getByRole('button', { name: '登录', exact: true }).waitFor();
    await p.waitForTimeout(500);
    expect(await p.getByRole('dialog', { name: '系统公告' }).count()).toBe(0);

    await p.goto(`${server.url}/personal`);
    const dialog = p.getByRole('dialog', { name: '系统公告' });
    await dialog.getByText('升级').waitFor();
    await dialog.getByRole('button', { name: '关闭', exact: true }).click();
    await dialog.waitFor({ state: 'detached' });
    await p.reload();
    await p.getByRole('heading', { name: '个人设置' }).waitFor();
    await p.goto(`${server.url}/token`);
    await p.waitForTimeout(500);
    expect(await p.getByRole('dialog', { name: '系统公告' }).count()).toBe(0);

    await putOption(admin, 'Notice', '明早 **09:00** 升级');
    await p.reload();
    await p.getByRole('dialog', { name: '系统公告' }).getByText('09:00').waitFor();
    await p
      .getByRole('dialog', { name: '系统公告' })
      .getByRole('button', { name: '关闭', exact: true })
      .click();
    await putOption(admin, 'Notice', '');
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('signs in through the human check when Turnstile is on', async () => {
    const { app: server, root: admin, browser: harness } = ready();
    const check = turnstile!;
    check.accepted.add('browser-turnstile-token');
    check.expectedSecret = 'turnstile-secret';
    await putOption(admin, 'TurnstileSiteKey', 'site-key-1');
    await putOption(admin, 'TurnstileSecretKey', 'turnstile-secret');
    await putOption(admin, 'TurnstileCheckEnabled', true);
    const p = await watchedPage(harness.context);
    // Cloudflare's script, replaced by one that solves the challenge at once.
    await p.route(
      (url) => url.hostname === 'challenges.cloudflare.com',
      (route) =>
        route.fulfill({
          contentType: 'text/javascript',
          body:
            'window.turnstile = { render(el, o) { el.textContent = "human check: " + o.sitekey; ' +
            'setTimeout(() => { el.textContent += " passed"; o.callback("browser-turnstile-token"); }, 300); ' +
            'return "w1"; }, reset() {}, remove() {} };',
        }),
    );
    try {
      await p.goto(`${server.url}/login`);
      // The form refuses to send until the widget produced its token.
      await p.getByTestId('turnstile').getByText('human check: site-key-1 passed').waitFor();
      await p.getByLabel('用户名/邮箱').fill(ALICE.username);
      await p.getByLabel('密码', { exact: true }).fill(ALICE.password);
      await p.getByRole('button', { name: '登录', exact: true }).click();
      await p.waitForURL((url) => url.pathname === '/token');
      expect(check.calls.map((call) => call.response)).toContain('browser-turnstile-token');
    } finally {
      await putOption(admin, 'TurnstileCheckEnabled', false);
      await p.close();
    }
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('returns to the login page when the provider sign-in cannot be completed', async () => {
    const { app: server } = ready();
    const other = await launchChromium({ locale: 'zh-CN' });
    try {
      const q = await other.context.newPage();
      await q.goto(`${server.url}/oauth/github?code=not-a-real-code&state=forged-state`);
      await q.getByText('操作失败，重定向至登录界面中…').waitFor();
      await q.waitForURL((url) => url.pathname === '/login', { timeout: 10_000 });
      expect(await q.evaluate<string | null>("localStorage.getItem('user')")).toBeNull();
    } finally {
      await other.close();
    }
  }, 60_000);

  it('mounts the personal panel inside a foreign portal page without touching its styles, i18n or storage', async () => {
    const { app: server } = ready();
    const portal = await launchChromium({ locale: 'zh-CN' });
    try {
      const q = await watchedPage(portal.context);
      await q.goto(`${server.url}/embed-example.html`);
      await q.getByTestId('portal-title').filter({ hasText: 'Acme intranet' }).waitFor();
      const bodyStyle =
        "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).fontFamily].join('|')";
      const before = await q.evaluate<string>(bodyStyle);
      expect(before).toBe('rgb(244, 241, 234)|Georgia, "Times New Roman", serif');

      // The panel has its own router and session: it asks for a sign-in inside the panel.
      const panel = q.getByTestId('gatehouse-panel');
      await panel.getByLabel('用户名/邮箱').fill(ALICE.username);
      await panel.getByLabel('密码', { exact: true }).fill(ALICE.password);
      await panel.getByRole('button', { name: '登录', exact: true }).click();
      await panel.getByRole('heading', { name: '个人设置' }).waitFor();
      expect(await q.evaluate<string>(bodyStyle)).toBe(before);
      expect(
        await q.evaluate<string>("getComputedStyle(document.querySelector('.portal-header h1')).color"),
      ).toBe('rgb(255, 250, 240)');

      // The portal's counter (its own Redux store) and language (its own i18next) work beside the panel.
      await q.getByRole('button', { name: 'Count', exact: true }).click();
      await q.getByText('Portal counter (the portal’s own Redux store): 1').waitFor();
      await q.getByTestId('portal-language').selectOption('de');
      await q.getByTestId('portal-title').filter({ hasText: 'Acme Intranet' }).waitFor();
      expect(await panel.getByRole('heading', { name: '个人设置' }).count()).toBe(1);

      const keys = await q.evaluate<string[]>('Object.keys(localStorage)');
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key) => !key.startsWith('acme-ai:'))).toEqual([]);
      expect(keys).toContain('acme-ai:user');
      // No global stylesheet from the console: every style element it added belongs to its emotion cache.
      const foreignRules = await q.evaluate<number>(
        "[...document.querySelectorAll('style')].filter((s) => !s.dataset.emotion).length",
      );
      expect(foreignRules).toBe(0);
      await q.screenshot({ path: screenshotPath('account-embed-example'), fullPage: true });
    } finally {
      await portal.close();
    }
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('deletes the own account only with the username typed, and the account can no longer sign in', async () => {
    const { app: server } = ready();
    const other = await launchChromium({ locale: 'zh-CN' });
    try {
      const q = await watchedPage(other.context);
      await loginInUi(q, BOB.username, BOB.password);
      await q.goto(`${server.url}/personal`);
      await q.getByRole('tab', { name: '安全设置' }).click();
      await q.getByRole('button', { name: '删除个人账户' }).click();
      const dialog = q.getByRole('dialog', { name: '删除账户' });
      await dialog.getByLabel('账户名').fill('BOB');
      await dialog.getByRole('button', { name: '确认删除' }).click();
      await dialog.getByText('请输入你的账户名以确认删除！').waitFor();
      await dialog.getByLabel('账户名').fill(BOB.username);
      await dialog.getByRole('button', { name: '确认删除' }).click();
      await q.waitForURL((url) => url.pathname === '/login');
      expect(await q.evaluate<string | null>("localStorage.getItem('user')")).toBeNull();
    } finally {
      await other.close();
    }
    const login = await new ApiClient(server.url).post('/api/user/login', {
      username: BOB.username,
      password: BOB.password,
    });
    expect(login.body.success).toBe(false);
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

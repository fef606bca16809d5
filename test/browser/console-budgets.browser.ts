/**
 * Periodic budgets in the built console (host-app/dist) in Debian's Chromium against the real server:
 * - en, user: creates a token with daily caps in the token drawer; after a call the token list shows
 *   the day's use; the third call over the request cap is refused by the relay.
 * - en, root: sets a user's monthly cap in the user drawer and a group budget (and the notice
 *   threshold) in the operation settings; the server stores exactly what was typed.
 * - zh, user: the personal page and the dashboard show the user's and the group's budgets.
 * The tests run in order and share one server.
 */
import type { Page } from 'playwright-core';
import { MockUpstream } from '../mocks/mock-upstream';
import { ApiClient, makeUser, putOption, setupRoot, startApp, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';

describe('periodic budgets in the console against the real server (built host-app)', () => {
  let app: TestApp | undefined;
  let root: ApiClient | undefined;
  let user: (ApiClient & { username: string; password: string }) | undefined;
  let mock: MockUpstream | undefined;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBrowserPrerequisites();
    mock = await MockUpstream.start();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST, ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(app);
    const channel = await root.post('/api/channel/', {
      type: 1,
      name: 'mock-openai',
      key: 'sk-upstream-key',
      base_url: mock.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    expect(channel.body.success).toBe(true);
    await putOption(root, 'TimeZone', 'Asia/Shanghai');
    await putOption(root, 'DataExportEnabled', true);
    user = await makeUser(app, root);
    const funded = await root.post('/api/user/manage', {
      id: user.userId,
      action: 'add_quota',
      value: 10_000_000,
    });
    expect(funded.body.success).toBe(true);
  }, 60_000);

  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await app?.close();
    await mock?.close();
  });

  function ready() {
    if (!app || !root || !user || !mock) throw new Error('beforeAll did not finish: see its error above');
    return { app, root, user, mock };
  }

  async function open(locale: string): Promise<Page> {
    const browser = await launchChromium({ locale });
    browsers.push(browser);
    const page = await browser.context.newPage();
    page.setDefaultTimeout(15_000);
    watchErrors(page, pageErrors, /^Failed to load resource/);
    return page;
  }

  async function signIn(
    page: Page,
    who: { username: string; password: string },
    zh: boolean,
    target: string,
  ) {
    const { app: server } = ready();
    await page.goto(`${server.url}/login`);
    await page.getByLabel(zh ? '用户名/邮箱' : 'Username or email').fill(who.username);
    await page.getByLabel(zh ? '密码' : 'Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: zh ? '登录' : 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${server.url}${target}`);
  }

  async function relay(key: string): Promise<number> {
    const res = await fetch(`${ready().app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    });
    await res.text();
    return res.status;
  }

  it('en, user: sets daily caps in the token drawer; the list shows the day’s use; the relay refuses past the cap', async () => {
    const { user: me } = ready();
    const page = await open('en-US');
    await signIn(page, me, false, '/token');
    await page.getByRole('button', { name: 'Add token' }).click();
    await page.getByLabel('Name', { exact: true }).fill('capped');
    await page.getByLabel('Daily Quota cap').fill('1000000');
    await page.getByLabel('Daily Request cap').fill('2');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Token created').first().waitFor();

    const list = await me.get('/api/token/?page_size=100');
    const token = (list.body.data.items as Array<{ id: number; name: string; budget: unknown }>).find(
      (t) => t.name === 'capped',
    )!;
    expect(token.budget).toEqual({ day: { quota: 1000000, requests: 2 } });
    const key = (await me.post(`/api/token/${token.id}/key`)).body.data.key as string;
    expect(await relay(key)).toBe(200);

    await page.reload();
    const cell = page.getByTestId(`token-row-${token.id}`).getByTestId('token-budget');
    await cell.getByText('Requests 1 / 2').waitFor();
    await cell.getByText('Today').waitFor();
    expect(await relay(key)).toBe(200);
    expect(await relay(key)).toBe(429);
    await page.screenshot({ path: screenshotPath('budgets-token-list') });
    expect(pageErrors).toEqual([]);
  });

  it('marks a negative cap on its own field as it is typed (zh at 1280 px, en at 390 px), and saves nothing', async () => {
    const { user: me } = ready();
    for (const [locale, zh] of [
      ['zh-CN', true],
      ['en-US', false],
    ] as const) {
      const page = await open(locale);
      if (!zh) await page.setViewportSize({ width: 390, height: 844 });
      await signIn(page, me, zh, '/token');
      await page.getByRole('button', { name: zh ? '添加令牌' : 'Add token' }).click();
      await page.getByLabel(zh ? '名称' : 'Name', { exact: true }).fill('negative-cap');
      // The help names the setting that decides where a day starts, as the settings page calls it.
      await page
        .getByText(zh ? /数据看板设置中的「报表时区」/ : /"Report time zone" of Operation settings/)
        .waitFor();
      const field = page.getByLabel(zh ? '每月 请求次数上限' : 'Monthly Request cap');
      await field.fill('-5');
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      const message = zh ? '请求次数上限 必须是 0 或正整数' : 'Request cap must be 0 or a whole number';
      await page.getByText(message, { exact: true }).waitFor();
      // The other fields are not marked.
      expect(
        await page.getByLabel(zh ? '每日 请求次数上限' : 'Daily Request cap').getAttribute('aria-invalid'),
      ).toBe('false');
      await page.getByRole('button', { name: zh ? '提交' : 'Submit' }).click();
      await field.fill('5');
      expect(await field.getAttribute('aria-invalid')).toBe('false');
      expect(await page.getByText(message, { exact: true }).count()).toBe(0);
    }
    const list = await me.get('/api/token/?page_size=100');
    expect((list.body.data.items as Array<{ name: string }>).some((t) => t.name === 'negative-cap')).toBe(
      false,
    );
    expect(pageErrors).toEqual([]);
  });

  it('en, root: sets a user budget in the user drawer and a group budget in the operation settings', async () => {
    const { root: admin, user: target } = ready();
    const page = await open('en-US');
    await signIn(page, { username: 'root', password: 'root-pass-1' }, false, `/user/edit/${target.userId}`);
    await page.getByLabel('Monthly Request cap').fill('100');
    await page.getByLabel('Monthly Quota cap').fill('5000000');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL((url) => !url.pathname.includes('/edit/'));
    const saved = await admin.get(`/api/user/${target.userId}`);
    expect(saved.body.data.budget).toEqual({ month: { quota: 5000000, requests: 100 } });

    await page.goto(`${ready().app.url}/setting?tab=operation`);
    const panel = page.getByRole('region', { name: 'Group budgets' });
    await panel.getByRole('button', { name: 'Add a group budget' }).click();
    await panel.getByLabel('Group', { exact: true }).fill('default');
    await panel.getByLabel('Daily Request cap').fill('50');
    await panel.getByLabel('Budget notice threshold (%)').fill('80');
    await panel.getByRole('button', { name: 'Save group budgets' }).click();
    await page.getByText('Group budgets saved').first().waitFor();
    const options = (await admin.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
    expect(JSON.parse(options.find((o) => o.key === 'GroupBudgets')!.value)).toEqual({
      default: { day: { quota: 0, requests: 50 } },
    });
    expect(options.find((o) => o.key === 'BudgetNoticePercent')!.value).toBe('80');
    // A bad cap is refused in the form, nothing is saved.
    await panel.getByLabel('Daily Request cap').fill('-1');
    await panel.getByRole('button', { name: 'Save group budgets' }).click();
    await panel.getByRole('alert').getByText('default.day.requests must be 0 or a whole number').waitFor();
    await page.screenshot({ path: screenshotPath('budgets-group-settings') });
    expect(pageErrors).toEqual([]);
  });

  it('zh, user: the personal page and the dashboard show the user’s and the group’s budgets', async () => {
    const { user: me } = ready();
    const page = await open('zh-CN');
    await signIn(page, me, true, '/personal');
    const card = page.getByRole('region', { name: '周期预算' });
    await card.getByText('我的预算').waitFor();
    await card.getByText('分组 default 的预算').waitFor();
    await card.getByText(/请求 \d+ \/ 100 次/).waitFor();
    await card.getByText(/请求 \d+ \/ 50 次/).waitFor();
    await page.goto(`${ready().app.url}/detail`);
    await page.getByRole('region', { name: '周期预算' }).getByText('本月').waitFor();
    await page.screenshot({ path: screenshotPath('budgets-dashboard') });
    expect(pageErrors).toEqual([]);
  });
});

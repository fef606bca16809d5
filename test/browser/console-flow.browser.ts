/**
 * One walk across the console's screens (built host-app in Debian's Chromium) against the REAL server
 * and a mock upstream: an admin adds a channel on the channel screen; a user creates a token on the
 * token screen, asks the playground, finds the call in the usage log and the charge on the wallet,
 * then redeems a code on the wallet and sees the balance grow. The redemption code itself is made
 * through the API (the admin side of redemptions has its own test). Chinese at desktop width, then the
 * wallet once more in English at 390 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { formatQuota } from '../../console-kit/src/format/quota';
import { MockUpstream } from '../mocks/mock-upstream';
import { quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, ROOT, setupRoot, startApp, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';

const START_QUOTA = 2_000_000;
const CODE_QUOTA = 750_000;

describe('console flow: channel → token → playground → log and balance → redemption', () => {
  let app: TestApp | undefined;
  let upstream: MockUpstream | undefined;
  let root: ApiClient | undefined;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBrowserPrerequisites();
    upstream = await MockUpstream.start();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST, ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(app);
  }, 60_000);

  afterAll(async () => {
    for (const harness of browsers) await harness.close();
    await app?.close();
    await upstream?.close();
  });

  function ready(): { app: TestApp; upstream: MockUpstream; root: ApiClient } {
    if (!app || !upstream || !root) throw new Error('beforeAll did not finish: see its error above');
    return { app, upstream, root };
  }

  async function watchedPage(context: BrowserContext): Promise<Page> {
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    watchErrors(p, pageErrors, /status of (401|404)/);
    return p;
  }

  async function browser(locale: string): Promise<BrowserContext> {
    const harness = await launchChromium({ locale });
    browsers.push(harness);
    return harness.context;
  }

  async function signIn(p: Page, username: string, password: string): Promise<void> {
    await p.goto(`${ready().app.url}/login`);
    await p.getByLabel('用户名/邮箱').fill(username);
    await p.getByLabel('密码', { exact: true }).fill(password);
    await p.getByRole('button', { name: '登录', exact: true }).click();
    await p.waitForURL((url) => url.pathname === '/token');
  }

  async function quotaText(quota: number): Promise<string> {
    const res = await fetch(`${ready().app.url}/api/status`);
    const { data } = (await res.json()) as { data: { display_in_currency: boolean; quota_per_unit: number } };
    return formatQuota(quota, {
      displayInCurrency: data.display_in_currency,
      quotaPerUnit: data.quota_per_unit,
    });
  }

  it('walks from a new channel to a redeemed code', async () => {
    const { app: server, root: admin, upstream: mock } = ready();
    const channelName = 'flow-mock';

    // 1. The admin adds a channel pointed at the mock upstream on the channel screen.
    const adminPage = await watchedPage(await browser('zh-CN'));
    await signIn(adminPage, ROOT.username, ROOT.password);
    await adminPage.goto(`${server.url}/channel`);
    await adminPage.getByRole('button', { name: '添加渠道' }).click();
    const drawer = adminPage.getByRole('dialog');
    await drawer.getByRole('textbox', { name: '名称', exact: true }).fill(channelName);
    await drawer.getByRole('textbox', { name: '代理地址', exact: true }).fill(mock.url);
    await drawer.getByRole('textbox', { name: '密钥', exact: true }).fill('sk-upstream-flow');
    await drawer.getByRole('button', { name: '清除所有模型' }).click();
    await drawer.getByRole('textbox', { name: '自定义模型名称' }).fill('gpt-4o-mini');
    await drawer.getByRole('button', { name: '填入', exact: true }).click();
    await drawer.getByRole('button', { name: '提交', exact: true }).click();
    await adminPage.getByText(channelName).first().waitFor();
    const channels = await admin.get('/api/channel/?p=1&page_size=100');
    const channel = (
      channels.body.data.items as { name: string; models: string; base_url: string; group: string }[]
    ).find((item) => item.name === channelName);
    expect(channel).toMatchObject({ models: 'gpt-4o-mini', base_url: mock.url });
    expect(channel?.group.split(',')).toContain('default');

    // 2. A user creates a token on the token screen.
    const user = await makeUser(server, admin);
    await setQuota(server, user.userId ?? 0, START_QUOTA);
    const p = await watchedPage(await browser('zh-CN'));
    await signIn(p, user.username, user.password);
    await p.getByRole('button', { name: '添加令牌' }).click();
    await p.getByRole('dialog').getByRole('textbox', { name: '名称', exact: true }).fill('flow-token');
    await p.getByRole('dialog').getByRole('button', { name: '提交' }).click();
    await p.getByRole('checkbox', { name: '选择 flow-token' }).waitFor();
    const tokens = await user.get('/api/token/?p=1&page_size=10');
    const token = (tokens.body.data.items as { id: number; name: string }[]).find(
      (item) => item.name === 'flow-token',
    );
    expect(token).toBeDefined();

    // 3. The playground answers through the new channel.
    await p.goto(`${server.url}/playground`);
    await p.getByLabel('输入消息，Enter 发送，Shift+Enter 换行').fill('流程测试 [[reply=流程完成]]');
    await p.getByRole('button', { name: '发送' }).click();
    await p
      .locator('[data-testid="chat-message"][data-role="assistant"][data-status="complete"]')
      .getByText('流程完成')
      .waitFor();
    expect(mock.last?.credential).toBe('sk-upstream-flow');
    // And a client program calls the same channel with the new token.
    const key = (await user.post(`/api/token/${token?.id}/key`)).body.data.key as string;
    const relayed = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer sk-${key.replace(/^sk-/, '')}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'via token' }] }),
    });
    expect(relayed.status).toBe(200);
    await settle(server);
    const afterCall = await quotaOf(server, user.userId ?? 0);
    expect(afterCall).toBeLessThan(START_QUOTA);

    // 4. The usage log shows the call; the wallet shows the charged balance.
    await p.goto(`${server.url}/log`);
    const rows = p.locator('[data-testid^="log-row-"]').filter({ hasText: 'gpt-4o-mini' });
    await rows.filter({ hasText: 'playground' }).first().waitFor();
    await rows.filter({ hasText: 'flow-token' }).first().waitFor();
    await p.goto(`${server.url}/topup`);
    await p
      .getByTestId('wallet-balance')
      .getByText(`当前余额：${await quotaText(afterCall)}`)
      .waitFor();

    // 5. A code redeemed on the wallet raises the balance by its quota.
    const created = await admin.post('/api/redemption/', { name: 'flow', quota: CODE_QUOTA, count: 1 });
    expect(created.body.success).toBe(true);
    const [code] = created.body.data as string[];
    await p.getByLabel('兑换码', { exact: true }).fill(code);
    await p.getByRole('button', { name: '兑换', exact: true }).click();
    await p.getByText('兑换成功！').first().waitFor();
    await p
      .getByTestId('wallet-balance')
      .getByText(`当前余额：${await quotaText(afterCall + CODE_QUOTA)}`)
      .waitFor();
    expect(await quotaOf(server, user.userId ?? 0)).toBe(afterCall + CODE_QUOTA);
    await p.screenshot({ path: screenshotPath('flow-wallet-zh') });

    // The same wallet in English on a phone.
    const phone = await watchedPage(await browser('en-US'));
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto(`${server.url}/login`);
    await phone.getByLabel('Username or email').fill(user.username);
    await phone.getByLabel('Password', { exact: true }).fill(user.password);
    await phone.getByRole('button', { name: 'Sign in', exact: true }).click();
    await phone.waitForURL((url) => url.pathname === '/token');
    await phone.goto(`${server.url}/topup`);
    await phone
      .getByTestId('wallet-balance')
      .getByText(await quotaText(afterCall + CODE_QUOTA))
      .waitFor();
    expect(await phone.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await phone.screenshot({ path: screenshotPath('flow-wallet-en-390') });
    expect(pageErrors).toEqual([]);
  }, 180_000);
});

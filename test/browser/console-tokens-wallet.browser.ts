/**
 * Tokens, redemption codes, the wallet and chat links of the built console (host-app/dist) in Debian's
 * Chromium against the REAL Gatehouse server on a fresh database, with a mock upstream channel created
 * through the management API and a local stub standing in for the epay gateway and a chat site.
 * - zh, user: create two tokens at once, copy a key and call the relay with it, disable/enable (the relay
 *   follows), open a chat link, delete one and batch-delete the other, /chat/0 without and with a token.
 * - en, root then user: create redemption codes and read them from the dialog, disable one; the user
 *   redeems a code in the wallet and sees the balance grow; a disabled code changes nothing.
 * - zh, user, 390 px wide: the wallet shows the price and the pay button posts the signed form to
 *   PayAddress in a new window; the token page fits the phone.
 * The tests run in order and share one server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { MockUpstream } from '../mocks/mock-upstream';
import { formatQuota } from '../../console-kit/src/format/quota';
import { ApiClient, makeUser, putOption, setupRoot, startApp, ROOT, type TestApp } from '../support/test-app';
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

type TokenView = Schemas['TokenView'];

type RedemptionView = Schemas['RedemptionView'];

/** The epay gateway and chat site stand-in: records form posts to /submit.php, answers small pages. */
class GatewayStub {
  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly posts: Record<string, string>[],
  ) {}

  static async start(): Promise<GatewayStub> {
    const posts: Record<string, string>[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://stub').pathname;
        if (req.method === 'POST' && path === '/submit.php') {
          posts.push(Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
          res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
          res.end('<!doctype html><title>gateway</title><h1>gateway stub</h1>');
          return;
        }
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>chat</title><h1>chat stub</h1>');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return new GatewayStub(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, posts);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('tokens, redemption codes, wallet and chat links against the real server (built host-app)', () => {
  let app: TestApp | undefined;
  let root: ApiClient | undefined;
  let user: (ApiClient & { username: string; password: string }) | undefined;
  let mock: MockUpstream | undefined;
  let stub: GatewayStub | undefined;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBrowserPrerequisites();
    mock = await MockUpstream.start();
    stub = await GatewayStub.start();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST, ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(app);
    // The upstream channel, through the management API like an operator would.
    const channel = await root.post('/api/channel/', {
      type: 1,
      name: 'mock-openai',
      key: 'sk-upstream-key',
      base_url: mock.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    expect(channel.body.success).toBe(true);
    await putOption(
      root,
      'Chats',
      JSON.stringify([{ StubChat: `${stub.url}/chat?key={key}&api={address}` }]),
    );
    await putOption(root, 'ServerAddress', app.url);
    await putOption(root, 'PayAddress', stub.url);
    await putOption(root, 'EpayId', '1001');
    await putOption(root, 'EpayKey', 'epay-secret-key');
    await putOption(root, 'Price', 7.3);
    await putOption(root, 'MinTopUp', 2);
    await putOption(
      root,
      'PayMethods',
      JSON.stringify([
        { name: '支付宝', type: 'alipay', color: '#1677ff' },
        { name: '微信', type: 'wxpay', color: '#07c160' },
      ]),
    );
    user = await makeUser(app, root);
    // A balance to spend on the relay.
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
    await stub?.close();
  });

  function ready() {
    if (!app || !root || !user || !mock || !stub)
      throw new Error('beforeAll did not finish: see its error above');
    return { app, root, user, mock, stub };
  }

  async function openContext(
    locale: string,
    viewport?: { width: number; height: number },
  ): Promise<{ context: BrowserContext; page: Page }> {
    const browser = await launchChromium({ locale });
    browsers.push(browser);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
      origin: ready().app.url,
    });
    const page = await browser.context.newPage();
    page.setDefaultTimeout(15_000);
    if (viewport) await page.setViewportSize(viewport);
    watchErrors(page, pageErrors, /^Failed to load resource/);
    return { context: browser.context, page };
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

  async function tokens(): Promise<TokenView[]> {
    const res = await ready().user.get('/api/token/?page_size=100');
    expect(res.body.success).toBe(true);
    return res.body.data.items as TokenView[];
  }

  async function codes(): Promise<RedemptionView[]> {
    const res = await ready().root.get('/api/redemption/?page_size=100');
    expect(res.body.success).toBe(true);
    return res.body.data.items as RedemptionView[];
  }

  async function quotaOfUser(): Promise<number> {
    const res = await ready().user.get('/api/user/self');
    return res.body.data.quota as number;
  }

  async function relay(key: string): Promise<{ status: number; body: string }> {
    const res = await fetch(`${ready().app.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] }),
    });
    return { status: res.status, body: await res.text() };
  }

  const toast = (page: Page, text: string | RegExp): Locator =>
    page.getByRole('alert').filter({ hasText: text }).first();
  const row = (page: Page, id: number): Locator => page.getByTestId(`token-row-${id}`);

  it('zh, user: creates two tokens, copies a key that works on the relay, disables, enables, chats, deletes', async () => {
    const { app: server, user: me, mock: upstream } = ready();
    const { context, page } = await openContext('zh-CN');
    await signIn(page, me, true, '/token');
    await page.getByRole('heading', { name: '令牌管理' }).waitFor();
    await page.getByText('令牌无法精确控制使用额度，只允许自用').waitFor();

    // Create two at once: one month, $10, count 2.
    await page.getByRole('button', { name: '添加令牌' }).click();
    const drawer = page.locator('.MuiDrawer-paper');
    await drawer.getByLabel('名称').fill('团队令牌');
    await drawer.getByRole('button', { name: '一个月' }).click();
    await drawer.getByRole('button', { name: '$10.00' }).click();
    await drawer.getByLabel('新建数量').fill('abc');
    await drawer.getByRole('button', { name: '提交' }).click();
    await drawer.getByText('新建数量必须是 1 到 100 之间的整数').waitFor();
    expect(await tokens()).toHaveLength(0);
    await drawer.getByLabel('新建数量').fill('2');
    await drawer.getByLabel('最大并发请求数').fill('1.5');
    await drawer.getByRole('button', { name: '提交' }).click();
    await drawer.getByText(/限制必须是不小于 0 的整数/).waitFor();
    expect(await tokens()).toHaveLength(0);
    await drawer.getByLabel('最大并发请求数').fill('3');
    await drawer.getByLabel('每分钟请求数 (RPM)').fill('120');
    await page.screenshot({ path: screenshotPath('tokens-drawer-zh'), fullPage: true });
    await drawer.getByRole('button', { name: '提交' }).click();
    await toast(page, '令牌创建成功').waitFor();
    const created = await tokens();
    expect(created).toHaveLength(2);
    // The first keeps the name, the extra one gets a random suffix.
    const names = created.map((token) => token.name).sort();
    expect(names[0]).toBe('团队令牌');
    expect(names[1]).toMatch(/^团队令牌-[a-z0-9]{6}$/);
    for (const token of created) {
      expect(token.remain_quota).toBe(5_000_000);
      expect(token).toMatchObject({ rpm_limit: 120, tpm_limit: 0, concurrency_limit: 3 });
      const monthAhead = Date.now() / 1000 + 28 * 86400;
      expect(token.expired_time).toBeGreaterThan(monthAhead);
      await row(page, token.id).waitFor();
    }
    const [first, second] = created;
    await page.screenshot({ path: screenshotPath('tokens-list-zh'), fullPage: true });

    // Copy fetches the full key; the key works on the relay.
    await row(page, first.id).getByRole('button', { name: '复制' }).click();
    await toast(page, '已复制到剪贴板').waitFor();
    const key = await page.evaluate<string>('navigator.clipboard.readText()');
    expect(key).toMatch(/^sk-[A-Za-z0-9]{20,}$/);
    const before = upstream.requests.length;
    expect(await relay(key)).toMatchObject({ status: 200 });
    expect(upstream.requests.length).toBe(before + 1);

    // Disable: status-only update, the relay refuses at once; enable again.
    await row(page, first.id).getByRole('button', { name: '禁用' }).click();
    await row(page, first.id).getByText('已禁用').waitFor();
    expect((await tokens()).find((t) => t.id === first.id)?.status).toBe(2);
    expect([401, 403]).toContain((await relay(key)).status);
    // A disabled token offers no chat link.
    expect(await row(page, first.id).getByRole('button', { name: 'StubChat' }).count()).toBe(0);
    await row(page, first.id).getByRole('button', { name: '启用' }).click();
    await row(page, first.id).getByText('已启用').waitFor();
    expect(await relay(key)).toMatchObject({ status: 200 });

    // The chat link opens in a new tab with the full key and the server address filled in.
    const popup = context.waitForEvent('page');
    await row(page, first.id).getByRole('button', { name: 'StubChat' }).click();
    const chat = await popup;
    await chat.waitForURL((url) => url.pathname === '/chat');
    const chatUrl = new URL(chat.url());
    expect(chatUrl.searchParams.get('key')).toBe(key);
    expect(chatUrl.searchParams.get('api')).toBe(server.url);
    await chat.close();

    // Search by name part and by key.
    await page.getByLabel('密钥').fill(key);
    await page.getByRole('button', { name: '查询' }).click();
    await row(page, first.id).waitFor();
    await row(page, second.id).waitFor({ state: 'detached' });
    await page.getByLabel('密钥').fill('');
    await page.getByRole('button', { name: '查询' }).click();
    await row(page, second.id).waitFor();

    // Delete one from its row, the other by batch.
    await row(page, first.id).getByRole('button', { name: '删除' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await toast(page, '删除成功').waitFor();
    await row(page, first.id).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: '删除所选令牌' }).click();
    await toast(page, '请先选择要删除的令牌').waitFor();
    await row(page, second.id).getByRole('checkbox').check();
    await page.getByRole('button', { name: '删除所选令牌' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    await toast(page, '已删除 1 个令牌').waitFor();
    expect(await tokens()).toHaveLength(0);
    expect([401, 403]).toContain((await relay(key)).status);

    // /chat/0 without an enabled token: the spec's error, then /token after 1.5 s.
    await page.goto(`${server.url}/chat/0`);
    await toast(page, '没有可用的已启用令牌').waitFor();
    await page.waitForURL((url) => url.pathname === '/token', { timeout: 5_000 });

    // With one, the frame shows the link with the token's full key.
    const made = await me.post('/api/token/', {
      name: 'chat',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
    });
    expect(made.body.success).toBe(true);
    const chatKey = (await me.post(`/api/token/${made.body.data[0].id}/key`)).body.data.key as string;
    await page.goto(`${server.url}/chat/0`);
    const frame = page.getByTestId('chat-frame');
    await frame.waitFor();
    const src = new URL((await frame.getAttribute('src')) ?? '');
    expect(src.origin).toBe(ready().stub.url);
    expect(src.searchParams.get('key')).toBe(chatKey);
    // An index with no configured link.
    await page.goto(`${server.url}/chat/5`);
    await page.getByText('聊天链接配置错误，请联系管理员').first().waitFor();
    // /chat2link goes to the first chat link with the key and the server address.
    await page.goto(`${server.url}/chat2link`);
    await page.waitForURL((url) => url.origin === ready().stub.url && url.pathname === '/chat');
    expect(new URL(page.url()).searchParams.get('key')).toBe(chatKey);
    expect(new URL(page.url()).searchParams.get('api')).toBe(server.url);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('en, root creates redemption codes; the user redeems one in the wallet and the balance grows', async () => {
    const { app: server, user: me } = ready();
    const admin = await openContext('en-US');
    await signIn(admin.page, ROOT, false, '/redemption');
    await admin.page.getByRole('heading', { name: 'Redemption codes' }).waitFor();
    await admin.page.getByRole('button', { name: 'Add codes' }).click();
    const drawer = admin.page.locator('.MuiDrawer-paper');
    await drawer.getByLabel('Name').fill('gift');
    await drawer.getByLabel('Quota').fill('1000000');
    await drawer.getByLabel('How many').fill('101');
    await drawer.getByRole('button', { name: 'Submit' }).click();
    await drawer.getByText('At most 100 codes can be created at once').waitFor();
    expect(await codes()).toHaveLength(0);
    await drawer.getByLabel('How many').fill('3');
    // Expiry: the one-month preset.
    await drawer.getByRole('button', { name: 'One month' }).click();
    const before = Math.floor(Date.now() / 1000);
    await drawer.getByRole('button', { name: 'Submit' }).click();
    const shown = ((await admin.page.getByTestId('created-codes').textContent()) ?? '').trim().split('\n');
    expect(shown).toHaveLength(3);
    const stored = await codes();
    expect(stored.map((code) => code.key).sort()).toEqual([...shown].sort());
    expect(
      stored.every((code) => code.name === 'gift' && code.quota === 1_000_000 && code.status === 1),
    ).toBe(true);
    // One month ahead (28 to 31 days, to the second).
    for (const code of stored) {
      expect(code.expired_time - before).toBeGreaterThanOrEqual(28 * 86_400 - 5);
      expect(code.expired_time - before).toBeLessThanOrEqual(31 * 86_400 + 5);
    }
    await admin.page.getByRole('button', { name: 'Copy all' }).click();
    expect(await admin.page.evaluate<string>('navigator.clipboard.readText()')).toBe(shown.join('\n'));
    await admin.page.getByRole('button', { name: 'Close' }).click();

    // Disable one; edit another's name.
    const [toDisable, toEdit, toRedeem] = stored;
    const expiresCell = admin.page
      .getByTestId(`redemption-row-${toEdit.id}`)
      .getByTestId('redemption-expires');
    await expiresCell.filter({ hasText: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/ }).waitFor();
    await admin.page
      .getByTestId(`redemption-row-${toDisable.id}`)
      .getByRole('button', { name: 'Disable' })
      .click();
    await admin.page.getByTestId(`redemption-row-${toDisable.id}`).getByText('Disabled').waitFor();
    await admin.page.getByTestId(`redemption-row-${toEdit.id}`).getByRole('button', { name: 'Edit' }).click();
    await drawer.getByLabel('Name').fill('renamed');
    await drawer.getByRole('button', { name: 'Submit' }).click();
    await toast(admin.page, 'Redemption code updated').waitFor();
    expect((await codes()).find((code) => code.id === toEdit.id)).toMatchObject({
      name: 'renamed',
      expired_time: toEdit.expired_time,
    });

    // The user redeems in the wallet.
    const wallet = await openContext('en-US');
    await signIn(wallet.page, me, false, '/topup');
    await wallet.page.getByRole('heading', { name: 'My wallet' }).waitFor();
    const start = await quotaOfUser();
    const display = (await (await fetch(`${server.url}/api/status`)).json()) as {
      data: { display_in_currency: boolean; quota_per_unit: number };
    };
    const text = (quota: number) =>
      formatQuota(quota, {
        displayInCurrency: display.data.display_in_currency,
        quotaPerUnit: display.data.quota_per_unit,
      });
    await wallet.page
      .getByTestId('wallet-balance')
      .getByText(`Current balance: ${text(start)}`)
      .waitFor();
    await wallet.page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await toast(wallet.page, 'Please enter a redemption code!').waitFor();
    await wallet.page.getByLabel('Redemption code').fill(toRedeem.key);
    await wallet.page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await toast(wallet.page, `Credited: ${text(1_000_000)}`).waitFor();
    await wallet.page
      .getByTestId('wallet-balance')
      .getByText(`Current balance: ${text(start + 1_000_000)}`)
      .waitFor();
    expect(await quotaOfUser()).toBe(start + 1_000_000);
    expect((await codes()).find((code) => code.id === toRedeem.id)).toMatchObject({
      status: 3,
      used_user_id: me.userId,
    });

    // A disabled code and a used code change nothing.
    await wallet.page.getByLabel('Redemption code').fill(toDisable.key);
    await wallet.page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await toast(wallet.page, /disabled|禁用/i).waitFor();
    await wallet.page.getByLabel('Redemption code').fill(toRedeem.key);
    await wallet.page.getByRole('button', { name: 'Redeem', exact: true }).click();
    await toast(wallet.page, /used|使用/i).waitFor();
    expect(await quotaOfUser()).toBe(start + 1_000_000);

    // A used code cannot be enabled again; delete invalid clears used and disabled codes.
    await admin.page.reload();
    await admin.page.getByTestId(`redemption-row-${toRedeem.id}`).getByText('Used').waitFor();
    expect(
      await admin.page
        .getByTestId(`redemption-row-${toRedeem.id}`)
        .getByRole('button', { name: 'Enable' })
        .count(),
    ).toBe(0);
    await admin.page.getByRole('button', { name: 'Delete invalid codes' }).click();
    await admin.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await toast(admin.page, '2 invalid codes deleted').waitFor();
    expect((await codes()).map((code) => code.id)).toEqual([toEdit.id]);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('zh, 390 px: the wallet shows the price and posts the signed pay form to PayAddress', async () => {
    const { app: server, user: me, stub: gateway } = ready();
    const { context, page } = await openContext('zh-CN', { width: 390, height: 844 });
    await signIn(page, me, true, '/topup');
    await page.getByRole('heading', { name: '我的钱包' }).waitFor();
    const amount = page.getByLabel(/充值数量/);
    await amount.fill('1');
    await page.getByRole('button', { name: '支付宝' }).click();
    await toast(page, '充值数量不能小于 2').waitFor();
    await amount.fill('10');
    await page.getByTestId('topup-price').getByText('实付金额：73.00 元').waitFor();
    await page.screenshot({ path: screenshotPath('wallet-zh-390'), fullPage: true });

    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: '支付宝' }).click();
    await page.getByRole('dialog').getByText('充值数量：10').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: '确认支付' }).click();
    const gatewayPage = await popup;
    await gatewayPage.waitForURL((url) => url.pathname === '/submit.php');
    await gatewayPage.getByText('gateway stub').waitFor();
    expect(gateway.posts).toHaveLength(1);
    expect(gateway.posts[0]).toMatchObject({
      pid: '1001',
      type: 'alipay',
      money: '73.00',
      name: 'TUC10',
      sign_type: 'MD5',
      notify_url: `${server.url}/api/user/epay/notify`,
      return_url: `${server.url}/api/user/epay/return`,
    });
    expect(gateway.posts[0].sign).toMatch(/^[0-9a-f]{32}$/);
    expect(gateway.posts[0].out_trade_no).toMatch(new RegExp(`^USR${me.userId}NO`));
    await gatewayPage.close();

    // The pending order is in the history.
    await page.reload();
    await page.getByRole('cell', { name: gateway.posts[0].out_trade_no }).waitFor();
    await page.getByText('待支付').first().waitFor();

    // No top-up link configured: the spec's error.
    await page.getByRole('button', { name: '获取兑换码' }).click();
    await toast(page, '超级管理员未设置充值链接').waitFor();

    // The token page on the phone: banner, add button, tokens as cards (no table), no horizontal
    // scrolling of the page.
    await page.goto(`${server.url}/token`);
    await page.getByText('令牌无法精确控制使用额度，只允许自用').waitFor();
    await page.getByRole('button', { name: '添加令牌' }).waitFor();
    const mine = await tokens();
    expect(mine.length).toBeGreaterThan(0);
    const card = page.getByTestId(`token-card-${mine[0].id}`);
    await card.waitFor();
    await card.getByRole('button', { name: '复制' }).waitFor();
    expect(await page.getByRole('table').count()).toBe(0);
    const cardBox = await card.boundingBox();
    expect((cardBox?.x ?? 0) + (cardBox?.width ?? 0)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('tokens-zh-390'), fullPage: true });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(1);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

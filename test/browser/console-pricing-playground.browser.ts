/**
 * The pricing page and the playground of the built console (host-app/dist) in Debian's Chromium against
 * the REAL server, with a mock upstream channel serving the models: prices computed from the server's
 * own ratios, group switching from a chip, fuzzy search, the ratio formula, the top-up price in CNY,
 * copying selected names; a streamed playground answer rendered as sanitized markdown, billed to the
 * user with a "playground" log row, an upstream failure shown on the answer, clearing the context;
 * both pages in Chinese and English, and at 390 px.
 */
import type { BrowserContext, Page } from 'playwright-core';
import {
  completionPricePer1M,
  formatPrice,
  promptPricePer1M,
  type PricingModel,
} from '../../console-kit/src/features/pricing/pricing-rules';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';

const START_QUOTA = 5_000_000;

describe('pricing page and playground against the real server (built host-app in Chromium)', () => {
  let app: TestApp | undefined;
  let upstream: MockUpstream | undefined;
  let root: ApiClient | undefined;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBrowserPrerequisites();
    upstream = await MockUpstream.start();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST });
    root = await setupRoot(app);
    await putOption(root, 'GroupRatio', JSON.stringify({ default: 1, vip: 2 }));
    await putOption(root, 'UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'VIP 分组' }));
    await makeChannel(app, { base_url: upstream.url, models: 'gpt-4o,gpt-4o-mini', group: 'default' });
    await makeChannel(app, { base_url: upstream.url, models: 'gpt-4o', group: 'vip' });
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

  async function browser(locale: string): Promise<BrowserContext> {
    const harness = await launchChromium({ locale });
    browsers.push(harness);
    return harness.context;
  }

  async function watchedPage(context: BrowserContext): Promise<Page> {
    const p = await context.newPage();
    p.setDefaultTimeout(15_000);
    watchErrors(p, pageErrors, /status of (400|401|404|500|502|503)/);
    return p;
  }

  async function serverModel(name: string): Promise<PricingModel> {
    const body = (await (await fetch(`${ready().app.url}/api/pricing`)).json()) as { data: PricingModel[] };
    const model = body.data.find((entry) => entry.model_name === name);
    if (!model) throw new Error(`${name} is not priced`);
    return model;
  }

  async function signIn(p: Page, username: string, password: string, zh = true): Promise<void> {
    await p.goto(`${ready().app.url}/login`);
    await p.getByLabel(zh ? '用户名/邮箱' : 'Username or email').fill(username);
    await p.getByLabel(zh ? '密码' : 'Password', { exact: true }).fill(password);
    await p.getByRole('button', { name: zh ? '登录' : 'Sign in', exact: true }).click();
    await p.waitForURL((url) => url.pathname === '/token');
  }

  const rowNames = (p: Page) =>
    p
      .locator('[data-testid^="pricing-row-"]')
      .evaluateAll((rows) =>
        rows.map((row) => row.getAttribute('data-testid')?.slice('pricing-row-'.length)),
      );

  it('shows a visitor the prices of the default group and switches group from a chip (zh)', async () => {
    const { app: server } = ready();
    const gpt4o = await serverModel('gpt-4o');
    const context = await browser('zh-CN');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const p = await watchedPage(context);
    await p.goto(`${server.url}/pricing`);
    await p.getByRole('heading', { name: '模型价格' }).waitFor();
    await p.getByTestId('pricing-banner').getByText('您还未登录，显示的价格为默认分组倍率：1').waitFor();
    const row = p.getByTestId('pricing-row-gpt-4o');
    await row.getByText(`提示 ${formatPrice(promptPricePer1M(gpt4o, 1), null)} / 1M tokens`).waitFor();
    await row.getByText(`补全 ${formatPrice(completionPricePer1M(gpt4o, 1), null)} / 1M tokens`).waitFor();
    expect(await rowNames(p)).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(await p.getByTestId('pricing-row-gpt-4o-mini').locator('[data-available="true"]').count()).toBe(1);

    // The vip chip: ratio 2, gpt-4o-mini is not served there and moves down without its tick.
    await row.getByRole('button', { name: 'vip（倍率 2）' }).click();
    await p.getByText('已切换至分组 vip，倍率为 2').first().waitFor();
    await p.getByTestId('pricing-viewing').getByText('当前查看的分组为 vip，倍率为 2').waitFor();
    await row.getByText(`提示 ${formatPrice(promptPricePer1M(gpt4o, 2), null)} / 1M tokens`).waitFor();
    expect(await p.getByTestId('pricing-row-gpt-4o-mini').locator('[data-available="false"]').count()).toBe(
      1,
    );

    // Fuzzy search, the ratio column and formula.
    await p.getByLabel('模糊搜索模型名称').fill('g4omi');
    await p.waitForFunction('document.querySelectorAll(\'[data-testid^="pricing-row-"]\').length === 1');
    expect(await rowNames(p)).toEqual(['gpt-4o-mini']);
    await p.getByLabel('模糊搜索模型名称').fill('');
    await p.getByLabel('显示倍率').check();
    await p
      .getByTestId('pricing-formula')
      .getByText(/模型倍率 × 2 × 分组倍率/)
      .waitFor();
    await row.getByText(`补全倍率：${gpt4o.completion_ratio.toFixed(3)}`).waitFor();

    // Copy two selected names.
    const copy = p.getByRole('button', { name: '复制选中模型' });
    expect(await copy.isDisabled()).toBe(true);
    await p.getByLabel('选择 gpt-4o', { exact: true }).check();
    await p.getByLabel('选择 gpt-4o-mini', { exact: true }).check();
    await copy.click();
    await p.getByText('已复制 2 个模型名称').first().waitFor();
    expect(await p.evaluate<string>('navigator.clipboard.readText()')).toBe('gpt-4o,gpt-4o-mini');
    await p.screenshot({ path: screenshotPath('pricing-zh') });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('shows the top-up price in CNY when online top-up is on, in English at 390 px', async () => {
    const { app: server, root: admin } = ready();
    await putOption(admin, 'ServerAddress', server.url);
    await putOption(admin, 'PayAddress', 'https://pay.example.com/');
    await putOption(admin, 'EpayId', '1001');
    await putOption(admin, 'EpayKey', 'epay-key-secret');
    await putOption(admin, 'Price', 5);
    await putOption(admin, 'USDExchangeRate', 7.3);
    const gpt4o = await serverModel('gpt-4o');
    const p = await watchedPage(await browser('en-US'));
    await p.setViewportSize({ width: 390, height: 844 });
    await p.goto(`${server.url}/pricing`);
    await p.getByRole('heading', { name: 'Model pricing' }).waitFor();
    await p
      .getByTestId('pricing-banner')
      .getByText(/not signed in/)
      .waitFor();
    await p.getByLabel('Show at top-up price').check();
    const row = p.getByTestId('pricing-row-gpt-4o');
    const usd = formatPrice(promptPricePer1M(gpt4o, 1), { price: 5, usdExchangeRate: 7.3, currency: 'USD' });
    await row.getByText(`Prompt ${usd} / 1M tokens`).waitFor();
    await p.getByRole('combobox', { name: 'Currency' }).click();
    await p.getByRole('option', { name: 'CNY' }).click();
    const cny = formatPrice(promptPricePer1M(gpt4o, 1), { price: 5, usdExchangeRate: 7.3, currency: 'CNY' });
    expect(cny).toMatch(/^¥\d+\.\d\d$/);
    await row.getByText(`Prompt ${cny} / 1M tokens`).waitFor();
    // The table scrolls inside its box; the page itself stays 390 px wide.
    expect(await p.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await p.screenshot({ path: screenshotPath('pricing-en-390'), fullPage: true });
    await putOption(admin, 'PayAddress', '');
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('streams a playground answer as sanitized markdown and bills it to the user (zh)', async () => {
    const { app: server, root: admin, upstream: mock } = ready();
    const user = await makeUser(server, admin);
    await setQuota(server, user.userId ?? 0, START_QUOTA);
    const p = await watchedPage(await browser('zh-CN'));
    await signIn(p, user.username, user.password);
    await p.goto(`${server.url}/playground`);
    await p.getByRole('heading', { name: '操练场' }).waitFor();
    // The default model once the group's models have loaded.
    const modelInput = p.getByRole('combobox', { name: '模型' }).and(p.locator('input'));
    await modelInput.waitFor();
    for (let tries = 0; (await modelInput.inputValue()) !== 'gpt-4o-mini'; tries += 1) {
      if (tries > 100) throw new Error(`model is ${await modelInput.inputValue()}, not gpt-4o-mini`);
      await p.waitForTimeout(100);
    }

    const hostile = '**粗体** and <img src=x onerror="window.pwned=1"> `code`';
    await p.getByLabel('输入消息，Enter 发送，Shift+Enter 换行').fill(`你好 [[reply=${hostile}]]`);
    await p.keyboard.press('Enter');
    const answer = p.locator('[data-testid="chat-message"][data-role="assistant"]').last();
    await p.locator('[data-testid="chat-message"][data-role="assistant"][data-status="complete"]').waitFor();
    expect(await answer.locator('strong').textContent()).toBe('粗体');
    expect(await answer.locator('code').textContent()).toBe('code');
    expect(await answer.locator('[onerror]').count()).toBe(0);
    expect(await p.evaluate<unknown>('window.pwned')).toBeUndefined();

    // docs/decisions.md#console-extras: temperature and max_tokens are left out while 0; the system prompt leads.
    const sent = mock.last?.body as { messages: { role: string; content: string }[]; temperature?: number };
    expect(sent.messages[0]).toEqual({ role: 'system', content: '你是一个乐于助人的助手。' });
    expect(sent).not.toHaveProperty('temperature');
    expect(sent).not.toHaveProperty('max_tokens');

    await settle(server);
    const logs = (await logsOf(server, user.userId ?? 0)).filter((log) => log.type === 2);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ token_name: 'playground', model_name: 'gpt-4o-mini', is_stream: true });
    expect(logs[0].quota).toBeGreaterThan(0);
    expect(await quotaOf(server, user.userId ?? 0)).toBe(START_QUOTA - logs[0].quota);

    // An upstream failure ends the answer in the error state with a message; clearing empties the chat.
    await p
      .getByLabel('输入消息，Enter 发送，Shift+Enter 换行')
      .fill('再来 [[status=400]] [[error=bad things]]');
    await p.getByRole('button', { name: '发送' }).click();
    const failed = p.locator('[data-testid="chat-message"][data-role="assistant"][data-status="error"]');
    await failed.waitFor();
    expect((await failed.locator('.MuiAlert-message').textContent())?.trim()).not.toBe('');
    await p.getByRole('button', { name: '清除上下文' }).click();
    expect(await p.getByTestId('chat-message').count()).toBe(0);
    await p.screenshot({ path: screenshotPath('playground-zh') });
    expect(pageErrors).toEqual([]);
  }, 90_000);

  it('toggles the settings panel on a 390 px screen and chats in English', async () => {
    const { app: server, root: admin } = ready();
    const user = await makeUser(server, admin);
    await setQuota(server, user.userId ?? 0, START_QUOTA);
    const p = await watchedPage(await browser('en-US'));
    await p.setViewportSize({ width: 390, height: 844 });
    await signIn(p, user.username, user.password, false);
    await p.goto(`${server.url}/playground`);
    await p.getByRole('heading', { name: 'Playground' }).waitFor();
    const group = p.getByRole('combobox', { name: 'Group' });
    expect(await group.isVisible()).toBe(false);
    await p.getByRole('button', { name: 'Show settings' }).click();
    await group.waitFor({ state: 'visible' });
    await p.screenshot({ path: screenshotPath('playground-en-390-panel') });
    await p.keyboard.press('Escape');
    await group.waitFor({ state: 'hidden' });
    await p
      .getByLabel('Type a message; Enter sends, Shift+Enter adds a line')
      .fill('hi [[reply=Hello there]]');
    await p.getByRole('button', { name: 'Send' }).click();
    const done = p.locator('[data-testid="chat-message"][data-role="assistant"][data-status="complete"]');
    await done.getByText('Hello there').waitFor();
    await done.getByText('Complete').waitFor();
    // The conversation, the input and its buttons fit the phone's width.
    for (const part of [
      done,
      p.getByLabel('Type a message; Enter sends, Shift+Enter adds a line'),
      p.getByRole('button', { name: 'Send' }),
      p.getByRole('button', { name: 'Clear context' }),
    ]) {
      const box = await part.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    await p.screenshot({ path: screenshotPath('playground-en-390') });
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

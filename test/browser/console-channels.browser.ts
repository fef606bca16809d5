/**
 * The channels screen of the built console (host-app/dist) in Debian's Chromium against the REAL
 * Gatehouse server on a fresh SQLite database, with a mock OpenAI upstream.
 * - zh, as root: create a channel (fetching its models from the upstream), test it with a picked model,
 *   edit its priority inline, tag two channels and edit them by tag, disable/enable one channel and a
 *   whole tag, delete.
 * - en: create a channel through the /v1 warning and see the English screen.
 * - a 390 px wide phone viewport renders the screen without overflowing the page.
 * The tests run in order and share one server.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { MockUpstream } from '../mocks/mock-upstream';
import { ApiClient, setupRoot, startApp, ROOT, type TestApp } from '../support/test-app';
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

type ChannelView = Schemas['ChannelView'];

describe('channels screen against the real server (built host-app in Chromium)', () => {
  let app: TestApp | undefined;
  let root: ApiClient | undefined;
  let mock: MockUpstream | undefined;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`${join(CONSOLE_DIST, 'index.html')} is missing: run npm run build:console first.`);
    }
    assertBrowserPrerequisites();
    mock = await MockUpstream.start();
    // The mock upstream listens on loopback, which the SSRF guard refuses unless allowed.
    app = await startApp({ STATIC_DIR: CONSOLE_DIST, ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(app);
  }, 60_000);

  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await app?.close();
    await mock?.close();
  });

  function ready(): { app: TestApp; root: ApiClient; mock: MockUpstream } {
    if (!app || !root || !mock) throw new Error('beforeAll did not finish: see its error above');
    return { app, root, mock };
  }

  async function openPage(locale: string, viewport?: { width: number; height: number }): Promise<Page> {
    const browser = await launchChromium({ locale });
    browsers.push(browser);
    const page = await browser.context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    watchErrors(page, pageErrors, /^Failed to load resource/);
    return page;
  }

  async function signIn(page: Page, zh: boolean) {
    const { app: server } = ready();
    await page.goto(`${server.url}/login`);
    await page.getByLabel(zh ? '用户名/邮箱' : 'Username or email').fill(ROOT.username);
    await page.getByLabel(zh ? '密码' : 'Password', { exact: true }).fill(ROOT.password);
    await page.getByRole('button', { name: zh ? '登录' : 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${server.url}/channel`);
  }

  async function channels(): Promise<ChannelView[]> {
    const res = await ready().root.get('/api/channel/?page_size=100');
    return res.body.data.items as ChannelView[];
  }

  async function channelNamed(name: string): Promise<ChannelView> {
    const match = (await channels()).find((c) => c.name === name);
    if (!match) throw new Error(`channel ${name} not found`);
    return match;
  }

  const row = (page: Page, id: number): Locator => page.getByTestId(`channel-row-${id}`);
  const toast = (page: Page, text: string): Locator =>
    page.getByRole('alert').filter({ hasText: text }).first();
  // While a drawer is open the rest of the page (the snackbar too) is aria-hidden: find the text itself.
  const note = (page: Page, text: string): Locator => page.getByText(text).first();

  it('zh, root: create, fetch models, test, inline priority, tags, disable/enable, delete', async () => {
    const { mock: upstream, root: api } = ready();
    const page = await openPage('zh-CN');
    await signIn(page, true);
    await page.getByRole('heading', { name: '渠道管理' }).waitFor();

    // Create, with the model list fetched from the (unsaved) channel's upstream
    await page.getByRole('button', { name: '添加渠道' }).click();
    const drawer = page.getByRole('form', { name: '创建新的渠道' });
    await drawer.getByRole('button', { name: '提交' }).click();
    await drawer.getByText('请填写渠道名称和渠道密钥！').waitFor();
    await drawer.getByRole('textbox', { name: /^名称/ }).fill('主渠道');
    await drawer.getByRole('textbox', { name: /^密钥/ }).fill('sk-upstream-1');
    await drawer.getByRole('textbox', { name: '代理地址' }).fill(upstream.url);
    await drawer.getByRole('button', { name: '获取模型列表' }).click();
    await page
      .getByRole('dialog', { name: '选择上游模型' })
      .getByRole('button', { name: '应用（6 个模型）' })
      .click();
    await note(page, '模型列表已更新，共 6 个模型').waitFor();
    await drawer.getByText('gpt-4o-mini', { exact: true }).waitFor();
    expect(upstream.requests.some((r) => r.path === '/v1/models')).toBe(true);
    await drawer.getByRole('button', { name: '提交' }).click();
    await toast(page, '渠道创建成功！').waitFor();
    const main = await channelNamed('主渠道');
    expect(main.key).toBe('');
    expect(main.models?.split(',')).toContain('gpt-4o-mini');
    expect(main.base_url).toBe(upstream.url);
    await row(page, main.id).waitFor();
    await page.screenshot({ path: screenshotPath('console-channels-zh'), fullPage: true });

    // Test with a picked model: the time shows in seconds
    upstream.reset();
    await row(page, main.id).getByRole('button', { name: '选择模型测试' }).click();
    const testDialog = page.getByRole('dialog', { name: /选择模型测试/ });
    await testDialog.getByTestId('test-model-gpt-4o-mini').click();
    await testDialog.getByText(/耗时 \d+\.\d\d 秒/).waitFor();
    expect(upstream.last?.body).toMatchObject({ model: 'gpt-4o-mini' });
    await testDialog.getByRole('button', { name: '关闭' }).click();
    await testDialog.waitFor({ state: 'hidden' });

    // Inline priority, and a bad value refused without a call
    const priority = row(page, main.id).getByLabel('优先级 主渠道');
    await priority.fill('1.5');
    await priority.press('Enter');
    await toast(page, '优先级必须是整数').waitFor();
    await priority.fill('5');
    await priority.press('Enter');
    await toast(page, '已保存').waitFor();
    expect((await channelNamed('主渠道')).priority).toBe(5);

    // A second channel, then both tagged through the batch tag dialog
    const second = await api.post('/api/channel/', {
      type: 1,
      name: '备用渠道',
      key: 'sk-upstream-2',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
    });
    expect(second.body.success).toBe(true);
    const backup = await channelNamed('备用渠道');
    await page.getByRole('button', { name: '刷新' }).click();
    await row(page, backup.id).waitFor();
    await row(page, main.id)
      .getByRole('checkbox', { name: String(main.id) })
      .check();
    await row(page, backup.id)
      .getByRole('checkbox', { name: String(backup.id) })
      .check();
    await page.getByRole('button', { name: '批量设置标签' }).click();
    const tagDialog = page.getByRole('dialog', { name: '批量设置标签' });
    await tagDialog.getByLabel('标签').fill('pool');
    await tagDialog.getByRole('button', { name: '确定' }).click();
    await toast(page, '已为 2 个渠道设置标签').waitFor();
    expect((await channelNamed('主渠道')).tag).toBe('pool');
    expect((await channelNamed('备用渠道')).tag).toBe('pool');

    // Tag mode: priorities differ (5 and 0), so the tag row's priority is blank
    await page.getByRole('switch', { name: '标签聚合模式' }).check();
    const tagRow = page.getByTestId('tag-row-pool');
    await tagRow.waitFor();
    expect(await tagRow.getByLabel('优先级 pool').inputValue()).toBe('');
    expect(await tagRow.getAttribute('data-enabled')).toBe('true');
    await tagRow.getByRole('button', { name: '展开' }).click();
    await row(page, backup.id).waitFor();

    // Edit by tag
    await tagRow.getByRole('button', { name: '编辑标签' }).click();
    const tagDrawer = page.getByRole('form', { name: '编辑标签：pool' });
    await tagDrawer.getByRole('button', { name: '提交' }).click();
    await tagDrawer.getByText('没有任何修改').waitFor();
    await tagDrawer.getByLabel('优先级').fill('7');
    await tagDrawer.getByLabel('权重').fill('3');
    await tagDrawer.getByRole('button', { name: '提交' }).click();
    await toast(page, '已修改 2 个渠道').waitFor();
    for (const name of ['主渠道', '备用渠道']) {
      expect(await channelNamed(name)).toMatchObject({ priority: 7, weight: 3 });
    }
    await page.waitForFunction(
      `document.querySelector('[data-testid="tag-row-pool"]')?.getAttribute('data-priority') === '7'`,
    );

    // Disable and enable a whole tag
    await tagRow.getByRole('button', { name: '禁用全部' }).click();
    // Disabling a whole tag asks first.
    const ask = page.getByRole('dialog').filter({ hasText: '确定要禁用标签“pool”下的全部 2 个渠道吗？' });
    await ask.getByRole('button', { name: '确定' }).click();
    await page.waitForFunction(
      `document.querySelector('[data-testid="tag-row-pool"]')?.getAttribute('data-enabled') === 'false'`,
    );
    expect((await channels()).filter((c) => c.tag === 'pool').map((c) => c.status)).toEqual([2, 2]);
    await tagRow.getByRole('button', { name: '启用全部' }).click();
    await page.waitForFunction(
      `document.querySelector('[data-testid="tag-row-pool"]')?.getAttribute('data-enabled') === 'true'`,
    );
    expect((await channels()).filter((c) => c.tag === 'pool').map((c) => c.status)).toEqual([1, 1]);
    await page.screenshot({ path: screenshotPath('console-channels-tags-zh'), fullPage: true });

    // One channel: disable (greyed row), enable
    await page.getByRole('switch', { name: '标签聚合模式' }).uncheck();
    await row(page, main.id).getByRole('button', { name: '禁用' }).click();
    await page.waitForFunction(
      `document.querySelector('[data-testid="channel-row-${main.id}"]')?.getAttribute('data-enabled') === 'false'`,
    );
    expect((await channelNamed('主渠道')).status).toBe(2);
    await row(page, main.id).getByRole('button', { name: '启用' }).click();
    await page.waitForFunction(
      `document.querySelector('[data-testid="channel-row-${main.id}"]')?.getAttribute('data-enabled') === 'true'`,
    );
    expect((await channelNamed('主渠道')).status).toBe(1);

    // Delete the backup channel
    await row(page, backup.id).getByRole('button', { name: '更多' }).click();
    await page.getByRole('menuitem', { name: '删除' }).click();
    await page.getByRole('dialog', { name: '确认操作' }).getByRole('button', { name: '确定' }).click();
    await row(page, backup.id).waitFor({ state: 'detached' });
    expect((await channels()).map((c) => c.name)).not.toContain('备用渠道');
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('en: creates a channel through the /v1 warning', async () => {
    const { mock: upstream } = ready();
    const page = await openPage('en-US');
    await signIn(page, false);
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const drawer = page.getByRole('form', { name: 'Create a channel' });
    await drawer.getByRole('textbox', { name: /^Name/ }).fill('english');
    await drawer.getByRole('textbox', { name: /^Key/ }).fill('sk-en');
    await drawer.getByRole('textbox', { name: 'Proxy address' }).fill(`${upstream.url}/v1`);
    await drawer.getByText(/The address ends with \/v1/).waitFor();
    await drawer.getByRole('textbox', { name: 'Custom model names' }).fill('my-model, my-model-2');
    await drawer.getByRole('button', { name: 'Add', exact: true }).click();
    await note(page, 'Added 2 models').waitFor();
    await drawer.getByRole('spinbutton', { name: 'Requests per minute (RPM)' }).fill('-3');
    await drawer.getByRole('button', { name: 'Submit' }).click();
    await drawer.getByText(/Limits must be whole numbers/).waitFor();
    await drawer.getByRole('spinbutton', { name: 'Requests per minute (RPM)' }).fill('30');
    await drawer.getByRole('spinbutton', { name: 'Max concurrent requests' }).fill('2');
    await drawer.getByRole('button', { name: 'Submit' }).click();
    const warning = page.getByRole('dialog', { name: 'Confirm' });
    await warning.getByText(/ends with \/v1/).waitFor();
    await warning.getByRole('button', { name: 'OK' }).click();
    await toast(page, 'Channel created!').waitFor();
    const created = await channelNamed('english');
    expect(created.models).toBe('my-model,my-model-2');
    expect(created).toMatchObject({ rpm_limit: 30, tpm_limit: 0, concurrency_limit: 2 });
    await row(page, created.id).getByText('Enabled').waitFor();
    await page.screenshot({ path: screenshotPath('console-channels-en'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('en: fills the models related to the chosen channel type from the server', async () => {
    const page = await openPage('en-US');
    await signIn(page, false);
    await page.getByRole('heading', { name: 'Channels' }).waitFor();
    await page.getByRole('button', { name: 'Add channel' }).click();
    const drawer = page.getByRole('form', { name: 'Create a channel' });
    await drawer.getByRole('textbox', { name: /^Name/ }).fill('claude-related');
    await drawer.getByRole('textbox', { name: /^Key/ }).fill('sk-related');
    // OpenAI (the default type) first, then Anthropic: each fill replaces the list with that type's models.
    await drawer.getByRole('button', { name: 'Fill related models' }).click();
    await drawer.getByText('text-embedding-3-small', { exact: true }).waitFor();
    await drawer.getByRole('combobox', { name: 'Type' }).click();
    await page.getByRole('option', { name: 'Anthropic Claude' }).click();
    await drawer.getByRole('button', { name: 'Fill related models' }).click();
    await drawer.getByText('claude-sonnet-4', { exact: true }).waitFor();
    expect(await drawer.getByText('text-embedding-3-small', { exact: true }).count()).toBe(0);
    await drawer.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Channel created!').waitFor();
    const created = await channelNamed('claude-related');
    const expected = (await ready().root.get('/api/models')).body.data['14'] as string[];
    expect(expected.length).toBeGreaterThan(0);
    expect(created.models?.split(',')).toEqual(expected);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('en: merges a fetched model list into an edited channel through the picker', async () => {
    const { mock: upstream, root: api } = ready();
    const made = await api.post('/api/channel/', {
      type: 1,
      name: 'merge-me',
      key: 'sk-merge',
      base_url: upstream.url,
      models: 'custom-only,gpt-4o-mini',
    });
    expect(made.body.success).toBe(true);
    const channel = await channelNamed('merge-me');
    const upstreamModels = (
      (await (await fetch(`${upstream.url}/v1/models`)).json()) as { data: { id: string }[] }
    ).data.map((m) => m.id);
    const page = await openPage('en-US');
    await signIn(page, false);
    await row(page, channel.id).getByRole('button', { name: 'Edit' }).click();
    const drawer = page.getByRole('form', { name: 'Update channel' });
    await drawer.getByText('custom-only', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Fetch model list' }).click();
    const picker = page.getByRole('dialog', { name: 'Choose upstream models' });
    await picker
      .getByTestId('fetched-models-summary')
      .getByText(/1 of the channel models are not listed upstream/)
      .waitFor();
    // Cancel leaves the channel's list alone.
    await picker.getByRole('button', { name: 'Cancel' }).click();
    await picker.waitFor({ state: 'detached' });
    await drawer.getByText('custom-only', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Fetch model list' }).click();
    const total = new Set(['custom-only', 'gpt-4o-mini', ...upstreamModels]).size;
    await picker.getByRole('button', { name: `Apply (${total} models)` }).click();
    await drawer.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'Channel updated!').waitFor();
    const saved = (await channelNamed('merge-me')).models?.split(',') ?? [];
    expect(saved.slice(0, 2)).toEqual(['custom-only', 'gpt-4o-mini']);
    expect(new Set(saved)).toEqual(new Set(['custom-only', 'gpt-4o-mini', ...upstreamModels]));
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('en: asks before Escape or the backdrop throws away unsaved drawer edits', async () => {
    const channel = await channelNamed('merge-me');
    const page = await openPage('en-US');
    await signIn(page, false);
    const drawer = page.getByRole('form', { name: 'Update channel' });
    const ask = page.getByRole('dialog', { name: 'Discard unsaved changes?' });

    // Untouched: Escape closes at once.
    await row(page, channel.id).getByRole('button', { name: 'Edit' }).click();
    await drawer.getByText('custom-only', { exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });

    // A group picked in the autocomplete, then Escape: asked, and "Keep editing" keeps the edit.
    await row(page, channel.id).getByRole('button', { name: 'Edit' }).click();
    await drawer.getByText('custom-only', { exact: true }).waitFor();
    await drawer.getByRole('combobox', { name: 'Groups' }).click();
    await page.getByRole('option', { name: 'vip', exact: true }).click();
    // Leave the autocomplete (its own Escape would only close its list).
    await drawer.getByRole('heading', { name: 'Update channel' }).click();
    await page.keyboard.press('Escape');
    await ask.waitFor();
    // The safe choice has the focus: Enter keeps editing, it never discards.
    await page.waitForFunction("document.activeElement?.textContent === 'Keep editing'", null, {
      timeout: 5_000,
    });
    await page.keyboard.press('Enter');
    await ask.waitFor({ state: 'detached' });
    await drawer.getByRole('button', { name: 'vip', exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await ask.getByRole('button', { name: 'Keep editing' }).click();
    await drawer.getByRole('button', { name: 'vip', exact: true }).waitFor();

    // The backdrop asks too; "Discard" closes without saving.
    await page.mouse.click(20, 400);
    await ask.getByRole('button', { name: 'Discard' }).click();
    await drawer.waitFor({ state: 'detached' });
    expect((await channelNamed('merge-me')).group).toBe('default');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('renders on a 390 px phone without widening the page', async () => {
    const page = await openPage('zh-CN', { width: 390, height: 844 });
    await signIn(page, true);
    await page.getByRole('heading', { name: '渠道管理' }).waitFor();
    await page.getByRole('button', { name: '添加渠道' }).waitFor();
    await ready().root.post('/api/channel/', { type: 1, name: 'phone', key: 'sk-phone', models: 'gpt-4o' });
    await page.getByRole('button', { name: '刷新' }).click();
    await page.locator('[data-testid^="channel-row-"]').first().waitFor();
    const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(1);
    await page.screenshot({ path: screenshotPath('console-channels-mobile'), fullPage: true });
    await page.getByRole('button', { name: '添加渠道' }).click();
    const drawer = page.getByRole('form', { name: '创建新的渠道' });
    await drawer.getByRole('textbox', { name: /^名称/ }).waitFor();
    const box = await page.locator('.MuiDrawer-paper').boundingBox();
    expect(box).not.toBeNull();
    // At most the viewport, give or take sub-pixel layout rounding (seen: 390.00001).
    expect(box!.width).toBeLessThanOrEqual(390.5);
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

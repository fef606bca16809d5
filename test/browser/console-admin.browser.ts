/**
 * The users admin screen and the settings page of the built console (host-app/dist) in Debian's
 * Chromium against the REAL Gatehouse server on a fresh SQLite database.
 * - zh, as root: create, edit (with the add-quota dialog), disable a user; change a setting on every
 *   tab of the settings page and find it again after a reload (and in the database through the API).
 * - en, as an admin: peers and root get no actions, root-only settings are read-only, an admin-level
 *   setting saves and persists, a user is created.
 * The tests run in order and share one server.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import { makeToken, setQuota } from '../support/relay-fixtures';
import { ApiClient, makeUser, setupRoot, startApp, ROOT, type TestApp } from '../support/test-app';
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

describe('users admin and settings page against the real server (built host-app in Chromium)', () => {
  let app: TestApp | undefined;
  let root: ApiClient | undefined;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`${join(CONSOLE_DIST, 'index.html')} is missing: run npm run build:console first.`);
    }
    assertBrowserPrerequisites();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST });
    root = await setupRoot(app);
  }, 60_000);

  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await app?.close();
  });

  function ready(): { app: TestApp; root: ApiClient } {
    if (!app || !root) throw new Error('beforeAll did not finish: see its error above');
    return { app, root };
  }

  async function openPage(locale: string): Promise<Page> {
    const browser = await launchChromium({ locale });
    browsers.push(browser);
    const page = await browser.context.newPage();
    watchErrors(page, pageErrors, /^Failed to load resource/);
    return page;
  }

  async function signIn(
    page: Page,
    target: string,
    who: { username: string; password: string },
    zh: boolean,
  ) {
    const { app: server } = ready();
    await page.goto(`${server.url}/login`);
    await page.getByLabel(zh ? '用户名/邮箱' : 'Username or email').fill(who.username);
    await page.getByLabel(zh ? '密码' : 'Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: zh ? '登录' : 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${server.url}${target}`);
  }

  async function findUser(username: string): Promise<UserView> {
    const res = await ready().root.get(`/api/user/search?keyword=${encodeURIComponent(username)}`);
    const match = (res.body.data.items as UserView[]).find((u) => u.username === username);
    if (!match) throw new Error(`${username} not found`);
    return match;
  }

  async function option(key: string): Promise<string | undefined> {
    const res = await ready().root.get('/api/option/');
    return (res.body.data as { key: string; value: string }[]).find((item) => item.key === key)?.value;
  }

  const row = (page: Page, id: number): Locator => page.getByTestId(`user-row-${id}`);
  const panel = (page: Page, title: string): Locator =>
    page.getByRole('region', { name: title, exact: true });
  const toast = (page: Page, text: string): Locator =>
    page.getByRole('alert').filter({ hasText: text }).first();

  /** Types a new value into a panel field, saves the panel and waits for the success toast. */
  async function saveField(
    page: Page,
    panelTitle: string,
    label: string,
    value: string,
    saved: string,
    save: string,
  ) {
    const card = panel(page, panelTitle);
    const field = card.getByLabel(label, { exact: true });
    await field.fill(value);
    await card.getByRole('button', { name: save, exact: true }).click();
    await toast(page, saved).waitFor();
  }

  it('zh, root: creates a user, edits it with the add-quota dialog, disables it', async () => {
    const page = await openPage('zh-CN');
    await signIn(page, '/user', ROOT, true);
    await page.getByRole('heading', { name: '用户管理' }).waitFor();
    await page.getByText('超级管理员').first().waitFor();

    // Add
    await page.getByRole('button', { name: '添加用户' }).click();
    const drawer = page.locator('.MuiDrawer-paper');
    await drawer.getByLabel('用户名').fill('alice01');
    await drawer.getByLabel('显示名称').fill('Alice');
    await drawer.getByRole('button', { name: '提交' }).click();
    await drawer.getByText('用户名和密码不能为空！').waitFor();
    await drawer.getByLabel('密码').fill('alice-pass-1');
    await drawer.getByRole('button', { name: '提交' }).click();
    await toast(page, '用户账户创建成功！').waitFor();
    const alice = await findUser('alice01');
    expect(alice).toMatchObject({ display_name: 'Alice', role: 1, status: 1 });
    await row(page, alice.id).waitFor();

    // Search by keyword
    await page.getByLabel('搜索关键字').fill('alice');
    await page.getByRole('button', { name: '查询' }).click();
    // A string, not a function: the server tsconfig has no DOM lib, and it runs in the page anyway.
    await page.waitForFunction(`document.querySelectorAll('[data-testid^="user-row-"]').length === 1`);
    await page.screenshot({ path: screenshotPath('console-admin-users-zh'), fullPage: true });

    // Edit: display name, and a quota added through the dialog
    await row(page, alice.id).getByRole('button', { name: '编辑' }).click();
    const edit = page.locator('.MuiDrawer-paper');
    await edit.getByRole('heading', { name: new RegExp(`编辑用户 · #${alice.id}`) }).waitFor();
    await edit.getByLabel('显示名称').fill('Alice Liddell');
    await edit.getByRole('button', { name: '添加额度' }).click();
    const dialog = page.getByRole('dialog', { name: '添加额度' });
    // Taking more than the balance: the preview shows the true result and Confirm is off, as the server
    // would refuse it.
    await dialog.getByLabel('增加的额度（可为负数）').fill('-99999999');
    expect(await dialog.getByTestId('quota-new').textContent()).toBe(
      `-$${((99999999 - alice.quota) / 500000).toFixed(2)} (${alice.quota - 99999999})`,
    );
    await dialog.getByTestId('quota-below-zero').waitFor();
    expect(await dialog.getByRole('button', { name: '确定' }).isDisabled()).toBe(true);
    // ...and the server does refuse that amount.
    const refused = await ready().root.post('/api/user/manage', {
      id: alice.id,
      action: 'add_quota',
      value: -99999999,
    });
    expect(refused.body.success).toBe(false);
    expect((await findUser('alice01')).quota).toBe(alice.quota);
    await dialog.getByLabel('增加的额度（可为负数）').fill('250000');
    expect(await dialog.getByTestId('quota-below-zero').count()).toBe(0);
    expect(await dialog.getByTestId('quota-old').textContent()).toBe(
      `$${(alice.quota / 500000).toFixed(2)} (${alice.quota})`,
    );
    expect(await dialog.getByTestId('quota-delta').textContent()).toBe('+$0.50 (250000)');
    expect(await dialog.getByTestId('quota-new').textContent()).toBe(
      `$${((alice.quota + 250000) / 500000).toFixed(2)} (${alice.quota + 250000})`,
    );
    await page.screenshot({ path: screenshotPath('console-admin-add-quota-zh') });
    await dialog.getByRole('button', { name: '确定' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await findUser('alice01')).quota).toBe(alice.quota + 250000);
    await edit.getByRole('button', { name: '提交' }).click();
    await toast(page, '用户信息更新成功！').waitFor();
    // The save carried the balance the dialog left, so the quota was not added twice.
    expect(await findUser('alice01')).toMatchObject({
      display_name: 'Alice Liddell',
      quota: alice.quota + 250000,
    });

    // Saving the drawer again without touching anything writes no management log.
    const manageLogs = async () =>
      (
        (await ready().root.get('/api/log/?type=3&username=alice01&page_size=100')).body.data
          .items as unknown[]
      ).length;
    const logsBefore = await manageLogs();
    await row(page, alice.id).getByRole('button', { name: '编辑' }).click();
    await edit.getByRole('heading', { name: new RegExp(`编辑用户 · #${alice.id}`) }).waitFor();
    await edit.getByLabel('显示名称').waitFor();
    await edit.getByRole('button', { name: '提交' }).click();
    await toast(page, '用户信息更新成功！').waitFor();
    expect(await manageLogs()).toBe(logsBefore);

    // Disable, and the row says so after a reload
    await row(page, alice.id).getByRole('button', { name: '禁用' }).click();
    await toast(page, '操作成功完成！').waitFor();
    await row(page, alice.id).getByText('已封禁').waitFor();
    expect((await findUser('alice01')).status).toBe(2);
    await page.reload();
    await row(page, alice.id).getByText('已封禁').waitFor();
    await row(page, alice.id).getByRole('button', { name: '启用' }).waitFor();
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('en, root: "Models with no ratio" lists only what the relay cannot price', async () => {
    const { root: api, app: server } = ready();
    const made = await api.post('/api/channel/', {
      type: 1,
      name: 'ratio-check',
      key: 'sk-ratio-check',
      // Nothing listens there: a call the relay admits fails upstream, never for lack of a price.
      base_url: 'http://127.0.0.1:9',
      models: 'gpt-4o-mini-fail500,zz-unpriced-model',
    });
    expect(made.body.success).toBe(true);
    const page = await openPage('en-US');
    await signIn(page, '/setting', ROOT, false);
    await page.getByRole('tab', { name: 'Models with no ratio' }).click();
    await page.getByText('zz-unpriced-model', { exact: true }).waitFor();
    // Billed by the gpt-4o-mini prefix, as the relay does: not "without a ratio".
    expect(await page.getByText('gpt-4o-mini-fail500', { exact: true }).count()).toBe(0);
    // The relay agrees: of the two, it refuses only the listed model for lack of a price.
    await setQuota(server, 1, 10_000_000);
    const key = (await makeToken(server, 1, { name: 'ratio-probe' })).key;
    const call = (model: string) =>
      request(server.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .send({ model, messages: [{ role: 'user', content: 'hi' }] });
    const refused = await call('zz-unpriced-model');
    expect(refused.status).toBe(403);
    expect(refused.body.error?.code).toBe('model_price_error');
    const admitted = await call('gpt-4o-mini-fail500');
    expect(admitted.body.error?.code).not.toBe('model_price_error');
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('zh, root: a change on every settings tab persists across a reload', async () => {
    const { app: server } = ready();
    const page = await openPage('zh-CN');
    await signIn(page, '/setting', ROOT, true);
    await page.getByRole('tab', { name: '运营设置', selected: true }).waitFor();

    const cases: { tab: string; param: string; panel: string; label: string; key: string; value: string }[] =
      [
        {
          tab: '运营设置',
          param: 'operation',
          panel: '通用设置',
          label: '失败重试次数',
          key: 'RetryTimes',
          value: '3',
        },
        {
          tab: '速率限制',
          param: 'ratelimit',
          panel: '模型请求速率限制',
          label: '用户每周期最多请求完成次数',
          key: 'ModelRequestRateLimitSuccessCount',
          value: '77',
        },
        {
          tab: '模型相关设置',
          param: 'models',
          panel: 'Gemini 设置',
          label: 'Gemini 思考预算占比',
          key: 'gemini.thinking_adapter_budget_tokens_percentage',
          value: '0.5',
        },
        {
          tab: '系统设置',
          param: 'system',
          panel: '配置 SMTP',
          label: 'SMTP 服务器地址',
          key: 'SMTPServer',
          value: 'smtp.example.org',
        },
        {
          tab: '其他设置',
          param: 'other',
          panel: '个性化设置',
          label: '系统名称',
          key: 'SystemName',
          value: '门房网关',
        },
      ];
    for (const c of cases) {
      await page.getByRole('tab', { name: c.tab }).click();
      await page.waitForURL((url) => (url.searchParams.get('tab') ?? 'operation') === c.param);
      await saveField(page, c.panel, c.label, c.value, '保存成功', '保存');
      expect(await option(c.key)).toBe(c.value);
      await page.reload();
      await page.getByRole('tab', { name: c.tab, selected: true }).waitFor();
      const field = panel(page, c.panel).getByLabel(c.label, { exact: true });
      await field.waitFor();
      expect(await field.inputValue()).toBe(c.value);
      await page.screenshot({ path: screenshotPath(`console-admin-settings-${c.param}-zh`), fullPage: true });
    }

    // Saving with nothing changed only warns.
    await panel(page, '个性化设置').getByRole('button', { name: '保存' }).click();
    await toast(page, '你似乎并没有修改什么').waitFor();

    // The new system name reaches the public status (the top bar reads it).
    const status = await fetch(`${server.url}/api/status`).then(
      (r) => r.json() as Promise<{ data: { system_name: string } }>,
    );
    expect(status.data.system_name).toBe('门房网关');

    // Log clean-up (log card): needs a date, asks, then reports how many logs went.
    await page.getByRole('tab', { name: '运营设置' }).click();
    const logCard = panel(page, '日志设置');
    await logCard.getByRole('button', { name: '清除历史日志' }).click();
    await toast(page, '请选择日志记录时间').waitFor();
    await logCard.getByLabel('清除此时间之前的日志').fill('2099-01-01T00:00');
    await logCard.getByRole('button', { name: '清除历史日志' }).click();
    await page.getByRole('dialog').getByRole('button', { name: '确定' }).click();
    const cleared = toast(page, '条日志已清理！');
    await cleared.waitFor();
    // The first test wrote management logs (quota added, user disabled): at least those two went.
    expect(
      Number(/(\d+) 条日志已清理！/.exec((await cleared.textContent()) ?? '')?.[1]),
    ).toBeGreaterThanOrEqual(2);

    // Visual price table: add a per-request model and apply.
    await page.getByRole('tab', { name: '可视化倍率设置' }).click();
    await page.getByRole('button', { name: '添加模型' }).click();
    const dialog = page.getByRole('dialog', { name: '添加模型' });
    await dialog.getByLabel('模型名称').fill('browser-test-model');
    await dialog.getByLabel('按次计费').check();
    await dialog.getByLabel('固定价格（美元/次）').fill('0.04');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.getByRole('button', { name: '应用更改' }).click();
    await toast(page, '保存成功').waitFor();
    expect(JSON.parse((await option('ModelPrice')) ?? '{}')).toMatchObject({ 'browser-test-model': 0.04 });

    // A secret: typed once, sent, never shown again.
    await page.getByRole('tab', { name: '系统设置' }).click();
    await saveField(page, '配置 SMTP', 'SMTP 访问凭证', 'smtp-secret-1', '保存成功', '保存');
    expect(await option('SMTPToken')).toBeUndefined();
    await page.reload();
    expect(await panel(page, '配置 SMTP').getByLabel('SMTP 访问凭证', { exact: true }).inputValue()).toBe('');
    expect(pageErrors).toEqual([]);
  }, 180_000);

  it('en, admin: no actions on peers or root, root-only settings read-only, own changes persist', async () => {
    const { app: server, root: rootClient } = ready();
    const admin = await makeUser(server, rootClient, {
      role: 'admin',
      username: 'admin01',
      password: 'admin-pass-1',
    });
    const peer = await makeUser(server, rootClient, { role: 'admin', username: 'admin02' });
    const page = await openPage('en-US');
    await signIn(page, '/user', admin, false);
    await page.getByRole('heading', { name: 'Users' }).waitFor();

    const peerRow = row(page, peer.userId!);
    await peerRow.getByText('Not permitted').waitFor();
    expect(await peerRow.getByRole('button').count()).toBe(0);
    const rootRow = page.locator('[data-testid^="user-row-"]').filter({ hasText: 'Super admin' });
    expect(await rootRow.getByRole('button').count()).toBe(0);

    // An admin creates an ordinary user and may act on it, but may not promote (root only).
    await page.getByRole('button', { name: 'Add user' }).click();
    const drawer = page.locator('.MuiDrawer-paper');
    await drawer.getByLabel('Username').fill('bob01');
    await drawer.getByLabel('Password').fill('bob-pass-01');
    await drawer.getByRole('button', { name: 'Submit' }).click();
    await toast(page, 'User account created successfully!').waitFor();
    const bob = await findUser('bob01');
    await row(page, bob.id).getByRole('button', { name: 'Disable' }).waitFor();
    expect(await row(page, bob.id).getByRole('button', { name: 'Promote' }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath('console-admin-users-en'), fullPage: true });

    await page.goto(`${server.url}/setting?tab=system`);
    const smtp = panel(page, 'SMTP');
    await smtp.getByText('Only the super admin can change these settings').waitFor();
    expect(await smtp.getByLabel('SMTP server', { exact: true }).isDisabled()).toBe(true);

    await page.getByRole('tab', { name: 'Other' }).click();
    await saveField(page, 'About', 'About', 'Run by the platform team', 'Saved successfully', 'Save');
    await page.reload();
    expect(await panel(page, 'About').getByLabel('About', { exact: true }).inputValue()).toBe(
      'Run by the platform team',
    );
    expect(await option('About')).toBe('Run by the platform team');
    await page.screenshot({ path: screenshotPath('console-admin-settings-other-en'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

/**
 * The usage log, drawing log, task log and dashboard of the built console (host-app/dist) in Chromium
 * against the REAL server: log rows come from real relay calls with API tokens against mock upstreams
 * (chat completions, Midjourney proxy, Suno), then each screen shows them with its filters, details,
 * stat chips and charts; a user sees only their own rows; Chinese and English; a 390 px phone.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import request from 'supertest';
import { MockMidjourney } from '../mocks/midjourney';
import { MockSuno } from '../mocks/suno';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, ROOT, setupRoot, startApp, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';

type Person = { username: string; password: string };

async function waitUntil<T>(what: string, probe: () => Promise<T | null | undefined | false>, ms = 20_000) {
  const until = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

describe('logs, drawing and task logs, dashboard against the real server (Chromium)', () => {
  let app: TestApp | undefined;
  let upstream: MockUpstream | undefined;
  let midjourney: MockMidjourney | undefined;
  let suno: MockSuno | undefined;
  let root: ApiClient | undefined;
  let alice: Person & { id: number };
  let bob: Person & { id: number };
  let chatChannel = 0;
  let failedMjId = '';
  let okMjId = '';
  let sunoTaskId = '';
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`${join(CONSOLE_DIST, 'index.html')} is missing: run npm run build:console first.`);
    }
    assertBrowserPrerequisites();
    upstream = await MockUpstream.start();
    midjourney = await MockMidjourney.start();
    suno = await MockSuno.start();
    app = await startApp({
      STATIC_DIR: CONSOLE_DIST,
      ALLOW_PRIVATE_OUTBOUND: 'true',
      TASK_POLL_INTERVAL: '0.2',
      TASK_TIMEOUT: '600',
    });
    root = await setupRoot(app);
    await putOption(root, 'DrawingEnabled', true);
    await putOption(root, 'MjForwardUrlEnabled', false);
    await putOption(root, 'DataExportDefaultTime', 'day');
    const a = await makeUser(app, root);
    const b = await makeUser(app, root);
    alice = { username: a.username, password: a.password, id: a.userId! };
    bob = { username: b.username, password: b.password, id: b.userId! };
    await setQuota(app, alice.id, 10_000_000);
    await setQuota(app, bob.id, 10_000_000);
    chatChannel = await makeChannel(app, { type: 1, name: 'chat-main', base_url: upstream.url });
    await makeChannel(app, {
      type: 2,
      name: 'mj-proxy',
      base_url: midjourney.url,
      key: midjourney.secret,
      models: 'mj_imagine',
    });
    await makeChannel(app, {
      type: 36,
      name: 'suno',
      base_url: suno.url,
      key: suno.key,
      models: 'suno_music,suno_lyrics',
    });
    const aliceKey = (await makeToken(app, alice.id, { name: 'alice-key' })).key;
    const bobKey = (await makeToken(app, bob.id, { name: 'bob-key' })).key;

    const chat = async (key: string, body: Record<string, unknown>) => {
      const res = await request(app!.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .send(body);
      if (res.status !== 200) throw new Error(`relay answered ${res.status}: ${res.text}`);
    };
    await chat(aliceKey, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    await chat(aliceKey, {
      model: 'gpt-4o',
      stream: true,
      reasoning_effort: 'high',
      messages: [{ role: 'user', content: '[[usage=100,20]]' }],
    });
    await chat(aliceKey, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello' }] });
    await chat(bobKey, { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'bob here' }] });

    // Drawing tasks: one that fails, one that succeeds; and one Suno song. The poller finishes them.
    const mj = async (prompt: string) => {
      const res = await request(app!.url)
        .post('/mj/submit/imagine')
        .set('mj-api-secret', aliceKey)
        .send({ prompt });
      if (res.body.code !== 1) throw new Error(`mj submit: ${JSON.stringify(res.body)}`);
      return String(res.body.result);
    };
    failedMjId = await mj('a storm [[fail]]');
    okMjId = await mj('a red fox in snow');
    const song = await request(app.url)
      .post('/suno/submit/music')
      .set('Authorization', `Bearer ${aliceKey}`)
      .send({ prompt: '[Verse] sailing away', title: 'Sea', tags: 'folk' });
    if (song.body.code !== 'success') throw new Error(`suno submit: ${JSON.stringify(song.body)}`);
    sunoTaskId = String(song.body.data);
    const aliceApi = await new ApiClient(app.url).login(alice.username, alice.password);
    await waitUntil('drawing tasks to finish', async () => {
      const res = await aliceApi.get('/api/mj/self/?p=1&page_size=10');
      const items = res.body.data.items as { status: string }[];
      return items.length === 2 && items.every((item) => ['SUCCESS', 'FAILURE'].includes(item.status));
    });
    await waitUntil('the song to finish', async () => {
      const res = await aliceApi.get('/api/task/self?p=1&page_size=10');
      const items = res.body.data.items as { status: string }[];
      return items.length === 1 && items[0].status === 'SUCCESS';
    });
    await settle(app);
  }, 90_000);

  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await app?.close();
    await upstream?.close();
    await midjourney?.close();
    await suno?.close();
  });

  function ready(): { app: TestApp; root: ApiClient } {
    if (!app || !root) throw new Error('beforeAll did not finish: see its error above');
    return { app, root };
  }

  async function openPage(locale = 'zh-CN', viewport?: { width: number; height: number }): Promise<Page> {
    const browser = await launchChromium({ locale });
    browsers.push(browser);
    const page = await browser.context.newPage();
    if (viewport) await page.setViewportSize(viewport);
    watchErrors(page, pageErrors, /^Failed to load resource/);
    return page;
  }

  async function signIn(page: Page, who: Person, target: string, zh = true) {
    const { app: server } = ready();
    await page.goto(`${server.url}/login`);
    await page.getByLabel(zh ? '用户名/邮箱' : 'Username or email').fill(who.username);
    await page.getByLabel(zh ? '密码' : 'Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: zh ? '登录' : 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${server.url}${target}`);
  }

  const logRows = (page: Page): Locator => page.locator('[data-testid^="log-row-"]');

  it('shows a user their own consumption rows, the stat chips, filters and the expanded details (zh)', async () => {
    const page = await openPage();
    await signIn(page, alice, '/log');
    await page.getByRole('heading', { name: '使用日志' }).waitFor();
    await logRows(page).first().waitFor();
    // Three relay calls of alice plus the task charges; never bob's token.
    const text = (await page.getByRole('table', { name: '使用日志' }).textContent()) ?? '';
    expect(text).toContain('alice-key');
    expect(text).not.toContain('bob-key');
    expect(text).toContain('gpt-4o-mini');
    // No admin columns or filters for a user.
    expect(await page.getByRole('columnheader', { name: '渠道' }).count()).toBe(0);
    expect(await page.getByLabel('用户名称').count()).toBe(0);

    const stat = page.getByTestId('log-stat');
    const aliceStat = await new ApiClient(ready().app.url).login(alice.username, alice.password);
    const expected = (await aliceStat.get('/api/log/self/stat')).body.data as { quota: number };
    expect(expected.quota).toBeGreaterThan(0);
    expect(await stat.textContent()).toMatch(/消耗额度：\S+/);
    expect(await stat.textContent()).toMatch(/RPM：\d+/);
    expect(await stat.textContent()).toMatch(/TPM：\d+/);

    // Filter by model: only the mini row stays.
    await page.getByLabel('模型名称').fill('gpt-4o-mini');
    const filtered = page.waitForResponse(
      (res) => res.url().includes('/api/log/self/') && res.url().includes('model_name=gpt-4o-mini'),
    );
    await page.getByRole('button', { name: '查询' }).click();
    await filtered;
    await waitUntil('one filtered row', async () => (await logRows(page).count()) === 1);
    expect(await logRows(page).first().textContent()).toContain('gpt-4o-mini');

    // The streamed call: expand it and read every other key (ratios, reasoning, frt, cache...).
    await page.getByLabel('模型名称').fill('');
    await page.getByRole('button', { name: '查询' }).click();
    const streamed = logRows(page).filter({ hasText: 'gpt-4o' }).filter({ hasNotText: '非流' });
    await streamed.first().waitFor();
    await streamed.first().click();
    const details = page.locator('[data-testid^="log-details-"]').first();
    await details.waitFor();
    const detailText = (await details.textContent()) ?? '';
    for (const label of [
      '模型倍率',
      '补全倍率',
      '分组倍率',
      '缓存 Tokens',
      '推理强度',
      'high',
      '首字时间（毫秒）',
      '客户端类型',
      '请求 ID',
    ]) {
      expect(detailText).toContain(label);
    }
    // A user's details never carry the channels tried.
    expect(detailText).not.toContain('使用渠道');
    await page.screenshot({ path: screenshotPath('console-logs-user-zh'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('gives admins every user, the channel column, the username filter and the user-info popup', async () => {
    const page = await openPage();
    await signIn(page, ROOT, '/log');
    await logRows(page).first().waitFor();
    const table = page.getByRole('table', { name: '使用日志' });
    await table.getByText('bob-key').first().waitFor();
    expect(await table.textContent()).toContain('alice-key');
    expect(await page.getByRole('columnheader', { name: '渠道' }).count()).toBe(1);

    await page.getByLabel('用户名称').fill(bob.username);
    await page.getByRole('button', { name: '查询' }).click();
    await waitUntil('bob rows only', async () => {
      const all = await logRows(page).allTextContents();
      return all.length > 0 && all.every((row) => !row.includes('alice-key'));
    });
    const bobRow = logRows(page).filter({ hasText: 'bob-key' });
    expect(await bobRow.count()).toBe(1);
    expect(await bobRow.textContent()).toContain(String(chatChannel));
    await bobRow.getByRole('button', { name: `查看用户信息: ${bob.username}` }).click();
    const info = page.getByTestId('user-info');
    await info.waitFor();
    expect(await info.textContent()).toContain(bob.username);
    expect(await info.textContent()).toMatch(/请求次数1/);
    await page.screenshot({ path: screenshotPath('console-logs-admin-popup'), fullPage: true });
    await page.getByRole('button', { name: '关闭' }).click();

    // The expanded admin row names the channel used.
    await bobRow.click();
    const details = page.locator('[data-testid^="log-details-"]').first();
    await details.waitFor();
    expect(await details.textContent()).toContain(`使用渠道${chatChannel}`);

    // The start picker: typing a time in 2030 leaves nothing to show, and the query says so.
    const startField = page.getByRole('group', { name: '开始时间' });
    await startField.getByRole('spinbutton').first().click();
    await page.keyboard.type('20300101000000');
    const future = page.waitForResponse(
      (res) => res.url().includes('/api/log/?') && res.url().includes('start_timestamp='),
    );
    await page.getByRole('button', { name: '查询' }).click();
    const sent = new URL((await future).url()).searchParams;
    expect(Number(sent.get('start_timestamp'))).toBe(new Date(2030, 0, 1, 0, 0, 0).getTime() / 1000);
    await page.getByText('没有日志').waitFor();
    await page.getByRole('button', { name: '重置' }).click();
    await logRows(page).first().waitFor();
    await page.getByLabel('用户名称').fill(bob.username);
    await page.getByRole('button', { name: '查询' }).click();
    await waitUntil(
      'bob rows again',
      async () => (await logRows(page).filter({ hasText: 'bob-key' }).count()) === 1,
    );

    // The type dropdown: top-ups/management of bob are not consumption; "error" has no rows.
    await page.getByRole('combobox', { name: '日志类型' }).click();
    await page.getByRole('option', { name: '错误' }).click();
    await page.getByText('没有日志').waitFor();
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('renders the dashboard chart by model with the status default granularity, per user for admins', async () => {
    const page = await openPage();
    await signIn(page, alice, '/detail');
    await page.getByRole('heading', { name: '数据看板' }).waitFor();
    const chart = page.getByTestId('chart-quota');
    await chart.locator('svg').first().waitFor();
    // DataExportDefaultTime = day: the "day" toggle starts pressed.
    expect(await page.getByRole('button', { name: '天', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    const models = page.getByTestId('dashboard-models');
    await models.getByText('gpt-4o-mini').waitFor();
    const modelText = (await models.textContent()) ?? '';
    expect(modelText).toContain('gpt-4o');
    // Bars were drawn for the consumption.
    expect(await chart.locator('svg rect, svg path').count()).toBeGreaterThan(0);
    const totals = (await page.getByTestId('dashboard-totals').textContent()) ?? '';
    expect(totals).toMatch(/请求次数\d+/);

    const hourly = page.waitForResponse(
      (res) => res.url().includes('/api/data/self') && res.url().includes('default_time=hour'),
    );
    await page.getByRole('button', { name: '小时', exact: true }).click();
    await hourly;
    expect(await page.getByRole('button', { name: '小时', exact: true }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    await page.screenshot({ path: screenshotPath('console-dashboard-user'), fullPage: true });

    const admin = await openPage();
    await signIn(admin, ROOT, '/detail');
    await admin.getByTestId('dashboard-models').getByText('gpt-4o-mini').waitFor();
    await admin.getByLabel('用户名称').fill(bob.username);
    await admin.getByRole('button', { name: '查询' }).click();
    await admin.getByTestId('dashboard-viewing').filter({ hasText: bob.username }).waitFor();
    await waitUntil('bob only used gpt-4o-mini', async () => {
      const rows = await admin.getByTestId('dashboard-models').locator('tbody tr').allTextContents();
      return rows.length === 1 && rows[0].startsWith('gpt-4o-mini');
    });
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('lists drawing tasks with status, failure reason modal and image viewer; admins see the callback banner', async () => {
    const page = await openPage();
    await signIn(page, alice, '/midjourney');
    await page.getByRole('heading', { name: '绘图日志' }).waitFor();
    const rows = page.locator('[data-testid^="drawing-row-"]');
    await rows.nth(1).waitFor();
    expect(await page.getByTestId('mj-callback-banner').count()).toBe(0);
    const failed = rows.filter({ hasText: failedMjId });
    expect(await failed.textContent()).toContain('失败');
    await failed.getByText('Job action restricted').click();
    expect(await page.getByTestId('drawing-text').textContent()).toBe('Job action restricted');
    await page.getByRole('button', { name: '关闭' }).click();
    await page.getByTestId('drawing-text').waitFor({ state: 'detached' });
    const ok = rows.filter({ hasText: okMjId });
    expect(await ok.textContent()).toContain('成功');
    await ok.getByRole('button', { name: '查看图片' }).click();
    const image = page.getByTestId('image-viewer');
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    await page.screenshot({ path: screenshotPath('console-drawing-log'), fullPage: true });

    const admin = await openPage();
    await signIn(admin, ROOT, '/midjourney');
    await admin.getByTestId('mj-callback-banner').waitFor();
    expect(await admin.getByRole('columnheader', { name: '渠道' }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('lists the Suno task and shows its record as JSON (en)', async () => {
    const page = await openPage('en-US');
    await signIn(page, alice, '/task', false);
    await page.getByRole('heading', { name: 'Task logs' }).waitFor();
    const row = page.locator('[data-testid^="task-row-"]').first();
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    for (const expected of ['Suno', 'Music', 'Success', '100%']) expect(text).toContain(expected);
    await row.getByText(sunoTaskId).click();
    const record = JSON.parse((await page.getByTestId('task-modal-text').textContent()) ?? '{}') as {
      task_id: string;
      platform: string;
      channel_id?: number;
    };
    expect(record).toMatchObject({ task_id: sunoTaskId, platform: 'suno' });
    // A user's record carries no channel.
    expect(record.channel_id).toBeUndefined();

    await page.getByRole('button', { name: 'Close' }).click();
    await page.goto(`${ready().app.url}/log`);
    await page.getByRole('heading', { name: 'Usage logs' }).waitFor();
    await logRows(page).first().waitFor();
    expect(await page.getByTestId('log-stat').textContent()).toMatch(/Quota used: .+RPM: \d+TPM: \d+/);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('works on a 390 px phone: two pickers, no page overflow, rows readable (bob sees only his own)', async () => {
    const page = await openPage('zh-CN', { width: 390, height: 844 });
    await signIn(page, bob, '/log');
    await logRows(page).first().waitFor();
    expect(await page.getByTestId('range-mobile').count()).toBe(1);
    expect(await page.getByTestId('range-desktop').count()).toBe(0);
    const all = await logRows(page).allTextContents();
    expect(all.filter((row) => row.includes('bob-key'))).toHaveLength(1);
    expect(all.some((row) => row.includes('alice-key'))).toBe(false);
    // Two separate pickers, each opening its own dialog.
    await page.getByRole('button', { name: '开始时间' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await page.screenshot({ path: screenshotPath('console-logs-mobile-picker'), fullPage: true });
    await dialog.getByRole('button', { name: '取消' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Rows expand on a phone too.
    await logRows(page).filter({ hasText: 'bob-key' }).click();
    expect(await page.locator('[data-testid^="log-details-"]').first().textContent()).toContain('模型倍率');
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth');
    expect(overflow).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('console-logs-mobile'), fullPage: true });

    await page.goto(`${ready().app.url}/detail`);
    await page.getByTestId('chart-quota').locator('svg').first().waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: screenshotPath('console-dashboard-mobile'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 60_000);
});

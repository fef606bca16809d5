/**
 * Usage data out in the built console (host-app/dist) against the REAL server, in Chromium: the log
 * screen exports its filtered view as CSV (a user: their own rows only) with a progress dialog, and the
 * reports page shows usage by period × dimension whose total row equals the logs.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { LogEntry } from '../../server/src/database/entities';
import { makeUser, putOption, ROOT, setupRoot, startApp, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';

type Person = { username: string; password: string; id: number };

describe('log export and usage reports (Chromium, real server)', () => {
  let app: TestApp | undefined;
  let alice: Person;
  let bob: Person;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];
  const now = Math.floor(Date.now() / 1000);

  beforeAll(async () => {
    assertBrowserPrerequisites();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST });
    const root = await setupRoot(app);
    await putOption(root, 'TimeZone', 'Asia/Shanghai');
    const a = await makeUser(app, root);
    const b = await makeUser(app, root);
    alice = { username: a.username, password: a.password, id: a.userId! };
    bob = { username: b.username, password: b.password, id: b.userId! };
    const rows: Array<Partial<LogEntry>> = [];
    for (let i = 0; i < 250; i++) {
      const who = i % 5 === 0 ? bob : alice;
      rows.push({
        user_id: who.id,
        username: who.username,
        created_at: now - (i % 10),
        type: 2,
        content: `call ${i}`,
        token_name: `${who.username}-key`,
        model_name: i % 2 ? 'gpt-4o' : 'gpt-4o-mini',
        quota: 100 + i,
        prompt_tokens: 10,
        completion_tokens: 5,
        group: 'default',
      });
    }
    await app.ds
      .getRepository(LogEntry)
      .createQueryBuilder()
      .insert()
      .values(rows)
      .updateEntity(false)
      .execute();
  });

  afterAll(async () => {
    for (const b of browsers) await b.close();
    await app?.close();
  });

  afterEach(() => {
    expect(pageErrors).toEqual([]);
    pageErrors.length = 0;
  });

  async function openPage(locale = 'zh-CN'): Promise<Page> {
    const browser = await launchChromium({ locale });
    browsers.push(browser);
    const page = await browser.context.newPage();
    watchErrors(page, pageErrors, /^Failed to load resource/);
    return page;
  }

  async function signIn(page: Page, who: { username: string; password: string }, target: string, zh = true) {
    await page.goto(`${app!.url}/login`);
    await page.getByLabel(zh ? '用户名/邮箱' : 'Username or email').fill(who.username);
    await page.getByLabel(zh ? '密码' : 'Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: zh ? '登录' : 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname !== '/login');
    await page.goto(`${app!.url}${target}`);
  }

  it('exports the filtered log view as CSV with progress; a user gets only their own rows', async () => {
    const page = await openPage();
    await signIn(page, alice, '/log');
    await page.getByRole('heading', { name: '使用日志' }).waitFor();
    await page.locator('[data-testid^="log-row-"]').first().waitFor();
    await page.getByRole('button', { name: '导出', exact: true }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: '导出 CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^logs-\d{8}-\d{6}\.csv$/);
    await page.getByTestId('export-done').waitFor();
    // Her 200 calls plus the account's own log rows (every type is in the view).
    const own = await app!.ds.getRepository(LogEntry).countBy({ user_id: alice.id });
    expect(own).toBeGreaterThanOrEqual(200);
    expect(await page.getByTestId('export-done').textContent()).toBe(`已导出 ${own} 行`);
    await page.screenshot({ path: screenshotPath('log-export-done') });
    const text = readFileSync(await file.path(), 'utf8');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(own + 1);
    expect(
      lines[0]
        .replace(/^\uFEFF/, '')
        .split(',')
        .slice(0, 4),
    ).toEqual(['id', 'created_at', 'type', 'username']);
    expect(text).not.toContain(bob.username);
    await page.getByRole('button', { name: '关闭' }).click();
  });

  it('exports the log view as JSON Lines (an NDJSON answer is the file, not an error)', async () => {
    for (const [locale, zh] of [
      ['zh-CN', true],
      ['en-US', false],
    ] as const) {
      const page = await openPage(locale);
      await signIn(page, bob, '/log', zh);
      await page.getByRole('heading', { name: zh ? '使用日志' : 'Usage logs' }).waitFor();
      await page.locator('[data-testid^="log-row-"]').first().waitFor();
      await page.getByRole('button', { name: zh ? '导出' : 'Export', exact: true }).click();
      const download = page.waitForEvent('download', { timeout: 15_000 });
      await page.getByRole('menuitem', { name: zh ? '导出 JSON Lines' : 'Export JSON Lines' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^logs-\d{8}-\d{6}\.jsonl$/);
      await page.getByTestId('export-done').waitFor();
      const own = await app!.ds.getRepository(LogEntry).countBy({ user_id: bob.id });
      expect(await page.getByTestId('export-done').textContent()).toBe(
        zh ? `已导出 ${own} 行` : `${own} rows exported`,
      );
      const rows = readFileSync(await file.path(), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { username?: string });
      expect(rows).toHaveLength(own);
      expect(rows.every((row) => row.username === bob.username)).toBe(true);
    }
  });

  it('shows an admin the usage report by user, with totals equal to the logs (en)', async () => {
    const page = await openPage('en-US');
    await signIn(page, ROOT, '/report', false);
    await page.getByRole('heading', { name: 'Usage reports' }).waitFor();
    await page.getByText('Time zone: Asia/Shanghai').waitFor();
    await page.getByTestId('report-totals').waitFor();
    expect(await page.getByTestId('report-totals').locator('td').nth(1).textContent()).toBe('250');

    await page.getByTestId('report-dimension').locator('..').click();
    await page.getByRole('option', { name: 'User' }).click();
    const table = page.getByRole('table', { name: 'Usage reports' });
    await table.getByRole('columnheader', { name: 'User' }).waitFor();
    const aliceRow = table.getByRole('row').filter({ hasText: alice.username });
    await aliceRow.first().waitFor();
    expect(await aliceRow.locator('td').nth(2).textContent()).toBe('200');
    expect(
      await table.getByRole('row').filter({ hasText: bob.username }).locator('td').nth(2).textContent(),
    ).toBe('50');
    expect(await page.getByTestId('report-totals').locator('td').nth(1).textContent()).toBe('250');
    await page.screenshot({ path: screenshotPath('usage-report-by-user') });

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^report-day-user-\d{8}\.csv$/);
    const csv = readFileSync(await file.path(), 'utf8')
      .trim()
      .split('\n');
    expect(csv.at(-1)).toMatch(/^total,,,,250,/);
    expect(csv.filter((line) => line.includes(alice.username))).toHaveLength(1);
  });

  it('lets a user pick only their own dimensions (no channel)', async () => {
    const page = await openPage();
    await signIn(page, bob, '/report');
    await page.getByRole('heading', { name: '用量报表' }).waitFor();
    await page.getByTestId('report-totals').waitFor();
    expect(await page.getByTestId('report-totals').locator('td').nth(1).textContent()).toBe('50');
    await page.getByTestId('report-dimension').locator('..').click();
    await page.getByRole('option', { name: '用户' }).waitFor();
    expect(await page.getByRole('option', { name: '渠道' }).count()).toBe(0);
  });
});

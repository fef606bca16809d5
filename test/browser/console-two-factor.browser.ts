/**
 * Two-factor sign-in in the built console (host-app/dist), in Chromium, against the real server: a user
 * enrols an authenticator app from the QR dialog (codes computed here with otplib, as the phone would),
 * signs in with password + code, confirms a sensitive action in the step-up dialog, adds a passkey with
 * Chromium's virtual authenticator (DevTools WebAuthn domain) and signs in with the passkey alone.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { Page } from 'playwright-core';
import { makeUser, ROOT, setupRoot, startApp, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';

describe('two-factor sign-in and passkeys in the console', () => {
  let app: TestApp | undefined;
  let browser: BrowserHarness | undefined;
  let page: Page | undefined;
  let base = '';
  let user = { username: '', password: '' };
  let secret = '';
  let offset = 0;
  const realNow = Date.now.bind(Date);
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`${join(CONSOLE_DIST, 'index.html')} is missing: run npm run build:console first.`);
    }
    assertBrowserPrerequisites();
    // The server runs in this process: moving its clock lets the next authenticator code count as new.
    jest.spyOn(Date, 'now').mockImplementation(() => realNow() + offset);
    app = await startApp({ STATIC_DIR: CONSOLE_DIST });
    const root = await setupRoot(app);
    user = await makeUser(app, root);
    // WebAuthn needs a domain (not an IP address) as the relying party.
    base = app.url.replace('127.0.0.1', 'localhost');
    browser = await launchChromium({ locale: 'zh-CN' });
    page = await browser.context.newPage();
    // A refused second step shows as a failed resource in the console; that is the point of some steps.
    watchErrors(page, pageErrors, /Failed to load resource/);
  }, 60_000);

  afterAll(async () => {
    jest.restoreAllMocks();
    await browser?.close();
    await app?.close();
  });

  function ready(): Page {
    if (!page) throw new Error('beforeAll did not finish: see its error above');
    return page;
  }

  /** The authenticator's code at the server's time, after moving to a step not used yet. */
  async function nextCode(): Promise<string> {
    offset += 30_000;
    return generate({ secret, epoch: Math.floor(Date.now() / 1000) });
  }

  async function signOut(p: Page): Promise<void> {
    await browser!.context.clearCookies();
    await p.evaluate('window.localStorage.clear()');
  }

  async function passwordStep(p: Page): Promise<void> {
    await p.goto(`${base}/login`);
    await p.getByLabel('用户名/邮箱').fill(user.username);
    await p.getByLabel('密码', { exact: true }).fill(user.password);
    await p.getByRole('button', { name: '登录', exact: true }).click();
  }

  async function openSecurityTab(p: Page): Promise<void> {
    await p.goto(`${base}/personal`);
    await p.getByRole('tab', { name: '安全设置' }).click();
    await p.getByTestId('two-factor-panel').waitFor();
  }

  it('enrols an authenticator app from the QR dialog and shows the recovery codes once', async () => {
    const p = ready();
    await passwordStep(p);
    await p.waitForURL(/\/token$/);
    await openSecurityTab(p);
    await p.getByRole('button', { name: '启用身份验证器' }).click();
    const dialog = p.getByRole('dialog', { name: '启用身份验证器' });
    await expect(dialog.locator('img[alt="otpauth QR"]').getAttribute('src')).resolves.toMatch(
      /^data:image\/png;base64,/,
    );
    // Shown in blocks of 4, whole inside its field; the copy button copies it without the spaces.
    const shown = await dialog.getByTestId('totp-secret').inputValue();
    expect(shown).toMatch(/^([A-Z2-7]{4} )+[A-Z2-7]{1,4}$/);
    secret = shown.replace(/ /g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const field = dialog.getByTestId('totp-secret');
    type Box = { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number };
    const fits = await field.evaluate(
      (el: Box) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1,
    );
    expect(fits).toBe(true);
    await p.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await dialog.getByRole('button', { name: '复制密钥' }).click();
    await p.getByText('已复制').first().waitFor();
    expect(await p.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await dialog.getByLabel('6 位验证码').fill(await nextCode());
    await dialog.getByRole('button', { name: '确认启用' }).click();
    const codes = await p.getByTestId('recovery-codes').textContent();
    expect(codes?.trim().split('\n')).toHaveLength(10);
    await p.getByRole('button', { name: '我已保存' }).click();
    await expect(p.getByTestId('two-factor-panel').getByText('已启用').isVisible()).resolves.toBe(true);
    await p.screenshot({ path: screenshotPath('two-factor-enrolled'), fullPage: true });
  });

  it('signs in with the password and then an authenticator code', async () => {
    const p = ready();
    await signOut(p);
    await passwordStep(p);
    await p.getByRole('heading', { name: '两步验证' }).waitFor();
    expect(await p.evaluate("window.localStorage.getItem('user')")).toBeNull();
    await p.getByLabel('验证码或恢复码').fill('000000');
    await p.getByRole('button', { name: '验证并登录' }).click();
    await p.getByRole('alert').filter({ hasText: '两步验证码错误或已使用' }).waitFor();
    await p.getByLabel('验证码或恢复码').fill(await nextCode());
    await p.getByRole('button', { name: '验证并登录' }).click();
    await p.waitForURL(/\/token$/);
    const stored = JSON.parse(
      (await p.evaluate<string | null>("window.localStorage.getItem('user')")) ?? '{}',
    ) as {
      username?: string;
    };
    expect(stored.username).toBe(user.username);
  });

  it('asks to confirm a sensitive action once the last check is old, then carries it out', async () => {
    const p = ready();
    await openSecurityTab(p);
    offset += 601_000; // the sign-in no longer counts as a fresh check
    await p.getByRole('button', { name: '生成/重置访问令牌' }).click();
    const dialog = p.getByRole('dialog', { name: '验证身份' });
    await dialog.waitFor();
    await dialog.getByLabel('两步验证码或恢复码').fill(await nextCode());
    await dialog.getByRole('button', { name: '验证' }).click();
    await expect(p.getByTestId('access-token').inputValue()).resolves.toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('adds a passkey with the browser’s authenticator and signs in with it alone', async () => {
    const p = ready();
    const cdp = await browser!.context.newCDPSession(p);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await openSecurityTab(p);
    await p.getByLabel('名称（可选）').fill('Chromium');
    await p.getByRole('button', { name: '添加通行密钥' }).click();
    // the last check is recent (the step-up just now), so no dialog: the passkey is listed
    await p.getByTestId('two-factor-panel').getByText('Chromium', { exact: true }).waitFor();

    await signOut(p);
    await p.goto(`${base}/login`);
    await p.getByRole('button', { name: '使用通行密钥登录' }).click();
    await p.waitForURL(/\/token$/);
    const stored = JSON.parse(
      (await p.evaluate<string | null>("window.localStorage.getItem('user')")) ?? '{}',
    ) as {
      username?: string;
    };
    expect(stored.username).toBe(user.username);
    await p.screenshot({ path: screenshotPath('two-factor-passkey-signed-in'), fullPage: true });
  });

  it('shows admins the audit trail, filtered, with a CSV download', async () => {
    const p = ready();
    await signOut(p);
    await p.goto(`${base}/login`);
    await p.getByLabel('用户名/邮箱').fill(ROOT.username);
    await p.getByLabel('密码', { exact: true }).fill(ROOT.password);
    await p.getByRole('button', { name: '登录', exact: true }).click();
    await p.waitForURL(/\/token$/);
    await p.getByRole('link', { name: '审计日志' }).click();
    await p.getByRole('heading', { name: '审计日志' }).waitFor();
    const created = p
      .getByTestId('audit-row')
      .filter({ hasText: '创建用户' })
      .filter({ hasText: user.username });
    await created.waitFor();
    await p.getByLabel('操作人').fill('nobody-at-all');
    await p.getByRole('button', { name: '查询' }).click();
    await p.getByText('没有记录').waitFor();
    await p.getByRole('button', { name: '重置' }).click();
    await created.waitFor();
    const [download] = await Promise.all([
      p.waitForEvent('download'),
      p.getByRole('button', { name: '导出 CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
    await p.screenshot({ path: screenshotPath('audit-trail'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});

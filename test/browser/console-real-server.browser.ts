/**
 * The built console (host-app/dist) in Debian's Chromium against the REAL Gatehouse server on a fresh
 * SQLite database: the setup wizard initialises the system, the login page signs root in, the session
 * cookie stays out of reach of page scripts and the console's API calls carry `New-Api-User`.
 * The tests run in order and share one server, one browser profile and one page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { Page, Request, Response } from 'playwright-core';
import { startApp, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';

const ADMIN = { username: 'rootadmin', password: 'Root-pass-2024' };

interface SeenApiRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
}

describe('console against the real server (built host-app in Chromium)', () => {
  let app: TestApp | undefined;
  let browser: BrowserHarness | undefined;
  let page: Page | undefined;
  const pageErrors: string[] = [];
  const apiRequests: SeenApiRequest[] = [];

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(
        `${join(CONSOLE_DIST, 'index.html')} is missing: run npm run build:console before the browser tests.`,
      );
    }
    assertBrowserPrerequisites();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST });
    browser = await launchChromium({ locale: 'zh-CN' });
    page = await browser.context.newPage();
    watchErrors(page, pageErrors, null);
    page.on('request', (request: Request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) {
        apiRequests.push({ method: request.method(), path: pathname, headers: request.headers() });
      }
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  function ready(): { app: TestApp; page: Page } {
    if (!app || !page) {
      throw new Error('beforeAll did not finish: see its error above');
    }
    return { app, page };
  }

  async function api<T>(path: string): Promise<T> {
    const response = await fetch(`${ready().app.url}${path}`);
    const body = (await response.json()) as { success: boolean; message: string; data: T };
    expect(body.success).toBe(true);
    return body.data;
  }

  const pathOf = (p: Page): string => new URL(p.url()).pathname;
  // Strings, not functions: the server tsconfig has no DOM lib, and these run in the page anyway.
  const storedUser = (p: Page): Promise<string | null> =>
    p.evaluate<string | null>("window.localStorage.getItem('user')");

  it('initialises the system through the setup wizard', async () => {
    const { app: server, page: p } = ready();
    await p.goto(`${server.url}/`);
    await p.waitForURL((url) => url.pathname === '/setup');

    await p.getByLabel('用户名').fill(ADMIN.username);
    await p.getByLabel('密码', { exact: true }).fill(ADMIN.password);
    await p.getByLabel('确认密码').fill(ADMIN.password);
    await p.getByRole('radio', { name: '自用模式' }).check();
    await p.screenshot({ path: screenshotPath('console-real-setup'), fullPage: true });

    const reloaded = p.waitForEvent('load', { timeout: 10_000 });
    await p.getByRole('button', { name: '初始化系统' }).click();
    await p.getByRole('alert').filter({ hasText: '系统初始化成功' }).first().waitFor();
    await reloaded;
    await p.waitForURL((url) => url.pathname !== '/setup');
    await p.getByRole('heading', { name: '欢迎使用 Gatehouse' }).waitFor();
    expect(pathOf(p)).toBe('/');
    await p.screenshot({ path: screenshotPath('console-real-after-setup'), fullPage: true });

    const setup = await api<{ status: boolean; root_init: boolean; database_type: string }>('/api/setup');
    expect(setup).toMatchObject({ status: true, root_init: true, database_type: 'sqlite' });
    const status = await api<{ setup: boolean; self_use_mode_enabled: boolean; demo_site_enabled: boolean }>(
      '/api/status',
    );
    expect(status).toMatchObject({ setup: true, self_use_mode_enabled: true, demo_site_enabled: false });
    expect(pageErrors).toEqual([]);
  }, 30_000);

  it('refuses a wrong password with the server message, then signs root in', async () => {
    const { app: server, page: p } = ready();
    await p.goto(`${server.url}/login`);
    const username = p.getByLabel('用户名/邮箱');
    await username.waitFor();
    await username.fill(ADMIN.username);
    await p.getByLabel('密码', { exact: true }).fill('wrong-password-1');
    await p.getByRole('button', { name: '登录', exact: true }).click();
    const refusal = p.getByRole('alert').filter({ hasText: '用户名或密码错误' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('用户名或密码错误，或用户已被封禁');
    expect(pathOf(p)).toBe('/login');
    expect(await storedUser(p)).toBeNull();
    await p.screenshot({ path: screenshotPath('console-real-login-failed'), fullPage: true });

    await p.getByLabel('密码', { exact: true }).fill(ADMIN.password);
    await p.getByRole('button', { name: '登录', exact: true }).click();
    await p.waitForURL((url) => url.pathname === '/token');

    const stored = await storedUser(p);
    expect(stored).not.toBeNull();
    const user = JSON.parse(stored ?? 'null') as { id: unknown; username: string; role: number };
    expect(user).toMatchObject({ username: ADMIN.username, role: 100 });
    expect(typeof user.id).toBe('number');
    await p.screenshot({ path: screenshotPath('console-real-after-login'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 30_000);

  it('keeps the session cookie HttpOnly and sends New-Api-User on API calls', async () => {
    const { app: server, page: p } = ready();
    const stored = JSON.parse((await storedUser(p)) ?? 'null') as {
      id: number;
    } | null;
    expect(stored).not.toBeNull();

    const cookies = await p.context().cookies(server.url);
    const session = cookies.find((cookie) => cookie.name === 'session');
    expect(session).toBeDefined();
    expect(session?.httpOnly).toBe(true);
    expect(await p.evaluate<string>('document.cookie')).not.toContain('session');

    // A reload makes the console fetch /api/status again, now as a signed-in user.
    const seenBefore = apiRequests.length;
    const statusAnswered = p.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/status',
    );
    await p.reload();
    await statusAnswered;
    expect(pathOf(p)).toBe('/token');
    const statusCall = apiRequests.slice(seenBefore).find((request) => request.path === '/api/status');
    expect(statusCall?.headers['new-api-user']).toBe(String(stored?.id));

    // The login call itself went out before anyone was signed in.
    const loginCalls = apiRequests.filter((request) => request.path === '/api/user/login');
    expect(loginCalls).toHaveLength(2);
    expect(loginCalls.every((call) => call.headers['new-api-user'] === undefined)).toBe(true);

    // The cookie the page cannot read still authenticates the page's own calls.
    const self = await p.evaluate(async (id) => {
      const response = await fetch('/api/user/self', { headers: { 'New-Api-User': String(id) } });
      return (await response.json()) as { success: boolean; data?: { username?: string; role?: number } };
    }, stored?.id);
    expect(self).toMatchObject({ success: true, data: { username: ADMIN.username, role: 100 } });
    expect(pageErrors).toEqual([]);
  }, 30_000);

  it('sends the built files precompressed (br, gzip) with Vary; hashed ones immutable, the page revalidated', async () => {
    const { app: server, page: p } = ready();
    // What Chromium fetched for the console: every script and stylesheet compressed, and cacheable.
    const assets: Array<{ path: string; encoding?: string; cache?: string; vary?: string }> = [];
    const onResponse = (response: Response) => {
      const { pathname } = new URL(response.url());
      if (pathname.startsWith('/assets/') && /\.(js|css)$/.test(pathname)) {
        const headers = response.headers();
        assets.push({
          path: pathname,
          encoding: headers['content-encoding'],
          cache: headers['cache-control'],
          vary: headers.vary,
        });
      }
    };
    const fresh = await p.context().browser()!.newContext({ locale: 'zh-CN' });
    const other = await fresh.newPage();
    other.on('response', onResponse);
    const document = await other.goto(`${server.url}/login`);
    await other.getByRole('button', { name: '登录', exact: true }).waitFor();
    expect(document?.headers()['cache-control']).toBe('no-cache');
    expect(document?.headers()['content-encoding']).toMatch(/^(br|gzip)$/);
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect([asset.path, asset.cache]).toEqual([asset.path, 'public, max-age=31536000, immutable']);
      expect([asset.path, asset.vary?.toLowerCase()]).toEqual([asset.path, 'accept-encoding']);
    }
    // Tiny files are sent as they are; every file worth compressing is compressed.
    const main = assets.find((a) => /^\/assets\/main-[\w-]+\.js$/.test(a.path));
    expect(main?.encoding).toMatch(/^(br|gzip)$/);
    await fresh.close();

    // Asked for brotli (as curl -H 'Accept-Encoding: br' does): brotli, the same bytes as the file.
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      httpGet(`${server.url}${main!.path}`, { headers: { 'accept-encoding': 'br' } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      }).on('error', reject);
    });
    expect(raw.headers['content-encoding']).toBe('br');
    expect(raw.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(raw.body).equals(readFileSync(join(CONSOLE_DIST, main!.path)))).toBe(true);
  }, 30_000);
});

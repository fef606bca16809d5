/**
 * Smoke test of the built console (host-app/dist) in Debian's Chromium: the bundle loads, routes,
 * renders Chinese by default for a zh browser and talks to `/api` the way the contract says.
 * The API is a stub here; tests against the real server come with the server integration.
 */
import type { Page } from 'playwright-core';
import {
  assertBrowserPrerequisites,
  launchChromium,
  screenshotPath,
  startConsoleServer,
  type BrowserHarness,
  type ConsoleServer,
} from './browser-harness';

describe('console smoke (built host-app in Chromium)', () => {
  const state = { setup: false };
  let server: ConsoleServer | undefined;
  let browser: BrowserHarness | undefined;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBrowserPrerequisites();
    server = await startConsoleServer({
      '/api/status': () => ({
        setup: state.setup,
        system_name: 'Gatehouse',
        version: 'v0.1.0-smoke',
        start_time: 1_700_000_000,
        self_use_mode_enabled: false,
        demo_site_enabled: false,
      }),
      '/api/setup': () => ({ status: state.setup, root_init: false, database_type: 'sqlite' }),
    });
    browser = await launchChromium({ locale: 'zh-CN' });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function openPage(path: string): Promise<Page> {
    if (!browser || !server) {
      throw new Error('beforeAll did not finish: see its error above');
    }
    const page = await browser.context.newPage();
    page.on('pageerror', (error) => pageErrors.push(`${path}: ${error.message}`));
    page.on('console', (message) => {
      // A 404 of an unstubbed call is the stub's business; anything else is the console's fault.
      if (message.type() === 'error' && !message.text().includes('404')) {
        pageErrors.push(`${path}: ${message.text()}`);
      }
    });
    await page.goto(`${server.url}${path}`);
    return page;
  }

  it('redirects / to the setup wizard while setup is not done', async () => {
    state.setup = false;
    const page = await openPage('/');

    await page.waitForURL('**/setup');
    const submit = page.getByRole('button', { name: '初始化系统' });
    await submit.waitFor();
    expect(await page.getByText('数据库警告').isVisible()).toBe(true);
    expect(await page.getByLabel('确认密码').isVisible()).toBe(true);

    // The wizard's own validation, in the real browser.
    await submit.click();
    await page.getByText('请输入管理员用户名').waitFor();

    await page.screenshot({ path: screenshotPath('console-smoke-setup'), fullPage: true });
    const statusCall = server?.apiRequests.find((request) => request.path === '/api/status');
    expect(statusCall?.headers['cache-control']).toBe('no-store');
    expect(statusCall?.headers['new-api-user']).toBeUndefined();
    expect(pageErrors).toEqual([]);
    await page.close();
  }, 60_000);

  it('serves deep links through the SPA fallback once setup is done', async () => {
    state.setup = true;
    const home = await openPage('/');
    await home.getByRole('heading', { name: '欢迎使用 Gatehouse' }).waitFor();
    expect(await home.getByText('版本：v0.1.0-smoke').isVisible()).toBe(true);
    await home.close();

    const missing = await openPage('/no/such/page');
    await missing.getByText('页面不存在，请检查地址').waitFor();
    expect(new URL(missing.url()).pathname).toBe('/no/such/page');
    await missing.screenshot({ path: screenshotPath('console-smoke-not-found'), fullPage: true });
    expect(pageErrors).toEqual([]);
    await missing.close();
  }, 60_000);
});

/**
 * The built console (host-app/dist) under the server's Content-Security-Policy, in Debian's Chromium
 * against the real server: every page an administrator visits, the API docs and the embedding example
 * load and work without a single CSP violation; the headers are the ones documented; and the
 * frame-ancestors rule decides which other sites may frame the console.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Frame, Page, Response } from 'playwright-core';
import { shutdownGracefully } from '../../server/src/app.factory';
import { setupRoot, startApp, startNode, type TestApp } from '../support/test-app';
import {
  assertBrowserPrerequisites,
  CONSOLE_DIST,
  launchChromium,
  screenshotPath,
  type BrowserHarness,
  watchErrors,
} from './browser-harness';

/** Installed before any page script: every CSP violation the page reports, kept on window. */
const RECORD_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__cspViolations.push(e.violatedDirective + ' ' + (e.blockedURI || '(inline)') + ' ' + (e.sourceFile || ''));
  });
`;

/** A page on another origin (localhost, not 127.0.0.1) that frames the address in its `src` query. */
async function startPortal(): Promise<{ url: string; close(): void }> {
  const server: Server = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://localhost').searchParams.get('src') ?? '';
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>portal</title><iframe id="gh" src="${src}" width="900" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

describe('console under the Content-Security-Policy (built host-app in Chromium)', () => {
  let app: TestApp | undefined;
  let browser: BrowserHarness | undefined;
  let page: Page | undefined;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    assertBrowserPrerequisites();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST });
    await setupRoot(app);
    browser = await launchChromium({ locale: 'zh-CN', enforceCsp: true });
    await browser.context.addInitScript(RECORD_VIOLATIONS);
    page = await browser.context.newPage();
    watchErrors(page, pageErrors, null);
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  function ready(): { app: TestApp; page: Page } {
    if (!app || !page) throw new Error('beforeAll did not finish: see its error above');
    return { app, page };
  }

  const violations = (p: Page | Frame): Promise<string[]> =>
    p.evaluate<string[]>('window.__cspViolations || []');

  it('serves the console with the documented headers', async () => {
    const { app: server, page: p } = ready();
    const response = (await p.goto(`${server.url}/login`)) as Response;
    const headers = await response.allHeaders();
    const csp = headers['content-security-policy'];
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' https://challenges.cloudflare.com https://telegram.org");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('signs in and walks the console pages without a CSP violation or console error', async () => {
    const { app: server, page: p } = ready();
    await p.goto(`${server.url}/login`);
    await p.getByLabel('用户名/邮箱').fill('root');
    await p.getByLabel('密码', { exact: true }).fill('root-pass-1');
    await p.getByRole('button', { name: '登录', exact: true }).click();
    await p.waitForURL((url) => url.pathname !== '/login');
    // An authenticated JSON answer as the browser received it.
    const tokens = p.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/api/token'));
    await p.goto(`${server.url}/token`);
    const answer = await tokens;
    expect(answer.status()).toBe(200);
    expect((await answer.allHeaders())['cache-control']).toBe('no-store');

    for (const path of [
      '/',
      '/detail',
      '/token',
      '/log',
      '/channel',
      '/user',
      '/redemption',
      '/topup',
      '/playground',
      '/personal',
      '/setting',
      '/pricing',
      '/about',
    ]) {
      await p.goto(`${server.url}${path}`);
      await p.waitForLoadState('networkidle');
      // The page rendered something (the console's own scripts ran).
      expect(await p.locator('#root').innerText()).not.toBe('');
      expect([path, await violations(p)]).toEqual([path, []]);
    }
    await p.screenshot({ path: screenshotPath('console-csp-settings'), fullPage: true });
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('the API docs and the embedding example work under the same policy', async () => {
    const { app: server, page: p } = ready();
    await p.goto(`${server.url}/api/docs`);
    await p.locator('.swagger-ui .info .title').first().waitFor();
    expect(await violations(p)).toEqual([]);

    await p.goto(`${server.url}/embed-example.html`);
    await p.waitForLoadState('networkidle');
    expect(await p.locator('body').innerText()).not.toBe('');
    expect(await violations(p)).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('another site may frame the console only when CSP_FRAME_ANCESTORS lists it', async () => {
    const { app: server } = ready();
    const portal = await startPortal();
    const allowing = await startNode(server, { STATIC_DIR: CONSOLE_DIST, CSP_FRAME_ANCESTORS: portal.url });
    const framedBy = async (consoleUrl: string): Promise<{ page: Page; errors: string[] }> => {
      const q = await browser!.context.newPage();
      const errors: string[] = [];
      q.on('console', (m) => {
        if (m.type() === 'error') errors.push(m.text());
      });
      await q.goto(`${portal.url}/?src=${encodeURIComponent(`${consoleUrl}/login`)}`);
      return { page: q, errors };
    };
    try {
      // Default policy: Chromium refuses to show the console in the other site's frame.
      const refused = await framedBy(server.url);
      await waitFor(() => refused.errors.some((e) => /frame-ancestors/i.test(e)), 'the frame to be refused');
      expect(refused.page.frames().map((f) => f.url())).not.toContain(`${server.url}/login`);
      await refused.page.close();

      // The listed portal: the console loads in its frame and its login form renders.
      const allowed = await framedBy(allowing.url);
      const frame = allowed.page.frames().find((f) => f.url() === `${allowing.url}/login`);
      if (!frame)
        throw new Error(
          `console not framed: ${allowed.page
            .frames()
            .map((f) => f.url())
            .join(', ')}`,
        );
      await frame.waitForSelector('input[name="username"]', { timeout: 15_000 });
      expect(await violations(frame)).toEqual([]);
      expect(allowed.errors).toEqual([]);
      await allowed.page.screenshot({ path: screenshotPath('console-csp-framed-by-portal') });
      await allowed.page.close();
    } finally {
      portal.close();
      // The browser keeps its connections to this node open: end them rather than wait for them.
      await shutdownGracefully(allowing.app, 1000);
    }
  }, 60_000);
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

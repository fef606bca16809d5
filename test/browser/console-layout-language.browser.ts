/**
 * Every console route of the built host-app in Chromium against the REAL server, seeded with ordinary
 * data (a channel with a mock upstream, calls through it, a top-up with a redemption code, a user an
 * admin created): at 1440×900 and at 390×844 no page content sticks out sideways except inside an
 * explicit scroll area (and on a desktop nothing needs a sideways scroll at all); the English console
 * shows no Chinese text (server errors and log details included), and a Chinese console in an English
 * browser gets the server's messages and log details in Chinese.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import request from 'supertest';
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

/** The routes a signed-in root can open; visitors' pages are opened signed in too (they still render). */
const ROUTES = [
  '/',
  '/about',
  '/pricing',
  '/personal',
  '/playground',
  '/user',
  '/setting',
  '/setting?tab=ratelimit',
  '/setting?tab=models',
  '/setting?tab=system',
  '/setting?tab=other',
  '/channel',
  '/token',
  '/redemption',
  '/topup',
  '/log',
  '/midjourney',
  '/task',
  '/detail',
];
const VISITOR_ROUTES = ['/login', '/register', '/reset'];

const CJK = /[\u3400-\u9fff\uff01-\uff5e\u3000-\u303f]/;

/**
 * Elements that stick out of the viewport (or of their scroll area) sideways without an ancestor that
 * scrolls or clips horizontally; described for the failure message. Runs in the page.
 */
const OVERFLOW_PROBE = `(() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  const clipped = (el) => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX)) return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (style.position === 'fixed' || style.visibility === 'hidden' || style.display === 'none') continue;
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 || rect.height === 0) continue;
    if (rect.right > width + 1 && !clipped(el)) {
      out.push(el.tagName.toLowerCase() + (el.getAttribute('data-testid') ? '[' + el.getAttribute('data-testid') + ']' : '') + ' ' + Math.round(rect.right));
      if (out.length > 5) break;
    }
  }
  return { page: document.documentElement.scrollWidth - width, elements: out };
})()`;

/** Scroll areas of the main content that need a sideways scroll (on a desktop nothing should). */
const SCROLL_AREAS_PROBE = `(() => {
  const main = document.querySelector('main') ?? document.body;
  const out = [];
  for (const el of main.querySelectorAll('*')) {
    const style = getComputedStyle(el);
    if (!['auto', 'scroll'].includes(style.overflowX)) continue;
    if (el.scrollWidth > el.clientWidth + 1) out.push((el.className || el.tagName).toString().slice(0, 60) + ' ' + el.scrollWidth + '>' + el.clientWidth);
  }
  return out;
})()`;

/**
 * The list area of a page on a phone: how it is laid out (`cards` for a responsive table, `list-cards`
 * for a page's own cards), anything inside it that needs a sideways scroll or sticks out of it, and each
 * row card's width and text. Runs in the page.
 */
const PHONE_LIST_PROBE = `(() => {
  const area = document.querySelector('main [data-layout], main [data-testid="list-cards"]');
  if (!area) return null;
  const box = area.getBoundingClientRect();
  const scrolling = [];
  for (const el of [area, ...area.querySelectorAll('*')]) {
    const style = getComputedStyle(el);
    if (style.display === 'none') continue;
    const rect = el.getBoundingClientRect();
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) scrolling.push(el.tagName.toLowerCase() + ' scrolls ' + el.scrollWidth + '>' + el.clientWidth);
    if (rect.width > 0 && rect.right > box.right + 1) scrolling.push(el.tagName.toLowerCase() + ' sticks out to ' + Math.round(rect.right) + ' > ' + Math.round(box.right));
    if (scrolling.length > 5) break;
  }
  const rows = area.getAttribute('data-testid') === 'list-cards'
    ? [...area.children].filter((el) => el.tagName !== 'P')
    : [...area.querySelectorAll('tbody > tr')].filter((tr) => !tr.querySelector(':scope > td[colspan]'));
  return {
    layout: area.getAttribute('data-layout') ?? 'list-cards',
    headerShown: !!area.querySelector('thead') && getComputedStyle(area.querySelector('thead')).display !== 'none',
    scrolling,
    cards: rows.map((row) => ({
      display: getComputedStyle(row).display,
      width: Math.round(row.getBoundingClientRect().width),
      areaWidth: Math.round(box.width),
      // Each field as "label: value", the label being what the phone layout writes before the cell.
      text: [...row.children].map((cell) => {
        const before = getComputedStyle(cell, '::before').content;
        const label = before && before !== 'none' && before !== 'normal' ? JSON.parse(before) + ': ' : '';
        return getComputedStyle(cell).display === 'none' ? '' : label + cell.innerText.replace(/\\s+/g, ' ').trim();
      }).filter(Boolean).join('\\n'),
    })),
  };
})()`;

describe('every console route: layout at desktop and phone widths, one language (real server, Chromium)', () => {
  let app: TestApp | undefined;
  let upstream: MockUpstream | undefined;
  let root: ApiClient | undefined;
  const browsers: BrowserHarness[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`${join(CONSOLE_DIST, 'index.html')} is missing: run npm run build:console first.`);
    }
    assertBrowserPrerequisites();
    upstream = await MockUpstream.start();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST, ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(app);
    await putOption(root, 'DrawingEnabled', true);
    const user = await makeUser(app, root, { username: 'alice' });
    await setQuota(app, user.userId!, 10_000_000);
    await setQuota(app, 1, 10_000_000);
    await makeChannel(app, { type: 1, name: 'main-openai', base_url: upstream.url });
    const key = (await makeToken(app, 1, { name: 'root-key' })).key;
    for (const model of ['gpt-4o', 'gpt-4o-mini']) {
      const res = await request(app.url)
        .post('/v1/chat/completions')
        .set('Authorization', `Bearer ${key}`)
        .send({ model, messages: [{ role: 'user', content: 'hi' }] });
      if (res.status !== 200) throw new Error(`relay answered ${res.status}: ${res.text}`);
    }
    await settle(app);
    const codes = await root.post('/api/redemption/', { name: 'welcome', quota: 500000, count: 1 });
    if (!codes.body.success) throw new Error(`redemption: ${codes.body.message}`);
    const redeemed = await root.post('/api/user/topup', { key: (codes.body.data as string[])[0] });
    if (!redeemed.body.success) throw new Error(`redeem: ${redeemed.body.message}`);
  }, 60_000);

  afterAll(async () => {
    for (const browser of browsers) await browser.close();
    await app?.close();
    await upstream?.close();
  });

  function ready(): { app: TestApp } {
    if (!app || !root) throw new Error('beforeAll did not finish: see its error above');
    return { app };
  }

  async function openVisitor(locale: string, viewport: { width: number; height: number }): Promise<Page> {
    const browser = await launchChromium({ locale });
    browsers.push(browser);
    const page = await browser.context.newPage();
    await page.setViewportSize(viewport);
    watchErrors(page, pageErrors, /^Failed to load resource/);
    return page;
  }

  async function openSignedIn(locale: string, viewport: { width: number; height: number }): Promise<Page> {
    const page = await openVisitor(locale, viewport);
    const { app: server } = ready();
    await page.goto(`${server.url}/login`);
    const zh = locale.startsWith('zh');
    await page.getByLabel(zh ? '用户名/邮箱' : 'Username or email').fill(ROOT.username);
    await page.getByLabel(zh ? '密码' : 'Password', { exact: true }).fill(ROOT.password);
    await page.getByRole('button', { name: zh ? '登录' : 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/token');
    return page;
  }

  async function settled(page: Page, path: string): Promise<void> {
    await page.goto(`${ready().app.url}${path}`);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(300);
  }

  async function expandLogRows(page: Page): Promise<void> {
    const buttons = page.locator('[data-testid^="log-row-"] button[aria-expanded="false"]');
    const count = Math.min(await buttons.count(), 6);
    for (let i = 0; i < count; i += 1) await buttons.nth(0).click();
  }

  for (const viewport of [
    { name: 'desktop', width: 1440, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    it(`${viewport.name} ${viewport.width}×${viewport.height}: no page content overflows sideways`, async () => {
      const visitor = await openVisitor('zh-CN', viewport);
      const page = await openSignedIn('en-US', viewport);
      const problems: string[] = [];
      for (const [p, path] of [
        ...VISITOR_ROUTES.map((route) => [visitor, route] as const),
        ...ROUTES.map((route) => [page, route] as const),
      ]) {
        await settled(p, path);
        const found = await p.evaluate<{ page: number; elements: string[] }>(OVERFLOW_PROBE);
        if (found.page > 1 || found.elements.length) problems.push(`${path}: ${JSON.stringify(found)}`);
        if (viewport.width >= 1440) {
          const scrolling = await p.evaluate<string[]>(SCROLL_AREAS_PROBE);
          if (scrolling.length) problems.push(`${path} scrolls sideways: ${scrolling.join('; ')}`);
        }
      }
      expect(problems).toEqual([]);
      expect(pageErrors).toEqual([]);
    }, 240_000);
  }

  it('phone 390×844: admin lists are cards of labelled fields, with no sideways scroll', async () => {
    const page = await openSignedIn('en-US', { width: 390, height: 844 });
    // Each list, and what its first card must show in words (its key fields, each under its label).
    const lists: [string, string[]][] = [
      ['/channel', ['Name: main-openai', 'Status: Enabled', 'Type: OpenAI', 'TEST']],
      ['/user', ['Username: alice', 'Role: Ordinary user', 'Status: Activated', 'EDIT']],
      ['/log', ['Time: 20', 'Type: Top-up', 'Details: Topped up']],
      ['/redemption', ['Name: welcome', 'Status: Used', 'COPY']],
      ['/token', ['root-key']],
      ['/task', []],
      ['/midjourney', []],
    ];
    const problems: string[] = [];
    for (const [path, expected] of lists) {
      await settled(page, path);
      const found = await page.evaluate<{
        layout: string;
        headerShown: boolean;
        scrolling: string[];
        cards: { display: string; width: number; areaWidth: number; text: string }[];
      } | null>(PHONE_LIST_PROBE);
      if (!found) {
        problems.push(`${path}: no list area`);
        continue;
      }
      if (found.layout === 'table') problems.push(`${path}: still a table on a phone`);
      if (found.headerShown) problems.push(`${path}: the table header is still shown`);
      if (found.scrolling.length) problems.push(`${path}: ${found.scrolling.join('; ')}`);
      for (const card of found.cards) {
        if (card.display !== 'block' && card.display !== 'flex')
          problems.push(`${path}: a row is "${card.display}"`);
        if (card.width > card.areaWidth)
          problems.push(`${path}: a card is ${card.width} px in ${card.areaWidth} px`);
      }
      if (expected.length) {
        const first = found.cards[0]?.text ?? '';
        if (!first) problems.push(`${path}: no card`);
        for (const text of expected) {
          if (!first.includes(text))
            problems.push(`${path}: the first card lacks "${text}": ${JSON.stringify(first)}`);
        }
      }
      await page.screenshot({
        path: screenshotPath(`phone-list${path.replace(/\//g, '-')}`),
        fullPage: true,
      });
    }
    expect(problems).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 120_000);

  it('after sign-in an ordinary user lands on /token, not on the admin page that sent the visitor to sign in', async () => {
    const page = await openVisitor('en-US', { width: 1440, height: 900 });
    await page.goto(`${ready().app.url}/setting`);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByLabel('Username or email').fill('alice');
    await page.getByLabel('Password', { exact: true }).fill('password-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/token');
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/token');
    expect(await page.getByText('Only administrators').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  }, 60_000);

  it('English console: no Chinese text on any page, server messages and log details included', async () => {
    // The visitor's browser prefers Chinese; the console was switched to English.
    const visitor = await openVisitor('zh-CN', { width: 1440, height: 900 });
    await visitor.goto(`${ready().app.url}/about`);
    await visitor.evaluate("window.localStorage.setItem('i18nextLng', 'en')");
    const page = await openSignedIn('en-US', { width: 1440, height: 900 });
    const problems: string[] = [];
    for (const [p, path] of [
      ...VISITOR_ROUTES.map((route) => [visitor, route] as const),
      ...ROUTES.map((route) => [page, route] as const),
    ]) {
      await settled(p, path);
      if (path === '/log') await expandLogRows(p);
      const text = await p.evaluate<string>('document.body.innerText');
      const lines = text.split('\n').filter((line) => CJK.test(line));
      // The language switch names Chinese in Chinese, on purpose.
      const foreign = lines.filter((line) => line.trim() !== '中文');
      if (foreign.length) problems.push(`${path}: ${foreign.slice(0, 5).join(' | ')}`);
    }
    // A server refusal, in the console's language although the browser prefers Chinese.
    await settled(visitor, '/login');
    await visitor.getByLabel('Username or email').fill(ROOT.username);
    await visitor.getByLabel('Password', { exact: true }).fill('wrong-password-1');
    await visitor.getByRole('button', { name: 'Sign in', exact: true }).click();
    await visitor.getByRole('alert').filter({ hasText: 'Wrong username or password' }).first().waitFor();
    expect(problems).toEqual([]);
  }, 240_000);

  it('Chinese console in an English browser: the server answers in Chinese, log details too', async () => {
    const browser = await launchChromium({ locale: 'en-US' });
    browsers.push(browser);
    const page = await browser.context.newPage();
    watchErrors(page, pageErrors, /^Failed to load resource/);
    const { app: server } = ready();
    await page.goto(`${server.url}/login`);
    await page.evaluate("window.localStorage.setItem('i18nextLng', 'zh')");
    await page.reload();
    await page.getByLabel('用户名/邮箱').fill(ROOT.username);
    await page.getByLabel('密码', { exact: true }).fill('wrong-password-1');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: '用户名或密码错误' }).first().waitFor();
    await page.getByLabel('密码', { exact: true }).fill(ROOT.password);
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/token');

    await settled(page, '/log');
    await page.getByText('管理员创建了用户（root）').first().waitFor();
    await page
      .getByText(/通过兑换码充值/)
      .first()
      .waitFor();
    const text = await page.evaluate<string>('document.body.innerText');
    expect(text).not.toContain('An admin created the user');
    expect(text).not.toContain('Topped up');

    // Switching to English refetches what the server put into words.
    await page.evaluate("window.localStorage.setItem('i18nextLng', 'en')");
    await settled(page, '/log');
    await page.getByText('An admin created the user (root)').first().waitFor();
    expect(pageErrors).toEqual([]);
  }, 120_000);
});

/**
 * Every console route of the built host-app in Chromium against the REAL server, seeded with ordinary
 * data (a channel with a mock upstream, calls through it, a top-up with a redemption code, a user an
 * admin created). At 1440×900 and at 390×844, in English and in Chinese, as a visitor, as root and as
 * an ordinary user: no page content sticks out sideways except inside an explicit scroll area (and on
 * a desktop nothing needs a sideways scroll at all), and the page speaks only the console's language
 * (server errors and log details included) although the browser prefers the other one; names and
 * model ids are allowed in Chinese.
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

/**
 * Every route of host-app/src/app-routes.tsx, deep links included, as a signed-in root or user opens
 * them (an ordinary user gets the refusal of the admin pages, which must fit and speak the console's
 * language too); `:user` and `:channel` stand for the seeded user's and channel's ids.
 */
const ROUTES = [
  '/',
  '/about',
  '/pricing',
  '/personal',
  '/playground',
  '/user',
  '/user/edit/:user',
  '/user/edit',
  '/setting',
  '/setting?tab=ratelimit',
  '/setting?tab=models',
  '/setting?tab=system',
  '/setting?tab=other',
  '/audit',
  '/channel',
  '/channel/add',
  '/channel/edit/:channel',
  '/token',
  '/redemption',
  '/topup',
  '/chat',
  '/chat/7',
  '/chat2link',
  '/log',
  '/midjourney',
  '/task',
  '/detail',
  '/report',
  '/no-such-page',
];
/** What a visitor opens: the sign-in and account forms, the emailed reset link, a failed provider return. */
const VISITOR_ROUTES = [
  '/',
  '/login',
  '/register',
  '/reset',
  '/user/reset?email=alice%40example.com&token=not-a-token',
  '/oauth/github?code=bad&state=bad',
  '/setup',
  '/about',
  '/pricing',
  '/no-such-page',
];

const ALICE = { username: 'alice', password: 'password-1' };

const CJK = /[\u3400-\u9fff\uff01-\uff5e\u3000-\u303f]/;

/**
 * Words a Chinese console shows as they are: product, protocol and provider names, the seeded names
 * (the default group is called "default"), and the OAuth/OIDC field names the Chinese bundle keeps as
 * providers' consoles spell them. Anything with a digit, dash, dot, slash, underscore, @ or a masked
 * key's * counts as a name or id as well.
 */
const UNTRANSLATED = new Set(
  [
    'Gatehouse',
    'English',
    'API',
    'APIs',
    'OpenAI',
    'Azure',
    'Claude',
    'Anthropic',
    'Gemini',
    'Google',
    'Midjourney',
    'Suno',
    'GitHub',
    'OIDC',
    'Telegram',
    'WeChat',
    'LinuxDO',
    'Turnstile',
    'Passkey',
    'SMTP',
    'SMTPS',
    'SSL',
    'TLS',
    'JSON',
    'URL',
    'Token',
    'Tokens',
    'Key',
    'ID',
    'IP',
    'RPM',
    'TPM',
    'USD',
    'CNY',
    'Markdown',
    'HTML',
    'Webhook',
    'Bark',
    'Gotify',
    'Stripe',
    'Epay',
    'Bot',
    'alice',
    'root',
    'welcome',
    'admin',
    'default',
  ].map((word) => word.toLowerCase()),
);
const UNTRANSLATED_PHRASES = [
  'Client ID',
  'Client Secret',
  'Authorization Endpoint',
  'Token Endpoint',
  'UserInfo Endpoint',
  'Well-Known URL',
  'Site Key',
  'Secret Key',
];

/** English words in a line without any Chinese, names and ids set aside: what a Chinese console must not show. */
function englishWords(line: string): string[] {
  if (CJK.test(line)) return [];
  const rest = UNTRANSLATED_PHRASES.reduce((text, phrase) => text.split(phrase).join(' '), line);
  return (
    rest
      .split(/\s+/)
      .filter((token) => !/[0-9\-./_@*#]/.test(token))
      .map((token) => token.replace(/^[^A-Za-z]+|[^A-Za-z]+$/g, ''))
      // An empty date field shows its sections' placeholders (YYYY, MM, DD, hh, mm, ss), as MUI's zh-CN
      // locale does.
      .filter((word) => !/^(Y+|M+|D+|h+|H+|m+|s+)$/.test(word))
      .filter((word) => /^[A-Za-z]{2,}$/.test(word) && !UNTRANSLATED.has(word.toLowerCase()))
  );
}

/** The console's own words on a page in the wrong language, one entry a line. */
function foreignLines(lang: 'en' | 'zh', text: string): string[] {
  const lines = text.split('\n').map((line) => line.trim());
  return lang === 'en'
    ? // The language switch names Chinese in Chinese, on purpose.
      lines.filter((line) => CJK.test(line) && line !== '中文')
    : lines.filter((line) => englishWords(line).length > 0);
}

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
  const seeded = { user: 0, channel: 0 };

  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
      throw new Error(`${join(CONSOLE_DIST, 'index.html')} is missing: run npm run build:console first.`);
    }
    assertBrowserPrerequisites();
    upstream = await MockUpstream.start();
    app = await startApp({ STATIC_DIR: CONSOLE_DIST, ALLOW_PRIVATE_OUTBOUND: 'true' });
    root = await setupRoot(app);
    await putOption(root, 'DrawingEnabled', true);
    const user = await makeUser(app, root, { username: ALICE.username, password: ALICE.password });
    seeded.user = user.userId!;
    await setQuota(app, user.userId!, 10_000_000);
    await setQuota(app, 1, 10_000_000);
    seeded.channel = await makeChannel(app, { type: 1, name: 'main-openai', base_url: upstream.url });
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

  /**
   * A console in `lang` in a browser that prefers the other language: the console's own choice must win,
   * in its words and in the server's.
   */
  async function openConsole(lang: 'en' | 'zh', viewport: { width: number; height: number }): Promise<Page> {
    const page = await openVisitor(lang === 'en' ? 'zh-CN' : 'en-US', viewport);
    await page.goto(`${ready().app.url}/about`);
    await page.evaluate(`window.localStorage.setItem('i18nextLng', '${lang}')`);
    return page;
  }

  async function signInAs(
    page: Page,
    lang: 'en' | 'zh',
    who: { username: string; password: string },
  ): Promise<void> {
    await page.goto(`${ready().app.url}/login`);
    const zh = lang === 'zh';
    await page.getByLabel(zh ? '用户名/邮箱' : 'Username or email').fill(who.username);
    await page.getByLabel(zh ? '密码' : 'Password', { exact: true }).fill(who.password);
    await page.getByRole('button', { name: zh ? '登录' : 'Sign in', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/token');
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
    for (const lang of ['en', 'zh'] as const) {
      const language = lang === 'en' ? 'English' : 'Chinese';
      it(`${viewport.name} ${viewport.width}×${viewport.height}, ${language}: every route, as visitor, root and user, fits sideways and speaks only ${language}`, async () => {
        const size = { width: viewport.width, height: viewport.height };
        const visitor = await openConsole(lang, size);
        const admin = await openConsole(lang, size);
        await signInAs(admin, lang, ROOT);
        const user = await openConsole(lang, size);
        await signInAs(user, lang, ALICE);
        const problems: string[] = [];
        const passes = [
          ['visitor', visitor, VISITOR_ROUTES],
          ['root', admin, ROUTES],
          ['user', user, ROUTES],
        ] as const;
        // The three pages are separate browsers: their passes run at once (each page mostly waits for
        // its network to go quiet), the problems listed in the order they are found.
        await Promise.all(
          passes.map(async ([who, p, routes]) => {
            for (const route of routes) {
              const path = route
                .replace(':user', String(seeded.user))
                .replace(':channel', String(seeded.channel));
              await settled(p, path);
              if (path === '/log') await expandLogRows(p);
              const where = `${who} ${path}`;
              const found = await p.evaluate<{ page: number; elements: string[] }>(OVERFLOW_PROBE);
              if (found.page > 1 || found.elements.length)
                problems.push(`${where}: ${JSON.stringify(found)}`);
              if (viewport.width >= 1440) {
                const scrolling = await p.evaluate<string[]>(SCROLL_AREAS_PROBE);
                if (scrolling.length) problems.push(`${where} scrolls sideways: ${scrolling.join('; ')}`);
              }
              const foreign = foreignLines(lang, await p.evaluate<string>('document.body.innerText'));
              if (foreign.length)
                problems.push(`${where} not in ${language}: ${foreign.slice(0, 5).join(' | ')}`);
            }
          }),
        );
        // A server refusal, in the console's language although the browser prefers the other one.
        await settled(visitor, '/login');
        await visitor.getByLabel(lang === 'zh' ? '用户名/邮箱' : 'Username or email').fill(ROOT.username);
        await visitor
          .getByLabel(lang === 'zh' ? '密码' : 'Password', { exact: true })
          .fill('wrong-password-1');
        await visitor.getByRole('button', { name: lang === 'zh' ? '登录' : 'Sign in', exact: true }).click();
        await visitor
          .getByRole('alert')
          .filter({ hasText: lang === 'zh' ? '用户名或密码错误' : 'Wrong username or password' })
          .first()
          .waitFor();
        expect(problems).toEqual([]);
        expect(pageErrors).toEqual([]);
      }, 480_000);
    }
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

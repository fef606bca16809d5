/**
 * Helpers for the browser tests: Debian's Chromium driven by playwright-core, and a small static server
 * for the built console (host-app/dist) with SPA fallback and stubbed `/api` answers. Tests against the
 * real Gatehouse server replace the stub with the application itself.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, resolve, sep } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const REPO_ROOT = resolve(__dirname, '..', '..');
export const CONSOLE_DIST = join(REPO_ROOT, 'host-app', 'dist');
export const TEST_RESULTS = join(REPO_ROOT, 'test-results');
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails loudly instead of skipping: a browser test that silently did not run proves nothing. */
export function assertBrowserPrerequisites(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}. Install it with ` +
        '`apt-get update && apt-get install -y chromium fonts-noto-cjk` (CI does this in .ci/run), ' +
        'or point CHROMIUM_PATH at another Chromium binary.',
    );
  }
  if (!existsSync(join(CONSOLE_DIST, 'index.html'))) {
    throw new Error(
      `The console is not built: ${join(CONSOLE_DIST, 'index.html')} is missing. ` +
        'Run `npm run build:console` (or `npm run build`) first.',
    );
  }
}

export interface BrowserHarness {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A fresh Chromium profile per call (its own --user-data-dir), removed again by close().
 *
 * The server's Content-Security-Policy is bypassed unless `enforceCsp` is set: tests use Playwright
 * helpers that compile string predicates with eval (`waitForFunction('...')`), which the policy rightly
 * forbids to page scripts. How the console behaves under the policy is what console-csp.browser.ts
 * tests, with `enforceCsp: true`.
 */
export async function launchChromium(
  options: { locale?: string; enforceCsp?: boolean } = {},
): Promise<BrowserHarness> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'gatehouse-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      locale: options.locale ?? 'zh-CN',
      bypassCSP: !options.enforceCsp,
      viewport: { width: 1280, height: 800 },
    });
    return {
      context,
      close: async () => {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

export function screenshotPath(name: string): string {
  mkdirSync(TEST_RESULTS, { recursive: true });
  return join(TEST_RESULTS, `${name}.png`);
}

/** `data` for each stubbed `/api` path, computed per request so a test can change it between steps. */
export type ApiStub = Record<string, () => unknown>;

export interface RecordedApiRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
}

export interface ConsoleServer {
  url: string;
  apiRequests: RecordedApiRequest[];
  close(): Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

// The paths the real server answers itself (docs/decisions.md#console-fallback); everything else falls back to index.html.
const SERVER_PATHS = /^\/(api|v1|v1beta|pg|mj|suno)(\/|$)/;

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  response.end(JSON.stringify(body));
}

function serveFile(response: ServerResponse, file: string): void {
  const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
  response.writeHead(200, { 'Content-Type': type });
  response.end(readFileSync(file));
}

function staticFileFor(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  const file = resolve(root, `.${decoded}`);
  if (file !== root && !file.startsWith(`${root}${sep}`)) {
    return null; // path traversal
  }
  return existsSync(file) && statSync(file).isFile() ? file : null;
}

export async function startConsoleServer(api: ApiStub, root = CONSOLE_DIST): Promise<ConsoleServer> {
  const apiRequests: RecordedApiRequest[] = [];
  const handle = (request: IncomingMessage, response: ServerResponse): void => {
    const { pathname } = new URL(request.url ?? '/', 'http://localhost');
    if (SERVER_PATHS.test(pathname)) {
      apiRequests.push({ method: request.method ?? 'GET', path: pathname, headers: request.headers });
      const stub = api[pathname];
      if (stub && request.method === 'GET') {
        sendJson(response, 200, { success: true, message: '', data: stub() });
      } else {
        sendJson(response, 404, { success: false, message: `no stub for ${request.method} ${pathname}` });
      }
      return;
    }
    const file = staticFileFor(root, pathname);
    if (file) {
      serveFile(response, file);
    } else if (pathname.startsWith('/assets/')) {
      response.writeHead(404).end(); // a missing bundle must not come back as HTML
    } else {
      serveFile(response, join(root, 'index.html'));
    }
  };

  const server = createServer(handle);
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(0, '127.0.0.1', () => resolveListen());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiRequests,
    close: () =>
      new Promise<void>((resolveClose, rejectClose) => {
        server.closeAllConnections();
        server.close((error) => (error ? rejectClose(error) : resolveClose()));
      }),
  };
}

/**
 * Collects what goes wrong in a page into `errors`: uncaught script errors, and console errors except
 * those matching `expected` (a refused call the test provokes on purpose shows as a failed resource).
 */
export function watchErrors(page: Page, errors: string[], expected: RegExp | null): void {
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !(expected && expected.test(message.text()))) {
      errors.push(`console: ${message.text()}`);
    }
  });
}

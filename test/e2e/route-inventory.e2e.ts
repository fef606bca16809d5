/**
 * Every route the server has, as its routers know them at run time, answers 401 to a caller without
 * credentials, unless it is on the explicit list of public routes below. A route added later is
 * covered without touching this file: it is refused like the others, or the test fails until it is
 * listed as public (with the reason).
 *
 * The routers: Fastify's (management API, playground, task relays, metrics, docs), the relay's raw
 * fast path for model traffic (its fixed routes read from the relay's route table, plus its pattern routes), and
 * the WebSocket upgrade of the realtime relay. Streaming (SSE) calls are refused like the others.
 */
import WebSocket from 'ws';
import { isRelayPath, SERVED_POSTS } from '../../server/src/modules/relay/route-table';
import { putOption, setupRoot, startApp, TestApp } from '../support/test-app';

interface RouteCall {
  method: string;
  path: string;
}

/** Public routes: `METHOD path` as Fastify prints it, with the reason anyone may call it. */
const PUBLIC: Record<string, string> = {
  'GET /api/status': 'site status for the sign-in page',
  'GET /api/notice': 'site text',
  'GET /api/about': 'site text',
  'GET /api/home_page_content': 'site text',
  'GET /api/pricing': 'public price list',
  'GET /api/setup': 'first-run state',
  'POST /api/setup': 'first run (refuses once done)',
  'POST /api/user/login': 'sign-in',
  'POST /api/user/login/2fa': 'second step of a sign-in (its own short-lived cookie)',
  'POST /api/user/passkey/login/options': 'password-less sign-in',
  'POST /api/user/passkey/login': 'password-less sign-in',
  'POST /api/user/register': 'sign-up',
  'GET /api/user/logout': 'ends whatever session there is',
  'GET /api/verification': 'e-mail code for sign-up',
  'GET /api/reset_password': 'mails a reset link',
  'POST /api/user/reset': 'consumes a reset link',
  'GET /api/user/epay/notify': 'payment gateway callback (signed)',
  'POST /api/user/epay/notify': 'payment gateway callback (signed)',
  'GET /api/user/epay/return': 'browser back from the payment gateway',
  'GET /api/oauth/state': 'third-party sign-in',
  'GET /api/oauth/github': 'third-party sign-in',
  'GET /api/oauth/oidc': 'third-party sign-in',
  'GET /api/oauth/linuxdo': 'third-party sign-in',
  'GET /api/oauth/wechat': 'third-party sign-in',
  'GET /api/oauth/telegram/login': 'third-party sign-in',
  'GET /api/oauth/telegram/bind': 'third-party bind (checks the session itself: redirect answer)',
  'GET /api/docs': 'OpenAPI UI',
  'GET /api/docs*': 'OpenAPI UI assets',
  'GET /api/docs/index.html': 'OpenAPI UI',
  'GET /api/docs/LICENSE': 'OpenAPI UI',
  'GET /api/docs/swagger-ui-init.js': 'OpenAPI UI',
  'GET /api/docs/docs/swagger-ui-init.js': 'OpenAPI UI',
  'GET /api/docs-json': 'OpenAPI document',
  'GET /api/docs-yaml': 'OpenAPI document',
  'GET /api/log/token': "logs of one API token, read with that token's key (the key is the credential)",
  'GET /mj/image/:id': 'Midjourney image proxy: the image address handed to clients',
  'POST /mj/notify': 'Midjourney proxy callback',
};

/** The relay's raw fast path matches these patterns besides its fixed routes (see isRelayPath). */
const RAW_PATTERN_ROUTES: RouteCall[] = [
  { method: 'GET', path: '/v1/models' },
  { method: 'GET', path: '/v1/models/gpt-4o' },
  { method: 'GET', path: '/v1beta/models' },
  { method: 'POST', path: '/v1beta/models/gemini-pro:generateContent' },
  { method: 'POST', path: '/v1beta/models/gemini-pro:streamGenerateContent?alt=sse' },
  { method: 'POST', path: '/v1beta/models/gemini-pro:embedContent' },
  { method: 'POST', path: '/v1beta/models/gemini-pro:countTokens' },
  { method: 'POST', path: '/v1/models/gemini-pro:generateContent' },
  { method: 'POST', path: '/v1/models/gemini-pro:streamGenerateContent?alt=sse' },
  { method: 'POST', path: '/v1/messages/count_tokens' },
  { method: 'POST', path: '/v1/engines/text-embedding-3-small/embeddings' },
  { method: 'GET', path: '/dashboard/billing/subscription' },
  { method: 'GET', path: '/v1/dashboard/billing/usage' },
];

/** Parses `printRoutes({ commonPrefix: false })`: one line per node, the path is its ancestors' labels joined. */
export function routesFromTree(tree: string): RouteCall[] {
  const routes: RouteCall[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    stack.length = m[1].length / 4;
    stack.push(m[2]);
    for (const method of m[3]?.split(', ') ?? []) routes.push({ method, path: stack.join('') });
  }
  return routes;
}

/** Values for route parameters whose routes check them before the caller (default: 1). */
const PARAM_SAMPLES: Record<string, string> = { action: 'music' };

/** A concrete URL for a Fastify route pattern. */
const concrete = (path: string) =>
  path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => PARAM_SAMPLES[name] ?? '1').replace(/\*/g, 'x');

/** A body every JSON route can parse, and that every model route reads as a (streamed) request. */
const BODY = JSON.stringify({
  model: 'gpt-4o',
  messages: [{ role: 'user', content: 'hi' }],
  prompt: 'hi',
  input: 'hi',
  contents: [{ parts: [{ text: 'hi' }] }],
  stream: true,
});

describe('route inventory: no credentials, no access', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startApp({ METRICS_TOKEN: 'inventory-metrics-token-0123' });
    const root = await setupRoot(t);
    // Features that are off answer "off" before asking who calls: turned on, so that the credential
    // check is what answers.
    await putOption(root, 'DrawingEnabled', true);
  });
  afterAll(() => t?.close());

  function fastifyRoutes(): RouteCall[] {
    const tree = t.app.getHttpAdapter().getInstance().printRoutes({ commonPrefix: false });
    return routesFromTree(tree).filter((r) => r.method !== 'HEAD' && r.method !== 'OPTIONS');
  }

  async function call(r: RouteCall, url = concrete(r.path)): Promise<number> {
    const res = await fetch(`${t.url}${url}`, {
      method: r.method,
      headers: r.method === 'GET' ? {} : { 'content-type': 'application/json' },
      body: r.method === 'GET' ? undefined : BODY,
      redirect: 'manual',
    });
    await res.arrayBuffer();
    return res.status;
  }

  it('reads a complete route table from the router', () => {
    const routes = fastifyRoutes().map((r) => `${r.method} ${r.path}`);
    // A sample from every kind of route: management API, parameters, playground, tasks, metrics.
    for (const known of [
      'GET /api/user/self',
      'PUT /api/user/self',
      'GET /api/channel/:id',
      'POST /pg/chat/completions',
      'GET /api/usage/token',
      'POST /suno/submit/:action',
      'GET /mj/task/:id/fetch',
      'GET /metrics',
    ])
      expect(routes).toContain(known);
    expect(routes.length).toBeGreaterThan(100);
  });

  it('every non-public Fastify route answers 401', async () => {
    const wrong: string[] = [];
    for (const r of fastifyRoutes()) {
      const key = `${r.method} ${r.path}`;
      if (key in PUBLIC) continue;
      const status = await call(r);
      if (status !== 401) wrong.push(`${key} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('every model route of the raw fast path answers 401, streaming ones included', async () => {
    const fixed = [...SERVED_POSTS.keys()].map((path) => ({ method: 'POST', path }));
    expect(fixed.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/v1/chat/completions', '/v1/messages']),
    );
    const wrong: string[] = [];
    for (const r of [...fixed, ...RAW_PATTERN_ROUTES]) {
      // Each one really is a route of the fast path (not a 404 that happens to be refused).
      expect([r.path, isRelayPath(r.method, r.path.split('?')[0])]).toEqual([r.path, true]);
      const status = await call(r, r.path);
      if (status !== 401) wrong.push(`${r.method} ${r.path} → ${status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('a model route with trailing slashes or a query is the same route of the fast path', async () => {
    const wrong: string[] = [];
    for (const path of ['/v1/chat/completions/', '/v1/messages//', '/v1/embeddings/?x=1', '/v1/models/']) {
      const method = path.startsWith('/v1/models') ? 'GET' : 'POST';
      const res = await fetch(`${t.url}${path}`, {
        method,
        headers: method === 'GET' ? {} : { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : BODY,
      });
      const body = (await res.json()) as { error?: unknown };
      // The relay's own refusal (an OpenAI or Anthropic error object), not Fastify's or a 404.
      if (res.status !== 401 || !body.error) wrong.push(`${method} ${path} → ${res.status}`);
    }
    expect(wrong).toEqual([]);
  });

  it('the realtime WebSocket refuses the upgrade with 401', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/v1/realtime?model=gpt-4o-realtime-preview`);
      ws.on('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        ws.terminate();
      });
      ws.on('open', () => {
        ws.close();
        reject(new Error('upgraded without credentials'));
      });
      ws.on('error', () => undefined);
    });
    expect(status).toBe(401);
  });
});

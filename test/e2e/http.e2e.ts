/**
 * HTTP behaviour shared by every route: JSON 404s for API paths, the console's index.html for any other
 * path, body parsing failures and limits, trailing slashes, the request id header, the language of
 * messages, the OpenAPI document, and no 405 ever.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { ApiClient, makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

const REQUEST_ID = /^\d{14}[0-9a-f]{8}$/;
const INDEX_HTML =
  '<!doctype html><html><head><title>Console test page</title></head><body><div id="root">spa-marker-42</div></body></html>';
const APP_JS = 'console.log("asset-marker-17");\n';
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg"/>';

/** A GET whose body is kept as the bytes sent (no client-side decompression). */
function rawGet(
  url: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

function expectJson404(res: request.Response): void {
  expect(res.status).toBe(404);
  expect(res.headers['content-type']).toMatch(/application\/json/);
  expect(res.text).not.toContain('<html');
}

describe('HTTP surface', () => {
  let t: TestApp;
  let root: ApiClient;
  let user: ApiClient;

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    user = await makeUser(t, root);
  });
  afterAll(() => t.close());

  describe('unknown routes', () => {
    const methods = ['get', 'post', 'put', 'delete', 'patch'] as const;
    const apiPaths = [
      '/api/nope',
      '/api/user/self/nope/deeper',
      '/api',
      '/api/',
      '/api/option/nope',
      '/api/status/extra',
    ];

    it.each(methods)('%s on unknown /api paths is a JSON 404 envelope', async (method) => {
      for (const path of apiPaths) {
        const res = await request(t.url)
          [method](path)
          .set('Content-Type', 'application/json')
          .send(method === 'get' ? undefined : '{}');
        expectJson404(res);
        expect(res.body).toEqual({ success: false, message: '接口不存在', data: null });
      }
    });

    it('is a JSON 404 for signed-in callers too', async () => {
      const res = await root.get('/api/nope');
      expectJson404(res);
      expect(res.body.success).toBe(false);
    });

    it.each(methods)(
      '%s on unknown relay paths (/v1, /v1beta, /pg, /mj, /suno) is a JSON 404',
      async (method) => {
        for (const path of [
          '/v1/no-such-endpoint',
          '/v1',
          '/v1beta/no/such',
          '/pg/no-such',
          '/mj/no-such',
          '/suno/no-such',
        ]) {
          const res = await request(t.url)[method](path);
          expectJson404(res);
          expect(() => JSON.parse(res.text)).not.toThrow();
        }
      },
    );

    it('never answers 405: a wrong method on a known route is a 404', async () => {
      const cases: Array<[ApiClient, 'get' | 'post' | 'put' | 'delete' | 'patch', string]> = [
        [root, 'delete', '/api/status'],
        [root, 'post', '/api/status'],
        [root, 'put', '/api/notice'],
        [root, 'put', '/api/user/login'],
        [root, 'delete', '/api/user/login'],
        [root, 'patch', '/api/user/self'],
        [root, 'delete', '/api/option/'],
        [root, 'patch', '/api/option/'],
        [root, 'put', '/api/setup'],
        [root, 'delete', '/api/user/manage'],
        [root, 'post', '/api/group/'],
        [new ApiClient(t.url), 'put', '/api/status'],
      ];
      for (const [c, method, path] of cases) {
        const res =
          method === 'patch'
            ? await c.agent.patch(path).set('New-Api-User', String(c.userId ?? ''))
            : await c[method](path);
        expect([method, path, res.status]).toEqual([method, path, 404]);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.body.success).toBe(false);
      }
    });

    it('non-API paths get the console page (built-in placeholder when no console is built)', async () => {
      const res = await request(t.url).get('/some/page').expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    });
  });

  describe('the console (SPA) fallback', () => {
    let spa: TestApp;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'gatehouse-static-'));
      mkdirSync(join(dir, 'assets'));
      writeFileSync(join(dir, 'index.html'), INDEX_HTML);
      writeFileSync(join(dir, 'assets', 'app.js'), APP_JS);
      // What the console's build writes beside each file (host-app/precompress.ts).
      for (const file of [join(dir, 'index.html'), join(dir, 'assets', 'app.js')]) {
        const raw = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(raw));
        writeFileSync(`${file}.gz`, gzipSync(raw));
      }
      writeFileSync(join(dir, 'favicon.svg'), FAVICON);
      spa = await startApp({ STATIC_DIR: dir });
    });
    afterAll(async () => {
      await spa.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it.each([
      '/some/page',
      '/',
      '/login?expired=true',
      '/user/edit/5',
      '/oauth/github?code=x&state=y',
      '/apiary',
      '/v1x/y',
    ])('GET %s returns index.html', async (path) => {
      const res = await request(spa.url).get(path).expect(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toBe(INDEX_HTML);
      expect(res.headers['x-oneapi-request-id']).toMatch(REQUEST_ID);
    });

    it('serves the static assets', async () => {
      const res = await request(spa.url).get('/assets/app.js').expect(200);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.text).toBe(APP_JS);
    });

    it('sends the precompressed copy the client accepts, with Vary, and hashed assets as immutable', async () => {
      for (const [accept, encoding, decode] of [
        ['gzip, deflate, br', 'br', brotliDecompressSync],
        ['gzip', 'gzip', gunzipSync],
        ['identity', undefined, (b: Buffer) => b],
        ['', undefined, (b: Buffer) => b],
      ] as const) {
        const res = await rawGet(`${spa.url}/assets/app.js`, accept);
        expect([accept, res.status, res.headers['content-encoding']]).toEqual([accept, 200, encoding]);
        expect(res.headers['content-type']).toMatch(/javascript/);
        expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(decode(res.body).toString()).toBe(APP_JS);
      }
    });

    it('revalidates index.html (SPA fallback included) and unhashed files, compressed too', async () => {
      for (const path of ['/', '/login', '/user/edit/5']) {
        const res = await rawGet(`${spa.url}${path}`, 'br, gzip');
        expect([path, res.status, res.headers['content-encoding']]).toEqual([path, 200, 'br']);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(String(res.headers.vary).toLowerCase()).toContain('accept-encoding');
        expect(brotliDecompressSync(res.body).toString()).toBe(INDEX_HTML);
      }
      const plain = await rawGet(`${spa.url}/some/page`, '');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.toString()).toBe(INDEX_HTML);
      // No precompressed copy: the file itself, revalidated.
      const icon = await rawGet(`${spa.url}/favicon.svg`, 'br, gzip');
      expect(icon.headers['content-encoding']).toBeUndefined();
      expect(icon.headers['cache-control']).toBe('no-cache');
      expect(icon.body.toString()).toBe(FAVICON);
    });

    it('keeps API paths as JSON 404s', async () => {
      for (const path of ['/api/nope', '/v1/nope', '/api/option/nope/x']) {
        const res = await request(spa.url).get(path);
        expectJson404(res);
        expect(res.text).not.toContain('spa-marker-42');
      }
      const envelope = await request(spa.url).get('/api/nope');
      expect(envelope.body).toEqual({ success: false, message: '接口不存在', data: null });
    });

    it('the API still works next to the console', async () => {
      const res = await request(spa.url).get('/api/status').expect(200);
      expect(res.body).toMatchObject({ success: true, data: { setup: false } });
    });

    it('does not serve the page for non-GET methods on unknown paths', async () => {
      const res = await request(spa.url).post('/some/page').send({});
      expect(res.status).toBe(404);
      expect(res.text).not.toContain('spa-marker-42');
    });

    it('does not escape the static folder', async () => {
      for (const path of [
        '/assets/../../../../etc/passwd',
        '/..%2f..%2f..%2f..%2fetc%2fpasswd',
        '/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      ]) {
        const res = await request(spa.url).get(path);
        expect(res.text).not.toMatch(/root:.*:0:0:/);
      }
    });
  });

  describe('request bodies', () => {
    it.each([
      ['/api/user/login', 'post', '{"username": "root", "password":'],
      ['/api/user/login', 'post', "{'username': 'root'}"],
      ['/api/setup', 'post', '{bad json'],
      ['/api/user/register', 'post', '[1, 2'],
    ])('malformed JSON on %s is a 200 business failure', async (path, _m, body) => {
      const res = await request(t.url).post(path).set('Content-Type', 'application/json').send(body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, data: null });
      expect(res.body.message).toContain('JSON');
    });

    it('malformed JSON on a signed-in route is a 200 business failure and changes nothing', async () => {
      const before = (await root.get('/api/user/self').expect(200)).body.data;
      const res = await root.agent
        .put('/api/user/self')
        .set('New-Api-User', String(root.userId))
        .set('Content-Type', 'application/json')
        .send('{"display_name": "x"');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect((await root.get('/api/user/self').expect(200)).body.data).toEqual(before);
    });

    it('an empty JSON body is not a server error', async () => {
      const res = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'application/json')
        .send('');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
    });

    it('a bodiless request with a JSON content type is served as having no body', async () => {
      // DELETE with a query and no body, as axios and SDK wrappers send it (header on every call).
      const del = await root.agent
        .delete(`/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) - 86_400 * 3650}`)
        .set('New-Api-User', String(root.userId))
        .set('Content-Type', 'application/json');
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ success: true });
      expect(del.body.message ?? '').not.toContain('JSON');
      const whitespace = await root.agent
        .get('/api/user/self')
        .set('New-Api-User', String(root.userId))
        .set('Content-Type', 'application/json; charset=utf-8')
        .send('  \n');
      expect(whitespace.body).toMatchObject({ success: true });
      // A non-empty invalid body still gets the JSON error.
      const bad = await root.agent
        .delete(`/api/log/?target_timestamp=1`)
        .set('New-Api-User', String(root.userId))
        .set('Content-Type', 'application/json')
        .send('{');
      expect(bad.body.success).toBe(false);
      expect(bad.body.message).toContain('JSON');
    });

    it('an unsupported content type is refused without a server error', async () => {
      const res = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'text/plain')
        .send('username=root');
      expect(res.status).toBeLessThan(500);
      expect(res.body.success).toBe(false);
    });

    it('a 33 MB body is refused with 413 JSON', async () => {
      // fetch rather than supertest: superagent takes ~20 s to push 33 MB at a server that already answered.
      const big = Buffer.alloc(33 * 1024 * 1024, 'a');
      const res = await fetch(`${t.url}/api/user/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: big,
      });
      expect(res.status).toBe(413);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await res.json()) as { success: boolean; message: string; data: unknown };
      expect(body).toMatchObject({ success: false, data: null });
      expect(body.message).toBeTruthy();
      expect(res.headers.get('x-oneapi-request-id')).toMatch(REQUEST_ID);
      // Also on a signed-in route, before any handler runs.
      const put = await fetch(`${t.url}/api/option/`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: big,
      });
      expect(put.status).toBe(413);
    });

    it('a large body below the limit is read normally', async () => {
      const res = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'application/json')
        .send({ username: 'root', password: 'p'.repeat(2 * 1024 * 1024) });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
    });
  });

  describe('trailing slashes', () => {
    it.each(['/api/user/self', '/api/status', '/api/user/', '/api/option/', '/api/group/'])(
      '%s routes with or without the slash',
      async (path) => {
        const bare = path.replace(/\/$/, '');
        const a = await root.get(bare);
        const b = await root.get(bare + '/');
        expect([a.status, b.status]).toEqual([200, 200]);
        expect(a.body.success).toBe(true);
        expect(b.body.success).toBe(true);
        const strip = (d: unknown) => JSON.parse(JSON.stringify(d, (k, v) => (k === 'start_time' ? 0 : v)));
        expect(strip(b.body.data)).toEqual(strip(a.body.data));
      },
    );

    it('writes route with a trailing slash too', async () => {
      const res = await root.put('/api/option', { key: 'Notice', value: 'slashless' }).expect(200);
      expect(res.body.success).toBe(true);
      expect((await request(t.url).get('/api/notice/').expect(200)).body.data).toBe('slashless');
      const r2 = await root
        .post('/api/user/manage/', { id: user.userId, action: 'add_quota', value: 5 })
        .expect(200);
      expect(r2.body.success).toBe(true);
    });
  });

  describe('request id', () => {
    it('every response carries a unique X-Oneapi-Request-Id', async () => {
      const anon = () => request(t.url);
      const responses = await Promise.all([
        anon().get('/api/status'),
        anon().get('/api/user/self'),
        user.get('/api/option/'),
        anon().get('/api/nope'),
        anon().post('/v1/nope'),
        anon().get('/some/page'),
        anon().post('/api/user/login').set('Content-Type', 'application/json').send('{bad'),
        anon().post('/api/user/login').send({ username: 'root', password: 'wrong-password' }),
        root.get('/api/user/self'),
        anon().get('/api/docs-json'),
        anon().delete('/api/status'),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 401, 403, 404, 404, 200, 200, 200, 200, 200, 404]);
      const ids = responses.map((r) => r.headers['x-oneapi-request-id']);
      for (const id of ids) expect(id).toMatch(REQUEST_ID);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('ignores a client-sent request id', async () => {
      const res = await request(t.url)
        .get('/api/status')
        .set('X-Oneapi-Request-Id', 'spoofed-id')
        .set('request-id', 'spoofed-2');
      expect(res.headers['x-oneapi-request-id']).toMatch(REQUEST_ID);
    });
  });

  describe('language', () => {
    const cases: Array<[string, () => request.Test, number, RegExp, RegExp]> = [];
    beforeAll(() => {
      cases.push(
        ['401', () => request(t.url).get('/api/user/self'), 401, /Not logged in/, /未登录/],
        ['404', () => request(t.url).get('/api/nope'), 404, /No such API route/, /接口不存在/],
        [
          'login failure',
          () => request(t.url).post('/api/user/login').send({ username: 'root', password: 'nope-nope' }),
          200,
          /Wrong username or password/,
          /用户名或密码错误/,
        ],
        [
          'empty login',
          () => request(t.url).post('/api/user/login').send({}),
          200,
          /enter username and password/,
          /请输入用户名和密码/,
        ],
        [
          'bad JSON',
          () => request(t.url).post('/api/user/login').set('Content-Type', 'application/json').send('{'),
          200,
          /not valid JSON/,
          /不是合法的 JSON/,
        ],
      );
    });

    it('English for Accept-Language en, Chinese by default', async () => {
      for (const [label, make, status, en, zh] of cases) {
        for (const lang of ['en', 'en-US,en;q=0.9', 'en-GB']) {
          const res = await make().set('Accept-Language', lang);
          expect([label, lang, res.status]).toEqual([label, lang, status]);
          expect(res.body.message).toMatch(en);
        }
        for (const lang of [undefined, 'zh-CN,zh;q=0.9,en;q=0.8', 'fr-FR']) {
          const r = make();
          const res = await (lang ? r.set('Accept-Language', lang) : r);
          expect(res.body.message).toMatch(zh);
        }
      }
    });

    it('English for a signed-in caller asking for it (403, business failures)', async () => {
      const res = await user.get('/api/option/').set('Accept-Language', 'en');
      expect(res.status).toBe(403);
      expect(res.body.message).toMatch(/insufficient permission/);
      const create = await root.post('/api/user/', { username: '' }).set('Accept-Language', 'en').expect(200);
      expect(create.body.message).toBe('Username and password cannot be empty!');
    });
  });

  describe('OpenAPI', () => {
    it('GET /api/docs serves Swagger UI', async () => {
      const res = await request(t.url).get('/api/docs').redirects(2);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.text).toMatch(/swagger-ui/i);
    });

    it('GET /api/docs-json is an OpenAPI document of the management API', async () => {
      const res = await request(t.url).get('/api/docs-json').expect(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      const doc = res.body;
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.info.title).toBeTruthy();
      expect(doc.paths['/api/user/login']).toHaveProperty('post');
      expect(doc.paths['/api/option']).toHaveProperty('put');
      expect(doc.paths['/api/user/{id}']).toHaveProperty('get');
      expect(doc.paths['/api/status']).toHaveProperty('get');
      // The envelope wrapper is not itself listed as a route; the model routes are described too
      // (OpenAI's billing routes under /dashboard and the playground's /pg among them).
      expect(Object.keys(doc.paths).filter((p) => !/^\/(api|v1|v1beta|dashboard|pg)\//.test(p))).toEqual([]);
      expect(doc.paths['/dashboard/billing/subscription']).toHaveProperty('get');
      expect(doc.paths['/v1/chat/completions']).toHaveProperty('post');
    });
  });
});

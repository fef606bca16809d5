/**
 * Management API bodies nested absurdly deep are refused with a 400 envelope before anything walks
 * them recursively (no stack overflow, no 500); ordinary nesting keeps working. Pages and API answers
 * carry the security headers (CSP with configurable frame-ancestors, nosniff, Referrer-Policy), and
 * the API's answers are never stored by a cache.
 */
import request from 'supertest';
import { MAX_JSON_DEPTH } from '../../server/src/common/http/json-depth';
import { Token } from '../../server/src/database/entities';
import { ConfigError, loadConfig } from '../../server/src/config/app-config';
import { ApiClient, makeUser, setupRoot, startApp, startNode, TEST_ENV, TestApp } from '../support/test-app';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('request hardening', () => {
  let t: TestApp;
  let root: ApiClient;
  let user: ApiClient;

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    user = await makeUser(t, root);
  });
  afterAll(() => t?.close());

  describe('JSON nesting depth', () => {
    const deep = `{"username":"root","password":${nested(100_000)}}`;

    it('a body nested 100,000 deep is a 400 envelope on sign-in, not a server error', async () => {
      const res = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'application/json')
        .send(deep);
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.body).toEqual({
        success: false,
        message: `请求体 JSON 嵌套过深（最多 ${MAX_JSON_DEPTH} 层）`,
        data: null,
      });
      const en = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'application/json')
        .set('Accept-Language', 'en')
        .send(deep);
      expect(en.status).toBe(400);
      expect(en.body.message).toBe(
        `The request body JSON is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`,
      );
    });

    it('is refused on a signed-in route too, and creates nothing', async () => {
      const before = await t.ds.getRepository(Token).count();
      const res = await user
        .post('/api/token/')
        .set('Content-Type', 'application/json')
        .send(`{"name":"deep","model_limits":${nested(100_000)}}`);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(await t.ds.getRepository(Token).count()).toBe(before);
      // objects count as much as arrays
      const objects = await user
        .post('/api/token/')
        .set('Content-Type', 'application/json')
        .send('{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000));
      expect(objects.status).toBe(400);
    });

    it('nesting up to the limit is parsed as usual; one level more is refused', async () => {
      const atLimit = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'application/json')
        .send(`{"username":"root","password":"wrong-pass","extra":${nested(MAX_JSON_DEPTH - 1)}}`);
      expect(atLimit.status).toBe(200);
      expect(atLimit.body.success).toBe(false);
      expect(atLimit.body.message).not.toMatch(/JSON/);
      const over = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'application/json')
        .send(`{"username":"root","password":"wrong-pass","extra":${nested(MAX_JSON_DEPTH)}}`);
      expect(over.status).toBe(400);
      // brackets inside strings are text, not nesting
      const inString = await request(t.url)
        .post('/api/user/login')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ username: 'root', password: '['.repeat(200) }));
      expect(inString.status).toBe(200);
      expect(inString.body.success).toBe(false);
      expect(inString.body.message).not.toMatch(/JSON/);
    });

    it('the server keeps answering afterwards', async () => {
      const res = await user.get('/api/user/self');
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
    });
  });

  describe('security headers', () => {
    /** The directives of a Content-Security-Policy header, by name. */
    const directives = (header: unknown): Record<string, string[]> => {
      expect(typeof header).toBe('string');
      const out: Record<string, string[]> = {};
      for (const part of String(header).split(';')) {
        const [name, ...values] = part.trim().split(/\s+/);
        if (name) out[name] = values;
      }
      return out;
    };

    it('console pages get a strict CSP, nosniff, a Referrer-Policy and frame protection', async () => {
      for (const path of ['/', '/login', '/user/reset?email=a%40b.c&token=x']) {
        const res = await request(t.url).get(path).expect(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        const csp = directives(res.headers['content-security-policy']);
        expect(csp['default-src']).toEqual(["'self'"]);
        expect(csp['script-src']).toContain("'self'");
        expect(csp['script-src']).not.toContain("'unsafe-inline'");
        expect(csp['script-src']).not.toContain("'unsafe-eval'");
        expect(csp['object-src']).toEqual(["'none'"]);
        expect(csp['base-uri']).toEqual(["'self'"]);
        expect(csp['frame-ancestors']).toEqual(["'self'"]);
        expect(csp).not.toHaveProperty('upgrade-insecure-requests');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
        expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
        expect(res.headers['strict-transport-security']).toBeUndefined();
      }
    });

    it('authenticated JSON is never stored by a cache, and is not sniffed', async () => {
      for (const res of [
        await user.get('/api/user/self'),
        await user.get('/api/token/?p=1'),
        await root.get('/api/option/'),
        await user.post('/api/token/', { name: 'cache-check' }),
        await request(t.url).get('/api/user/self'), // the 401 too
      ]) {
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.headers['cache-control']).toBe('no-store');
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    it('frame-ancestors lists the portals of CSP_FRAME_ANCESTORS, or nobody with none', async () => {
      const portal = await startNode(t, {
        CSP_FRAME_ANCESTORS: 'https://portal.example.com, https://*.corp.example:8443',
      });
      const closed = await startNode(t, { CSP_FRAME_ANCESTORS: 'none' });
      try {
        const framed = await request(portal.url).get('/').expect(200);
        expect(directives(framed.headers['content-security-policy'])['frame-ancestors']).toEqual([
          "'self'",
          'https://portal.example.com',
          'https://*.corp.example:8443',
        ]);
        // X-Frame-Options cannot name other origins: left out, CSP decides.
        expect(framed.headers['x-frame-options']).toBeUndefined();
        const nobody = await request(closed.url).get('/').expect(200);
        expect(directives(nobody.headers['content-security-policy'])['frame-ancestors']).toEqual(["'none'"]);
        expect(nobody.headers['x-frame-options']).toBe('DENY');
      } finally {
        await closed.close();
        await portal.close();
      }
    });

    it('refuses to start with a CSP_FRAME_ANCESTORS entry that is not an origin', () => {
      for (const bad of [
        'portal.example.com',
        "https://a.example 'unsafe-inline'",
        'javascript:x',
        'none https://a.b',
      ]) {
        expect(() => loadConfig({ ...TEST_ENV, CSP_FRAME_ANCESTORS: bad }, { quiet: true })).toThrow(
          ConfigError,
        );
      }
      expect(
        loadConfig({ ...TEST_ENV, CSP_FRAME_ANCESTORS: "'self' http://10.0.0.5:8080" }, { quiet: true })
          .frameAncestors,
      ).toEqual(['http://10.0.0.5:8080']);
    });
  });
});

/**
 * Management API bodies nested absurdly deep are refused with a 400 envelope before anything walks
 * them recursively (no stack overflow, no 500); ordinary nesting keeps working.
 */
import request from 'supertest';
import { MAX_JSON_DEPTH } from '../../server/src/common/http/json-depth';
import { Token } from '../../server/src/database/entities';
import { ApiClient, makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

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
});

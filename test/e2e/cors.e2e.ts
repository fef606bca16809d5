/**
 * Cross-origin access: the routes a key authenticates (model traffic, the OpenAI billing pair, the key's
 * usage and logs) answer any origin, without credentials, preflights included, as new-api does; the
 * routes of the session cookie stay same-origin (no CORS header at all). Real HTTP against the real
 * app, with a mock upstream behind the relay; streams and refusals are covered too.
 */
import request from 'supertest';
import { MockUpstream } from '../mocks/mock-upstream';
import { makeChannel, makeToken, setQuota } from '../support/relay-fixtures';
import { ApiClient, makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

const ORIGIN = 'https://chat.elsewhere.example';

describe('CORS', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    const user = await makeUser(t, root);
    await setQuota(t, user.userId!, 10_000_000);
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o' });
    key = (await makeToken(t, user.userId!)).key;
  });
  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const anyOrigin = (res: request.Response) => {
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  };

  describe('preflight', () => {
    it.each([
      ['POST', '/v1/chat/completions'],
      ['POST', '/v1/messages'],
      ['POST', '/v1beta/models/gemini-pro:generateContent'],
      ['GET', '/v1/models'],
      ['GET', '/v1/dashboard/billing/subscription'],
      ['GET', '/dashboard/billing/usage'],
      ['GET', '/api/usage/token'],
      ['GET', '/api/log/token'],
      ['POST', '/mj/submit/imagine'],
      ['POST', '/suno/submit/music'],
    ])('answers OPTIONS before %s %s: 204, methods and the asked headers', async (method, path) => {
      const res = await request(t.url)
        .options(path)
        .set('Origin', ORIGIN)
        .set('Access-Control-Request-Method', method)
        .set('Access-Control-Request-Headers', 'authorization,content-type,x-stainless-os');
      expect(res.status).toBe(204);
      anyOrigin(res);
      expect(res.headers['access-control-allow-methods']).toContain(method);
      expect(res.headers['access-control-allow-headers']).toBe('authorization,content-type,x-stainless-os');
      expect(res.text).toBe('');
    });

    it('offers the usual headers when the preflight names none', async () => {
      const res = await request(t.url)
        .options('/v1/chat/completions')
        .set('Origin', ORIGIN)
        .set('Access-Control-Request-Method', 'POST');
      expect(res.status).toBe(204);
      expect(res.headers['access-control-allow-headers']).toMatch(/Authorization/);
      expect(res.headers['access-control-allow-headers']).toMatch(/Content-Type/);
    });
  });

  describe('answers of key-authenticated routes', () => {
    const chat = (body: Record<string, unknown>, k = key) =>
      request(t.url)
        .post('/v1/chat/completions')
        .set('Origin', ORIGIN)
        .set('Authorization', `Bearer ${k}`)
        .send({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], ...body });

    it('carries Access-Control-Allow-Origin on a chat answer, a stream and a refusal', async () => {
      const plain = await chat({});
      expect(plain.status).toBe(200);
      anyOrigin(plain);
      expect(plain.headers['access-control-expose-headers']).toMatch(/X-Oneapi-Request-Id/i);

      const stream = await chat({ stream: true });
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/text\/event-stream/);
      anyOrigin(stream);
      expect(stream.text).toContain('[DONE]');

      const refused = await chat({}, 'sk-not-a-key-not-a-key-0000');
      expect(refused.status).toBe(401);
      anyOrigin(refused);
    });

    it('carries it on the task relays too, refusals included', async () => {
      const fetched = await request(t.url)
        .get('/mj/task/no-such-task/fetch')
        .set('Origin', ORIGIN)
        .set('Authorization', `Bearer ${key}`);
      anyOrigin(fetched);
      const suno = await request(t.url).post('/suno/fetch').set('Origin', ORIGIN).send({ ids: [] });
      expect(suno.status).toBe(401);
      anyOrigin(suno);
    });

    it.each([
      '/v1/models',
      '/v1/dashboard/billing/subscription',
      '/v1/dashboard/billing/usage',
      '/dashboard/billing/subscription',
      '/dashboard/billing/usage',
      '/api/usage/token',
      '/api/log/token',
    ])('GET %s answers any origin', async (path) => {
      const res = await request(t.url).get(path).set('Origin', ORIGIN).set('Authorization', `Bearer ${key}`);
      expect(res.status).toBe(200);
      anyOrigin(res);
    });
  });

  describe('cookie routes stay same-origin', () => {
    it.each(['/api/user/self', '/api/status', '/api/log/self', '/api/token/'])(
      'GET %s has no CORS header',
      async (path) => {
        const res = await root.get(path).set('Origin', ORIGIN);
        expect(res.status).toBe(200);
        expect(res.headers['access-control-allow-origin']).toBeUndefined();
      },
    );

    it('answers no preflight for them', async () => {
      const res = await request(t.url)
        .options('/api/user/self')
        .set('Origin', ORIGIN)
        .set('Access-Control-Request-Method', 'GET');
      expect(res.status).not.toBe(204);
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-methods']).toBeUndefined();
    });
  });
});

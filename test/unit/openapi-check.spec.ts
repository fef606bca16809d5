/**
 * The answer check the e2e projects install (test/support/check-answers.ts): a bare supertest request
 * and a `fetch` to a started server both fail when the JSON answer drifts from docs/openapi.json, after
 * the request's own assertions; `unchecked` leaves one request alone without sending anything extra.
 */
import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import request from 'supertest';
import {
  assertDocumented,
  checkAnswersFrom,
  checkEveryAnswer,
  unchecked,
  uncheckedFetch,
} from '../support/openapi-check';

/** GET /api/user/logout is documented as `{success: true, message, data: null}` or ApiFailure. */
const DOCUMENTED = { success: true, message: '', data: null };
const DRIFTED = { ...DOCUMENTED, session_id: 'abc' };

let server: Server;
let url: string;
let answer: unknown = DOCUMENTED;
let status = 200;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  checkEveryAnswer();
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.statusCode = status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  checkAnswersFrom(url);
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  answer = DOCUMENTED;
  status = 200;
  seen.length = 0;
});

test('a crafted answer with an undocumented field throws; the documented one does not', () => {
  const headers = { 'content-type': 'application/json' };
  expect(() =>
    assertDocumented('GET', '/api/user/logout', { status: 200, headers, body: DOCUMENTED }),
  ).not.toThrow();
  expect(() => assertDocumented('GET', '/api/user/logout', { status: 200, headers, body: DRIFTED })).toThrow(
    /GET \/api\/user\/logout \(200\) drifts from the OpenAPI document: \/ must NOT have additional properties/,
  );
});

test('a bare supertest request passes with the documented answer and fails with a drifting one', async () => {
  expect((await request(url).get('/api/user/logout')).body).toEqual(DOCUMENTED);
  answer = DRIFTED;
  await expect(request(url).get('/api/user/logout')).rejects.toThrow(
    /drifts.*additionalProperty.*session_id/,
  );
  // The callback style and an agent are checked too.
  const viaEnd = await new Promise<unknown>((resolve) => {
    request(url)
      .get('/api/user/logout')
      .end((err) => resolve(err));
  });
  expect(String(viaEnd)).toMatch(/drifts/);
  await expect(request.agent(url).get('/api/user/logout?x=1')).rejects.toThrow(/drifts/);
});

test("the request's own expectations are reported before the drift", async () => {
  answer = DRIFTED;
  await expect(request(url).get('/api/user/logout').expect(204)).rejects.toThrow(/expected 204 "No Content"/);
});

test('unchecked leaves one answer alone and sends nothing extra', async () => {
  answer = DRIFTED;
  const res = await unchecked(request(url).get('/api/user/logout'));
  expect(res.body).toEqual(DRIFTED);
  const plain = await request(url)
    .get('/api/user/logout')
    .catch((e: unknown) => e);
  expect(String(plain)).toMatch(/drifts/);
  expect(seen[0]).toEqual(seen[1]);
});

test('fetch from a started server is checked; uncheckedFetch is not', async () => {
  expect(await (await fetch(`${url}/api/user/logout`)).json()).toEqual(DOCUMENTED);
  answer = DRIFTED;
  await expect(fetch(`${url}/api/user/logout`)).rejects.toThrow(/drifts/);
  expect(await (await uncheckedFetch(`${url}/api/user/logout`)).json()).toEqual(DRIFTED);
  // Paths outside /api are not management answers.
  expect((await fetch(`${url}/v1/models`)).status).toBe(200);
});

test('a route missing from the document, and a refusal that is not ApiFailure, are drift', async () => {
  answer = DOCUMENTED;
  await expect(request(url).get('/api/nowhere')).rejects.toThrow(/not in the OpenAPI document/);
  status = 401;
  answer = { error: 'nope' };
  await expect(request(url).get('/api/user/logout')).rejects.toThrow(/\(401\) drifts/);
  answer = { success: false, message: 'sign in first', data: null };
  expect((await request(url).get('/api/user/logout')).status).toBe(401);
});

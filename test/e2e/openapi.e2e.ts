/**
 * The OpenAPI document served at /api/docs-json: valid OpenAPI (checked by a maintained validator),
 * a documented 2xx answer on every management route, the auth schemes, and equal to the committed
 * docs/openapi.json, from which the console's wire types (console-kit/src/api/schema.gen.ts) are
 * generated. `npm run gen:api` rewrites both after a change to the API.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertDocumented, OPENAPI_FILE } from '../support/openapi-check';
import { ApiClient, setupRoot, startApp, TestApp } from '../support/test-app';

const ROOT = join(__dirname, '..', '..');
const GENERATED = join(ROOT, 'console-kit', 'src', 'api', 'schema.gen.ts');
const UPDATE = process.env.UPDATE_OPENAPI === '1';

/** Routes whose success is a redirect (no body to describe). */
const REDIRECTS = new Set(['get /api/user/epay/return']);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The document as committed: stable key order, two-space indent, final newline. */
export function serialize(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}

let t: TestApp;
let doc: Json;

beforeAll(async () => {
  t = await startApp();
  const res = await fetch(`${t.url}/api/docs-json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Json;
});
afterAll(() => t.close());

test('the document is valid OpenAPI', () => {
  const file = join(tmpdir(), `gatehouse-openapi-${process.pid}.json`);
  writeFileSync(file, serialize(doc));
  const cli = join(
    ROOT,
    'node_modules',
    '@seriousme',
    'openapi-schema-validator',
    'bin',
    'validate-api-cli.js',
  );
  const r = spawnSync(process.execPath, [cli, file], { encoding: 'utf8' });
  const result = JSON.parse(r.stdout) as { valid: boolean; errors?: unknown };
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(r.status).toBe(0);
});

test('every management route documents its 2xx answer with a schema', () => {
  const missing: string[] = [];
  let count = 0;
  for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
    if (!path.startsWith('/api')) continue;
    for (const [method, op] of Object.entries(item)) {
      count += 1;
      const key = `${method} ${path}`;
      if (REDIRECTS.has(key)) {
        expect(op.responses['302']).toBeDefined();
        continue;
      }
      const ok = Object.entries(op.responses ?? {}).find(([status]) => /^2\d\d$/.test(status));
      const content = (ok?.[1] as Json | undefined)?.content as Record<string, Json> | undefined;
      if (!content || !Object.values(content).every((c) => c.schema)) missing.push(key);
    }
  }
  expect(missing).toEqual([]);
  expect(count).toBeGreaterThan(100);
});

test('the management answers are the envelope, a refusal is ApiFailure', () => {
  const schemas = doc.components.schemas as Record<string, Json>;
  expect(schemas.ApiFailure.required).toEqual(['success', 'message', 'data']);
  const token = doc.paths['/api/token/{id}'].get.responses['200'].content['application/json'].schema;
  expect(token.oneOf[0].properties.data).toEqual({ $ref: '#/components/schemas/TokenView' });
  expect(token.oneOf[1]).toEqual({ $ref: '#/components/schemas/ApiFailure' });
  const page = doc.paths['/api/token'].get.responses['200'].content['application/json'].schema;
  expect(page.oneOf[0].properties.data.required).toEqual(['items', 'total', 'page', 'page_size']);
  expect(schemas.TokenView.required).toEqual(
    expect.arrayContaining(['id', 'key', 'remain_quota', 'used_quota']),
  );
});

test('the auth schemes: cookie or access token, each with New-Api-User; API tokens on the relay', () => {
  const schemes = doc.components.securitySchemes as Record<string, Json>;
  expect(schemes.session).toMatchObject({ type: 'apiKey', in: 'cookie' });
  expect(schemes['access-token']).toMatchObject({ type: 'http', scheme: 'bearer' });
  expect(schemes['new-api-user']).toMatchObject({ type: 'apiKey', in: 'header', name: 'New-Api-User' });
  expect(doc.paths['/api/token'].get.security).toEqual([
    { session: [], 'new-api-user': [] },
    { 'access-token': [], 'new-api-user': [] },
  ]);
  expect(doc.paths['/api/status'].get.security).toBeUndefined();
  const chat = doc.paths['/v1/chat/completions'].post;
  expect(chat.security).toContainEqual({ 'api-key': [] });
  expect(chat.externalDocs.url).toMatch(/^https:\/\/platform\.openai\.com\//);
  expect(doc.paths['/v1/messages'].post.externalDocs.url).toMatch(/anthropic/);
  expect(doc.paths['/v1beta/models/{target}'].post.externalDocs.url).toMatch(/ai\.google\.dev/);
});

test('docs/openapi.json is the served document (npm run gen:api rewrites it)', () => {
  if (UPDATE) writeFileSync(OPENAPI_FILE, serialize(doc));
  expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(serialize(doc));
});

test("the console's generated wire types are up to date with docs/openapi.json", () => {
  const cli = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
  const out = UPDATE ? GENERATED : join(tmpdir(), `gatehouse-schema-${process.pid}.gen.ts`);
  const r = spawnSync(process.execPath, [cli, OPENAPI_FILE, '-o', out], { cwd: ROOT, encoding: 'utf8' });
  expect(r.stderr).not.toMatch(/error/i);
  expect(r.status).toBe(0);
  expect(readFileSync(GENERATED, 'utf8')).toBe(readFileSync(out, 'utf8'));
});

test('the test client checks every JSON answer against the document, and a drifting answer fails', async () => {
  const root = await setupRoot(t);
  const created = await root.post('/api/token/', { name: 'contract', remain_quota: 1000 });
  expect(created.body.success).toBe(true);
  const listed = await root.get('/api/token/?p=1&page_size=5');
  const page = listed.body.data as { items: Array<Record<string, unknown>> };
  expect(page.items).toHaveLength(1);
  const headers = { 'content-type': 'application/json; charset=utf-8' };
  const answer = (body: unknown) => ({ status: 200, headers, body });
  expect(() => assertDocumented('get', '/api/token/?p=1', answer(listed.body))).not.toThrow();
  // An undocumented field, a missing one, a retyped one: each is drift.
  const withExtra = { ...listed.body, data: { ...page, items: [{ ...page.items[0], key_hash: 'x' }] } };
  expect(() => assertDocumented('get', '/api/token/', answer(withExtra))).toThrow(/drifts/);
  const { used_quota: _dropped, ...withoutField } = page.items[0];
  const missing = { ...listed.body, data: { ...page, items: [withoutField] } };
  expect(() => assertDocumented('get', '/api/token/', answer(missing))).toThrow(/used_quota/);
  const retyped = { ...listed.body, data: { ...page, items: [{ ...page.items[0], remain_quota: '1000' }] } };
  expect(() => assertDocumented('get', '/api/token/', answer(retyped))).toThrow(/drifts/);
  // Refusals are the failure envelope; a route missing from the document is drift too.
  const anonymous = await new ApiClient(t.url).get('/api/token/');
  expect(anonymous.status).toBe(401);
  expect(() =>
    assertDocumented('get', '/api/nowhere', answer({ success: true, message: '', data: 1 })),
  ).toThrow(/not in the OpenAPI document/);
});

test('typed body fields: a wrong type is refused before the handler with the field rule, in zh and en, and nothing is written', async () => {
  const root = await new ApiClient(t.url).login('root', 'root-pass-1');
  const before = (await root.get('/api/token/')).body.data as { total: number };
  const zh = await root
    .post('/api/token/', { name: 'typed', remain_quota: '5' })
    .set('Accept-Language', 'zh-CN');
  expect(zh.body).toEqual({
    success: false,
    message: expect.stringMatching(/^额度必须是 0 到 \d+ 之间的整数/),
    data: null,
  });
  const en = await root.post('/api/token/', { name: 'typed', rpm_limit: -1 }).set('Accept-Language', 'en');
  expect(en.body.message).toBe('rpm_limit must be a whole number from 0 to 1000000 (0 means no limit)');
  const count = await root.post('/api/token/', { count: 0 }).set('Accept-Language', 'en');
  expect(count.body.success).toBe(false);
  const after = (await root.get('/api/token/')).body.data as { total: number };
  expect(after.total).toBe(before.total);
  const schema = doc.components.schemas.CreateTokenDto as Json;
  expect(schema.properties.remain_quota).toMatchObject({ type: 'integer', minimum: 0 });
  expect(schema.properties.rpm_limit).toMatchObject({ type: 'integer', minimum: 0, maximum: 1000000 });
  expect(schema.properties.count).toMatchObject({ type: 'integer', minimum: 1, maximum: 100 });
});

/**
 * The model API in /api/docs-json: every route of the relay's route table — the table the fast path
 * asks whether a path is a relay route and the relay plugin mounts its Fastify routes from — is in the
 * served document, with its method, its path parameters and a reference to the provider's definition.
 */
import { buildOpenApiDocument } from '../../server/src/common/http/openapi';
import { isRelayPath, RELAY_ROUTES, type RelayRoute } from '../../server/src/modules/relay/route-table';
import { startApp, TestApp } from '../support/test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let t: TestApp;
let doc: Json;

beforeAll(async () => {
  t = await startApp();
  const res = await fetch(`${t.url}/api/docs-json`);
  expect(res.status).toBe(200);
  doc = (await res.json()) as Json;
});
afterAll(() => t.close());

/** The relay routes a document lacks (or documents without their path parameters), as "METHOD path". */
function undocumented(document: Json, routes: readonly RelayRoute[]): string[] {
  const missing: string[] = [];
  for (const r of routes) {
    const op = document.paths?.[r.path]?.[r.method.toLowerCase()] as Json | undefined;
    const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const documented = ((op?.parameters ?? []) as Json[])
      .filter((p) => p.in === 'path')
      .map((p) => p.name as string)
      .sort();
    if (!op || !op.tags?.includes('relay') || JSON.stringify(params) !== JSON.stringify(documented))
      missing.push(`${r.method} ${r.path}`);
  }
  return missing;
}

/** A concrete path of a route: each parameter filled with a Gemini-style target. */
const example = (r: RelayRoute) => r.path.replace(/\{\w+\}/g, 'gemini-pro:generateContent');

test('every route of the relay route table is in /api/docs-json', () => {
  expect(RELAY_ROUTES.length).toBeGreaterThan(20);
  expect(undocumented(doc, RELAY_ROUTES)).toEqual([]);
});

test('a relay route left out of the document is reported', () => {
  const [first, ...rest] = RELAY_ROUTES;
  const partial = buildOpenApiDocument(t.app, 'test', rest) as unknown as Json;
  const missing = undocumented(partial, [first]);
  expect(missing).toEqual([`${first.method} ${first.path}`]);
});

test('the fast path serves exactly the raw routes of the table', () => {
  for (const r of RELAY_ROUTES) {
    expect([r.method, r.path, isRelayPath(r.method, example(r))]).toEqual([
      r.method,
      r.path,
      r.mount === 'raw',
    ]);
  }
  expect(isRelayPath('POST', '/v1/not-a-route')).toBe(false);
  expect(isRelayPath('GET', '/v1/chat/completions')).toBe(false);
});

test("the document refers to each provider's definition and marks uploads and upgrades", () => {
  for (const r of RELAY_ROUTES) {
    const op = doc.paths[r.path][r.method.toLowerCase()] as Json;
    if (r.path === '/api/usage/token') continue; // described with its own answer schema
    expect([r.path, op.externalDocs?.url]).toEqual([r.path, r.reference]);
    if (r.multipart) expect(Object.keys(op.requestBody.content)).toEqual(['multipart/form-data']);
    if (r.mount === 'upgrade') expect(Object.keys(op.responses)).toEqual(['101']);
  }
});

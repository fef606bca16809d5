/**
 * Checks every JSON answer the shared test client receives against the committed OpenAPI document
 * (docs/openapi.json, kept equal to /api/docs-json by test/e2e/openapi.e2e.ts). A management answer
 * that drifts from its documented schema (a missing, renamed, retyped or undocumented field) fails
 * the test that received it.
 *
 * The checks are strict where the document is silent: an object schema that lists its properties
 * accepts no others, so a field added to a view without its declaration is caught too.
 *
 * The e2e projects install the check once for every supertest request and every `fetch` to a server
 * the test started (test/support/check-answers.ts); the shared ApiClient asks for it in every project.
 * A test about an answer that is deliberately outside the document wraps its request in `unchecked`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';

export const OPENAPI_FILE = join(__dirname, '..', '..', 'docs', 'openapi.json');

type Json = Record<string, unknown>;
interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  params: number;
  /** Answer codes ('200', '401', 'default') the operation documents with a JSON body. */
  answers: Set<string>;
}

let state: { ajv: Ajv; ops: Operation[]; cache: Map<string, ValidateFunction> } | null = null;

/** Object schemas that list properties and say nothing of others accept no others. */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.properties && typeof o.properties === 'object' && o.additionalProperties === undefined)
    o.additionalProperties = false;
  for (const v of Object.values(o)) closeObjects(v);
}

function load() {
  if (state) return state;
  const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
  closeObjects(doc.components);
  closeObjects(doc.paths);
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc, 'openapi');
  const ops: Operation[] = [];
  for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
    if (!template.startsWith('/api')) continue;
    const params = (template.match(/\{[^}]+\}/g) ?? []).length;
    const pattern = new RegExp(
      '^' + template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+') + '/?$',
    );
    for (const [method, op] of Object.entries(item as Record<string, Json>)) {
      const responses = (op.responses ?? {}) as Record<string, Json>;
      const answers = new Set(
        Object.keys(responses).filter(
          (code) => (responses[code].content as Json | undefined)?.['application/json'],
        ),
      );
      ops.push({ method, template, pattern, params, answers });
    }
  }
  // A literal path wins over a template (`/api/token/search` before `/api/token/{id}`).
  ops.sort((a, b) => a.params - b.params);
  state = { ajv, ops, cache: new Map() };
  return state;
}

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function validator(ref: string): ValidateFunction {
  const s = load();
  let v = s.cache.get(ref);
  if (!v) {
    v = s.ajv.compile({ $ref: ref });
    s.cache.set(ref, v);
  }
  return v;
}

export interface CheckedResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Throws when a JSON answer of a management route does not match the document. */
export function assertDocumented(method: string, url: string, res: CheckedResponse): void {
  const path = url.split('?')[0];
  if (!path.startsWith('/api/') && path !== '/api') return;
  // A HEAD answer carries the GET's headers and no body.
  if (method.toLowerCase() === 'head') return;
  method = method.toLowerCase();
  if (path.startsWith('/api/docs')) return;
  if (!/application\/json/.test(res.headers['content-type'] ?? '')) return;
  const s = load();
  const op = s.ops.find((o) => o.method === method && o.pattern.test(path));
  const failure = 'openapi#/components/schemas/ApiFailure';
  if (!op && res.status < 400)
    throw new Error(
      `${method.toUpperCase()} ${path} answered ${res.status} but is not in the OpenAPI document`,
    );
  // The route's own answer for this code; otherwise a refusal (401, 403, 404 of an unknown route, 413,
  // 429) is the failure envelope, and a success code the route does not document is drift.
  const code = !op
    ? null
    : op.answers.has(String(res.status))
      ? String(res.status)
      : res.status >= 400 && op.answers.has('default')
        ? 'default'
        : res.status >= 400
          ? null
          : String(res.status);
  const ref =
    op && code
      ? `openapi#/paths/${pointer(op.template)}/${op.method}/responses/${code}/content/application~1json/schema`
      : failure;
  let validate: ValidateFunction;
  try {
    validate = validator(ref);
  } catch (e) {
    throw new Error(
      `${method.toUpperCase()} ${path} answered ${res.status} JSON with no documented schema (${(e as Error).message})`,
      { cause: e },
    );
  }
  if (!validate(res.body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 8)
      .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`)
      .join('; ');
    throw new Error(
      `${method.toUpperCase()} ${path} (${res.status}) drifts from the OpenAPI document: ${errors}\nbody: ${JSON.stringify(res.body).slice(0, 600)}`,
    );
  }
}

interface SupertestTest {
  method: string;
  url: string;
  assert(err: unknown, res: CheckedResponse | undefined, fn?: (err: unknown, res: unknown) => void): void;
}

/** Requests whose answers are checked whatever the project (the shared ApiClient's). */
const CHECKED = new WeakSet<object>();
/** Requests a test marked as about an answer outside the document. */
const UNCHECKED = new WeakSet<object>();
let everyAnswer = false;
let hooked = false;

/**
 * Checks the answer of a supertest request after its own `.expect` assertions, whichever way the
 * request is run (awaited, `.then`, `.end(cb)`); a drifting answer becomes the request's error.
 */
function hookSupertest(): void {
  if (hooked) return;
  hooked = true;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Test = (require('supertest') as { Test: { prototype: SupertestTest } }).Test;
  const assert = Test.prototype.assert;
  Test.prototype.assert = function (this: SupertestTest, err, res, fn) {
    if (!res || !fn || UNCHECKED.has(this) || !(everyAnswer || CHECKED.has(this)))
      return assert.call(this, err, res, fn);
    const { method, url } = this;
    return assert.call(this, err, res, function (this: SupertestTest, error, answer) {
      if (!error) {
        try {
          const { pathname, search } = new URL(url);
          assertDocumented(method, pathname + search, res);
        } catch (drift) {
          return fn.call(this, drift, answer);
        }
      }
      fn.call(this, error, answer);
    });
  };
}

/** Makes a supertest request check its answer against the document, in any project. */
export function checkedRequest<T extends object>(req: T): T {
  hookSupertest();
  CHECKED.add(req);
  return req;
}

/**
 * Leaves the answer of this request unchecked; nothing is sent to the server. Only for a test about an
 * answer the document does not describe (say why next to the call).
 */
export function unchecked<T extends object>(req: T): T {
  UNCHECKED.add(req);
  return req;
}

/** Origins of the servers the test started: `fetch` answers from them are checked. */
const servers = new Set<string>();

/** Checks `fetch` answers from `url`'s server (called by the helpers that start one). */
export function checkAnswersFrom(url: string): void {
  servers.add(new URL(url).origin);
}

/** `fetch` as Node provides it, unchecked. */
const plainFetch: typeof fetch = globalThis.fetch;

/** `fetch` that leaves the answer unchecked (a test about an answer outside the document). */
export const uncheckedFetch: typeof fetch = (input, init) => plainFetch(input, init);

/**
 * From now on every supertest answer, and every `fetch` answer from a server the test started, is
 * checked against the document. Installed once per test file by the e2e projects' setup file.
 */
export function checkEveryAnswer(): void {
  if (everyAnswer) return;
  everyAnswer = true;
  hookSupertest();
  const checkedFetch: typeof fetch = async (input, init) => {
    const res = await plainFetch(input, init);
    const request = input instanceof Request ? input : null;
    const url = new URL(request ? request.url : input instanceof URL ? input.href : input);
    const type = res.headers.get('content-type') ?? '';
    const api = url.pathname === '/api' || url.pathname.startsWith('/api/');
    if (!api || !servers.has(url.origin) || !/application\/json/.test(type)) return res;
    const method = init?.method ?? request?.method ?? 'GET';
    let body: unknown;
    try {
      body = await res.clone().json();
    } catch {
      body = undefined;
    }
    assertDocumented(method, url.pathname + url.search, {
      status: res.status,
      headers: { 'content-type': type },
      body,
    });
    return res;
  };
  globalThis.fetch = checkedFetch;
}

/**
 * Checks every JSON answer the shared test client receives against the committed OpenAPI document
 * (docs/openapi.json, kept equal to /api/docs-json by test/e2e/openapi.e2e.ts). A management answer
 * that drifts from its documented schema (a missing, renamed, retyped or undocumented field) fails
 * the test that received it.
 *
 * The checks are strict where the document is silent: an object schema that lists its properties
 * accepts no others, so a field added to a view without its declaration is caught too.
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
    for (const method of Object.keys(item)) ops.push({ method, template, pattern, params });
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
  if (path.startsWith('/api/docs')) return;
  if (!/application\/json/.test(res.headers['content-type'] ?? '')) return;
  const s = load();
  const op = s.ops.find((o) => o.method === method && o.pattern.test(path));
  const failure = 'openapi#/components/schemas/ApiFailure';
  let ref: string;
  if (res.status >= 400 || !op) {
    // Refusals (401, 403, 404 of an unknown route, 413, 429) are the failure envelope.
    if (!op && res.status < 400)
      throw new Error(
        `${method.toUpperCase()} ${path} answered ${res.status} but is not in the OpenAPI document`,
      );
    ref = failure;
  } else {
    const base = `openapi#/paths/${pointer(op.template)}/${op.method}/responses/${res.status}/content/application~1json/schema`;
    ref = base;
  }
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

/** Makes a supertest request check its answer against the document when awaited. */
export function checkedRequest<T extends PromiseLike<CheckedResponse>>(
  req: T,
  method: string,
  url: string,
): T {
  const then = req.then.bind(req);
  (req as { then: unknown }).then = (ok?: (v: CheckedResponse) => unknown, fail?: (e: unknown) => unknown) =>
    then((res) => {
      assertDocumented(method, url, res);
      return res;
    }).then(ok, fail);
  return req;
}

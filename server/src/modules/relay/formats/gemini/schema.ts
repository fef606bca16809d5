/**
 * JSON Schema (OpenAI tools and structured outputs) ⇄ Gemini's OpenAPI-subset Schema
 * (functionDeclarations[].parameters, generationConfig.responseSchema).
 */
import type { Json } from '../../types';
import { isArray, isObject, str, type JsonMap } from './json';

/** Schema keys Gemini accepts; anything else ($schema, additionalProperties, strict, $defs...) is dropped. */
const GEMINI_SCHEMA_KEYS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);

/** String formats Gemini accepts; others are rejected with a 400. */
const GEMINI_STRING_FORMATS = new Set(['enum', 'date-time']);

const MAX_REF_DEPTH = 16;

/**
 * A JSON Schema cleaned for Gemini: unknown keys stripped, local `$ref`s (#/$defs/X, #/definitions/X)
 * inlined, `type: [t, "null"]` → `type: t, nullable: true`, `const` → one-value `enum`, non-string
 * enums and unsupported string formats dropped.
 */
export function toGeminiSchema(schema: unknown): JsonMap | undefined {
  if (!isObject(schema)) return undefined;
  return clean(schema, schema, 0);
}

function clean(node: JsonMap, root: JsonMap, depth: number): JsonMap {
  const ref = str(node.$ref);
  if (ref !== undefined) {
    const target = depth < MAX_REF_DEPTH ? resolveRef(root, ref) : undefined;
    const { $ref: _ref, ...rest } = node;
    const merged: JsonMap = { ...(target ?? { type: 'object' }), ...rest };
    return clean(merged, root, depth + 1);
  }
  const out: JsonMap = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined || !GEMINI_SCHEMA_KEYS.has(key)) continue;
    if (key === 'properties' && isObject(value)) {
      const props: JsonMap = {};
      for (const [name, sub] of Object.entries(value)) {
        if (isObject(sub)) props[name] = clean(sub, root, depth);
      }
      out.properties = props;
    } else if (key === 'items' && isObject(value)) {
      out.items = clean(value, root, depth);
    } else if (key === 'anyOf' && isArray(value)) {
      out.anyOf = value.filter(isObject).map((sub) => clean(sub, root, depth));
    } else {
      out[key] = value;
    }
  }
  if (isArray(node.type)) {
    const types = node.type.filter((t): t is string => typeof t === 'string');
    const nonNull = types.filter((t) => t !== 'null');
    out.type = nonNull[0] ?? 'null';
    if (nonNull.length < types.length) out.nullable = true;
  }
  if (node.const !== undefined && out.enum === undefined) out.enum = [node.const];
  if (isArray(out.enum) && !out.enum.every((v) => typeof v === 'string')) delete out.enum;
  if (out.type === 'string' && typeof out.format === 'string' && !GEMINI_STRING_FORMATS.has(out.format)) {
    delete out.format;
  }
  return out;
}

function resolveRef(root: JsonMap, ref: string): JsonMap | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = root;
  for (const segment of ref.slice(2).split('/')) {
    if (!isObject(node)) return undefined;
    node = node[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return isObject(node) ? node : undefined;
}

/** String formats Gemini's JSON Schema support names; others are left out as in toGeminiSchema. */
const GEMINI_JSON_STRING_FORMATS = new Set(['date-time', 'date', 'time', 'enum']);

/**
 * A JSON Schema for Gemini's JSON Schema fields (functionDeclarations[].parametersJsonSchema,
 * generationConfig.responseJsonSchema): kept as the caller wrote it (additionalProperties, $defs and
 * $ref included, so `additionalProperties: false` still forbids extra members), with only the
 * `$schema` dialect marker and string formats Gemini does not know left out.
 */
export function toGeminiJsonSchema(schema: unknown): JsonMap | undefined {
  return isObject(schema) ? jsonSchemaNode(schema) : undefined;
}

function jsonSchemaNode(node: JsonMap): JsonMap {
  const out: JsonMap = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === undefined || key === '$schema') continue;
    if (key === 'format' && typeof value === 'string' && !GEMINI_JSON_STRING_FORMATS.has(value)) continue;
    if ((key === 'properties' || key === '$defs' || key === 'definitions') && isObject(value)) {
      const subs: JsonMap = {};
      for (const [name, sub] of Object.entries(value)) subs[name] = isObject(sub) ? jsonSchemaNode(sub) : sub;
      out[key] = subs;
    } else if ((key === 'items' || key === 'additionalProperties' || key === 'not') && isObject(value)) {
      out[key] = jsonSchemaNode(value);
    } else if (
      (key === 'anyOf' || key === 'oneOf' || key === 'allOf' || key === 'prefixItems') &&
      isArray(value)
    ) {
      out[key] = value.map((sub) => (isObject(sub) ? jsonSchemaNode(sub) : sub));
    } else out[key] = value;
  }
  return out;
}

/**
 * A Gemini Schema as JSON Schema: upper-case types (OBJECT, STRING...) lower-cased and
 * `nullable: true` turned into `type: [t, "null"]`. Other keys are kept.
 */
export function fromGeminiSchema(schema: unknown): JsonMap | undefined {
  if (!isObject(schema)) return undefined;
  const out: JsonMap = {};
  for (const [key, value] of Object.entries(schema)) {
    if (value === undefined || key === 'nullable') continue;
    if (key === 'type' && typeof value === 'string') {
      out.type = value.toLowerCase();
    } else if (key === 'properties' && isObject(value)) {
      const props: JsonMap = {};
      for (const [name, sub] of Object.entries(value)) props[name] = fromGeminiSchema(sub) ?? sub;
      out.properties = props;
    } else if (key === 'items' && isObject(value)) {
      out.items = fromGeminiSchema(value) ?? value;
    } else if (key === 'anyOf' && isArray(value)) {
      out.anyOf = value.map((sub) => fromGeminiSchema(sub) ?? sub);
    } else {
      out[key] = value;
    }
  }
  if (schema.nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

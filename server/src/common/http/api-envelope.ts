import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/**
 * The documented answer of every management route: `{success, message, data}` with `data` typed per
 * route. A refusal (HTTP 200 for business failures, 4xx otherwise) is `ApiFailure`.
 */
export class ApiFailure {
  @ApiProperty({ enum: [false], example: false }) success!: false;
  @ApiProperty({ description: "what went wrong, in the caller's language", example: '无权进行此操作' })
  message!: string;
  @ApiProperty({
    description: 'null, or a flag for clients that react to the refusal',
    type: 'object',
    nullable: true,
    additionalProperties: { type: 'boolean' },
    example: null,
  })
  data!: Record<string, boolean> | null;
}

/** What `data` holds: a model class, `[Model]` for a list, or a schema written out. */
export type DataShape = Type<unknown> | [Type<unknown>] | SchemaObject;

function isClass(x: unknown): x is Type<unknown> {
  return typeof x === 'function';
}

/** `data: null` (OpenAPI 3.0 spells null as a nullable type limited to null). */
const NULL_DATA: SchemaObject = {
  type: 'object',
  nullable: true,
  enum: [null],
  description: 'always null',
  example: null,
};

function dataSchema(shape: DataShape | null): SchemaObject | { $ref: string } {
  if (shape === null) return NULL_DATA;
  if (Array.isArray(shape)) return { type: 'array', items: { $ref: getSchemaPath(shape[0]) } };
  if (isClass(shape)) return { $ref: getSchemaPath(shape) };
  return shape;
}

function models(shape: DataShape | null): Type<unknown>[] {
  if (Array.isArray(shape)) return [shape[0]];
  return isClass(shape) ? [shape] : [];
}

/** The success envelope around `data`; with the failure shape as the other answer. */
export function envelopeSchema(data: SchemaObject | { $ref: string }): SchemaObject {
  return {
    oneOf: [
      {
        type: 'object',
        required: ['success', 'message', 'data'],
        properties: {
          success: { type: 'boolean', enum: [true], example: true },
          message: { type: 'string', description: 'empty, or a success note', example: '' },
          data,
        },
      },
      { $ref: getSchemaPath(ApiFailure) },
    ],
  };
}

/**
 * `data` is the given model (or list, or schema); `null` documents `data: null`. A schema written out
 * names the models it refers to in `models`.
 */
export function ApiEnvelope(
  shape: DataShape | null,
  opts: string | { description?: string; models?: Type<unknown>[] } = {},
) {
  const { description = 'the answer, or a refusal', models: extra = [] } =
    typeof opts === 'string' ? { description: opts } : opts;
  return applyDecorators(
    ApiExtraModels(ApiFailure, ...models(shape), ...extra),
    ApiOkResponse({ description, schema: envelopeSchema(dataSchema(shape)) }),
  );
}

/** `data` is one page of `Model`: `{items, total, page, page_size}`. */
export function ApiPage(model: Type<unknown>, description = 'one page (?p= from 1, page_size up to 100)') {
  return applyDecorators(
    ApiExtraModels(ApiFailure, model),
    ApiOkResponse({ description, schema: envelopeSchema(pageSchema({ $ref: getSchemaPath(model) })) }),
  );
}

export function pageSchema(items: SchemaObject | { $ref: string }): SchemaObject {
  return {
    type: 'object',
    required: ['items', 'total', 'page', 'page_size'],
    properties: {
      items: { type: 'array', items },
      total: { type: 'integer', example: 1 },
      page: { type: 'integer', example: 1 },
      page_size: { type: 'integer', example: 10 },
    },
  };
}

/** A free-form JSON object (settings, reports): its keys are described in the route's docs. */
export const ANY_OBJECT: SchemaObject = { type: 'object', additionalProperties: true };

/** `data` is one of several models (e.g. a signed-in user or a second-factor challenge). */
export function ApiEnvelopeOneOf(models: Type<unknown>[], opts: { nullable?: boolean } = {}) {
  const oneOf: Array<SchemaObject | { $ref: string }> = models.map((m) => ({ $ref: getSchemaPath(m) }));
  if (opts.nullable) oneOf.push({ ...NULL_DATA, description: 'null (a binding)' });
  return applyDecorators(
    ApiExtraModels(ApiFailure, ...models),
    ApiOkResponse({ description: 'the answer, or a refusal', schema: envelopeSchema({ oneOf }) }),
  );
}

/**
 * The answer is sent as is, without the envelope (the shapes kept for client compatibility). A call
 * refused before the handler runs (not signed in, a malformed body) still gets `ApiFailure`.
 */
export function ApiRawAnswer(schema: SchemaObject, models: Type<unknown>[] = []) {
  return applyDecorators(
    ApiExtraModels(ApiFailure, ...models),
    ApiOkResponse({
      description: 'sent as is (no envelope); a refusal before the handler is ApiFailure',
      schema: { anyOf: [schema, { $ref: getSchemaPath(ApiFailure) }] },
    }),
  );
}

/** A file download (CSV, NDJSON); a refusal is still the JSON `ApiFailure`. */
export function ApiFile(...types: string[]) {
  return applyDecorators(
    ApiExtraModels(ApiFailure),
    ApiOkResponse({
      description: 'the file; a refusal is JSON',
      content: Object.fromEntries<{ schema: SchemaObject | { $ref: string } }>([
        ...types.map((t): [string, { schema: SchemaObject }] => [t, { schema: { type: 'string' } }]),
        ['application/json', { schema: { $ref: getSchemaPath(ApiFailure) } }],
      ]),
    }),
  );
}

export const STRING: SchemaObject = { type: 'string' };
export const INTEGER: SchemaObject = { type: 'integer' };
export const NUMBER: SchemaObject = { type: 'number' };
export const BOOLEAN: SchemaObject = { type: 'boolean' };
export const STRINGS: SchemaObject = { type: 'array', items: { type: 'string' } };

/** An object whose properties are all present. */
export function objectOf(
  properties: Record<string, SchemaObject | { $ref: string }>,
  optional: string[] = [],
) {
  return {
    type: 'object',
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  } satisfies SchemaObject;
}

/** The browser is sent on (302 with Location); there is no body to describe. */
export function ApiRedirect() {
  return ApiResponse({ status: 302, description: 'redirect (Location header)' });
}

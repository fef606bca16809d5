import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { SESSION_COOKIE } from './session-cookie';
import type {
  OpenAPIObject,
  OperationObject,
  PathItemObject,
  ReferenceObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** A route of the model API (the relay's route table), documented by reference to its provider. */
export interface DocumentedRelayRoute {
  method: 'GET' | 'POST';
  path: string;
  summary: string;
  reference: string;
  mount: string;
  multipart?: boolean;
  /** Signed in with the console session instead of an API token. */
  session?: boolean;
}

/** A body relayed to the upstream API as is: documented by reference. */
const FREE_FORM = { type: 'object', additionalProperties: true } as const;

function relayOperation(route: DocumentedRelayRoute): OperationObject {
  const { method, path, summary, reference, mount, multipart, session } = route;
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path' as const,
    required: true,
    schema: { type: 'string' as const },
  }));
  return {
    tags: ['relay'],
    summary,
    description: `Request and answer as defined by the provider: ${reference}. Errors use the same provider's error format.`,
    externalDocs: { url: reference },
    security: session
      ? [{ session: [], 'new-api-user': [] }]
      : [{ 'api-key': [] }, { 'x-api-key': [] }, { 'x-goog-api-key': [] }],
    ...(params.length ? { parameters: params } : {}),
    ...(method === 'POST'
      ? {
          requestBody: {
            required: true,
            content: multipart
              ? { 'multipart/form-data': { schema: FREE_FORM } }
              : { 'application/json': { schema: FREE_FORM } },
          },
        }
      : {}),
    responses:
      mount === 'upgrade'
        ? {
            '101': {
              description: `switched to a WebSocket carrying the provider's events; see ${reference}`,
            },
          }
        : {
            '200': {
              description: `the provider's answer (JSON, or server-sent events when streaming); see ${reference}`,
              content: {
                'application/json': { schema: FREE_FORM },
                'text/event-stream': { schema: { type: 'string' } },
              },
            },
          },
  };
}

/** What `GET /api/usage/token` tells an API token about itself. */
const TOKEN_USAGE: SchemaObject = {
  type: 'object',
  required: [
    'object',
    'name',
    'total_granted',
    'total_used',
    'total_available',
    'unlimited_quota',
    'model_limits',
    'model_limits_enabled',
    'expires_at',
  ],
  properties: {
    object: { type: 'string', enum: ['token_usage'] },
    name: { type: 'string' },
    total_granted: { type: 'integer', description: 'quota left plus quota used' },
    total_used: { type: 'integer' },
    total_available: { type: 'integer', description: 'quota left (meaningless when unlimited_quota)' },
    unlimited_quota: { type: 'boolean' },
    model_limits: {
      type: 'object',
      additionalProperties: { type: 'boolean', enum: [true] },
      description: 'the models the token may call, each `true`; empty when it may call any',
    },
    model_limits_enabled: { type: 'boolean' },
    expires_at: { type: 'integer', description: 'Unix seconds; 0 = never' },
  },
};

/**
 * `GET /api/usage/token` (the route table's entry, `table`): answered in the shape OpenAI-era clients
 * read, `code` where the management API says `success`, described here rather than by reference.
 */
function tokenUsageOperation(table: OperationObject): OperationObject {
  const answer = (ok: boolean, data: SchemaObject | ReferenceObject): SchemaObject => ({
    type: 'object',
    required: ['code', 'message', 'data'],
    properties: { code: { type: 'boolean', enum: [ok] }, message: { type: 'string' }, data },
  });
  return {
    tags: table.tags,
    summary: table.summary,
    security: table.security,
    responses: {
      '200': {
        description: 'the usage of the token named by Authorization',
        content: {
          'application/json': { schema: answer(true, { $ref: '#/components/schemas/TokenUsage' }) },
        },
      },
      default: {
        description:
          'a refused token: 401 (no, unknown, disabled or expired key), 403 (used up, address not allowed)',
        content: {
          'application/json': {
            schema: answer(false, { type: 'object', nullable: true, enum: [null] }),
          },
        },
      },
    },
  };
}

/**
 * The OpenAPI document of `/api/docs-json`: the management API from the controllers' decorators, its
 * authentication schemes, and every route of the relay's route table (served outside Nest) described by
 * reference.
 */
export function buildOpenApiDocument(
  app: INestApplication,
  version: string,
  relayRoutes: readonly DocumentedRelayRoute[],
): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Gatehouse management API')
    .setDescription(
      'Every management answer is {success, message, data}; a refusal is ApiFailure (HTTP 200 for business ' +
        'failures, 401/403/404/413/429 otherwise). Sign in with the session cookie or an access token ' +
        '(Authorization), and send New-Api-User with the user id either way. Lists take ?p= (from 1) and ' +
        'page_size (at most 100) and answer {items, total, page, page_size}. Model routes (tag relay) take an ' +
        'API token.',
    )
    .setVersion(version)
    .addCookieAuth(
      SESSION_COOKIE,
      { type: 'apiKey', in: 'cookie', description: 'set by POST /api/user/login' },
      'session',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'access token from GET /api/user/token' },
      'access-token',
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'New-Api-User', description: 'id of the signed-in user' },
      'new-api-user',
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'API token sk-… (OpenAI clients)' },
      'api-key',
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'API token (Anthropic clients)' },
      'x-api-key',
    )
    .addApiKey(
      { type: 'apiKey', in: 'header', name: 'x-goog-api-key', description: 'API token (Gemini clients)' },
      'x-goog-api-key',
    )
    .build();
  const doc = SwaggerModule.createDocument(app, config);
  // A signed-in route takes the cookie or the access token, each with New-Api-User.
  for (const item of Object.values<PathItemObject>(doc.paths)) {
    for (const op of [item.get, item.put, item.post, item.delete, item.patch]) {
      if (!op?.security?.length) continue;
      op.security = [
        { session: [], 'new-api-user': [] },
        { 'access-token': [], 'new-api-user': [] },
      ];
    }
  }
  for (const route of relayRoutes) {
    const method = route.method === 'GET' ? 'get' : 'post';
    doc.paths[route.path] = { ...doc.paths[route.path], [method]: relayOperation(route) };
  }
  const usage = doc.paths['/api/usage/token']?.get;
  if (usage) {
    doc.paths['/api/usage/token'].get = tokenUsageOperation(usage);
    doc.components = { ...doc.components, schemas: { ...doc.components?.schemas, TokenUsage: TOKEN_USAGE } };
  }
  return doc;
}

import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { SESSION_COOKIE } from './session-cookie';
import type {
  OpenAPIObject,
  OperationObject,
  PathItemObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Where the request and answer bodies of the model APIs are defined (they are relayed, not restated). */
const OPENAI = 'https://platform.openai.com/docs/api-reference';
const ANTHROPIC = 'https://docs.anthropic.com/en/api/messages';
const GEMINI = 'https://ai.google.dev/api/generate-content';

type RelayRoute = [method: 'get' | 'post', path: string, summary: string, reference: string];

/** The model API served by the relay (outside Nest): described here, with the upstream reference. */
const RELAY_ROUTES: RelayRoute[] = [
  [
    'post',
    '/v1/chat/completions',
    'Chat completion (OpenAI format; stream with "stream": true)',
    `${OPENAI}/chat`,
  ],
  ['post', '/v1/completions', 'Text completion (OpenAI format)', `${OPENAI}/completions`],
  ['post', '/v1/embeddings', 'Embeddings (OpenAI format)', `${OPENAI}/embeddings`],
  [
    'post',
    '/v1/responses',
    'Responses API (OpenAI format); GET upgrades to a WebSocket',
    `${OPENAI}/responses`,
  ],
  ['post', '/v1/responses/compact', 'Responses API, compacted conversation', `${OPENAI}/responses`],
  ['post', '/v1/images/generations', 'Image generation (OpenAI format)', `${OPENAI}/images`],
  ['post', '/v1/images/edits', 'Image edit (multipart, OpenAI format)', `${OPENAI}/images`],
  ['post', '/v1/audio/speech', 'Text to speech (answer: audio bytes)', `${OPENAI}/audio`],
  ['post', '/v1/audio/transcriptions', 'Speech to text (multipart)', `${OPENAI}/audio`],
  ['post', '/v1/audio/translations', 'Speech to English text (multipart)', `${OPENAI}/audio`],
  ['post', '/v1/moderations', 'Moderation (OpenAI format)', `${OPENAI}/moderations`],
  ['post', '/v1/rerank', 'Rerank (Jina/Cohere format)', 'https://jina.ai/reranker/'],
  ['post', '/v1/messages', 'Messages (Anthropic format; stream with "stream": true)', ANTHROPIC],
  ['post', '/v1/messages/count_tokens', 'Token count of a Messages request (Anthropic format)', ANTHROPIC],
  ['get', '/v1/models', 'Models the key may use (OpenAI format)', `${OPENAI}/models`],
  ['get', '/v1/models/{model}', 'One model (OpenAI format)', `${OPENAI}/models`],
  ['get', '/v1beta/models', 'Models the key may use (Gemini format)', 'https://ai.google.dev/api/models'],
  [
    'post',
    '/v1beta/models/{target}',
    'Gemini call: {model}:generateContent, :streamGenerateContent, :embedContent, :countTokens',
    GEMINI,
  ],
];

/** A body relayed to the upstream API as is: documented by reference. */
const FREE_FORM = { type: 'object', additionalProperties: true } as const;

function relayOperation([method, path, summary, reference]: RelayRoute): OperationObject {
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
    security: [{ 'api-key': [] }, { 'x-api-key': [] }, { 'x-goog-api-key': [] }],
    ...(params.length ? { parameters: params } : {}),
    ...(method === 'post'
      ? { requestBody: { required: true, content: { 'application/json': { schema: FREE_FORM } } } }
      : {}),
    responses: {
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

/**
 * The OpenAPI document of `/api/docs-json`: the management API from the controllers' decorators, its
 * authentication schemes, and the relay's model routes (served outside Nest) described by reference.
 */
export function buildOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
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
  for (const route of RELAY_ROUTES) {
    const [method, path] = route;
    doc.paths[path] = { ...doc.paths[path], [method]: relayOperation(route) };
  }
  return doc;
}

import type { RelayMode, WireFormat } from './types';

/** Where the request and answer bodies of the model APIs are defined (they are relayed, not restated). */
const OPENAI = 'https://platform.openai.com/docs/api-reference';
const ANTHROPIC = 'https://docs.anthropic.com/en/api/messages';
const GEMINI = 'https://ai.google.dev/api/generate-content';
const GEMINI_MODELS = 'https://ai.google.dev/api/models';
const BILLING = 'https://platform.openai.com/docs/api-reference';

/** How a route reaches the relay. */
export type RelayMount =
  /** answered straight from Node's HTTP server, ahead of Fastify (RelayRoutes.tryRaw) */
  | 'raw'
  /** a Fastify route of the relay's plugin (it shares a prefix with Nest, or needs the session) */
  | 'fastify'
  /** an HTTP upgrade to a WebSocket (RealtimeRelay) */
  | 'upgrade';

/** One route of the model API, as served and as documented in /api/docs-json. */
export interface RelayRoute {
  method: 'GET' | 'POST';
  /** The OpenAPI path: `{name}` stands for the part of the path the route takes as a parameter. */
  path: string;
  mount: RelayMount;
  /** The path a request must match when the route has parameters (a fixed path matches itself). */
  match?: RegExp;
  /** A fixed-path call served as a model call of this mode, read in this wire format. */
  serves?: [RelayMode, WireFormat];
  /** The request body is multipart form data (file uploads). */
  multipart?: boolean;
  /** Signed in with the console session (cookie and New-Api-User) instead of an API token. */
  session?: boolean;
  summary: string;
  /** The provider's definition of the request and the answer. */
  reference: string;
}

const post = (
  path: string,
  summary: string,
  reference: string,
  more: Partial<RelayRoute> = {},
): RelayRoute => ({ method: 'POST', path, mount: 'raw', summary, reference, ...more });
const get = (
  path: string,
  summary: string,
  reference: string,
  more: Partial<RelayRoute> = {},
): RelayRoute => ({
  method: 'GET',
  path,
  mount: 'raw',
  summary,
  reference,
  ...more,
});

/**
 * Every route of the model API. The relay serves what is listed here and nothing else (tryRaw asks
 * this table whether a path is its own; the plugin mounts its Fastify routes from it), and the OpenAPI
 * document lists the same table, so a route cannot be served without being documented.
 */
export const RELAY_ROUTES: readonly RelayRoute[] = [
  post(
    '/v1/chat/completions',
    'Chat completion (OpenAI format; stream with "stream": true)',
    `${OPENAI}/chat`,
    {
      serves: ['chat', 'openai'],
    },
  ),
  post('/v1/completions', 'Text completion (OpenAI format)', `${OPENAI}/completions`, {
    serves: ['completions', 'openai'],
  }),
  post('/v1/embeddings', 'Embeddings (OpenAI format)', `${OPENAI}/embeddings`, {
    serves: ['embeddings', 'openai'],
  }),
  post(
    '/v1/engines/{model}/embeddings',
    'Embeddings with the model in the path (older OpenAI clients)',
    `${OPENAI}/embeddings`,
    { match: /^\/v1\/engines\/[^/]+\/embeddings$/ },
  ),
  post('/v1/responses', 'Responses API (OpenAI format); GET upgrades to a WebSocket', `${OPENAI}/responses`, {
    serves: ['responses', 'responses'],
  }),
  post('/v1/responses/compact', 'Responses API, compacted conversation', `${OPENAI}/responses`, {
    serves: ['responses-compact', 'responses'],
  }),
  post('/v1/images/generations', 'Image generation (OpenAI format)', `${OPENAI}/images`, {
    serves: ['images', 'openai'],
  }),
  post('/v1/images/edits', 'Image edit (multipart, OpenAI format)', `${OPENAI}/images`, {
    serves: ['image-edits', 'openai'],
    multipart: true,
  }),
  post('/v1/audio/speech', 'Text to speech (answer: audio bytes)', `${OPENAI}/audio`, {
    serves: ['speech', 'openai'],
  }),
  post('/v1/audio/transcriptions', 'Speech to text (multipart)', `${OPENAI}/audio`, {
    serves: ['transcriptions', 'openai'],
    multipart: true,
  }),
  post('/v1/audio/translations', 'Speech to English text (multipart)', `${OPENAI}/audio`, {
    serves: ['translations', 'openai'],
    multipart: true,
  }),
  post('/v1/moderations', 'Moderation (OpenAI format)', `${OPENAI}/moderations`, {
    serves: ['moderations', 'openai'],
  }),
  post('/v1/rerank', 'Rerank (Jina/Cohere format)', 'https://jina.ai/reranker/', {
    serves: ['rerank', 'openai'],
  }),
  post('/v1/messages', 'Messages (Anthropic format; stream with "stream": true)', ANTHROPIC, {
    serves: ['chat', 'anthropic'],
  }),
  post('/v1/messages/count_tokens', 'Token count of a Messages request (Anthropic format)', ANTHROPIC),
  get('/v1/models', 'Models the key may use (OpenAI format)', `${OPENAI}/models`),
  get('/v1/models/{model}', 'One model (OpenAI format)', `${OPENAI}/models`, {
    match: /^\/v1\/models\/[^/]+$/,
  }),
  post(
    '/v1/models/{model}',
    'Gemini call under the stable prefix: {model} is <model>:generateContent, :streamGenerateContent, :embedContent, :countTokens',
    GEMINI,
    { match: /^\/v1\/models\/[^/]+:[A-Za-z]+$/ },
  ),
  get('/v1beta/models', 'Models the key may use (Gemini format)', GEMINI_MODELS),
  get('/v1beta/models/{model}', 'One model (Gemini format, models.get)', GEMINI_MODELS, {
    match: /^\/v1beta\/models\/[^/]+$/,
  }),
  post(
    '/v1beta/models/{target}',
    'Gemini call: {target} is <model>:generateContent, :streamGenerateContent, :embedContent, :countTokens',
    GEMINI,
    { match: /^\/v1beta\/models\/.+$/ },
  ),
  get('/dashboard/billing/subscription', "The key's quota as an OpenAI billing subscription", BILLING),
  get('/dashboard/billing/usage', "The key's usage as OpenAI billing usage (total_usage in cents)", BILLING),
  get('/v1/dashboard/billing/subscription', 'Same as /dashboard/billing/subscription', BILLING),
  get('/v1/dashboard/billing/usage', 'Same as /dashboard/billing/usage', BILLING),
  get('/api/usage/token', "The key's own quota and usage", BILLING, { mount: 'fastify' }),
  post(
    '/pg/chat/completions',
    'Playground chat of the signed-in user (session cookie; OpenAI format)',
    `${OPENAI}/chat`,
    { mount: 'fastify', session: true },
  ),
  get('/v1/realtime', 'Realtime API: ?model= upgrades to a WebSocket (OpenAI format)', `${OPENAI}/realtime`, {
    mount: 'upgrade',
  }),
];

/** The fixed-path model calls of the fast path, by path. */
export const SERVED_POSTS: ReadonlyMap<string, [RelayMode, WireFormat]> = new Map(
  RELAY_ROUTES.filter((r) => r.serves).map((r) => [r.path, r.serves!]),
);

const RAW = RELAY_ROUTES.filter((r) => r.mount === 'raw');
/** The fast path's fixed paths, by method (no key string built per call). */
const FIXED = new Map<string, Set<string>>();
for (const r of RAW)
  if (!r.match) {
    let paths = FIXED.get(r.method);
    if (!paths) FIXED.set(r.method, (paths = new Set()));
    paths.add(r.path);
  }
const PATTERNS = RAW.filter((r) => r.match);

/** Whether the fast path serves this call (the path without query or trailing slash). */
export function isRelayPath(method: string, path: string): boolean {
  if (FIXED.get(method)?.has(path)) return true;
  for (const r of PATTERNS) if (r.method === method && r.match!.test(path)) return true;
  return false;
}

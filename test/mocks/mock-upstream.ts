import { createHash } from 'node:crypto';
import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  deepseekBalance,
  MockAccount,
  moonshotBalance,
  ollamaTags,
  openaiSubscription,
  openaiUsage,
  openrouterCredits,
  siliconflowUserInfo,
} from './accounts';
import { anthropicError, anthropicModels, countTokens as anthropicCountTokens, messages } from './anthropic';
import { baiduChat, baiduEmbeddings, baiduError, baiduToken, WENXIN } from './baidu';
import { bedrockError, bedrockInvoke, sigV4Credential } from './bedrock';
import { cloudflareEndpoint, cloudflareError } from './cloudflare';
import { cohereChat, cohereEmbed, cohereError, cohereRerank } from './cohere';
import { difyChat, difyError } from './dify';
import {
  Ctx,
  defaultErrorMessage,
  ErrorWriter,
  Exchange,
  MockAuth,
  MultipartFile,
  MultipartRecord,
  RecordedRequest,
} from './exchange';
import {
  countTokens as geminiCountTokens,
  embed,
  geminiError,
  geminiModels,
  generateContent,
} from './gemini';
import { ollamaChat, ollamaEmbed, ollamaError } from './ollama';
import { hunyuanChat, tc3Credential, tencentError } from './tencent';
import { assertionIssuer, googleToken, VERTEX_PATH, vertexCredential, vertexModel } from './vertex';
import { zhipuCredential, zhipuError, zhipuInvoke } from './zhipu';
import { chatCompletions, completions, openaiError, responses, responsesCompact } from './openai';
import {
  audioText,
  embeddings,
  images,
  moderations,
  openaiModels,
  PNG,
  rerank,
  speech,
} from './openai-media';

export type { MockAuth, MultipartFile, MultipartRecord, RecordedRequest } from './exchange';
export { DEFAULT_REPLY, TOOL_ARGUMENTS } from './directives';

export type Family = 'openai' | 'anthropic' | 'gemini';
type Handler = (ctx: Ctx) => Promise<void> | void;

interface Route {
  handler: Handler;
  /** Model named by the path (Azure deployment, Gemini model). */
  pathModel?: string;
  /** Served without the key check (image URLs handed to end users). */
  isPublic?: boolean;
  /** The provider's error format, when not the family's (private formats). */
  writeError?: ErrorWriter;
  /** Passed on to the handler as ctx.writeError (OpenAI handlers under another provider's errors). */
  handlerErrors?: ErrorWriter;
  /** The credential the provider reads, when not the family's (signatures, token exchanges). */
  credential?: (record: RecordedRequest, auth: MockAuth) => string | null;
  /** The body is not JSON (form-encoded or empty); the handler reads record.rawBody. */
  rawBody?: boolean;
}

/** OAuth token endpoints' errors (Google, Baidu). */
const oauthError: ErrorWriter = (ex, status, message) => {
  const error = status === 401 ? 'invalid_client' : 'invalid_request';
  ex.json(status, { error, error_description: message ?? defaultErrorMessage(status) });
};

const BAIDU_PATH = new RegExp(`^${WENXIN}/(chat|embeddings)/([^/]+)$`);
const BEDROCK_PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;
const ZHIPU_PATH = /^\/api\/paas\/v3\/model-api\/([^/]+)\/(invoke|sse-invoke)$/;

/** Private-format routes, by "METHOD path". */
const PRIVATE_ROUTES: Record<string, Route> = {
  'POST /v2/chat': { handler: cohereChat, writeError: cohereError },
  'POST /v2/embed': { handler: cohereEmbed, writeError: cohereError },
  'POST /v2/rerank': { handler: cohereRerank, writeError: cohereError },
  'POST /v1/chat-messages': { handler: difyChat, writeError: difyError },
  'POST /api/chat': { handler: ollamaChat, writeError: ollamaError },
  'POST /api/embed': { handler: ollamaEmbed, writeError: ollamaError },
  'GET /api/tags': { handler: ollamaTags, writeError: ollamaError },
  'GET /v1/dashboard/billing/subscription': { handler: openaiSubscription },
  'GET /v1/dashboard/billing/usage': { handler: openaiUsage },
  'GET /v1/credits': { handler: openrouterCredits },
  'GET /v1/user/info': { handler: siliconflowUserInfo },
  'GET /user/balance': { handler: deepseekBalance },
  'GET /v1/users/me/balance': { handler: moonshotBalance },
  'POST /token': { handler: googleToken, writeError: oauthError, credential: assertionIssuer, rawBody: true },
  'POST /oauth/2.0/token': {
    handler: baiduToken,
    writeError: oauthError,
    credential: (record) => record.query.client_id ?? null,
    rawBody: true,
  },
};

export const DEFAULT_MODELS: readonly string[] = [
  'gpt-4o-mini',
  'gpt-4o',
  'text-embedding-3-small',
  'claude-opus-4-6',
  'gemini-2.0-flash',
  'text-embedding-004',
];

/** OpenAI routes by "METHOD path-after-/v1/" (also served under Azure's /openai/deployments/{d}/). */
const OPENAI_ROUTES: Record<string, Handler> = {
  'POST chat/completions': chatCompletions,
  'POST completions': completions,
  'POST embeddings': embeddings,
  'POST responses': responses,
  'POST responses/compact': responsesCompact,
  'POST images/generations': images,
  'POST images/edits': images,
  'POST audio/speech': speech,
  'POST audio/transcriptions': (ctx) => audioText(ctx, 'transcribe'),
  'POST audio/translations': (ctx) => audioText(ctx, 'translate'),
  'POST moderations': moderations,
  'POST rerank': rerank,
  'GET models': openaiModels,
};

const GEMINI_ACTIONS: Record<string, Handler> = {
  generateContent: (ctx) => generateContent(ctx, false),
  streamGenerateContent: (ctx) => generateContent(ctx, true),
  embedContent: (ctx) => embed(ctx, false),
  batchEmbedContents: (ctx) => embed(ctx, true),
  countTokens: geminiCountTokens,
};

const ERROR_WRITERS: Record<Family, ErrorWriter> = {
  openai: openaiError,
  anthropic: anthropicError,
  gemini: geminiError,
};

const BAD_JSON: Record<Family, string> = {
  openai: 'We could not parse the JSON body of your request.',
  anthropic: 'There was an error parsing the body.',
  gemini: 'Invalid JSON payload received.',
};

const GEMINI_ACTION_PATH = /^\/v1(?:beta)?\/models\/([^/:]+):(\w+)$/;

function familyOf(path: string, headers: IncomingHttpHeaders, query: Record<string, string>): Family {
  if (path === '/v1/messages' || headers['anthropic-version']) return 'anthropic';
  if (path.startsWith('/v1beta/') || GEMINI_ACTION_PATH.test(path)) return 'gemini';
  if (headers['x-goog-api-key'] || query.key) return 'gemini';
  return 'openai';
}

/**
 * The OpenAI route under the API prefixes OpenAI-compatible providers use (DashScope's
 * /compatible-mode/v1, Zhipu's /api/paas/v4, Volcengine's /api/v3, Qianfan's /v2, Perplexity's bare
 * paths, MiniMax's chatcompletion_v2), so one mock serves every compatible channel type.
 */
function openaiCompatibleRest(path: string): string | null {
  if (path === '/v1/text/chatcompletion_v2') return 'chat/completions';
  for (const prefix of ['/v1/', '/compatible-mode/v1/', '/api/paas/v4/', '/api/v3/', '/v2/'])
    if (path.startsWith(prefix)) return path.slice(prefix.length);
  if (path === '/chat/completions' || path === '/embeddings') return path.slice(1);
  return null;
}

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The credential a provider of `family` would read from the request. */
function credentialOf(
  family: Family,
  headers: IncomingHttpHeaders,
  query: Record<string, string>,
): string | null {
  const bearer = /^Bearer\s+(.+)$/i.exec(header(headers, 'authorization') ?? '')?.[1];
  if (family === 'anthropic') return header(headers, 'x-api-key') ?? bearer ?? null;
  if (family === 'gemini') return header(headers, 'x-goog-api-key') ?? query.key ?? null;
  return bearer ?? header(headers, 'api-key') ?? null;
}

/** A 404 for an unknown path, worded like each provider (Azure and OpenAI differ from their model 404s). */
function notFound(ex: Exchange, family: Family, path: string, message: string): void {
  if (path.startsWith('/openai/')) return ex.json(404, { error: { code: '404', message } });
  if (family === 'openai') {
    return ex.json(404, { error: { message, type: 'invalid_request_error', param: null, code: null } });
  }
  ERROR_WRITERS[family](ex, 404, message);
}

async function parseMultipart(raw: Buffer, contentType: string): Promise<MultipartRecord | null> {
  try {
    const form = await new Response(new Uint8Array(raw), {
      headers: { 'content-type': contentType },
    }).formData();
    const fields: Record<string, string> = {};
    const files: MultipartFile[] = [];
    for (const [field, value] of form.entries()) {
      if (typeof value === 'string') {
        fields[field] = value;
        continue;
      }
      const bytes = Buffer.from(await value.arrayBuffer());
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      files.push({ field, filename: value.name, size: value.size, type: value.type, sha256 });
    }
    return { fields, files };
  } catch {
    return null;
  }
}

function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return null;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * A fake of the OpenAI (and Azure OpenAI), Anthropic and Gemini APIs on one local port, speaking each
 * provider's real wire format, for tests to point channels at (base URL = `url`, no path). It also
 * speaks the private formats of Cohere v2 (/v2/chat, /v2/embed, /v2/rerank), Dify (/v1/chat-messages),
 * Ollama (/api/chat, /api/embed), Cloudflare Workers AI (/client/v4/accounts/{id}/ai/v1/...), AWS
 * Bedrock (/model/{id}/invoke[-with-response-stream], SigV4, event-stream framing), Vertex AI (/token,
 * /v1/projects/{p}/locations/{l}/publishers/{google|anthropic}/models/{m}:{action}), Baidu legacy
 * (/oauth/2.0/token, /rpc/2.0/ai_custom/v1/wenxinworkshop/...), Zhipu v3 (/api/paas/v3/model-api/...)
 * and Tencent Hunyuan (POST / with X-TC-Action); see each provider's module. Signatures are checked
 * against `auth.signingKeys`.
 *
 * Behaviour is steered by directives in the text of the last user message:
 *   [[status=429]] [[error=text]]  error answer in the provider's format (status defaults to 500)
 *   [[usage=P,C]] [[cache=R,W]]    token counts to report; P excludes cache tokens (OpenAI and Gemini
 *                                  report P+R as the prompt; W is reported by Anthropic only)
 *   [[nousage]]                    no usage anywhere
 *   [[reply=text]] [[chunks=N]]    the reply, streamed one word per chunk ("w1 w2 ... wN" for chunks)
 *   [[slow=MS]] [[cut=N]] [[hang]] pacing, abrupt socket destruction after N chunks, never answering
 *   [[tool=name]]                  a call of tool `name` with {"city":"Paris"} (stream: two deltas)
 *   [[agent]]                      Dify: answer as an agent app
 * Every request is kept in `requests`, with `aborted` set when the client went away early.
 */
export class MockUpstream {
  readonly requests: RecordedRequest[] = [];
  /** When set, requests whose credential is not this key (or one of these keys) get a 401. */
  requireKey: string | readonly string[] | null = null;
  /** Model ids the model-list endpoints answer with. */
  models: string[] = [...DEFAULT_MODELS];
  /** Spaces per level in JSON answers (0: compact): shows whether the gateway passed an answer's text on. */
  indentJson = 0;
  /**
   * A stuck upstream, whatever the request: 'headers' never answers; 'body' answers 200 with the
   * content type of a stream (or JSON) and then sends nothing. Null: normal service.
   */
  stall: 'headers' | 'body' | null = null;
  /** The account the balance endpoints describe. */
  account: MockAccount = { balance: 12.5, used: 2.5 };
  /**
   * Signing secrets by key id (AWS access key id, Tencent SecretId, Zhipu key id, Baidu API key,
   * Google client_email → public key PEM) and the access tokens the mock issued; see MockAuth. Kept
   * across reset(): the gateway caches the tokens it obtained.
   */
  readonly auth: MockAuth = { signingKeys: {}, issued: new Map() };
  private inFlight = 0;
  private counter = 0;
  private baseUrl = '';
  private readonly server: Server = createServer((req, res) => void this.handle(req, res));

  private constructor() {}

  static async start(): Promise<MockUpstream> {
    const mock = new MockUpstream();
    await new Promise<void>((resolve, reject) => {
      mock.server.once('error', reject);
      mock.server.listen(0, '127.0.0.1', () => resolve());
    });
    mock.baseUrl = `http://127.0.0.1:${(mock.server.address() as AddressInfo).port}`;
    return mock;
  }

  /** Base URL to give channels, e.g. http://127.0.0.1:41234 (no path, no trailing slash). */
  get url(): string {
    return this.baseUrl;
  }

  /** Number of requests currently in flight (received and not yet answered or abandoned). */
  get open(): number {
    return this.inFlight;
  }

  /** The newest request. */
  get last(): RecordedRequest | undefined {
    return this.requests.at(-1);
  }

  /** Forgets the recorded requests and restarts the id counter; key check and models back to defaults. */
  reset(): void {
    this.requests.length = 0;
    this.counter = 0;
    this.requireKey = null;
    this.models = [...DEFAULT_MODELS];
    this.account = { balance: 12.5, used: 2.5 };
    this.stall = null;
    this.indentJson = 0;
  }

  /** Waits until `condition` holds (e.g. `() => mock.last?.aborted === true`). */
  async waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!condition()) {
      if (Date.now() > deadline) throw new Error(`mock upstream: condition not met within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private keyAccepted(credential: string | null): boolean {
    if (this.requireKey === null) return true;
    const keys: readonly string[] = typeof this.requireKey === 'string' ? [this.requireKey] : this.requireKey;
    return credential !== null && keys.includes(credential);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://mock');
    const path = url.pathname;
    const query = Object.fromEntries(url.searchParams);
    const family = familyOf(path, req.headers, query);
    const n = ++this.counter;
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      query,
      headers: req.headers,
      body: null,
      rawBody: Buffer.alloc(0),
      credential: credentialOf(family, req.headers, query),
      aborted: false,
    };
    this.requests.push(record);
    this.inFlight++;
    const ex = new Exchange(req, res, this.indentJson);
    res.once('close', () => {
      this.inFlight--;
      if (!ex.finished) record.aborted = true;
    });
    res.setHeader(family === 'anthropic' ? 'request-id' : 'x-request-id', `req_mock_${n}`);
    if (this.stall === 'headers') return;
    if (this.stall === 'body') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return;
    }

    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the client went away while sending
    }
    record.rawBody = Buffer.concat(chunks);
    const contentType = header(req.headers, 'content-type') ?? '';
    const multipart = /^multipart\/form-data/i.test(contentType);
    if (multipart) record.multipart = (await parseMultipart(record.rawBody, contentType)) ?? undefined;
    else record.body = parseJson(record.rawBody);

    const route = this.route(record, family);
    const writeError = (typeof route !== 'string' && route.writeError) || ERROR_WRITERS[family];
    if (typeof route !== 'string' && route.credential)
      record.credential = route.credential(record, this.auth);
    const isPublic = typeof route !== 'string' && route.isPublic === true;
    if (!isPublic && !this.keyAccepted(record.credential))
      return writeError(ex, 401, 'Incorrect API key provided');
    if (typeof route === 'string') return notFound(ex, family, path, route);
    if (record.method === 'POST' && record.body === null && !record.multipart && !route.rawBody) {
      return writeError(
        ex,
        400,
        multipart ? 'Could not parse the multipart/form-data body.' : BAD_JSON[family],
      );
    }
    const ctx: Ctx = {
      ex,
      record,
      body: record.body ?? {},
      n,
      pathModel: route.pathModel,
      baseUrl: this.baseUrl,
      models: this.models,
      account: this.account,
      auth: this.auth,
      ...(route.handlerErrors ? { writeError: route.handlerErrors } : {}),
    };
    try {
      await route.handler(ctx);
    } catch (err) {
      if (res.headersSent) await ex.cut();
      else writeError(ex, 500, `mock upstream failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** The handler of a request, or the message of a 404. */
  private route(record: RecordedRequest, family: Family): Route | string {
    const { method, path, query } = record;
    const notFound = family === 'openai' ? `Invalid URL (${method} ${path})` : `Not found: ${method} ${path}`;

    const azure = /^\/openai\/deployments\/([^/]+)\/(.+)$/.exec(path);
    if (azure) {
      const handler = OPENAI_ROUTES[`${method} ${azure[2]}`];
      if (!handler || !query['api-version']) return 'Resource not found';
      return { handler, pathModel: decodeURIComponent(azure[1]) };
    }
    if (method === 'GET' && path.startsWith('/files/')) {
      return { handler: (ctx) => ctx.ex.send(200, PNG, { 'content-type': 'image/png' }), isPublic: true };
    }
    const gemini = GEMINI_ACTION_PATH.exec(path);
    if (gemini) {
      const handler = method === 'POST' ? GEMINI_ACTIONS[gemini[2]] : undefined;
      return handler ? { handler, pathModel: decodeURIComponent(gemini[1]) } : notFound;
    }
    if (family === 'gemini' && method === 'GET') {
      const list = /^\/v1(?:beta)?\/models(?:\/([^/]+))?$/.exec(path);
      if (list) return { handler: geminiModels, pathModel: list[1] && decodeURIComponent(list[1]) };
    }
    const privateRoute = this.privateRoute(record);
    if (privateRoute) return privateRoute;
    if (method === 'POST' && path === '/v1/messages') return { handler: messages };
    if (method === 'POST' && path === '/v1/messages/count_tokens') return { handler: anthropicCountTokens };
    if (method === 'GET' && path === '/v1/models' && family === 'anthropic')
      return { handler: anthropicModels };
    const rest = openaiCompatibleRest(path);
    const handler = rest !== null ? OPENAI_ROUTES[`${method} ${rest}`] : undefined;
    return handler ? { handler } : notFound;
  }

  /** The route of a provider's private wire format, or null for the OpenAI/Anthropic/Gemini paths. */
  private privateRoute(record: RecordedRequest): Route | null {
    const { method, path, headers } = record;
    const fixed = PRIVATE_ROUTES[`${method} ${path}`];
    if (fixed) return fixed;
    if (method === 'POST' && path === '/' && headers['x-tc-action'] !== undefined) {
      return { handler: hunyuanChat, writeError: tencentError, credential: tc3Credential };
    }
    const cloudflare = cloudflareEndpoint(path);
    if (cloudflare) {
      const handler = 'rest' in cloudflare ? OPENAI_ROUTES[`${method} ${cloudflare.rest}`] : undefined;
      const message = 'error' in cloudflare ? cloudflare.error : `No route for that URI (${method} ${path})`;
      return {
        handler: handler ?? ((ctx) => cloudflareError(ctx.ex, 'error' in cloudflare ? 400 : 404, message)),
        writeError: cloudflareError,
        handlerErrors: cloudflareError,
      };
    }
    if (method !== 'POST') return null;
    const bedrock = BEDROCK_PATH.exec(path);
    if (bedrock) {
      const stream = bedrock[2] === 'invoke-with-response-stream';
      return {
        handler: (ctx) => bedrockInvoke(ctx, stream),
        pathModel: decodeURIComponent(bedrock[1]),
        writeError: bedrockError,
        credential: sigV4Credential,
      };
    }
    const vertex = VERTEX_PATH.exec(path);
    if (vertex) {
      return {
        handler: vertexModel,
        pathModel: decodeURIComponent(vertex[4]),
        writeError: geminiError,
        credential: (r, auth) => vertexCredential({ auth }, r),
      };
    }
    const baidu = BAIDU_PATH.exec(path);
    if (baidu) {
      return {
        handler: baidu[1] === 'chat' ? baiduChat : baiduEmbeddings,
        pathModel: decodeURIComponent(baidu[2]),
        writeError: baiduError,
        credential: (r, auth) => {
          const token = r.query.access_token;
          return token === undefined ? null : (auth.issued.get(token) ?? token);
        },
      };
    }
    const zhipu = ZHIPU_PATH.exec(path);
    if (zhipu) {
      const stream = zhipu[2] === 'sse-invoke';
      return {
        handler: (ctx) => zhipuInvoke(ctx, stream),
        pathModel: decodeURIComponent(zhipu[1]),
        writeError: zhipuError,
        credential: zhipuCredential,
      };
    }
    return null;
  }
}

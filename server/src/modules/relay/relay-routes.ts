import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../common/app-error';
import { keyFromRequest } from '../../common/api-key';
import { REQUEST_ID_HEADER, newRequestId } from '../../common/http/request-id';
import { pickLang } from '../../common/i18n/messages';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { Token, User } from '../../database/entities';
import { AuthGuard } from '../auth';
import { OptionService } from '../option';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { errorBody, RelayError, relayFail, toRelayError } from './errors';
import { Caller, RelayAdmission } from './lifecycle/admission';
import { ClientSignal } from './client-signal';
import { countCall, countOf } from './formats/count';
import { Attempt, AttemptPlanner } from './lifecycle/attempt-plan';
import { InboundRequest, RelayContext } from './relay-context';
import { RelayCacheService } from './relay-cache.service';
import { RelayService } from './relay.service';
import { UpstreamClient } from './upstream/upstream-client';
import { writeError, writeJson } from './respond/write';
import { MetricsService } from '../metrics';
import type { JsonObject, RelayMode, WireFormat } from './types';
import { isRelayPath, RELAY_ROUTES, SERVED_POSTS } from './route-table';

/** Relay bodies may carry base64 images and audio: a larger limit than the management API's. */
export const RELAY_BODY_LIMIT = 64 * 1024 * 1024;

/** How long an upstream count may take before the local count answers instead. */
const COUNT_TIMEOUT_MS = 10_000;
/** Anthropic's token counting endpoint. */
const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';
/** Gemini actions under the stable /v1 prefix (`/v1/models/{model}:generateContent`...). */
const GEMINI_V1_ACTION = /^\/v1\/models\/[^/]+:[A-Za-z]+$/;

/** One model-traffic request, independent of how it arrived (raw fast path or Fastify). */
export interface RelayCall {
  method: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  ip: string;
  id: string;
  /** The request path, without the query. */
  path: string;
  /** The body, read on demand: only once the caller is known (413 when over RELAY_BODY_LIMIT). */
  body(): Promise<Buffer>;
}

const EMPTY = Buffer.alloc(0);

/** Reads a request's body up to RELAY_BODY_LIMIT; beyond it, the rest is drained and the read fails with 413. */
function readRaw(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= RELAY_BODY_LIMIT) chunks.push(chunk);
      else if (size - chunk.length <= RELAY_BODY_LIMIT) {
        chunks.length = 0;
        reject(tooLarge());
      }
    });
    req.on('error', reject);
    req.on('end', () =>
      size > RELAY_BODY_LIMIT
        ? reject(tooLarge())
        : resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)),
    );
  });
}

const tooLarge = () =>
  new RelayError(413, 'relay_bad_body', { reason: 'request body too large' }, '', 'request_too_large');

/**
 * The model-traffic routes, mounted as a Fastify plugin outside Nest's pipeline (no guards, pipes or
 * envelope: the relay answers in the caller's wire format and streams from the raw response).
 */
@Injectable()
export class RelayRoutes {
  constructor(
    private readonly relay: RelayService,
    private readonly admission: RelayAdmission,
    private readonly cache: RelayCacheService,
    private readonly options: OptionService,
    private readonly guard: AuthGuard,
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly metrics: MetricsService,
    private readonly planner: AttemptPlanner,
    private readonly upstream: UpstreamClient,
  ) {
    this.trust = proxyAddr.compile(config.trustedProxies);
    metrics.useModelCatalog((model) => this.knownModel(model));
  }

  /** A model named in the price tables or served by some channel (metrics give it a label of its own). */
  private knownModel(model: string): boolean {
    if (this.options.json('ModelRatio')?.[model] !== undefined) return true;
    if (this.options.json('ModelPrice')?.[model] !== undefined) return true;
    for (const models of this.cache.channels.tiers.values()) if (models.has(model)) return true;
    return false;
  }

  private readonly trust: (addr: string, i: number) => boolean;

  /** The handlers of the table's Fastify routes, by method and path. */
  private readonly fastifyHandlers: Record<string, (req: FastifyRequest, reply: FastifyReply) => unknown> = {
    'GET /api/usage/token': (req, reply) => {
      reply.hijack();
      void this.dispatch(
        this.callOf(req.raw, String(req.id), req.ip, () => Promise.resolve(EMPTY)),
        reply.raw,
        '/api/usage/token',
      );
    },
    'POST /pg/chat/completions': (req, reply) => this.playground(req, reply),
  };

  readonly plugin = async (f: FastifyInstance): Promise<void> => {
    f.removeAllContentTypeParsers();
    f.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: RELAY_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );
    // /v1, /v1beta and /dashboard take the raw fast path (tryRaw); the table's Fastify routes live
    // under Fastify because they share prefixes with Nest routes (/api) or need the session cookie (/pg).
    for (const route of RELAY_ROUTES) {
      if (route.mount !== 'fastify') continue;
      const handler = this.fastifyHandlers[`${route.method} ${route.path}`];
      if (!handler) throw new Error(`relay route ${route.method} ${route.path} has no handler`);
      f.route({ method: route.method, url: route.path, handler });
    }
  };

  private callOf(raw: IncomingMessage, id: string, ip: string, body: () => Promise<Buffer>): RelayCall {
    const url = raw.url ?? '/';
    const q = url.indexOf('?');
    return {
      method: raw.method ?? 'GET',
      query: new URLSearchParams(q >= 0 ? url.slice(q + 1) : ''),
      headers: raw.headers,
      ip,
      id,
      path: q >= 0 ? url.slice(0, q) : url,
      body,
    };
  }

  /**
   * The fast path: model traffic answered straight from Node's HTTP server, before Fastify and Nest
   * (routing, hooks and body parsing cost more than the relay itself). Returns false for anything
   * else, which the caller hands to Fastify as usual.
   */
  tryRaw(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/';
    if (!(url.startsWith('/v1/') || url.startsWith('/v1beta/') || url.startsWith('/dashboard/')))
      return false;
    const q = url.indexOf('?');
    let path = q >= 0 ? url.slice(0, q) : url;
    if (path.charCodeAt(path.length - 1) === 0x2f) path = path.replace(/\/+$/, '') || '/';
    if (!isRelayPath(req.method ?? 'GET', path)) return false;
    if (this.metrics.enabled) this.metrics.trackRaw(res, req.method ?? 'GET', routePattern(path));
    const id = newRequestId();
    let read: Promise<Buffer> | null = null;
    const call = this.callOf(req, id, proxyAddr(req, this.trust), () => (read ??= readRaw(req)));
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > RELAY_BODY_LIMIT) {
      // Refused from the header alone; the body is drained, never held.
      res.setHeader(REQUEST_ID_HEADER, id);
      req.resume();
      writeError(res, { format: 'openai', lang: pickLang(req.headers['accept-language']) }, tooLarge());
      return true;
    }
    void this.dispatch(call, res, path);
    return true;
  }

  private async dispatch(call: RelayCall, res: ServerResponse, path: string): Promise<void> {
    res.setHeader(REQUEST_ID_HEADER, call.id);
    try {
      if (call.method === 'GET') {
        if (path === '/api/usage/token') return await this.tokenUsage(call, res);
        if (path === '/v1/models') return await this.models(call, res, null);
        if (path === '/v1beta/models') return await this.models(call, res, null, 'gemini');
        if (path.startsWith('/v1beta/models/'))
          return await this.models(
            call,
            res,
            decodeURIComponent(path.slice('/v1beta/models/'.length)),
            'gemini',
          );
        if (path.startsWith('/v1/models/'))
          return await this.models(call, res, decodeURIComponent(path.slice('/v1/models/'.length)));
        return await this.billing(call, res, path.endsWith('/subscription') ? 'subscription' : 'usage');
      }
      const fixed = SERVED_POSTS.get(path);
      if (fixed) return await this.serve(call, res, fixed[1], fixed[0], null, false);
      if (path === COUNT_TOKENS_PATH) return await this.countTokens(call, res, 'anthropic', null);
      if (path.startsWith('/v1beta/models/'))
        return await this.gemini(call, res, path.slice('/v1beta/models/'.length));
      // @google/genai and the Gemini CLI may use the stable /v1 prefix: served exactly like /v1beta.
      if (GEMINI_V1_ACTION.test(path)) return await this.gemini(call, res, path.slice('/v1/models/'.length));
      const engine = /^\/v1\/engines\/([^/]+)\/embeddings$/.exec(path);
      if (engine)
        return await this.serve(call, res, 'openai', 'embeddings', decodeURIComponent(engine[1]), false);
      send(res, 404, errorBody('openai', 404, 'No such route'));
    } catch (err) {
      writeError(res, this.inbound(call, 'openai', 'chat', null, false), toRelayError(err));
    }
  }

  private inbound(
    call: RelayCall,
    format: WireFormat,
    mode: RelayMode,
    pathModel: string | null,
    pathStream: boolean,
  ): InboundRequest {
    return {
      format,
      mode,
      body: null,
      raw: null,
      contentType: String(call.headers['content-type'] ?? ''),
      pathModel,
      pathStream,
      jsonArray: format === 'gemini' && pathStream && call.query.get('alt') !== 'sse',
      key: keyFromRequest({ headers: call.headers, query: call.query }),
      ip: call.ip,
      requestId: call.id,
      lang: pickLang(call.headers['accept-language']),
      userAgent: String(call.headers['user-agent'] ?? ''),
      headers: call.headers,
      path: call.path,
      channelId: 0,
    };
  }

  /** Reads the body (JSON object, or multipart kept raw with its model field). */
  private async readBody(call: RelayCall, inbound: InboundRequest): Promise<void> {
    const raw = await call.body();
    if (inbound.contentType.toLowerCase().startsWith('multipart/form-data')) {
      inbound.raw = raw;
      let form: FormData;
      try {
        form = await new Response(raw, { headers: { 'content-type': inbound.contentType } }).formData();
      } catch {
        throw relayFail(400, 'relay_bad_body', { reason: 'malformed multipart form' });
      }
      const model = form.get('model');
      if (typeof model === 'string') inbound.pathModel = inbound.pathModel ?? model;
      const fields: JsonObject = {};
      for (const [k, v] of form.entries()) if (typeof v === 'string') fields[k] = v;
      inbound.body = fields;
      return;
    }
    if (!raw.length) throw relayFail(400, 'relay_bad_body', { reason: 'empty body' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw relayFail(400, 'relay_bad_body', { reason: 'not valid JSON' });
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      throw relayFail(400, 'relay_bad_body', { reason: 'must be a JSON object' });
    const body = parsed as JsonObject;
    inbound.raw = raw;
    if (body.model !== undefined && typeof body.model !== 'string')
      throw relayFail(400, 'relay_bad_body', { reason: 'model must be a string' });
    if (body.stream !== undefined && typeof body.stream !== 'boolean')
      throw relayFail(400, 'relay_bad_body', { reason: 'stream must be a boolean' });
    for (const k of ['max_tokens', 'max_completion_tokens', 'n'] as const)
      if (
        body[k] !== undefined &&
        body[k] !== null &&
        (typeof body[k] !== 'number' || !Number.isFinite(body[k]) || body[k] < 0)
      )
        throw relayFail(400, 'relay_bad_body', { reason: `${k} must be a non-negative number` });
    if (inbound.mode === 'chat' && inbound.format !== 'gemini' && !Array.isArray(body.messages))
      throw relayFail(400, 'relay_bad_body', { reason: 'messages must be an array' });
    inbound.body = body;
  }

  private async serve(
    call: RelayCall,
    res: ServerResponse,
    format: WireFormat,
    mode: RelayMode,
    pathModel: string | null,
    pathStream: boolean,
    session?: Caller,
  ): Promise<void> {
    const inbound = this.inbound(call, format, mode, pathModel, pathStream);
    try {
      // The caller is known before the body is read: a bad key is a 401 whatever the body holds.
      const known = session ?? this.admission.caller(inbound.key, inbound.ip);
      const caller = known instanceof Promise ? await known : known;
      await this.readBody(call, inbound);
      await this.relay.handle(inbound, res, caller);
    } catch (err) {
      writeError(res, inbound, toRelayError(err));
    } finally {
      const model = inbound.pathModel ?? (typeof inbound.body?.model === 'string' ? inbound.body.model : '');
      // 499: the client left before any answer was written.
      this.metrics.relayRequest(
        format,
        mode,
        model,
        inbound.channelId ?? 0,
        res.headersSent ? res.statusCode : 499,
      );
    }
  }

  private async gemini(call: RelayCall, res: ServerResponse, rest: string): Promise<void> {
    const target = decodeURIComponent(rest);
    const colon = target.lastIndexOf(':');
    const model = colon > 0 ? target.slice(0, colon) : target;
    const action = colon > 0 ? target.slice(colon + 1) : '';
    const modes: Record<string, [RelayMode, boolean]> = {
      generateContent: ['chat', false],
      streamGenerateContent: ['chat', true],
      embedContent: ['embeddings', false],
      batchEmbedContents: ['embeddings', false],
    };
    if (action === 'countTokens' && model) return this.countTokens(call, res, 'gemini', model);
    const m = modes[action];
    if (!m || !model)
      return writeError(
        res,
        this.inbound(call, 'gemini', 'chat', null, false),
        new RelayError(404, 'relay_not_found', { model: target }),
      );
    return this.serve(call, res, 'gemini', m[0], model, m[1]);
  }

  private async playground(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.hijack();
    const res = reply.raw;
    const raw = Buffer.isBuffer(req.body) ? req.body : EMPTY;
    const call = this.callOf(req.raw, String(req.id), req.ip, () => Promise.resolve(raw));
    res.setHeader(REQUEST_ID_HEADER, call.id);
    let caller: Caller;
    try {
      const { snap } = await this.guard.identify(req);
      caller = await this.admission.sessionCaller(snap.id, playgroundGroup(raw));
    } catch (err) {
      const e =
        err instanceof AppError
          ? new RelayError(err.status === 200 ? 401 : err.status, err.key)
          : toRelayError(err);
      return writeError(res, this.inbound(call, 'openai', 'chat', null, false), e);
    }
    return this.serve(call, res, 'openai', 'chat', null, false, caller);
  }

  /**
   * Token counting (Anthropic `POST /v1/messages/count_tokens`, Gemini `:countTokens`), answered in
   * the caller's format, after the same admission checks as a model call. A channel chosen for the
   * model that speaks the caller's format is asked with its own counting endpoint; otherwise (or when
   * that fails) the prompt is counted as the relay counts it for billing (the same tokenizer, tools
   * and system prompt included). Never billed or logged.
   */
  private async countTokens(
    call: RelayCall,
    res: ServerResponse,
    format: WireFormat,
    pathModel: string | null,
  ): Promise<void> {
    const inbound = this.inbound(call, format, 'chat', pathModel, false);
    try {
      const caller = await this.admission.caller(inbound.key, inbound.ip);
      await this.readBody(call, inbound);
      const body = inbound.body ?? {};
      // Gemini accepts the contents alone or a whole generateContentRequest (system prompt and tools).
      const wrapped = body.generateContentRequest;
      if (format === 'gemini' && wrapped && typeof wrapped === 'object' && !Array.isArray(wrapped))
        inbound.body = wrapped;
      const ctx = this.admission.admit(inbound, caller);
      const tokens = (await this.upstreamCount(ctx, format)) ?? ctx.prompt();
      send(
        res,
        200,
        format === 'anthropic'
          ? { input_tokens: tokens }
          : { totalTokens: tokens, promptTokensDetails: [{ modality: 'TEXT', tokenCount: tokens }] },
      );
    } catch (err) {
      writeError(res, inbound, toRelayError(err));
    }
  }

  /** The upstream's own count (a native Anthropic or Gemini channel), or null. */
  private async upstreamCount(ctx: RelayContext, format: WireFormat): Promise<number | null> {
    let a: Attempt;
    try {
      a = await this.planner.plan(ctx, 0, new Set());
    } catch {
      return null;
    }
    const signal = new ClientSignal();
    const timer = setTimeout(() => signal.abort(), COUNT_TIMEOUT_MS);
    try {
      if (a.adapter.name !== format) return null;
      const call = countCall(format, a.call);
      if (!call) return null;
      const up = await this.upstream.send({ ...a, call, areq: { ...a.areq, stream: false } }, signal, false);
      return countOf(format, JSON.parse(await up.body.text()));
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      a.release();
    }
  }

  /** Models the key may use: its model limits, else every model of its group(s). */
  private async models(
    call: RelayCall,
    res: ServerResponse,
    one: string | null,
    forced?: WireFormat,
  ): Promise<void> {
    const anthropic = !forced && typeof call.headers['anthropic-version'] === 'string';
    const format: WireFormat = forced ?? (anthropic ? 'anthropic' : 'openai');
    const inbound = this.inbound(call, format, 'chat', null, false);
    let names: string[];
    try {
      const { token, user } = await this.admission.caller(inbound.key, inbound.ip);
      if (token.modelLimits) names = [...token.modelLimits];
      else {
        const group = token.group || user.group;
        const groups = group === 'auto' ? this.options.json('AutoGroups') : [group];
        const set = new Set<string>();
        for (const g of groups) for (const m of this.cache.channels.tiers.get(g)?.keys() ?? []) set.add(m);
        names = [...set].sort();
      }
    } catch (err) {
      return writeError(res, inbound, toRelayError(err));
    }
    const created = 1_700_000_000;
    const entry = (id: string) => ({ id, object: 'model', created, owned_by: 'gatehouse' });
    let body: unknown;
    let status = 200;
    if (one !== null) {
      if (!names.includes(one)) {
        status = 404;
        body = errorBody(format, 404, `The model '${one}' does not exist`, 'model_not_found');
      } else if (format === 'gemini') body = geminiModel(one);
      else
        body = anthropic
          ? { type: 'model', id: one, display_name: one, created_at: new Date(created * 1000).toISOString() }
          : entry(one);
    } else if (format === 'gemini') body = { models: names.map(geminiModel) };
    else if (anthropic)
      body = {
        data: names.map((n) => ({
          type: 'model',
          id: n,
          display_name: n,
          created_at: new Date(created * 1000).toISOString(),
        })),
        has_more: false,
        first_id: names[0] ?? null,
        last_id: names[names.length - 1] ?? null,
      };
    else body = { object: 'list', data: names.map(entry) };
    send(res, status, body);
  }

  /** OpenAI's legacy billing endpoints: the token's figures when DisplayTokenStatEnabled, else the user's. */
  private async billing(call: RelayCall, res: ServerResponse, kind: 'subscription' | 'usage'): Promise<void> {
    const inbound = this.inbound(call, 'openai', 'chat', null, false);
    try {
      const { token } = await this.admission.caller(inbound.key, inbound.ip);
      const unit = this.options.num('QuotaPerUnit');
      const user = await this.ds
        .getRepository(User)
        .findOne({ where: { id: token.userId }, select: { id: true, quota: true, used_quota: true } });
      if (!user) throw relayFail(401, 'relay_invalid_key');
      const byToken = this.options.bool('DisplayTokenStatEnabled');
      const row = byToken ? await this.cacheToken(token.id) : null;
      const remain = byToken ? Number(row?.remain_quota ?? token.remainQuota) : Number(user.quota);
      const used = byToken ? Number(row?.used_quota ?? 0) : Number(user.used_quota);
      if (kind === 'subscription') {
        // An unlimited key's limit is exactly 1e8 USD, the sentinel clients read as "unlimited".
        const limit = byToken && token.unlimited ? 100_000_000 : (remain + used) / unit;
        send(res, 200, {
          object: 'billing_subscription',
          has_payment_method: true,
          soft_limit_usd: limit,
          hard_limit_usd: limit,
          system_hard_limit_usd: limit,
          access_until: token.expiredTime > 0 ? token.expiredTime : 0,
        });
      } else send(res, 200, { object: 'list', total_usage: (used / unit) * 100 });
    } catch (err) {
      writeError(res, inbound, toRelayError(err));
    }
  }

  private cacheToken(id: number) {
    return this.ds
      .getRepository(Token)
      .findOne({ where: { id }, select: { id: true, remain_quota: true, used_quota: true } });
  }

  /** The calling token's own usage (`GET /api/usage/token`, API-key auth). */
  private async tokenUsage(call: RelayCall, res: ServerResponse): Promise<void> {
    const inbound = this.inbound(call, 'openai', 'chat', null, false);
    try {
      const { token } = await this.admission.caller(inbound.key, inbound.ip);
      const row = await this.cacheToken(token.id);
      const remain = Number(row?.remain_quota ?? 0);
      const used = Number(row?.used_quota ?? 0);
      send(res, 200, {
        code: true,
        message: 'ok',
        data: {
          object: 'token_usage',
          name: token.name,
          total_granted: remain + used,
          total_used: used,
          total_available: remain,
          unlimited_quota: token.unlimited,
          model_limits: token.modelLimits
            ? Object.fromEntries([...token.modelLimits].map((m) => [m, true]))
            : {},
          model_limits_enabled: !!token.modelLimits,
          expires_at: token.expiredTime === -1 ? 0 : token.expiredTime,
        },
      });
    } catch (err) {
      const e = toRelayError(err);
      send(res, e.status, { code: false, message: e.messageIn(inbound.lang), data: null });
    }
  }
}

/** The route label of a raw-path request: its pattern, with the model or target named by the path elided. */
function routePattern(path: string): string {
  if (path.startsWith('/v1beta/models/')) return '/v1beta/models/:target';
  if (path.startsWith('/v1/engines/')) return '/v1/engines/:model/embeddings';
  if (GEMINI_V1_ACTION.test(path)) return '/v1/models/:target';
  if (path.startsWith('/v1/models/')) return '/v1/models/:model';
  // Every other path of the fast path is a fixed path of the route table.
  return path;
}

const send = writeJson;

/** The group a playground request names in its body ('' = the user's own; an unreadable body is refused later). */
function playgroundGroup(raw: Buffer): string {
  try {
    const body = JSON.parse(raw.toString('utf8')) as { group?: unknown };
    return typeof body?.group === 'string' ? body.group : '';
  } catch {
    return '';
  }
}

/**
 * A model as Gemini's `Model` lists it: an embedding model (its name says so, as every provider's
 * embedding models do) offers the embedding methods, any other the generation ones; both count tokens.
 */
function geminiModel(name: string): Record<string, unknown> {
  const methods = /embed/i.test(name)
    ? ['embedContent', 'batchEmbedContents', 'countTokens']
    : ['generateContent', 'streamGenerateContent', 'countTokens'];
  return { name: `models/${name}`, displayName: name, supportedGenerationMethods: methods };
}

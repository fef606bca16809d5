/**
 * The relay lifecycle, the only place that does I/O for model traffic:
 *
 *   authenticate (token cache) → model, group, price → screen (limits, sensitive words)
 *   → reserve quota (skipped for trusted balances) → pick a channel → convert → call upstream
 *   → answer / stream back (converting per chunk) → settle the exact charge, or refund
 *   → on a retryable failure, the next channel (lower tier, never one that already failed).
 *
 * Adapters and format converters are pure; see ./adapters and ./formats.
 */
import { ClientSignal } from './client-signal';
import type { ServerResponse } from 'node:http';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { Agent, Dispatcher, ProxyAgent, errors as undiciErrors, request } from 'undici';
import { AppError } from '../../common/app-error';
import { APP_CONFIG } from '../../config/config.module';
import type { AppConfig } from '../../config/app-config';
import { LogType, Role, TokenStatus, UserStatus } from '../../database/entities';
import { AuthGuard } from '../auth/auth.guard';
import { InsufficientQuota, LogDraft, QuotaLedgerService, Settlement } from '../billing/quota-ledger.service';
import { clampQuota, fixedQuota, Price, priceOf, PriceTables, reserveQuota, usageQuota, priceTablesFrom } from '../billing/pricing';
import { OptionService } from '../option/option.service';
import { UserCacheService } from '../user/user-cache.service';
import { UserGroupsService } from '../user/user-groups.service';
import { adapterForChannel as adapterFor } from './adapter-registry';
import { ChannelSnapshot, hasChannel, mapModel, selectChannel } from './channel-selector';
import { ChannelHealthService } from './channel-health.service';
import { errorBody, RelayError, relayFail, sanitizeUpstreamText } from './errors';
import { fromHubRequest, fromHubResponse, fromHubStream, toHubRequest, toHubResponse, toHubStream, usageOf } from './formats';
import { RateLimitService } from './rate-limit.service';
import { MetricsService } from '../metrics/metrics.service';
import { hasScopedLimits, NO_RELEASE, ScopedLimitService } from './scoped-limit.service';
import { InboundRequest, RelayContext } from './relay-context';
import { ipAllowed, RelayCacheService, TokenSnapshot } from './relay-cache.service';
import { aggregateStream } from './streaming/aggregate';
import { createEventDecoder, formatSse } from './streaming/event-decoder';
import { UsageProbe } from './streaming/usage-probe';
import { sparkCall, UpstreamResponse } from './spark-transport';
import type { AdapterRequest, AdapterSettings, JsonObject, ProviderAdapter, SseEvent, UpstreamCall, UsageCounts, WireFormat } from './types';
import { emptyUsage } from './types';
import { estimatePromptTokens, promptText, textTokens } from './usage';

const TRUST_FACTOR = 100;
const MAX_ERROR_BODY = 64 * 1024;

interface Attempt {
  channel: ChannelSnapshot;
  adapter: ProviderAdapter;
  upstreamModel: string;
  areq: AdapterRequest;
  call: UpstreamCall;
  /** Frees the channel's limit slot taken for this attempt (idempotent). */
  release: () => void;
}

interface Outcome {
  usage: UsageCounts;
  firstTokenMs: number;
  extra: Record<string, unknown>;
}

@Injectable()
export class RelayService {
  private readonly logger = new Logger('Relay');
  private readonly agent: Agent;
  private readonly proxies = new Map<string, ProxyAgent>();
  private readonly credentials = new Map<string, { token: string; until: number }>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly cache: RelayCacheService,
    private readonly users: UserCacheService,
    private readonly groups: UserGroupsService,
    private readonly options: OptionService,
    private readonly ledger: QuotaLedgerService,
    private readonly guard: AuthGuard,
    private readonly health: ChannelHealthService,
    private readonly limits: RateLimitService,
    private readonly scoped: ScopedLimitService,
    private readonly metrics: MetricsService,
  ) {
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: null,
      headersTimeout: config.relayTimeoutSeconds > 0 ? config.relayTimeoutSeconds * 1000 : 0,
      bodyTimeout: 0,
    });
  }

  // ---------------------------------------------------------------- authentication and pricing

  /** The API key's token and user, with every status rule applied. */
  async authenticate(req: InboundRequest): Promise<{ token: TokenSnapshot; pinned: number | null }> {
    let key = (req.key ?? '').trim();
    if (!key) throw relayFail(401, 'relay_no_key', {}, 'invalid_api_key');
    if (key.startsWith('sk-')) key = key.slice(3);
    let pinned: number | null = null;
    const dash = key.indexOf('-');
    if (dash > 0) {
      const suffix = key.slice(dash + 1);
      if (!/^\d{1,9}$/.test(suffix)) throw relayFail(401, 'relay_invalid_key', {}, 'invalid_api_key');
      pinned = Number(suffix);
      key = key.slice(0, dash);
    }
    if (key.length < 16 || key.length > 128) throw relayFail(401, 'relay_invalid_key', {}, 'invalid_api_key');
    const token = await this.cache.token(this.cache.hashKey(key));
    if (!token) throw relayFail(401, 'relay_invalid_key', {}, 'invalid_api_key');
    if (token.status === TokenStatus.Disabled) throw relayFail(401, 'relay_token_disabled', {}, 'token_disabled');
    const now = Math.floor(Date.now() / 1000);
    if (token.status === TokenStatus.Expired || (token.expiredTime !== -1 && token.expiredTime < now)) {
      this.health.markToken(token, TokenStatus.Expired);
      throw relayFail(401, 'relay_token_expired', {}, 'token_expired');
    }
    if (token.status === TokenStatus.Exhausted || (!token.unlimited && token.remainQuota <= 0)) {
      this.health.markToken(token, TokenStatus.Exhausted);
      throw relayFail(403, 'relay_token_exhausted', {}, 'insufficient_quota');
    }
    if (!ipAllowed(token.allowIps, req.ip)) throw relayFail(403, 'relay_ip_not_allowed', {}, 'ip_not_allowed');
    return { token, pinned };
  }

  private priceTables(): PriceTables {
    return priceTablesFrom(this.options);
  }


  private adapterSettings(): AdapterSettings {
    const o = this.options;
    return {
      geminiSafetySettings: o.json('gemini.safety_settings') ?? {},
      geminiVersionSettings: o.json('gemini.version_settings') ?? {},
      geminiThinkingAdapterEnabled: o.bool('gemini.thinking_adapter_enabled'),
      geminiThinkingBudgetPercentage: o.num('gemini.thinking_adapter_budget_tokens_percentage') || 0.6,
      claudeModelHeaders: o.json('claude.model_headers_settings') ?? {},
      claudeDefaultMaxTokens: o.json('claude.default_max_tokens') ?? {},
      claudeThinkingAdapterEnabled: o.bool('claude.thinking_adapter_enabled'),
      claudeThinkingBudgetPercentage: o.num('claude.thinking_adapter_budget_tokens_percentage') || 0.8,
      geminiSupportedImagineModels: o.json<string[]>('gemini.supported_imagine_models') ?? [],
    };
  }

  /** Model, group, price and every refusal that needs no upstream call. */
  async prepare(req: InboundRequest, session?: { userId: number; group: string }): Promise<RelayContext> {
    let token: TokenSnapshot | null = null;
    let pinned: number | null = null;
    let userId: number;
    if (session) userId = session.userId;
    else {
      ({ token, pinned } = await this.authenticate(req));
      userId = token.userId;
    }
    const user = await this.users.get(userId);
    if (!user) throw relayFail(401, 'relay_invalid_key', {}, 'invalid_api_key');
    if (user.deleted) throw relayFail(403, 'relay_user_banned', {}, 'user_banned');
    if (user.status !== UserStatus.Enabled) throw relayFail(403, 'relay_user_banned', {}, 'user_banned');
    if (pinned !== null && user.role < Role.Admin) throw relayFail(403, 'relay_pin_admin_only');

    const body = req.body ?? {};
    const model = (req.pathModel ?? (typeof body.model === 'string' ? body.model : '')).trim();
    if (!model) throw relayFail(400, 'relay_model_required', {}, 'model_required');
    if (model.length > 191) throw relayFail(400, 'relay_bad_body', { reason: 'model' });
    if (token?.modelLimits && !token.modelLimits.has(model))
      throw relayFail(403, 'relay_model_not_allowed', { model }, 'model_not_allowed');

    const usable = this.groups.usableGroups(user.group);
    let group = session ? session.group || user.group : token?.group || user.group;
    if (group !== user.group && !(group in usable)) throw relayFail(403, 'relay_group_not_allowed', { group });
    if (group === 'auto') {
      const auto = this.options.json<string[]>('AutoGroups') ?? [];
      const found = auto.find((g) => (g === user.group || g in usable) && hasChannel(this.cache.channels, g, model));
      group = found ?? auto[0] ?? user.group;
    }

    let price: Price | null = priceOf(this.priceTables(), model, user.group, group);
    if (!price) {
      if (!this.options.bool('SelfUseModeEnabled') && !user.acceptUnsetModel)
        throw relayFail(403, 'relay_model_unpriced', { model }, 'model_price_error');
      price = { ...priceOf({ ...this.priceTables(), modelRatio: { [model]: 0 } }, model, user.group, group)! };
    }

    const stream = req.pathStream || body.stream === true;
    let counted: number | null = null;
    const prompt = () =>
      (counted ??= req.body ? estimatePromptTokens(req.format === 'openai' ? req.body : this.hubBody(req, model, stream)) : 0);
    const promptBound = req.raw && req.body ? req.raw.length : req.body ? prompt() : 0;

    if (this.options.bool('CheckSensitiveEnabled') && this.options.bool('CheckSensitiveOnPromptEnabled') && req.body) {
      const word = this.sensitiveWord(promptText(req.format === 'openai' ? req.body : this.hubBody(req, model, stream)).text);
      if (word) throw relayFail(400, 'relay_sensitive', { word }, 'sensitive_words_detected');
    }
    await this.limits.check(user.id, user.group);

    return {
      req,
      user,
      token,
      tokenName: token ? token.name : 'playground',
      group,
      model,
      stream,
      pinnedChannel: pinned,
      price,
      prompt,
      promptBound,
      startedAt: Date.now(),
    };
  }

  private hubBody(req: InboundRequest, model: string, stream: boolean): JsonObject {
    try {
      return toHubRequest(req.format, req.body ?? {}, model, stream);
    } catch {
      throw relayFail(400, 'relay_bad_body', { reason: 'cannot convert' });
    }
  }

  private sensitiveWord(text: string): string | null {
    if (!text) return null;
    const lower = text.toLowerCase();
    for (const w of this.options.get('SensitiveWords').split('\n')) {
      const word = w.trim().toLowerCase();
      if (word && lower.includes(word)) return w.trim();
    }
    return null;
  }

  // ---------------------------------------------------------------- lifecycle

  /** Serves one request end to end, writing the answer (or the error) to `res`. */
  async handle(req: InboundRequest, res: ServerResponse, session?: { userId: number; group: string }): Promise<void> {
    let ctx: RelayContext;
    try {
      ctx = await this.prepare(req, session);
      if (ctx.token && hasScopedLimits(ctx.token)) await this.scoped.admitToken(ctx.token, res);
    } catch (err) {
      return this.writeError(res, req, this.asRelayError(err));
    }
    const payer = { userId: ctx.user.id, tokenId: ctx.token?.id ?? 0, tokenUnlimited: ctx.token?.unlimited ?? true };
    const maxTokens = this.maxTokens(req.body);
    const preConsumed = this.options.num('PreConsumedQuota');
    const fixed = ctx.price.modelPrice >= 0;
    // The trust check uses an upper bound of the prompt, so most requests never run the tokenizer.
    const bound = fixed ? this.fixedCharge(ctx) : reserveQuota(ctx.price, ctx.promptBound, maxTokens, preConsumed);
    let hold;
    try {
      const balance = await this.ledger.balanceOf(ctx.user.id);
      const tokenTrusted = !ctx.token || ctx.token.unlimited || ctx.token.remainQuota > bound * TRUST_FACTOR;
      if (balance <= 0) throw new InsufficientQuota('user');
      if (balance > bound * TRUST_FACTOR && tokenTrusted) hold = { payer, reserved: 0, logId: null };
      else {
        const reserve = fixed ? bound : reserveQuota(ctx.price, ctx.prompt(), maxTokens, preConsumed);
        hold = await this.ledger.reserve(payer, reserve, this.logConsumeEnabled() ? this.draft(ctx, null, 0, emptyUsage(), {}) : null);
      }
    } catch (err) {
      if (err instanceof InsufficientQuota)
        return this.writeError(
          res,
          req,
          relayFail(403, err.who === 'user' ? 'relay_quota_insufficient' : 'relay_token_quota_insufficient', {}, 'insufficient_quota'),
        );
      return this.writeError(res, req, this.asRelayError(err));
    }

    const abort = new ClientSignal();
    const onClose = () => {
      if (!res.writableFinished) abort.abort();
    };
    res.on('close', onClose);
    const tried: number[] = [];
    const retries = Math.max(0, this.options.num('RetryTimes'));
    let lastError: RelayError | null = null;
    let lastChannel: ChannelSnapshot | null = null;
    try {
      for (let attempt = 0; attempt <= retries; attempt++) {
        if (abort.aborted) break;
        let a: Attempt;
        try {
          a = await this.plan(ctx, attempt, new Set(tried));
        } catch (err) {
          lastError = this.asRelayError(err);
          break;
        }
        tried.push(a.channel.id);
        lastChannel = a.channel;
        req.channelId = a.channel.id;
        try {
          const outcome = await this.call(ctx, a, res, abort).finally(a.release);
          this.finish(ctx, hold, a, outcome, tried);
          return;
        } catch (err) {
          const e = this.asRelayError(err);
          lastError = e;
          void this.health.onUpstreamError(a.channel, e.status, e.text || e.message);
          if (!e.retryable || res.headersSent) break;
        }
      }
    } finally {
      res.off('close', onClose);
    }
    // Every attempt failed (or none was possible): refund and answer with the last error.
    const err = lastError ?? relayFail(503, 'relay_no_channel', { group: ctx.group, model: ctx.model });
    this.ledger.settle({
      hold,
      channelId: lastChannel?.id ?? 0,
      charged: 0,
      failed: true,
      log: this.errorDraft(ctx, lastChannel, err, tried),
      stat: null,
    });
    if (!res.headersSent) this.writeError(res, req, err);
    else if (!res.writableEnded) res.end();
  }

  private maxTokens(body: JsonObject | null): number {
    if (!body) return 0;
    for (const k of ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const) {
      const v = body[k];
      if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.min(v, 10_000_000);
    }
    const gc = body.generationConfig;
    if (gc && typeof gc === 'object' && !Array.isArray(gc) && typeof gc.maxOutputTokens === 'number') return Math.max(0, gc.maxOutputTokens);
    return 0;
  }

  /** Chooses the channel for this attempt and builds the upstream call. */
  private async plan(ctx: RelayContext, attempt: number, exclude: Set<number>, index = this.cache.channels, busy: Set<number> | null = null): Promise<Attempt> {
    const { req } = ctx;
    let channel: ChannelSnapshot | null;
    if (ctx.pinnedChannel !== null) {
      channel = index.byId.get(ctx.pinnedChannel) ?? null;
      if (!channel?.enabled) throw relayFail(503, 'relay_pinned_channel_missing');
    } else {
      channel = selectChannel(index, ctx.group, ctx.model, attempt, exclude, (c) => {
        const ad = adapterFor(c.type, c.modelMapping[ctx.model] ?? ctx.model);
        if (!ad || !ad.modes.includes(req.mode) || (busy !== null && busy.has(c.id))) return false;
        return !(c.maxInputTokens > 0 && ctx.prompt() > c.maxInputTokens);
      });
      if (!channel && busy) throw relayFail(429, 'relay_channels_busy', { group: ctx.group, model: ctx.model }, 'rate_limit_exceeded');
      if (!channel) throw relayFail(503, 'relay_no_channel', { group: ctx.group, model: ctx.model }, 'model_not_found');
    }
    const upstreamModel = mapModel(channel.modelMapping, ctx.model);
    if (upstreamModel === null) throw relayFail(500, 'relay_model_cycle');
    const adapter = adapterFor(channel.type, upstreamModel);
    if (!adapter || !adapter.modes.includes(req.mode)) throw relayFail(400, 'relay_mode_unsupported');

    let pristine = false;
    const body = req.body
      ? this.upstreamBody(ctx, channel, adapter, upstreamModel, () => (pristine = true))
      : {};
    const key = channel.keys.length > 1 ? channel.keys[Math.floor(Math.random() * channel.keys.length)] : (channel.keys[0] ?? '');
    const target = { id: channel.id, type: channel.type, baseUrl: channel.baseUrl, key, other: channel.other, organization: channel.organization };
    const areq: AdapterRequest = { mode: req.mode, model: upstreamModel, stream: ctx.stream, body, channel: target, settings: this.adapterSettings() };
    if (pristine && req.raw && !req.contentType.startsWith('multipart/')) areq.rawBody = req.raw;
    const exchange = adapter.credentials?.(target, Math.floor(Date.now() / 1000));
    if (exchange) areq.accessToken = await this.credential(exchange, channel);
    const call = adapter.buildRequest(areq);
    // global.pass_through_request_enabled: same-format JSON bodies go upstream byte for byte.
    if (this.options.bool('global.pass_through_request_enabled') && adapter.format === req.format && req.raw && req.body && !req.contentType.startsWith('multipart/'))
      call.body = req.raw;
    for (const [h, v] of Object.entries(channel.headerOverride))
      if (typeof v === 'string') call.headers[h] = v.replace('{api_key}', key);
    // Channel limits apply to live traffic (the index of the cache), not to channel tests.
    let release = NO_RELEASE;
    if (index === this.cache.channels && hasScopedLimits(channel)) {
      const lease = await this.scoped.admitChannel(channel);
      if (!lease) {
        if (ctx.pinnedChannel !== null) throw relayFail(429, 'relay_channels_busy', { group: ctx.group, model: ctx.model }, 'rate_limit_exceeded');
        // At its limit: choose again without it (same tier first, then the lower ones).
        return this.plan(ctx, attempt, exclude, index, (busy ?? new Set<number>()).add(channel.id));
      }
      release = lease.release;
    }
    return { channel, adapter, upstreamModel, areq, call, release };
  }

  private async credential(ex: NonNullable<ReturnType<NonNullable<ProviderAdapter['credentials']>>>, ch: ChannelSnapshot): Promise<string> {
    const hit = this.credentials.get(ex.cacheKey);
    if (hit && hit.until > Date.now()) return hit.token;
    const r = await request(ex.request.url, {
      method: ex.request.method,
      headers: ex.request.headers,
      body: ex.request.body,
      dispatcher: this.dispatcher(ch),
    });
    const text = await r.body.text();
    if (r.statusCode >= 400) throw new RelayError(502, 'relay_upstream_failed', { reason: `credential exchange ${r.statusCode}` }, '', null, true);
    const { token, expiresInSeconds } = ex.parse(JSON.parse(text));
    this.credentials.set(ex.cacheKey, { token, until: Date.now() + Math.max(0, expiresInSeconds - 60) * 1000 });
    return token;
  }

  /** The body in the channel's format: converted if needed, then mapping, overrides and settings. */
  /** `unchanged` is called when the result equals the client's body (nothing added or replaced). */
  private upstreamBody(ctx: RelayContext, ch: ChannelSnapshot, adapter: ProviderAdapter, upstreamModel: string, unchanged: () => void): JsonObject {
    const { req } = ctx;
    const inbound = req.body ?? {};
    let body: JsonObject;
    const same = req.format === adapter.format || (req.format === 'responses' && adapter.format === 'openai' && adapter.modes.includes('responses'));
    if (same || req.mode !== 'chat' && req.mode !== 'responses') body = { ...inbound };
    else {
      let hub = this.hubBody(req, ctx.model, ctx.stream);
      hub = this.applySetting(hub, ch);
      body = fromHubRequest(adapter.format, hub, { defaultMaxTokens: this.defaultMaxTokens(upstreamModel) });
    }
    if (adapter.format === 'openai' || adapter.format === 'anthropic' || adapter.format === 'responses') body.model = upstreamModel;
    if (same && adapter.format === 'openai') body = this.applySetting(body, ch);
    if (ctx.stream && adapter.format === 'openai' && (req.mode === 'chat' || req.mode === 'completions')) {
      const so = body.stream_options && typeof body.stream_options === 'object' && !Array.isArray(body.stream_options) ? body.stream_options : {};
      body.stream_options = { ...so, include_usage: true };
    }
    if (adapter.format !== 'gemini') {
      if (ctx.stream) body.stream = true;
    } else delete body.stream;
    for (const [k, v] of Object.entries(ch.paramOverride)) body[k] = v as JsonObject[string];
    if (same && adapter.format === req.format && sameShape(body, inbound) && body.model === inbound.model) unchanged();
    return body;
  }

  private defaultMaxTokens(model: string): number {
    const m = this.options.json<Record<string, number>>('claude.default_max_tokens') ?? {};
    return m[model] ?? m.default ?? 8192;
  }

  /** Channel setting: system prompt injected (or overriding the client's) for OpenAI-format bodies. */
  private applySetting(body: JsonObject, ch: ChannelSnapshot): JsonObject {
    const prompt = typeof ch.setting.system_prompt === 'string' ? ch.setting.system_prompt : '';
    if (!prompt || !Array.isArray(body.messages)) return body;
    const messages = body.messages.filter((m) => !(ch.setting.system_prompt_override === true && isSystem(m)));
    const idx = messages.findIndex(isSystem);
    if (idx >= 0 && ch.setting.system_prompt_override !== true) {
      const m = messages[idx] as JsonObject;
      messages[idx] = { ...m, content: `${prompt}\n${typeof m.content === 'string' ? m.content : ''}` };
    } else messages.unshift({ role: 'system', content: prompt });
    return { ...body, messages };
  }

  private dispatcher(ch: ChannelSnapshot): Dispatcher {
    const proxy = typeof ch.setting.proxy === 'string' ? ch.setting.proxy.trim() : '';
    if (!proxy) return this.agent;
    let p = this.proxies.get(proxy);
    if (!p) this.proxies.set(proxy, (p = new ProxyAgent(proxy)));
    return p;
  }

  /**
   * Tests a channel with a minimal non-streamed chat request to `model` (no billing). Returns the
   * upstream's verdict and the time it took; the caller decides what to do with a slow or failed test.
   */
  async probe(channel: ChannelSnapshot, model: string): Promise<{ ok: boolean; status: number; message: string; ms: number }> {
    const started = Date.now();
    const req: InboundRequest = {
      format: 'openai',
      mode: 'chat',
      body: { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 },
      raw: null,
      contentType: 'application/json',
      pathModel: null,
      pathStream: false,
      key: null,
      ip: '',
      requestId: `test-${channel.id}-${started}`,
      lang: 'en',
      userAgent: 'channel-test',
    };
    try {
      const adapter = adapterFor(channel.type, mapModel(channel.modelMapping, model) ?? model);
      if (!adapter || !adapter.modes.includes('chat')) throw relayFail(400, 'relay_mode_unsupported');
      const ctx = { req, model, stream: false, group: '', prompt: () => 0, promptBound: 0, pinnedChannel: channel.id } as RelayContext;
      const index = { byId: new Map([[channel.id, { ...channel, enabled: true }]]), tiers: new Map() };
      const a = await this.plan(ctx, 0, new Set(), index);
      const up = await request(a.call.url, {
        method: a.call.method,
        headers: a.call.headers,
        body: a.call.body,
        dispatcher: this.dispatcher(channel),
        headersTimeout: 60_000,
        bodyTimeout: 60_000,
      });
      const text = await up.body.text();
      if (up.statusCode >= 400) {
        const e = this.upstreamError(a, up.statusCode, text);
        return { ok: false, status: up.statusCode, message: e.messageIn('en'), ms: Date.now() - started };
      }
      if (a.adapter.createStreamAggregator && String(up.headers['content-type'] ?? '').includes('event-stream')) aggregateStream(a.adapter, a.areq, [Buffer.from(text)]);
      else a.adapter.convertResponse?.(JSON.parse(text) as JsonObject, a.areq);
      return { ok: true, status: up.statusCode, message: '', ms: Date.now() - started };
    } catch (err) {
      const e = this.asRelayError(err);
      return { ok: false, status: e.status, message: e.messageIn('en'), ms: Date.now() - started };
    }
  }

  // ---------------------------------------------------------------- the upstream call

  private async call(ctx: RelayContext, a: Attempt, res: ServerResponse, signal: ClientSignal): Promise<Outcome> {
    const { req } = ctx;
    const multipart = req.mode === 'transcriptions' || req.mode === 'translations' || req.mode === 'image-edits';
    const headers = { ...a.call.headers };
    let body: string | Uint8Array | undefined = a.call.body;
    if (multipart && req.raw) {
      headers['content-type'] = req.contentType;
      body = req.raw;
    }
    let up: UpstreamResponse;
    const sentAt = performance.now();
    try {
      if (a.adapter.transport === 'websocket') up = await sparkCall(a.areq, signal, Date.now(), this.config.relayTimeoutSeconds * 1000);
      else up = await request(a.call.url, {
        method: a.call.method,
        headers,
        body,
        signal,
        dispatcher: this.dispatcher(a.channel),
        headersTimeout: this.config.relayTimeoutSeconds > 0 ? this.config.relayTimeoutSeconds * 1000 : undefined,
      });
    } catch (err) {
      if (err instanceof RelayError) throw err;
      if (signal.aborted) throw new RelayError(499, 'relay_upstream_failed', { reason: 'client closed the request' });
      const timeout = err instanceof undiciErrors.HeadersTimeoutError;
      throw new RelayError(timeout ? 504 : 502, timeout ? 'relay_upstream_timeout' : 'relay_upstream_failed', { reason: 'network error' }, '', null, true);
    }
    this.metrics.upstream(a.channel.id, performance.now() - sentAt);

    if (up.statusCode >= 400) {
      const text = await readLimited(up.body, MAX_ERROR_BODY);
      throw this.upstreamError(a, up.statusCode, text);
    }
    const contentType = String(up.headers['content-type'] ?? '');
    const isStream = ctx.stream && (contentType.includes('event-stream') || contentType.includes('ndjson') || contentType.includes('eventstream') || (a.adapter.framing === 'ndjson' && !contentType.includes('application/json')));
    if (isStream) return this.metrics.trackStream(this.relayStream(ctx, a, up, res, signal));
    if (!ctx.stream && a.adapter.createStreamAggregator && contentType.includes('event-stream')) return this.relayAggregated(ctx, a, up, res);
    if (!contentType.includes('json')) return this.relayBinary(ctx, a, up, res);
    return this.relayJson(ctx, a, up, res);
  }

  private upstreamError(a: Attempt, status: number, text: string): RelayError {
    let message: string;
    try {
      message = a.adapter.errorMessage?.(status, text) ?? text;
    } catch {
      message = text;
    }
    message = sanitizeUpstreamText(message || `status ${status}`);
    const mapped = a.channel.statusCodeMapping[String(status)];
    const clientStatus = mapped !== undefined && Number.isInteger(Number(mapped)) ? Number(mapped) : status;
    const retryable = status === 429 || status === 401 || status === 403 || (status >= 500 && status !== 504 && status !== 524);
    const e = new RelayError(clientStatus, null, {}, message, 'upstream_error', retryable);
    (e as RelayError & { upstreamStatus?: number }).upstreamStatus = status;
    return e;
  }

  private async relayJson(ctx: RelayContext, a: Attempt, up: UpstreamResponse, res: ServerResponse): Promise<Outcome> {
    const text = await up.body.text();
    let json: JsonObject;
    try {
      json = JSON.parse(text) as JsonObject;
    } catch {
      throw new RelayError(502, 'relay_upstream_failed', { reason: 'invalid JSON from upstream' }, '', null, true);
    }
    const parsed = json;
    if (a.adapter.convertResponse) json = a.adapter.convertResponse(json, a.areq);
    const out = this.toClientFormat(ctx, a, json);
    const reported = usageOf(a.adapter.format === 'openai' && ctx.req.mode === 'responses' ? 'responses' : a.adapter.format, json);
    const usage = reported && reported.prompt_tokens + reported.completion_tokens > 0 ? reported : this.estimateUsage(ctx, out);
    // An answer that needs no change (same format, same model name) goes out as the upstream's bytes.
    const untouched = json === parsed && (out === json || (out.model === json.model && sameShape(out, json)));
    if (untouched) this.writeText(res, 200, text);
    else this.writeJson(res, ctx.req, 200, out);
    return { usage, firstTokenMs: 0, extra: {} };
  }

  /** A non-stream request answered with an event stream (Dify agent apps): folded into one answer. */
  private async relayAggregated(ctx: RelayContext, a: Attempt, up: UpstreamResponse, res: ServerResponse): Promise<Outcome> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of up.body) chunks.push(chunk);
    const json = aggregateStream(a.adapter, a.areq, chunks);
    const out = this.toClientFormat(ctx, a, json);
    const reported = usageOf(a.adapter.format, json);
    const usage = reported && reported.prompt_tokens + reported.completion_tokens > 0 ? reported : this.estimateUsage(ctx, out);
    this.writeJson(res, ctx.req, 200, out);
    return { usage, firstTokenMs: 0, extra: {} };
  }

  /** Converts a complete answer from the channel's format to the caller's. */
  private toClientFormat(ctx: RelayContext, a: Attempt, json: JsonObject): JsonObject {
    const from = a.adapter.format;
    const to = ctx.req.format;
    if (ctx.req.mode !== 'chat' && ctx.req.mode !== 'responses') return json;
    if (from === to || (to === 'responses' && from === 'openai' && a.adapter.modes.includes('responses'))) {
      return from === 'openai' || from === 'responses' ? { ...json, model: ctx.model } : json;
    }
    return fromHubResponse(to, toHubResponse(from, json, ctx.model), ctx.model);
  }

  private estimateUsage(ctx: RelayContext, out: JsonObject): UsageCounts {
    const u = emptyUsage();
    u.prompt_tokens = ctx.prompt();
    const choices = Array.isArray(out.choices) ? out.choices : [];
    let text = typeof out.text === 'string' ? out.text : '';
    for (const c of choices) {
      const msg = (c as JsonObject)?.message as JsonObject | undefined;
      if (msg && typeof msg.content === 'string') text += msg.content;
    }
    u.completion_tokens = textTokens(text);
    return u;
  }

  private async relayBinary(ctx: RelayContext, a: Attempt, up: UpstreamResponse, res: ServerResponse): Promise<Outcome> {
    res.statusCode = 200;
    const ct = up.headers['content-type'];
    if (ct) res.setHeader('content-type', ct);
    let text = '';
    for await (const chunk of up.body) {
      const b = chunk as Buffer;
      if (ctx.req.mode !== 'speech' && text.length < 1_000_000) text += b.toString('utf8');
      if (!res.write(b)) await waitDrain(res);
    }
    res.end();
    const u = emptyUsage();
    // Speech is billed by its input text; a plain-text transcript by its tokens.
    u.prompt_tokens = ctx.req.mode === 'speech' ? textTokens(typeof ctx.req.body?.input === 'string' ? ctx.req.body.input : '') : ctx.prompt();
    u.completion_tokens = ctx.req.mode === 'speech' ? 0 : textTokens(text);
    return { usage: u, firstTokenMs: 0, extra: {} };
  }

  private async relayStream(ctx: RelayContext, a: Attempt, up: UpstreamResponse, res: ServerResponse, signal: ClientSignal): Promise<Outcome> {
    const { req } = ctx;
    const native = a.adapter.format;
    const client = req.format;
    const passthrough = native === client || (client === 'responses' && native === 'openai' && a.adapter.modes.includes('responses'));
    const probeFormat: WireFormat = passthrough ? (client === 'responses' ? 'responses' : native) : 'openai';
    const probe = new UsageProbe(probeFormat);
    const wantsUsage = client === 'openai' && isObject(req.body?.stream_options) && req.body.stream_options.include_usage === true;
    const adapterConv = a.adapter.createStreamConverter?.(a.areq);
    const toHub = passthrough ? null : toHubStream(native, ctx.model);
    const fromHub = passthrough ? null : fromHubStream(client, ctx.model, req.requestId);
    const queueMax = Math.max(0, this.options.num('StreamCacheQueueLength'));
    let buffered: string[] = [];
    let sentAny = false;
    // Set when the upstream's end marker has been read: what is left goes out with the end of the response.
    let upstreamDone = false;

    // Events made from one upstream read go out in one write (one syscall, not one per event).
    let batch = '';
    const write = async (s: string) => {
      if (queueMax > 0) {
        buffered.push(s);
        if (buffered.length < queueMax) return;
        s = buffered.join('');
        buffered = [];
      }
      batch += s;
    };
    const flushBatch = async () => {
      if (!batch) return;
      const s = batch;
      batch = '';
      sentAny = true;
      if (!res.write(s)) await waitDrain(res);
    };

    res.statusCode = 200;
    res.setHeader('content-type', 'text/event-stream; charset=utf-8');
    res.setHeader('cache-control', 'no-cache');
    res.setHeader('connection', 'keep-alive');
    res.setHeader('x-accel-buffering', 'no');

    let ping: NodeJS.Timeout | null = null;
    if (this.options.bool('general_setting.ping_interval_enabled')) {
      const every = Math.max(1, this.options.num('general_setting.ping_interval_seconds')) * 1000;
      ping = setInterval(() => {
        if (!res.writableEnded) res.write(': ping\n\n');
      }, every);
      ping.unref();
    }

    const pending: SseEvent[] = [];
    const decoder = createEventDecoder(a.adapter.framing ?? 'sse', (e) => pending.push(e));
    // A chunk that names the client's model and carries no usage goes out as the upstream's bytes; once
    // the first token is timed, its text is only needed if the upstream never reports usage (deferred).
    const modelField = `"model":${JSON.stringify(ctx.model)}`;
    const emitClient = async (e: SseEvent) => {
      if (passthrough) {
        if (client === 'openai' || client === 'responses') {
          const data = e.data.trim();
          if (data === '[DONE]') {
            upstreamDone = true;
            return;
          }
          if (client === 'openai' && probe.firstTokenAt && data.includes(modelField)) {
            const at = data.indexOf('"usage"');
            if (at < 0 || data.startsWith('"usage":null', at)) {
              probe.defer(data);
              return write(formatSse(e));
            }
          }
          let parsed: JsonObject | null;
          try {
            parsed = JSON.parse(data) as JsonObject;
          } catch {
            parsed = null;
          }
          if (parsed) {
            probe.observe(e.event, parsed);
            if (client === 'openai' && parsed.usage && !wantsUsage) {
              if (Array.isArray(parsed.choices) && parsed.choices.length === 0) return;
              delete parsed.usage;
              return write(formatSse({ data: JSON.stringify({ ...parsed, model: ctx.model }) }));
            }
            if (client === 'openai' && parsed.model !== undefined && parsed.model !== ctx.model)
              return write(formatSse({ event: e.event, data: JSON.stringify({ ...parsed, model: ctx.model }) }));
          }
          return write(formatSse(e));
        }
        if (e.event === 'message_stop') upstreamDone = true;
        try {
          probe.observe(e.event, JSON.parse(e.data));
        } catch {
          /* not JSON: forwarded as is */
        }
        return write(formatSse(e));
      }
      // Converting: channel format → hub chunks → client format.
      for (const chunk of toHub!.push(e)) await emitHub(chunk);
    };
    const emitHub = async (chunk: JsonObject) => {
      probe.observe(undefined, chunk);
      if (client === 'openai' && chunk.usage && !wantsUsage) {
        if (Array.isArray(chunk.choices) && chunk.choices.length === 0) return;
        chunk = { ...chunk };
        delete chunk.usage;
      }
      for (const out of fromHub!.push(chunk)) await write(formatSse(out));
    };
    const process = async (e: SseEvent) => {
      const converted = adapterConv ? adapterConv.push(e) : [e];
      for (const c of converted) await emitClient(c);
    };

    let idle: NodeJS.Timeout | null = null;
    const idleMs = this.config.streamingTimeoutSeconds > 0 ? this.config.streamingTimeoutSeconds * 1000 : 0;
    let idledOut = false;
    // One timer per stream: each chunk only notes the time; the timer re-arms for what is left of the quiet spell.
    let lastChunkAt = 0;
    const onIdle = () => {
      const quiet = Date.now() - lastChunkAt;
      if (quiet < idleMs) {
        idle = setTimeout(onIdle, idleMs - quiet);
        return;
      }
      idledOut = true;
      (up.body as unknown as { destroy(error: Error): void }).destroy(new Error('streaming timeout'));
    };
    const armIdle = () => {
      if (!idleMs) return;
      lastChunkAt = Date.now();
      idle ??= setTimeout(onIdle, idleMs);
    };
    let broken = false;
    let upstreamError: string | null = null;
    try {
      armIdle();
      for await (const chunk of up.body) {
        armIdle();
        decoder.feed(chunk);
        while (pending.length) await process(pending.shift()!);
        if (!upstreamDone) await flushBatch();
      }
      decoder.end();
      while (pending.length) await process(pending.shift()!);
      if (adapterConv) for (const c of adapterConv.end()) await emitClient(c);
      if (!passthrough) {
        for (const chunk of toHub!.end()) await emitHub(chunk);
        for (const out of fromHub!.end()) await write(formatSse(out));
      }
    } catch (err) {
      broken = true;
      if (idledOut) upstreamError = `the upstream sent nothing for ${this.config.streamingTimeoutSeconds} s`;
      else if (!signal.aborted) upstreamError = (err as Error).message;
    } finally {
      if (idle) clearTimeout(idle);
      if (ping) clearInterval(ping);
    }
    if (broken && !sentAny && !batch && !buffered.length && !res.headersSent) {
      // Nothing reached the client: another channel may still answer (or the caller gets a clean error).
      throw new RelayError(502, 'relay_upstream_failed', { reason: upstreamError ?? 'stream ended' }, '', null, true);
    }
    if (!res.writableEnded && !res.destroyed) {
      // The rest, the error event and the end marker go out in one write with the end of the response.
      let tail = batch + buffered.join('');
      if (broken && upstreamError && !signal.aborted) {
        const msg = sanitizeUpstreamText(upstreamError);
        tail += formatSse(client === 'anthropic' ? { event: 'error', data: JSON.stringify(errorBody('anthropic', 500, msg)) } : { data: JSON.stringify(errorBody(client, 500, msg)) });
      }
      if (client === 'openai') tail += 'data: [DONE]\n\n';
      res.end(tail);
    }
    const outcome = this.streamOutcome(ctx, probe);
    if (broken) outcome.extra.stream_interrupted = true;
    return outcome;
  }

  private streamOutcome(ctx: RelayContext, probe: UsageProbe): Outcome {
    const reported = probe.reportedUsage();
    // The tokenizer runs only when the upstream reported no completion tokens.
    const counted = reported && reported.completion_tokens > 0 ? 0 : probe.countedCompletion();
    let usage: UsageCounts;
    if (reported && (reported.completion_tokens > 0 || counted === 0)) usage = reported;
    else {
      usage = reported ?? emptyUsage();
      usage.prompt_tokens = usage.prompt_tokens || ctx.prompt();
      usage.completion_tokens = counted;
    }
    return { usage, firstTokenMs: probe.firstTokenAt ? probe.firstTokenAt - ctx.startedAt : 0, extra: {} };
  }

  // ---------------------------------------------------------------- settlement and logs

  private finish(ctx: RelayContext, hold: Settlement['hold'], a: Attempt, o: Outcome, tried: number[]): void {
    const charged = ctx.price.modelPrice >= 0 ? this.fixedCharge(ctx) : usageQuota(ctx.price, o.usage);
    this.metrics.settled(ctx.model, a.channel.id, charged, o.usage.prompt_tokens, o.usage.completion_tokens, ctx.stream ? o.firstTokenMs : 0);
    const other: Record<string, unknown> = { ...o.extra, frt: o.firstTokenMs, admin_info: { use_channel: tried } };
    if (a.upstreamModel !== ctx.model) {
      other.is_model_mapped = true;
      other.upstream_model_name = a.upstreamModel;
    }
    if (ctx.req.format !== 'openai') other[ctx.req.format === 'anthropic' ? 'claude' : ctx.req.format] = true;
    if (typeof ctx.req.body?.reasoning_effort === 'string') other.reasoning_effort = ctx.req.body.reasoning_effort;
    const log = this.logConsumeEnabled() ? this.draft(ctx, a.channel, charged, o.usage, other) : null;
    this.ledger.settle({
      hold,
      channelId: a.channel.id,
      charged,
      failed: false,
      log,
      stat: { username: ctx.user.username, model: ctx.model, tokens: o.usage.prompt_tokens + o.usage.completion_tokens },
    });
    if (ctx.token?.tpmLimit || a.channel.tpmLimit) this.scoped.addTokens(ctx.token, a.channel, o.usage.prompt_tokens + o.usage.completion_tokens);
    void this.limits.success(ctx.user.id).catch((err: Error) => this.logger.warn(`rate-limit count failed: ${err.message}`));
    if (ctx.token && !ctx.token.unlimited) ctx.token.remainQuota -= charged;
    void this.health.afterCharge(ctx.user, charged);
  }

  /** The whole charge of a fixed-price call: per image (n, size and quality) for image generation. */
  private fixedCharge(ctx: RelayContext): number {
    const one = fixedQuota(ctx.price);
    if (ctx.req.mode !== 'images' && ctx.req.mode !== 'image-edits') return one;
    const raw = ctx.req.body?.n;
    const n = typeof raw === 'number' ? Math.min(Math.max(1, Math.floor(raw)), 128) : typeof raw === 'string' && /^\d{1,3}$/.test(raw) ? Math.min(Math.max(1, Number(raw)), 128) : 1;
    return clampQuota(one * n * imageSizeRatio(ctx.req.body));
  }

  private logConsumeEnabled(): boolean {
    return this.options.bool('LogConsumeEnabled');
  }

  private draft(ctx: RelayContext, ch: ChannelSnapshot | null, quota: number, u: UsageCounts, extra: Record<string, unknown>): LogDraft {
    const p = ctx.price;
    // A fixed-shape literal first, the caller's extra keys after: spreading `extra` first would build
    // the object on V8's slow dictionary path (several µs per request).
    const other: Record<string, unknown> = {
      group: ctx.group,
      client_type: clientType(ctx.req.userAgent),
      model_ratio: p.modelRatio,
      model_price: p.modelPrice,
      completion_ratio: p.completionRatio,
      group_ratio: p.groupRatio,
      user_group_ratio: p.userGroupRatio,
      cache_tokens: u.cached_tokens,
      cache_ratio: p.cacheRatio,
      cache_creation_tokens: u.cache_creation_tokens,
      cache_creation_ratio: p.cacheCreationRatio,
    };
    if (u.reasoning_tokens) other.reasoning_tokens = u.reasoning_tokens;
    if (u.audio_prompt_tokens || u.audio_completion_tokens) {
      other.audio = true;
      other.audio_input = u.audio_prompt_tokens ?? 0;
      other.audio_output = u.audio_completion_tokens ?? 0;
    }
    if (u.image_prompt_tokens) {
      other.image = true;
      other.image_ratio = p.imageRatio;
    }
    for (const k in extra) if (!(k in other)) other[k] = extra[k];
    return {
      user_id: ctx.user.id,
      created_at: Math.floor(ctx.startedAt / 1000),
      type: LogType.Consume,
      content: ch ? '' : 'in progress',
      username: ctx.user.username,
      token_name: ctx.tokenName,
      token_id: ctx.token?.id ?? 0,
      model_name: ctx.model,
      quota,
      prompt_tokens: u.prompt_tokens,
      completion_tokens: u.completion_tokens,
      use_time: Math.round((Date.now() - ctx.startedAt) / 1000),
      is_stream: ctx.stream,
      channel_id: ch?.id ?? 0,
      group: ctx.group,
      ip: ctx.req.ip,
      request_id: ctx.req.requestId,
      other: JSON.stringify(other),
    };
  }

  private errorDraft(ctx: RelayContext, ch: ChannelSnapshot | null, e: RelayError, tried: number[]): LogDraft {
    return {
      ...this.draft(ctx, ch, 0, emptyUsage(), { admin_info: { use_channel: tried }, status_code: e.status }),
      type: LogType.Error,
      content: e.messageIn('en').slice(0, 2000),
    };
  }

  // ---------------------------------------------------------------- answers

  asRelayError(err: unknown): RelayError {
    if (err instanceof RelayError) return err;
    if (err instanceof AppError) return new RelayError(err.status === 200 ? 400 : err.status, err.key, err.params);
    this.logger.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    return new RelayError(500, 'internal_error');
  }

  writeError(res: ServerResponse, req: InboundRequest, e: RelayError): void {
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    const status = e.status === 499 ? 400 : e.status;
    this.writeJson(res, req, status, errorBody(req.format === 'responses' ? 'openai' : req.format, status, e.messageIn(req.lang), e.code));
  }

  private writeJson(res: ServerResponse, _req: InboundRequest, status: number, body: unknown): void {
    this.writeText(res, status, JSON.stringify(body));
  }

  private writeText(res: ServerResponse, status: number, text: string): void {
    if (res.destroyed || res.writableEnded) return;
    res.statusCode = status;
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', Buffer.byteLength(text));
    res.end(text);
  }
}

/** `out` is `json` with only its model name re-set (to the same value). */
function sameShape(out: JsonObject, json: JsonObject): boolean {
  const a = Object.keys(out);
  return a.length === Object.keys(json).length && a.every((k) => k === 'model' || out[k] === json[k]);
}

/** The SDK family of a caller, from its User-Agent (the upstream detection view groups logs by it). */
export function clientType(userAgent: string): string {
  if (/^OpenAI\/JS/i.test(userAgent)) return 'openai-node';
  if (/^OpenAI\/Python/i.test(userAgent)) return 'openai-python';
  if (/^Anthropic\//i.test(userAgent)) return 'anthropic';
  if (/^curl\//i.test(userAgent)) return 'curl';
  return 'other';
}

function isSystem(m: unknown): boolean {
  return isObject(m) && (m.role === 'system' || m.role === 'developer');
}

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** DALL·E size and quality multipliers of a fixed image price. */
function imageSizeRatio(body: JsonObject | null): number {
  const size = typeof body?.size === 'string' ? body.size : '1024x1024';
  const hd = body?.quality === 'hd' || body?.quality === 'high';
  const big = size === '1792x1024' || size === '1024x1792' || size === '1536x1024' || size === '1024x1536';
  return (big ? 2 : 1) * (hd ? 2 : 1);
}

async function readLimited(body: UpstreamResponse['body'], max: number): Promise<string> {
  let out = '';
  for await (const chunk of body) {
    if (out.length < max) out += (chunk as Buffer).toString('utf8');
  }
  return out.slice(0, max);
}

function waitDrain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

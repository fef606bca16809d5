/**
 * Attempt planning: the channel for one attempt and the exact call to send it. Channel choice (pinned
 * or weighted by tier), model mapping, the body in the channel's format (conversion, channel system
 * prompt, stream options, parameter overrides), key rotation, credential exchange, header overrides,
 * and a slot under the channel's own limits (a channel at its limit is skipped like a busy one).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { Injectable } from '@nestjs/common';
import { OptionService } from '../../option';
import { adapterForChannel as adapterFor } from '../adapter-registry';
import { ChannelIndex, ChannelSnapshot, mapModel, selectChannel } from '../channel-selector';
import { relayFail } from '../errors';
import { fromHubRequest } from '../formats';
import { FORMAT_NAMES, uncarriedField } from '../formats/carry';
import { copyObject, withModelName } from '../formats/json';
import { applyEffort, Effort, effortSuffix, hubEffort, isReasoningModel } from '../formats/reasoning';
import { embeddingsRequestFor } from '../formats/gemini';
import type { RelayContext } from '../relay-context';
import { RelayCacheService } from '../relay-cache.service';
import { hasScopedLimits, NO_RELEASE, ScopedLimitService } from '../scoped-limit.service';
import type {
  AdapterRequest,
  AdapterSettings,
  JsonObject,
  ProviderAdapter,
  RelayMode,
  UpstreamCall,
} from '../types';
import type { Attempt } from '../upstream/attempt';
import { firstByteMs } from '../upstream/first-byte';
import { UpstreamClient } from '../upstream/upstream-client';
import { ChannelAffinity } from './affinity';
import { hubBody } from './admission';
import { headerNames } from './header-names';

export type { Attempt } from '../upstream/attempt';

/** What planning needs of a request: the admitted context, or a channel test's minimal one. */
export type PlanContext = Pick<
  RelayContext,
  'req' | 'model' | 'stream' | 'group' | 'prompt' | 'pinnedChannel'
> &
  Partial<Pick<RelayContext, 'user'>>;

@Injectable()
export class AttemptPlanner {
  constructor(
    private readonly cache: RelayCacheService,
    private readonly options: OptionService,
    private readonly scoped: ScopedLimitService,
    private readonly upstream: UpstreamClient,
    private readonly affinity: ChannelAffinity,
  ) {}

  /**
   * Chooses the channel for this attempt and builds the upstream call. `index` is the live channel
   * index, or a channel test's one-channel index (no limits apply to tests).
   */
  async plan(
    ctx: PlanContext,
    attempt: number,
    exclude: ReadonlySet<number>,
    index: ChannelIndex = this.cache.channels,
    busy: Set<number> | null = null,
  ): Promise<Attempt> {
    const { req } = ctx;
    let channel: ChannelSnapshot | null;
    // Channel affinity (live traffic only): the session's channel first, while it can serve the request.
    const session =
      ctx.pinnedChannel === null && ctx.user && index === this.cache.channels
        ? this.affinity.sessionOf({ req, model: ctx.model, group: ctx.group, user: ctx.user })
        : null;
    const sticky = session ? await this.affinity.lookup(session) : null;
    if (ctx.pinnedChannel !== null) {
      channel = index.byId.get(ctx.pinnedChannel) ?? null;
      if (!channel?.enabled) throw relayFail(503, 'relay_pinned_channel_missing');
    } else {
      let refused: Uncarried | null = null;
      const accept = (c: ChannelSnapshot): boolean => {
        const ad = adapterFor(c.type, c.modelMapping[ctx.model] ?? ctx.model);
        if (!ad || !upstreamMode(ad, req.mode) || (busy !== null && busy.has(c.id))) return false;
        const field = uncarried(ctx, ad);
        if (field) {
          refused ??= field;
          return false;
        }
        return !(c.maxInputTokens > 0 && ctx.prompt() > c.maxInputTokens);
      };
      const remembered =
        sticky && !exclude.has(sticky.channelId) ? index.byId.get(sticky.channelId) : undefined;
      channel =
        remembered?.enabled && servesModel(index, remembered, ctx.group, ctx.model) && accept(remembered)
          ? remembered
          : null;
      channel ??= selectChannel(index, ctx.group, ctx.model, attempt, exclude, accept);
      if (!channel && refused)
        throw relayFail(400, 'relay_field_not_carried', refused, 'unsupported_parameter');
      // Compaction is OpenAI's own: a model served only by other providers gets a clear refusal.
      if (!channel && req.mode === 'responses-compact' && !busy)
        throw relayFail(
          400,
          'relay_field_unsupported',
          { field: '/v1/responses/compact' },
          'unsupported_parameter',
        );
      if (!channel && busy)
        throw relayFail(
          429,
          'relay_channels_busy',
          { group: ctx.group, model: ctx.model },
          'rate_limit_exceeded',
        );
      if (!channel)
        throw relayFail(503, 'relay_no_channel', { group: ctx.group, model: ctx.model }, 'model_not_found');
    }
    const mapped = mapModel(channel.modelMapping, ctx.model);
    if (mapped === null) throw relayFail(500, 'relay_model_cycle');
    // `<model>-high` and the other effort suffixes: served by `<model>` with that reasoning effort.
    const suffix =
      (req.mode === 'chat' || req.mode === 'responses') && this.options.bool('relay.effort_suffixes_enabled')
        ? effortSuffix(mapped)
        : { model: mapped, effort: null };
    const upstreamModel = suffix.model;
    const adapter = adapterFor(channel.type, upstreamModel);
    const mode = adapter && upstreamMode(adapter, req.mode);
    if (!adapter || !mode) throw relayFail(400, 'relay_mode_unsupported');
    const field = uncarried(ctx, adapter);
    if (field) throw relayFail(400, 'relay_field_not_carried', { ...field }, 'unsupported_parameter');

    const settings = this.adapterSettings();
    // The client's bytes go upstream when the body is theirs unchanged, or theirs with top-level
    // fields added (`stream_options` on a stream, say) and the model name mapped: the fields are
    // appended and the name replaced in place, the body never re-serialised.
    let appended: string | null = null;
    let remodel: string | null = null;
    const reasoning = { effort: suffix.effort, models: this.options.json('relay.reasoning_models') };
    const body = req.body
      ? upstreamBody(ctx, channel, adapter, mode, upstreamModel, settings, reasoning, (tail, model) => {
          appended = tail;
          remodel = model;
        })
      : {};
    const stickyKey = sticky?.channelId === channel.id ? channel.keys[sticky.keyIndex] : undefined;
    const key = stickyKey ?? this.upstream.key(channel);
    const target = {
      id: channel.id,
      type: channel.type,
      baseUrl: channel.baseUrl,
      key,
      other: channel.other,
      organization: channel.organization,
    };
    const areq: AdapterRequest = {
      mode,
      model: upstreamModel,
      stream: ctx.stream,
      body,
      channel: target,
      settings,
    };
    const multipart = req.contentType.startsWith('multipart/');
    if (appended !== null && req.raw && !multipart) {
      const raw = remodel === null ? req.raw : withModelName(req.raw, remodel);
      areq.rawBody = (raw && appended ? withFields(raw, appended) : raw) ?? undefined;
    }
    const exchange = adapter.credentials?.(target, Math.floor(Date.now() / 1000));
    if (exchange) areq.accessToken = await this.upstream.credential(exchange, channel);
    const call = adapter.buildRequest(areq);
    // global.pass_through_request_enabled: same-format JSON bodies go upstream byte for byte.
    if (
      this.options.bool('global.pass_through_request_enabled') &&
      adapter.format === req.format &&
      req.raw &&
      req.body &&
      !multipart
    )
      call.body = req.raw;
    // Multipart uploads (audio, image edits) go upstream as the client sent them.
    if (
      multipart &&
      req.raw &&
      (req.mode === 'transcriptions' || req.mode === 'translations' || req.mode === 'image-edits')
    ) {
      call.headers = { ...call.headers, 'content-type': req.contentType };
      call.body = req.raw;
    }
    if (req.headers && sameFormat(ctx, adapter))
      forwardClientHeaders(call, req.headers, this.options.json('relay.forward_client_headers'));
    for (const [h, v] of Object.entries(channel.headerOverride))
      if (typeof v === 'string') call.headers[h] = v.replace('{api_key}', key);
    // Channel limits apply to live traffic (the index of the cache), not to channel tests.
    let release = NO_RELEASE;
    if (index === this.cache.channels && hasScopedLimits(channel)) {
      const lease = await this.scoped.admitChannel(channel);
      if (!lease) {
        if (ctx.pinnedChannel !== null)
          throw relayFail(
            429,
            'relay_channels_busy',
            { group: ctx.group, model: ctx.model },
            'rate_limit_exceeded',
          );
        // At its limit: choose again without it (same tier first, then the lower ones).
        return this.plan(ctx, attempt, exclude, index, (busy ?? new Set<number>()).add(channel.id));
      }
      release = lease.release;
    }
    if (session) {
      this.affinity.remember(session, {
        channelId: channel.id,
        keyIndex: Math.max(0, channel.keys.indexOf(key)),
      });
      this.affinity.count(!sticky ? 'new' : sticky.channelId === channel.id ? 'hit' : 'moved');
    }
    return { channel, adapter, upstreamModel, areq, call, release, firstByteMs: firstByteMs(channel) };
  }

  private adapterSettings(): AdapterSettings {
    const o = this.options;
    return {
      geminiSafetySettings: o.json('gemini.safety_settings'),
      geminiVersionSettings: o.json('gemini.version_settings'),
      geminiThinkingAdapterEnabled: o.bool('gemini.thinking_adapter_enabled'),
      geminiThinkingBudgetPercentage: o.num('gemini.thinking_adapter_budget_tokens_percentage'),
      claudeModelHeaders: o.json('claude.model_headers_settings'),
      claudeDefaultMaxTokens: o.json('claude.default_max_tokens'),
      claudeThinkingAdapterEnabled: o.bool('claude.thinking_adapter_enabled'),
      claudeThinkingBudgetPercentage: o.num('claude.thinking_adapter_budget_tokens_percentage'),
      geminiSupportedImagineModels: o.json('gemini.supported_imagine_models'),
    };
  }
}

/** The channel is one of the group's channels for the model (enabled abilities). */
function servesModel(index: ChannelIndex, channel: ChannelSnapshot, group: string, model: string): boolean {
  return (
    index.tiers
      .get(group)
      ?.get(model)
      ?.some((t) => t.members.some((m) => m.channel.id === channel.id)) ?? false
  );
}

/**
 * The mode the channel's adapter is asked to serve: the caller's own, or chat for a Responses request
 * that is converted through the hub (Responses → chat → the channel's format). Null: not served.
 */
export function upstreamMode(adapter: ProviderAdapter, mode: RelayMode): RelayMode | null {
  if (adapter.modes.includes(mode)) return mode;
  return mode === 'responses' && adapter.modes.includes('chat') ? 'chat' : null;
}

/** A field of the request the conversion to this channel's format would drop (null: none, or no conversion). */
interface Uncarried {
  field: string;
  format: string;
}
function uncarried(ctx: PlanContext, adapter: ProviderAdapter): Uncarried | null {
  const { req } = ctx;
  if (!req.body || sameFormat(ctx, adapter) || (req.mode !== 'chat' && req.mode !== 'responses')) return null;
  const field = uncarriedField(req.format, adapter.format, req.body);
  return field === null ? null : { field, format: FORMAT_NAMES[adapter.format] };
}

/** Credentials and transport headers are the gateway's own, whatever the allow-list says. */
const NEVER_FORWARDED = new Set([
  'authorization',
  'x-api-key',
  'x-goog-api-key',
  'api-key',
  'cookie',
  'proxy-authorization',
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
]);

/**
 * The client's headers named in `relay.forward_client_headers` (e.g. `anthropic-beta`, which the
 * features of a Claude Code body depend on) go to an upstream of the caller's own format. A header the
 * adapter already sets with a comma-separated list (anthropic-beta from the model header settings)
 * gets the client's values added to it.
 */
function forwardClientHeaders(
  call: UpstreamCall,
  headers: IncomingHttpHeaders,
  allowed: readonly string[],
): void {
  for (const h of headerNames(allowed)) {
    const raw = headers[h];
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    if (value === '' || NEVER_FORWARDED.has(h)) continue;
    const existing = Object.keys(call.headers).find((k) => k.toLowerCase() === h);
    if (existing === undefined) call.headers[h] = value;
    else {
      const merged = new Set(
        [...call.headers[existing].split(','), ...value.split(',')].map((v) => v.trim()).filter(Boolean),
      );
      call.headers[existing] = [...merged].join(',');
    }
  }
}

/** The request and the channel speak the same wire format (no conversion). */
export function sameFormat(ctx: Pick<RelayContext, 'req'>, adapter: ProviderAdapter): boolean {
  const to = ctx.req.format;
  return (
    to === adapter.format ||
    (to === 'responses' && adapter.format === 'openai' && adapter.modes.includes('responses'))
  );
}

/**
 * The body in the channel's format: converted if needed, then mapping, overrides and settings.
 * `unchanged` is called when the result is the client's body with only top-level fields added and,
 * perhaps, another model name (given, or null when the name is the client's).
 */
function upstreamBody(
  ctx: PlanContext,
  ch: ChannelSnapshot,
  adapter: ProviderAdapter,
  mode: RelayMode,
  upstreamModel: string,
  settings: AdapterSettings,
  reasoning: { effort: Effort | null; models: readonly string[] },
  unchanged: (appended: string, model: string | null) => void,
): JsonObject {
  const { req } = ctx;
  const inbound = req.body ?? {};
  let body: JsonObject;
  const same = sameFormat(ctx, adapter);
  const maxTable = settings.claudeDefaultMaxTokens;
  const defaultMaxTokens = maxTable[upstreamModel] ?? maxTable.default ?? 8192;
  let converted: Effort | null = null;
  if (req.mode === 'embeddings' && !same)
    body = { ...embeddingsRequestFor(req.format, adapter.format, inbound, upstreamModel) };
  else if (same || (req.mode !== 'chat' && req.mode !== 'responses')) body = copyObject(inbound);
  else {
    const hub = applySetting(hubBody(req, ctx.model, ctx.stream), ch);
    converted = hubEffort(hub);
    body = fromHubRequest(adapter.format, hub, { defaultMaxTokens });
  }
  if (adapter.format === 'openai' || adapter.format === 'anthropic' || adapter.format === 'responses')
    body.model = upstreamModel;
  if (same && adapter.format === 'openai') body = applySetting(body, ch);
  if (ctx.stream && adapter.format === 'openai' && (mode === 'chat' || mode === 'completions')) {
    const so =
      body.stream_options && typeof body.stream_options === 'object' && !Array.isArray(body.stream_options)
        ? body.stream_options
        : {};
    // Left as the client sent it when it already asks for usage: the body then still goes upstream as
    // the client's bytes (a new object here made every such stream serialise the whole body again).
    if (so.include_usage !== true) {
      const options = copyObject(so);
      options.include_usage = true;
      body.stream_options = options;
    }
  }
  if (adapter.format !== 'gemini') {
    if (ctx.stream) body.stream = true;
  } else delete body.stream;
  if (reasoning.effort && (mode === 'chat' || mode === 'responses'))
    body = applyEffort(
      adapter.format === 'openai' && mode === 'responses' ? 'responses' : adapter.format,
      body,
      reasoning.effort,
      defaultMaxTokens,
    );
  else if (
    !same &&
    adapter.format === 'openai' &&
    mode === 'chat' &&
    body.reasoning_effort !== undefined &&
    !isReasoningModel(upstreamModel, reasoning.models)
  )
    delete body.reasoning_effort;
  else if (!same && adapter.format === 'anthropic' && converted && body.thinking === undefined)
    body = applyEffort('anthropic', body, converted, defaultMaxTokens);
  for (const [k, v] of Object.entries(ch.paramOverride)) body[k] = v as JsonObject[string];
  const named = typeof body.model === 'string' && typeof inbound.model === 'string';
  if (same && adapter.format === req.format && (body.model === inbound.model || named)) {
    const added = addedFields(body, inbound);
    if (added !== null) unchanged(added, body.model === inbound.model ? null : (body.model as string));
  }
  return body;
}

/**
 * `out` is `json` with only top-level fields added: those fields as JSON members (`,"k":v…`, '' for
 * none); null when any field of `json` was changed or removed.
 */
function addedFields(out: JsonObject, json: JsonObject): string | null {
  let tail = '';
  let kept = 0;
  for (const k in out) {
    if (k in json) {
      if (k !== 'model' && out[k] !== json[k]) return null;
      kept++;
    } else tail += `,${JSON.stringify(k)}:${JSON.stringify(out[k])}`;
  }
  return kept === Object.keys(json).length ? tail : null;
}

/**
 * A JSON object's bytes with members appended before its closing brace (`{}` takes them without the
 * comma); null when the bytes do not end with the object's `}`.
 */
function withFields(raw: Buffer, members: string): Buffer | null {
  const space = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
  let end = raw.length - 1;
  while (end > 0 && space(raw[end])) end--;
  if (raw[end] !== 0x7d) return null;
  let before = end - 1;
  while (before > 0 && space(raw[before])) before--;
  const empty = raw[before] === 0x7b;
  return Buffer.concat([
    raw.subarray(0, end),
    Buffer.from(empty ? members.slice(1) : members),
    raw.subarray(end),
  ]);
}

/** Channel setting: system prompt injected (or overriding the client's) for OpenAI-format bodies. */
function applySetting(body: JsonObject, ch: ChannelSnapshot): JsonObject {
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

/** `out` is `json` with only its model name re-set (to the same value). */
export function sameShape(out: JsonObject, json: JsonObject): boolean {
  const a = Object.keys(out);
  return a.length === Object.keys(json).length && a.every((k) => k === 'model' || out[k] === json[k]);
}

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isSystem(m: unknown): boolean {
  return isObject(m) && (m.role === 'system' || m.role === 'developer');
}

/**
 * Admission: who is calling and what they may do, before anything is reserved or sent upstream.
 *
 *   key (headers) → token rules → user rules        (caller: 401/403 whatever the body)
 *   → model → token model limits → group → price → sensitive words   (admit: 403/400)
 *
 * What the call may spend (balance, limits, budgets, the reservation) is its spend ticket's: ./spend.ts.
 *
 * Every entry point that spends (HTTP relay, realtime, Midjourney, Suno, playground) and every one that
 * only reads with an API key (model lists, billing and usage endpoints, task fetches) goes through
 * `caller`: it is the one place that decides whether a key and its user may use the relay.
 */
import { Injectable } from '@nestjs/common';
import { parseApiKey } from '../../../common/api-key';
import { Role, TokenStatus, UserStatus } from '../../../database/entities';
import { Price, PriceMemo, priceOf } from '../../billing';
import { OptionService } from '../../option';
import { UserCacheService, UserSnapshot } from '../../user';
import { UserGroupsService } from '../../user';
import { ChannelHealthService } from '../channel-health.service';
import { hasChannel } from '../channel-selector';
import { relayFail } from '../errors';
import { toHubRequest } from '../formats';
import { geminiEmbedToOpenAIRequest } from '../formats/gemini';
import { InboundRequest, RelayContext } from '../relay-context';
import { ipAllowed, RelayCacheService, TokenSnapshot } from '../relay-cache.service';
import type { JsonObject } from '../types';
import { estimatePromptTokens, promptText } from '../usage';

/** The party a request is served for: its token (null in the playground), its user, a pinned channel. */
export interface Caller {
  token: TokenSnapshot | null;
  user: UserSnapshot;
  /** Channel pinned with `sk-<key>-<id>` (admins only). */
  pinned: number | null;
  /** The playground's chosen group (session callers); '' = the user's own. */
  sessionGroup?: string;
}

@Injectable()
export class RelayAdmission {
  private readonly prices: PriceMemo;

  constructor(
    private readonly cache: RelayCacheService,
    private readonly users: UserCacheService,
    private readonly groups: UserGroupsService,
    private readonly options: OptionService,
    private readonly health: ChannelHealthService,
  ) {
    this.prices = new PriceMemo(options);
  }

  /**
   * The caller of an API key: the key's token and user with every status rule applied. No promise when
   * both are in the cache (the usual call); a refusal is thrown, or rejected when the cache was missed.
   */
  caller(key: string | null, ip: string): KeyCaller | Promise<KeyCaller> {
    if (!(key ?? '').trim()) throw relayFail(401, 'relay_no_key', {}, 'invalid_api_key');
    const parsed = parseApiKey(key);
    if (!parsed) throw relayFail(401, 'relay_invalid_key', {}, 'invalid_api_key');
    const hash = this.cache.hashKey(parsed.secret);
    const cached = this.cache.tokenNow(hash);
    if (cached === undefined)
      return this.cache.token(hash).then((token) => this.callerOf(token, parsed.pinnedChannel, ip));
    return this.callerOf(cached, parsed.pinnedChannel, ip);
  }

  private callerOf(
    token: TokenSnapshot | null,
    pinned: number | null,
    ip: string,
  ): KeyCaller | Promise<KeyCaller> {
    if (!token) throw relayFail(401, 'relay_invalid_key', {}, 'invalid_api_key');
    if (token.status === TokenStatus.Disabled)
      throw relayFail(401, 'relay_token_disabled', {}, 'token_disabled');
    const now = Math.floor(Date.now() / 1000);
    if (token.status === TokenStatus.Expired || (token.expiredTime !== -1 && token.expiredTime < now)) {
      this.health.markToken(token, TokenStatus.Expired);
      throw relayFail(401, 'relay_token_expired', {}, 'token_expired');
    }
    if (token.status === TokenStatus.Exhausted || (!token.unlimited && token.remainQuota <= 0)) {
      this.health.markToken(token, TokenStatus.Exhausted);
      throw relayFail(403, 'relay_token_exhausted', {}, 'insufficient_quota');
    }
    if (!ipAllowed(token.allowIps, ip)) throw relayFail(403, 'relay_ip_not_allowed', {}, 'ip_not_allowed');
    const of = (user: UserSnapshot | null): KeyCaller => {
      const usable = usableUser(user);
      if (pinned !== null && usable.role < Role.Admin) throw relayFail(403, 'relay_pin_admin_only');
      return { token, user: usable, pinned };
    };
    const cached = this.users.getNow(token.userId);
    return cached !== undefined ? of(cached) : this.users.get(token.userId).then(of);
  }

  /** The caller of a console session (the playground), in the group it chose. */
  async sessionCaller(userId: number, group: string): Promise<Caller> {
    return { token: null, user: await this.user(userId), pinned: null, sessionGroup: group };
  }

  /** A user that may use the relay: known, not deleted, enabled. */
  private async user(userId: number): Promise<UserSnapshot> {
    return usableUser(await this.users.get(userId));
  }

  /** Model, model limits, group, price and the sensitive-word screen: everything decided from the body. */
  admit(req: InboundRequest, caller: Caller): RelayContext {
    const { token, user } = caller;
    const body = req.body ?? {};
    const model = (req.pathModel ?? (typeof body.model === 'string' ? body.model : '')).trim();
    if (!model) throw relayFail(400, 'relay_model_required', {}, 'model_required');
    if (model.length > 191) throw relayFail(400, 'relay_bad_body', { reason: 'model' });
    if (token?.modelLimits && !token.modelLimits.has(model))
      throw relayFail(403, 'relay_model_not_allowed', { model }, 'model_not_allowed');

    let group =
      caller.sessionGroup !== undefined ? caller.sessionGroup || user.group : token?.group || user.group;
    // The groups the user may pick, built only when the call names another group than the user's own.
    let usable: Record<string, unknown> | null = null;
    const mayUse = (g: string) => g in (usable ??= this.groups.usableGroups(user.group));
    if (group !== user.group && !mayUse(group)) throw relayFail(403, 'relay_group_not_allowed', { group });
    if (group === 'auto') {
      const auto = this.options.json('AutoGroups');
      const found = auto.find(
        (g) => (g === user.group || mayUse(g)) && hasChannel(this.cache.channels, g, model),
      );
      group = found ?? auto[0] ?? user.group;
    }

    let price: Price | null = this.prices.price(model, user.group, group);
    if (!price) {
      if (!this.options.bool('SelfUseModeEnabled') && !user.acceptUnsetModel)
        throw relayFail(403, 'relay_model_unpriced', { model }, 'model_price_error');
      const tables = this.prices.tables();
      price = { ...priceOf({ ...tables, modelRatio: { [model]: 0 } }, model, user.group, group)! };
    }

    const stream = req.pathStream || body.stream === true;
    let counted: number | null = null;
    const prompt = () =>
      (counted ??= req.body
        ? estimatePromptTokens(req.format === 'openai' ? req.body : hubBody(req, model, stream))
        : 0);
    const promptBound = req.raw && req.body ? req.raw.length : req.body ? prompt() : 0;

    if (
      this.options.bool('CheckSensitiveEnabled') &&
      this.options.bool('CheckSensitiveOnPromptEnabled') &&
      req.body
    ) {
      const word = this.sensitiveWord(
        promptText(req.format === 'openai' ? req.body : hubBody(req, model, stream)).text,
      );
      if (word) throw relayFail(400, 'relay_sensitive', { word }, 'sensitive_words_detected');
    }
    return {
      req,
      user,
      token,
      tokenName: token ? token.name : 'playground',
      group,
      model,
      stream,
      pinnedChannel: caller.pinned,
      price,
      prompt,
      promptBound,
      startedAt: Date.now(),
    };
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
}

type KeyCaller = Caller & { token: TokenSnapshot };

/** The user of a call, refused unless known, not deleted and enabled. */
function usableUser(user: UserSnapshot | null): UserSnapshot {
  if (!user) throw relayFail(401, 'relay_invalid_key', {}, 'invalid_api_key');
  if (user.deleted || user.status !== UserStatus.Enabled)
    throw relayFail(403, 'relay_user_banned', {}, 'user_banned');
  return user;
}

/** The request in the hub (OpenAI chat) shape, for prompt counting and screening. */
export function hubBody(req: InboundRequest, model: string, stream: boolean): JsonObject {
  try {
    // Gemini embedContent / batchEmbedContents bodies hold their text in content parts, not messages.
    if (req.mode === 'embeddings' && req.format === 'gemini')
      return geminiEmbedToOpenAIRequest(req.body ?? {}, model);
    return toHubRequest(req.format, req.body ?? {}, model, stream);
  } catch {
    throw relayFail(400, 'relay_bad_body', { reason: 'cannot convert' });
  }
}

/**
 * Reservation and settlement: the relay's side of the quota ledger.
 *
 * - reserve(): the balance and the token's remaining quota must cover the request's reservation
 *   (PreConsumedQuota + the prompt + max_tokens at the model's price, or the fixed price). Balances far
 *   above it (×100) are trusted: nothing is written, the reservation is only held against this node's
 *   view of the balance, so a busy user costs no database write per request.
 * - settle(): a served call is charged its full price, whatever the balance is by then; one consume log.
 * - refund(): a call no channel could serve is refunded in full, with an error log.
 */
import { Injectable, Logger } from '@nestjs/common';
import { Hold, IN_PROGRESS, InsufficientQuota, LogDraft, QuotaLedgerService } from '../../billing';
import { clampQuota, fixedQuota, reserveQuota, usageQuota } from '../../billing';
import { BudgetService } from '../../budget';
import { MetricsService } from '../../metrics';
import { OptionService } from '../../option';
import type { ChannelSnapshot } from '../channel-selector';
import { ChannelHealthService } from '../channel-health.service';
import { RelayError, relayFail } from '../errors';
import { RateLimitService } from '../rate-limit.service';
import type { RelayContext } from '../relay-context';
import { ScopedLimitService } from '../scoped-limit.service';
import type { JsonObject, UsageCounts } from '../types';
import { emptyUsage } from '../types';
import type { Outcome } from '../respond/outcome';
import type { Attempt } from './attempt-plan';
import { admitBudget, releaseBudget, settleBudget } from './budget';
import { consumeDraft, errorDraft } from './log-draft';

const TRUST_FACTOR = 100;

@Injectable()
export class RelaySettlement {
  private readonly logger = new Logger('Relay');

  constructor(
    private readonly ledger: QuotaLedgerService,
    private readonly options: OptionService,
    private readonly metrics: MetricsService,
    private readonly health: ChannelHealthService,
    private readonly limits: RateLimitService,
    private readonly scoped: ScopedLimitService,
    private readonly budgets: BudgetService,
  ) {}

  /**
   * The user's balance must be above zero before anything else is decided (403 otherwise). No promise
   * when this node has a fresh reading of the balance.
   */
  checkBalance(ctx: RelayContext): Promise<void> | undefined {
    const fresh = this.ledger.peekBalance(ctx.user.id);
    if (fresh !== null) {
      positive(fresh);
      return undefined;
    }
    return this.ledger.balanceOf(ctx.user.id).then(positive);
  }

  /**
   * Holds the request's reservation, or refuses with 403 (user's balance or token's quota). A call with
   * no budget on a trusted balance this node has a fresh reading of is held at once, without a promise.
   */
  reserve(ctx: RelayContext): Hold | Promise<Hold> {
    const bound = this.bound(ctx);
    if (!this.budgets.applies(ctx) && tokenTrusts(ctx, bound)) {
      const hold = this.ledger.holdIfTrustedNow(payerOf(ctx), bound, TRUST_FACTOR);
      if (hold) return hold;
    }
    return this.reserveHeld(ctx, bound);
  }

  /**
   * The reservation's upper bound, which the trust check uses: the prompt bounded by the body's size, so
   * most requests never run the tokenizer.
   */
  private bound(ctx: RelayContext): number {
    if (ctx.price.modelPrice >= 0) return fixedCharge(ctx);
    return reserveQuota(
      ctx.price,
      ctx.promptBound,
      maxTokensOf(ctx.req.body),
      this.options.num('PreConsumedQuota'),
    );
  }

  /** The reservation past the shortcut: budgets admitted, then a trusted hold or a written one. */
  private async reserveHeld(ctx: RelayContext, bound: number): Promise<Hold> {
    const payer = payerOf(ctx);
    const maxTokens = maxTokensOf(ctx.req.body);
    const preConsumed = this.options.num('PreConsumedQuota');
    const fixed = ctx.price.modelPrice >= 0;
    await admitBudget(
      this.budgets,
      ctx,
      () => (fixed ? bound : reserveQuota(ctx.price, ctx.prompt(), maxTokens, preConsumed)),
      true,
    );
    try {
      if (tokenTrusts(ctx, bound)) {
        const hold = await this.ledger.holdIfTrusted(payer, bound, TRUST_FACTOR);
        if (hold) return hold;
      }
      const reserve = fixed ? bound : reserveQuota(ctx.price, ctx.prompt(), maxTokens, preConsumed);
      // The hold's row is written even with consume logs off (it goes at settlement): after a crash it is
      // what lets the next start refund the reservation.
      const held = this.draft(ctx, null, 0, emptyUsage(), {
        hold_token: payer.tokenId > 0 && !payer.tokenUnlimited,
      });
      return await this.ledger.reserve(payer, reserve, held);
    } catch (err) {
      releaseBudget(this.budgets, ctx);
      if (err instanceof InsufficientQuota)
        throw relayFail(
          403,
          err.who === 'user' ? 'relay_quota_insufficient' : 'relay_token_quota_insufficient',
          {},
          'insufficient_quota',
        );
      throw err;
    }
  }

  /** Charges a served call its full price: one consume log, counters, limits and notifications. */
  settle(ctx: RelayContext, hold: Hold, a: Attempt, o: Outcome, tried: number[]): void {
    const charged = ctx.price.modelPrice >= 0 ? fixedCharge(ctx) : usageQuota(ctx.price, o.usage);
    settleBudget(this.budgets, ctx, charged);
    this.metrics.settled(
      ctx.model,
      a.channel.id,
      charged,
      o.usage.prompt_tokens,
      o.usage.completion_tokens,
      ctx.stream ? o.firstTokenMs : 0,
    );
    // A literal, then the outcome's keys (not `{ ...o.extra, frt, ... }`: on this V8 every key added
    // after a spread takes the runtime's slow path, about 0.7 µs each).
    const other: Record<string, unknown> = { frt: o.firstTokenMs, admin_info: { use_channel: tried } };
    for (const k in o.extra) if (!(k in other)) other[k] = o.extra[k];
    if (a.upstreamModel !== ctx.model) {
      other.is_model_mapped = true;
      other.upstream_model_name = a.upstreamModel;
    }
    if (ctx.req.format !== 'openai') other[ctx.req.format === 'anthropic' ? 'claude' : ctx.req.format] = true;
    if (typeof ctx.req.body?.reasoning_effort === 'string')
      other.reasoning_effort = ctx.req.body.reasoning_effort;
    const log = this.logConsumeEnabled() ? this.draft(ctx, a.channel, charged, o.usage, other) : null;
    this.ledger.settle({
      hold,
      channelId: a.channel.id,
      charged,
      failed: false,
      log,
      stat: {
        username: ctx.user.username,
        model: ctx.model,
        tokens: o.usage.prompt_tokens + o.usage.completion_tokens,
      },
    });
    if (ctx.token?.tpmLimit || a.channel.tpmLimit)
      this.scoped.addTokens(ctx.token, a.channel, o.usage.prompt_tokens + o.usage.completion_tokens);
    void this.limits
      .success(ctx.user.id)
      .catch((err: Error) => this.logger.warn(`rate-limit count failed: ${err.message}`));
    if (ctx.token && !ctx.token.unlimited) ctx.token.remainQuota -= charged;
    this.health.afterCharge(ctx.user, charged);
  }

  /** Gives a call no channel served its whole reservation back, with an error log naming the last failure. */
  refund(
    ctx: RelayContext,
    hold: Hold,
    channel: ChannelSnapshot | null,
    e: RelayError,
    tried: number[],
  ): void {
    releaseBudget(this.budgets, ctx);
    this.ledger.settle({
      hold,
      channelId: channel?.id ?? 0,
      charged: 0,
      failed: true,
      log: errorDraft(ctx, {
        channelId: channel?.id ?? 0,
        usage: emptyUsage(),
        stream: ctx.stream,
        extra: { admin_info: { use_channel: tried } },
        startedAt: ctx.startedAt,
        now: Date.now(),
        clientType: clientType(ctx.req.userAgent),
        status: e.status,
        message: e.logText(),
      }),
      stat: null,
    });
  }

  private logConsumeEnabled(): boolean {
    return this.options.bool('LogConsumeEnabled');
  }

  private draft(
    ctx: RelayContext,
    ch: ChannelSnapshot | null,
    quota: number,
    u: UsageCounts,
    extra: Record<string, unknown>,
  ): LogDraft {
    return consumeDraft(ctx, {
      channelId: ch?.id ?? 0,
      quota,
      usage: u,
      stream: ctx.stream,
      extra,
      startedAt: ctx.startedAt,
      now: Date.now(),
      content: ch ? '' : IN_PROGRESS,
      clientType: clientType(ctx.req.userAgent),
    });
  }
}

const payerOf = (ctx: RelayContext) => ({
  userId: ctx.user.id,
  tokenId: ctx.token?.id ?? 0,
  tokenUnlimited: ctx.token?.unlimited ?? true,
});

/** The token's remaining quota is far above the call's bound (or it has none to run out of). */
const tokenTrusts = (ctx: RelayContext, bound: number): boolean =>
  !ctx.token || ctx.token.unlimited || ctx.token.remainQuota > bound * TRUST_FACTOR;

function positive(balance: number): void {
  if (balance <= 0) throw relayFail(403, 'relay_quota_insufficient', {}, 'insufficient_quota');
}

/** The SDK family of a caller, from its User-Agent (the upstream detection view groups logs by it). */
export function clientType(userAgent: string): string {
  if (/^OpenAI\/JS/i.test(userAgent)) return 'openai-node';
  if (/^OpenAI\/Python/i.test(userAgent)) return 'openai-python';
  if (/^Anthropic\//i.test(userAgent)) return 'anthropic';
  if (/^curl\//i.test(userAgent)) return 'curl';
  return 'other';
}

/** The whole charge of a fixed-price call: per image (n, size and quality) for image generation. */
function fixedCharge(ctx: RelayContext): number {
  const one = fixedQuota(ctx.price);
  if (ctx.req.mode !== 'images' && ctx.req.mode !== 'image-edits') return one;
  const raw = ctx.req.body?.n;
  const n =
    typeof raw === 'number'
      ? Math.min(Math.max(1, Math.floor(raw)), 128)
      : typeof raw === 'string' && /^\d{1,3}$/.test(raw)
        ? Math.min(Math.max(1, Number(raw)), 128)
        : 1;
  return clampQuota(one * n * imageSizeRatio(ctx.req.body));
}

/** DALL·E size and quality multipliers of a fixed image price. */
function imageSizeRatio(body: JsonObject | null): number {
  const size = typeof body?.size === 'string' ? body.size : '1024x1024';
  const hd = body?.quality === 'hd' || body?.quality === 'high';
  const big = size === '1792x1024' || size === '1024x1792' || size === '1536x1024' || size === '1024x1536';
  return (big ? 2 : 1) * (hd ? 2 : 1);
}

function maxTokensOf(body: JsonObject | null): number {
  if (!body) return 0;
  for (const k of ['max_tokens', 'max_completion_tokens', 'max_output_tokens'] as const) {
    const v = body[k];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) return Math.min(v, 10_000_000);
  }
  const gc = body.generationConfig;
  if (gc && typeof gc === 'object' && !Array.isArray(gc) && typeof gc.maxOutputTokens === 'number')
    return Math.max(0, gc.maxOutputTokens);
  return 0;
}

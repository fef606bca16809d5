/**
 * The HTTP relay's log rows around its spend ticket (./spend.ts): the row written with the reservation
 * (what a crash leaves explained), the consume row of a served call at its full price, and the error row
 * of a call no channel served.
 */
import { IN_PROGRESS, LogDraft, usageQuota } from '../../billing';
import type { ChannelSnapshot } from '../channel-selector';
import type { RelayError } from '../errors';
import type { RelayContext } from '../relay-context';
import type { Outcome } from '../respond/outcome';
import { emptyUsage } from '../types';
import type { Attempt } from './attempt-plan';
import { clientType, fixedCharge } from './call-price';
import { consumeDraft, errorDraft } from './log-draft';
import type { ChargeArgs, SpendEntry } from './spend';

/** The row written with a reservation (in progress until the call settles). */
export function holdDraft(ctx: RelayContext): LogDraft {
  return consumeDraft(ctx, {
    channelId: 0,
    quota: 0,
    usage: emptyUsage(),
    stream: ctx.stream,
    extra: { hold_token: !!ctx.token && !ctx.token.unlimited },
    startedAt: ctx.startedAt,
    now: Date.now(),
    content: IN_PROGRESS,
    clientType: clientType(ctx.req.userAgent),
  });
}

/** The HTTP relay's entry: every meter, the call's bound reserved (trusted balances write nothing). */
export const HTTP_ENTRY: SpendEntry = {
  limits: true,
  budget: 'call',
  reserve: 'bound',
  durableBudget: true,
  holdLog: holdDraft,
};

/** A served call's charge: its full price (fixed, or by usage) and its consume row when logs are on. */
export function httpCharge(
  ctx: RelayContext,
  a: Attempt,
  o: Outcome,
  tried: number[],
  logged: boolean,
): ChargeArgs {
  const charged = ctx.price.modelPrice >= 0 ? fixedCharge(ctx) : usageQuota(ctx.price, o.usage);
  let log: LogDraft | null = null;
  if (logged) {
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
    log = consumeDraft(ctx, {
      channelId: a.channel.id,
      quota: charged,
      usage: o.usage,
      stream: ctx.stream,
      extra: other,
      startedAt: ctx.startedAt,
      now: Date.now(),
      content: '',
      clientType: clientType(ctx.req.userAgent),
    });
  }
  return {
    channel: a.channel,
    charged,
    usage: o.usage,
    log,
    firstTokenMs: ctx.stream ? o.firstTokenMs : 0,
  };
}

/** The error row of a call no channel served, naming the last failure. */
export function refundDraft(
  ctx: RelayContext,
  channel: ChannelSnapshot | null,
  e: RelayError,
  tried: number[],
): LogDraft {
  return errorDraft(ctx, {
    channelId: channel?.id ?? 0,
    usage: emptyUsage(),
    stream: ctx.stream,
    extra: { admin_info: { use_channel: tried } },
    startedAt: ctx.startedAt,
    now: Date.now(),
    clientType: clientType(ctx.req.userAgent),
    status: e.status,
    message: e.logText(),
  });
}

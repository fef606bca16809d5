/**
 * The spend ticket: one object per call that spends, the same for every entry point (HTTP relay,
 * realtime sessions and each of their responses, Midjourney and Suno submissions). It owns everything
 * the call takes and gives it back exactly once.
 *
 *   admit()   balance > 0 → user request windows → token RPM/TPM/concurrency (a slot held until close)
 *             → periodic budgets (a bounded hold) → the funding source's reservation
 *   charge()  a served call: the full price once: funding settled with its log, budgets counted in full,
 *             TPM counted, the success counted, the cached token and the health notices told
 *   refund()  nothing served: the reservation and the budget hold given back, an error log
 *   close()   the end of the call (or session): the limit slot freed, and a ticket neither charged nor
 *             refunded refunded silently; idempotent
 *
 * Which meters apply is the entry's declaration (SpendEntry), not the caller's wiring: a realtime
 * response is metered by its session's limits and holds only its budget; a task holds its known price.
 *
 * Caps hold: a budgeted call holds its bound (its fixed price, or the prompt plus max_tokens, or the
 * operator's BudgetOutputTokens where the call names none) cut to what is left of the tightest cap; no
 * call is admitted while holds fill a cap (docs/budgets.md states the bound on what admitted calls spend).
 *
 * The funding source pays: today the user's wallet (the quota ledger). A subscription allowance or an
 * organisation wallet is another FundingSource that pays first; the relay does not change.
 */
import { Injectable, Logger } from '@nestjs/common';
import { Hold, InsufficientQuota, LogDraft, Payer, QuotaLedgerService } from '../../billing';
import type { Settlement } from '../../billing';
import { reserveQuota } from '../../billing';
import { BudgetExhausted, BudgetService } from '../../budget';
import type { BudgetHold, BudgetParty } from '../../budget';
import { MetricsService } from '../../metrics';
import { OptionService } from '../../option';
import type { ChannelSnapshot } from '../channel-selector';
import { ChannelHealthService } from '../channel-health.service';
import { RelayError, relayFail } from '../errors';
import { RateLimitService } from '../rate-limit.service';
import type { RelayContext } from '../relay-context';
import type { LimitLease } from '../scoped-limit.service';
import { hasScopedLimits, ScopedLimitService } from '../scoped-limit.service';
import type { UsageCounts } from '../types';
import { fixedCharge, maxTokensOf } from './call-price';

/** Balances this many times above a call's bound are trusted: held on this node's view, nothing written. */
export const TRUST_FACTOR = 100;

/** Who pays for a call. Today the user's wallet; a subscription or an organisation wallet pays first. */
export interface FundingSource {
  /** Holds `amount` with the log row that explains it after a crash; throws InsufficientQuota. */
  hold(payer: Payer, amount: number, log: LogDraft | null): Promise<Hold>;
  /** A hold decided on a trusted balance without a write, or null (`now`: without waiting, null if unsure). */
  holdTrusted(payer: Payer, bound: number, now: boolean): Hold | null | Promise<Hold | null>;
  /** Settles a hold: the charge (0 with failed = a refund), its log and statistics. */
  settle(s: Settlement): void;
  /** The payer's balance now, without waiting when this node has a fresh reading (else a promise). */
  balance(userId: number): number | Promise<number>;
}

/** The user's wallet: the quota ledger. */
class WalletFunding implements FundingSource {
  constructor(private readonly ledger: QuotaLedgerService) {}

  hold(payer: Payer, amount: number, log: LogDraft | null): Promise<Hold> {
    return this.ledger.reserve(payer, amount, log);
  }

  holdTrusted(payer: Payer, bound: number, now: boolean): Hold | null | Promise<Hold | null> {
    return now
      ? this.ledger.holdIfTrustedNow(payer, bound, TRUST_FACTOR)
      : this.ledger.holdIfTrusted(payer, bound, TRUST_FACTOR);
  }

  settle(s: Settlement): void {
    this.ledger.settle(s);
  }

  balance(userId: number): number | Promise<number> {
    return this.ledger.peekBalance(userId) ?? this.ledger.balanceOf(userId);
  }
}

/** What an entry point spends and which meters it is subject to. */
export interface SpendEntry {
  /** Request windows and token limits: the call is one request (a realtime response is its session's). */
  limits: boolean;
  /** Budgets: 'call' holds the bound and one request; 'request' one request only (a realtime session);
   * 'quota' the bound without a request (a realtime response); 'none' no budget. */
  budget: 'call' | 'request' | 'quota' | 'none';
  /**
   * What the funding source holds at admission: the call's bound with the trust shortcut ('bound', HTTP
   * relay), a known price with the log row given (`price`, tasks), or nothing until the charge
   * ('per-use', realtime responses, settled on usage with the balance checked first).
   */
  reserve: 'bound' | 'per-use' | { price: number; log: LogDraft | null };
  /** Budget holds kept in the database until the ticket closes (given back after a stop). */
  durableBudget: boolean;
  /** The row written with a 'bound' reservation that is not trusted (explains it after a crash). */
  holdLog?: (ctx: RelayContext) => LogDraft | null;
}

export const REALTIME_SESSION: SpendEntry = {
  limits: true,
  budget: 'request',
  reserve: 'per-use',
  // The session's request stays counted (nothing to give back after a stop).
  durableBudget: false,
};
export const REALTIME_RESPONSE: SpendEntry = {
  limits: false,
  budget: 'quota',
  reserve: 'per-use',
  durableBudget: true,
};
export const taskEntry = (price: number, log: LogDraft | null): SpendEntry => ({
  limits: true,
  budget: 'call',
  reserve: { price, log },
  // A task's hold lives with its row until the poller settles it (task-billing).
  durableBudget: false,
});

/** What a charge carries beside the usage: the log row (null with consume logs off) and timings. */
export interface ChargeArgs {
  channel: ChannelSnapshot;
  charged: number;
  usage: UsageCounts;
  log: LogDraft | null;
  firstTokenMs?: number;
}

const enum State {
  Open,
  Admitted,
  Charged,
  Refunded,
}

/** The meters and the funding source every ticket uses (one per process). */
@Injectable()
export class Spending {
  readonly logger = new Logger('Spend');
  readonly funding: FundingSource;

  constructor(
    ledger: QuotaLedgerService,
    readonly options: OptionService,
    readonly metrics: MetricsService,
    readonly health: ChannelHealthService,
    readonly limits: RateLimitService,
    readonly scoped: ScopedLimitService,
    readonly budgets: BudgetService,
  ) {
    this.funding = new WalletFunding(ledger);
  }

  /** A served request counts as a successful one for the user's request windows. */
  countSuccess(userId: number): void {
    void this.limits
      .success(userId)
      .catch((err: Error) => this.logger.warn(`rate-limit count failed: ${err.message}`));
  }

  /** A ticket for one call (or one realtime session or response) of the admitted context. */
  open(ctx: RelayContext, entry: SpendEntry, parent: SpendTicket | null = null): SpendTicket {
    return new SpendTicket(this, ctx, entry, parent);
  }
}

export class SpendTicket {
  private state = State.Open;
  private lease: LimitLease | null = null;
  /** The funding source's hold (null before admission, and for per-use tickets). */
  hold: Hold | null = null;
  /** What the ticket holds of its budgets (null when none applies). */
  budget: BudgetHold | null = null;
  private successCounted = false;
  /** The write of the charge to the budget counters (a realtime session reads them after it). */
  countedOn: Promise<void> | null = null;
  /** The largest charge of the responses of this session (a realtime response's bound is at least it). */
  private largest = 0;

  constructor(
    private readonly s: Spending,
    readonly ctx: RelayContext,
    readonly entry: SpendEntry,
    /** The session of a realtime response: a response it did not admit counts on the session's budgets. */
    private readonly parent: SpendTicket | null = null,
  ) {}

  get payer(): Payer {
    return payerOf(this.ctx);
  }

  /**
   * Admits the call, or throws the refusal the caller sees (nothing held then). No promise for the usual
   * HTTP call: a fresh balance, no limits, no budget, a trusted balance.
   */
  admit(): Promise<void> | undefined {
    const { ctx, entry, s } = this;
    // A known price is checked by its reservation; the others need a balance above zero.
    const balance = typeof entry.reserve === 'object' ? null : s.funding.balance(ctx.user.id);
    const token = entry.limits && ctx.token && hasScopedLimits(ctx.token) ? ctx.token : null;
    const budget = entry.budget !== 'none' && s.budgets.applies(budgetParty(ctx));
    if (typeof balance === 'number' && !token && !(entry.limits && s.limits.active()) && !budget) {
      positive(balance);
      if (entry.reserve === 'bound') {
        const bound = this.reserveBound();
        if (tokenTrusts(ctx, bound)) {
          const hold = s.funding.holdTrusted(this.payer, bound, true) as Hold | null;
          if (hold) {
            this.hold = hold;
            this.state = State.Admitted;
            return undefined;
          }
        }
      } else if (entry.reserve === 'per-use') {
        this.state = State.Admitted;
        return undefined;
      }
    }
    return this.admitSlow(balance, token, budget).catch((err: unknown) => {
      this.giveBack();
      throw err;
    });
  }

  private async admitSlow(
    balance: number | Promise<number> | null,
    token: RelayContext['token'],
    budget: boolean,
  ): Promise<void> {
    const { ctx, entry, s } = this;
    if (balance !== null) positive(await balance);
    if (entry.limits) {
      if (s.limits.active()) await s.limits.check(ctx.user.id, ctx.user.group);
      if (token) this.lease = await s.scoped.admitToken(token);
    }
    if (budget) await this.admitBudget();
    this.hold = await this.reserve();
    this.state = State.Admitted;
  }

  /** Holds the call's bound on its budgets (or one request, for a realtime session). */
  private async admitBudget(): Promise<void> {
    const { ctx, entry, s } = this;
    const bound = (): number => {
      if (entry.budget === 'request') return 0;
      if (typeof entry.reserve === 'object') return entry.reserve.price;
      return this.budgetBound();
    };
    try {
      this.budget = await s.budgets.admit(budgetParty(ctx), bound, {
        durable: entry.durableBudget,
        // A known price (a task's, a fixed-price model's) is the cost itself: it must fit whole.
        exact: typeof entry.reserve === 'object' || ctx.price.modelPrice >= 0,
        countRequest: entry.budget !== 'quota',
      });
    } catch (err) {
      throw budgetError(err);
    }
  }

  /** The funding source's hold: the bound (trusted or written), a task's price, or nothing (per use). */
  private async reserve(): Promise<Hold | null> {
    const { ctx, entry, s } = this;
    const payer = this.payer;
    try {
      if (entry.reserve === 'per-use') return null;
      if (typeof entry.reserve === 'object') {
        const hold = await s.funding.hold(payer, entry.reserve.price, entry.reserve.log);
        if (ctx.token && !ctx.token.unlimited) ctx.token.remainQuota -= entry.reserve.price;
        if (entry.reserve.price > 0) s.health.afterCharge(ctx.user, entry.reserve.price);
        return hold;
      }
      const bound = this.reserveBound();
      if (tokenTrusts(ctx, bound)) {
        const hold = await s.funding.holdTrusted(payer, bound, false);
        if (hold) return hold;
      }
      const reserve = ctx.price.modelPrice >= 0 ? bound : this.reservation(ctx.prompt());
      // The hold's row is written even with consume logs off (it goes at settlement): after a crash it is
      // what lets the next start refund the reservation.
      return await s.funding.hold(payer, reserve, entry.holdLog?.(ctx) ?? null);
    } catch (err) {
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

  /** The ledger's reservation bound: PreConsumedQuota + the prompt bounded by the body's size + max_tokens. */
  private reserveBound(): number {
    const ctx = this.ctx;
    if (ctx.price.modelPrice >= 0) return fixedCharge(ctx);
    return this.reservation(ctx.promptBound);
  }

  private reservation(prompt: number): number {
    return reserveQuota(
      this.ctx.price,
      prompt,
      maxTokensOf(this.ctx.req.body),
      this.s.options.num('PreConsumedQuota'),
    );
  }

  /**
   * The most a budgeted call may cost: its fixed price, or its prompt and its max_tokens (the operator's
   * BudgetOutputTokens when it names none) at the model's price.
   */
  budgetBound(): number {
    const ctx = this.ctx;
    if (ctx.price.modelPrice >= 0) return fixedCharge(ctx);
    const output = maxTokensOf(ctx.req.body) || this.s.options.num('BudgetOutputTokens');
    return Math.max(reserveQuota(ctx.price, ctx.prompt(), output, 0), this.parent?.largest ?? 0);
  }

  /** A served call is charged its full price, once. */
  charge(a: ChargeArgs): void {
    if (this.state === State.Charged || this.state === State.Refunded) return;
    this.state = State.Charged;
    const { ctx, s } = this;
    const { usage, charged } = a;
    const tokens = usage.prompt_tokens + usage.completion_tokens;
    if (this.parent) this.parent.largest = Math.max(this.parent.largest, charged);
    if (this.budget) {
      this.countedOn = s.budgets.settle(this.budget, charged, budgetParty(ctx));
      this.budget = null;
    } else if (this.parent?.budget)
      this.countedOn = s.budgets.add(this.parent.budget, charged, budgetParty(ctx));
    s.metrics.settled(
      ctx.model,
      a.channel.id,
      charged,
      usage.prompt_tokens,
      usage.completion_tokens,
      a.firstTokenMs ?? 0,
    );
    s.funding.settle({
      hold: this.hold ?? { payer: this.payer, reserved: 0, logId: null },
      channelId: a.channel.id,
      charged,
      failed: false,
      log: a.log,
      stat: { username: ctx.user.username, model: ctx.model, tokens },
    });
    if (ctx.token?.tpmLimit || a.channel.tpmLimit) s.scoped.addTokens(ctx.token, a.channel, tokens);
    // A realtime response is a part of its session's request: the session counts once.
    if (this.entry.limits) this.countSuccess();
    else this.parent?.countSuccess();
    if (ctx.token && !ctx.token.unlimited) ctx.token.remainQuota -= charged;
    s.health.afterCharge(ctx.user, charged);
  }

  /** The call counts as a successful request for the user's windows (once per ticket). */
  countSuccess(): void {
    if (this.successCounted) return;
    this.successCounted = true;
    this.s.countSuccess(this.ctx.user.id);
  }

  /** Nothing was served: the whole reservation and the budget hold go back, with the error log given. */
  refund(channel: ChannelSnapshot | null, log: LogDraft | null): void {
    if (this.state === State.Charged || this.state === State.Refunded) return;
    this.state = State.Refunded;
    this.releaseBudget();
    if (this.hold || log)
      this.s.funding.settle({
        hold: this.hold ?? { payer: this.payer, reserved: 0, logId: null },
        channelId: channel?.id ?? 0,
        charged: 0,
        failed: true,
        log,
        stat: null,
      });
  }

  /**
   * Hands what the ticket holds to whoever settles it later (a task's row keeps its reservation and
   * budget hold; a realtime session's request stays counted): the ticket no longer refunds it, and only
   * frees its limit slot at close.
   */
  handOver(): void {
    if (this.state === State.Admitted) this.state = State.Charged;
  }

  /** The end of the call or session: slots freed; a ticket neither charged nor refunded is refunded. */
  close(): void {
    if (this.state === State.Admitted) this.refund(null, null);
    this.lease?.release();
    this.lease = null;
  }

  /** Whether the ticket was admitted and is still open. */
  get open(): boolean {
    return this.state === State.Admitted;
  }

  private releaseBudget(): void {
    if (!this.budget) return;
    this.s.budgets.release(this.budget);
    this.budget = null;
  }

  /** A refused admission gives back what it took so far. */
  private giveBack(): void {
    this.releaseBudget();
    this.lease?.release();
    this.lease = null;
  }
}

export const budgetParty = (ctx: RelayContext): BudgetParty => ({
  token: ctx.token,
  user: ctx.user,
  group: ctx.group,
});

/** A budget refusal as the relay error written to the caller (429, Retry-After); anything else as it is. */
export function budgetError(err: unknown): unknown {
  if (!(err instanceof BudgetExhausted)) return err;
  const code =
    err.kind === 'held' ? 'budget_busy' : err.kind === 'short' ? 'budget_insufficient' : 'budget_exhausted';
  return RelayError.limited(err.key, err.params, code, err.retryAfter);
}

const payerOf = (ctx: RelayContext): Payer => ({
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

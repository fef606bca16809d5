import type { Hold, LogDraft, Payer, QuotaLedgerService, Settlement } from '../../billing';
import { InsufficientQuota } from '../../billing';
import type { BudgetHold, BudgetParty, BudgetService } from '../../budget';
import { BudgetExhausted } from '../../budget';
import type { MetricsService } from '../../metrics';
import type { OptionService } from '../../option';
import type { ChannelSnapshot } from '../channel-selector';
import type { ChannelHealthService } from '../channel-health.service';
import { RelayError } from '../errors';
import type { RateLimitService } from '../rate-limit.service';
import type { RelayContext } from '../relay-context';
import type { LimitLease, ScopedLimitService } from '../scoped-limit.service';
import type { UsageCounts } from '../types';
import { REALTIME_RESPONSE, REALTIME_SESSION, Spending, SpendEntry, taskEntry } from './spend';

/** Every meter a ticket talks to, recording what it was asked; the defaults admit everything. */
class Meters {
  calls: string[] = [];
  balance: number | null = 1_000_000;
  storedBalance = 1_000_000;
  insufficient = false;
  windowsOn = false;
  refuseWindow: RelayError | null = null;
  refuseToken: RelayError | null = null;
  budgetOn = false;
  refuseBudget: BudgetExhausted | null = null;
  budgetAsked: Array<{ bound: number; opts: Record<string, unknown> }> = [];
  settled: Settlement[] = [];
  released = 0;
  budgetSettled: Array<[BudgetHold, number]> = [];
  budgetReleased: BudgetHold[] = [];
  budgetAdded: Array<[BudgetHold, number]> = [];
  tokensCounted = 0;
  successes = 0;

  ledger = {
    peekBalance: () => this.balance,
    balanceOf: async () => this.storedBalance,
    reserve: async (payer: Payer, amount: number, log: LogDraft | null): Promise<Hold> => {
      this.calls.push(`reserve ${amount}`);
      if (this.insufficient) throw new InsufficientQuota('user');
      return { payer, reserved: amount, logId: log ? 7 : null };
    },
    holdIfTrustedNow: (payer: Payer, amount: number): Hold | null => {
      this.calls.push(`trusted-now ${amount}`);
      return this.balance !== null && this.balance > amount * 100
        ? { payer, reserved: 0, logId: null }
        : null;
    },
    holdIfTrusted: async (payer: Payer, amount: number): Promise<Hold | null> => {
      this.calls.push(`trusted ${amount}`);
      return this.storedBalance > amount * 100 ? { payer, reserved: 0, logId: null } : null;
    },
    settle: (s: Settlement) => void this.settled.push(s),
  };
  options = {
    num: (k: string) => ({ PreConsumedQuota: 500, BudgetOutputTokens: 100 })[k] ?? 0,
    bool: () => false,
  };
  metrics = { settled: () => undefined };
  health = { afterCharge: () => undefined };
  limits = {
    active: () => this.windowsOn,
    check: async () => {
      this.calls.push('windows');
      if (this.refuseWindow) throw this.refuseWindow;
    },
    success: async () => void this.successes++,
  };
  scoped = {
    admitToken: async (): Promise<LimitLease> => {
      this.calls.push('token');
      if (this.refuseToken) throw this.refuseToken;
      return { release: () => void this.released++ } as unknown as LimitLease;
    },
    addTokens: (_t: unknown, _c: unknown, n: number) => void (this.tokensCounted += n),
  };
  budgets = {
    applies: () => this.budgetOn,
    admit: async (_p: BudgetParty, bound: () => number, opts: Record<string, unknown>) => {
      const b = bound();
      this.budgetAsked.push({ bound: b, opts });
      this.calls.push(`budget ${b}`);
      if (this.refuseBudget) throw this.refuseBudget;
      return { keys: [], amount: b } as BudgetHold;
    },
    settle: async (h: BudgetHold, charged: number) => void this.budgetSettled.push([h, charged]),
    release: (h: BudgetHold) => void this.budgetReleased.push(h),
    add: async (h: BudgetHold, charged: number) => void this.budgetAdded.push([h, charged]),
  };

  spending(): Spending {
    return new Spending(
      this.ledger as unknown as QuotaLedgerService,
      this.options as unknown as OptionService,
      this.metrics as unknown as MetricsService,
      this.health as unknown as ChannelHealthService,
      this.limits as unknown as RateLimitService,
      this.scoped as unknown as ScopedLimitService,
      this.budgets as unknown as BudgetService,
    );
  }
}

const HTTP: SpendEntry = {
  limits: true,
  budget: 'call',
  reserve: 'bound',
  durableBudget: true,
  holdLog: () => ({ content: 'in progress' }) as unknown as LogDraft,
};

function context(
  over: { token?: Partial<NonNullable<RelayContext['token']>>; body?: object } = {},
): RelayContext {
  return {
    req: { body: over.body ?? { model: 'm', messages: [] }, mode: 'chat', format: 'openai' },
    user: { id: 1, username: 'u', group: 'default' },
    token: {
      id: 2,
      unlimited: true,
      remainQuota: 0,
      rpmLimit: 0,
      tpmLimit: 0,
      concurrencyLimit: 0,
      ...over.token,
    },
    tokenName: 't',
    group: 'default',
    model: 'm',
    stream: false,
    pinnedChannel: null,
    price: {
      modelPrice: -1,
      modelRatio: 1,
      completionRatio: 2,
      cacheRatio: 1,
      cacheCreationRatio: 1,
      imageRatio: 1,
      audioRatio: 1,
      audioCompletionRatio: 1,
      groupRatio: 1,
      userGroupRatio: -1,
    },
    prompt: () => 10,
    promptBound: 10,
    startedAt: 0,
  } as unknown as RelayContext;
}

const channel = { id: 5, tpmLimit: 0 } as ChannelSnapshot;
const usage = {
  prompt_tokens: 10,
  completion_tokens: 20,
  total_tokens: 30,
  cached_tokens: 0,
  cache_creation_tokens: 0,
  reasoning_tokens: 0,
} as UsageCounts;

describe('SpendTicket', () => {
  it('admits the usual HTTP call without a promise: a fresh balance, no limits, no budget, a trusted hold', () => {
    const m = new Meters();
    const t = m.spending().open(context(), HTTP);
    expect(t.admit()).toBeUndefined();
    expect(t.open).toBe(true);
    expect(m.calls).toEqual(['trusted-now 510']);
  });

  it('applies the meters in order: balance, windows, token limits, budget, then the written reservation', async () => {
    const m = new Meters();
    m.windowsOn = true;
    m.budgetOn = true;
    m.storedBalance = 1000;
    const t = m.spending().open(context({ token: { rpmLimit: 3 } }), HTTP);
    await t.admit();
    // The budget holds the bound (prompt + BudgetOutputTokens at the price); the ledger PreConsumedQuota + prompt.
    expect(m.calls).toEqual(['windows', 'token', 'budget 210', 'trusted 510', 'reserve 510']);
    expect(m.budgetAsked[0].opts).toEqual({ durable: true, exact: false, countRequest: true });
    expect(t.hold).toMatchObject({ reserved: 510, logId: 7 });
  });

  it('holds the budget for max_tokens when the call names it, and a fixed price exactly', async () => {
    const m = new Meters();
    m.budgetOn = true;
    await m
      .spending()
      .open(context({ body: { model: 'm', max_tokens: 7 } }), HTTP)
      .admit();
    expect(m.budgetAsked[0].bound).toBe(10 + 7 * 2);
    const fixed = context();
    fixed.price.modelPrice = 0.002; // 1000 at the default QuotaPerUnit
    await m.spending().open(fixed, taskEntry(1000, null)).admit();
    expect(m.budgetAsked[1]).toEqual({
      bound: 1000,
      opts: { durable: false, exact: true, countRequest: true },
    });
  });

  it('refuses a balance at or below zero with 403 before any limit is counted', async () => {
    const m = new Meters();
    m.balance = null;
    m.storedBalance = 0;
    m.windowsOn = true;
    const err = (await (m.spending().open(context(), HTTP).admit() as Promise<void>).catch(
      (e: unknown) => e,
    )) as RelayError;
    expect([err.status, err.code]).toEqual([403, 'insufficient_quota']);
    expect(m.calls).toEqual([]);
    // Known at once (a fresh reading): refused without a promise.
    m.balance = 0;
    m.windowsOn = false;
    expect(() => m.spending().open(context(), HTTP).admit()).toThrow(RelayError);
  });

  it('gives back the token slot and the budget hold when a later meter refuses', async () => {
    const m = new Meters();
    m.budgetOn = true;
    m.insufficient = true;
    m.balance = 10; // not trusted: the reservation is written, and refused
    m.storedBalance = 10;
    const t = m.spending().open(context({ token: { concurrencyLimit: 1 } }), HTTP);
    const err = (await (t.admit() as Promise<void>).catch((e: unknown) => e)) as RelayError;
    expect(err).toBeInstanceOf(RelayError);
    expect(err.status).toBe(403);
    expect(err.code).toBe('insufficient_quota');
    expect(m.released).toBe(1);
    expect(m.budgetReleased).toHaveLength(1);
    expect(t.open).toBe(false);
  });

  it('turns a budget refusal into one 429 with its code and Retry-After', async () => {
    const m = new Meters();
    m.budgetOn = true;
    m.refuseBudget = new BudgetExhausted('relay_budget_token_day_held', { left: 5 }, 'held', 2);
    const err = (await (m.spending().open(context(), HTTP).admit() as Promise<void>).catch(
      (e: unknown) => e,
    )) as RelayError;
    expect(err.status).toBe(429);
    expect(err.code).toBe('budget_busy');
    expect(err.retryAfter).toBe(2);
    m.refuseBudget = new BudgetExhausted('relay_budget_token_day_quota', {}, 'quota', 3600);
    const used = (await (m.spending().open(context(), HTTP).admit() as Promise<void>).catch(
      (e: unknown) => e,
    )) as RelayError;
    expect([used.code, used.retryAfter]).toEqual(['budget_exhausted', 3600]);
  });

  it('charges once: ledger, budget in full, TPM, one success; a refund or close after it changes nothing', async () => {
    const m = new Meters();
    m.budgetOn = true;
    const t = m.spending().open(context({ token: { tpmLimit: 100 } }), HTTP);
    await t.admit();
    t.charge({ channel, charged: 50, usage, log: null });
    t.charge({ channel, charged: 50, usage, log: null });
    t.refund(channel, null);
    t.close();
    expect(m.settled.map((s) => [s.charged, s.failed])).toEqual([[50, false]]);
    expect(m.budgetSettled.map(([, c]) => c)).toEqual([50]);
    expect(m.budgetReleased).toHaveLength(0);
    expect(m.tokensCounted).toBe(30);
    await new Promise((r) => setImmediate(r));
    expect(m.successes).toBe(1);
  });

  it('refunds once: the reservation and the budget hold back, the error log written; close frees the slot', async () => {
    const m = new Meters();
    m.budgetOn = true;
    const t = m.spending().open(context({ token: { concurrencyLimit: 2 } }), HTTP);
    await t.admit();
    const log = { content: 'failed' } as unknown as LogDraft;
    t.refund(null, log);
    t.refund(null, log);
    t.close();
    t.close();
    expect(m.settled).toEqual([expect.objectContaining({ charged: 0, failed: true, log })]);
    expect(m.budgetReleased).toHaveLength(1);
    expect(m.released).toBe(1);
  });

  it('closes an admitted ticket that was neither charged nor refunded by refunding it silently', async () => {
    const m = new Meters();
    m.budgetOn = true;
    const t = m.spending().open(context(), HTTP);
    await t.admit();
    t.close();
    expect(m.settled).toEqual([expect.objectContaining({ charged: 0, failed: true, log: null })]);
    expect(m.budgetReleased).toHaveLength(1);
  });

  it('a task holds its price with its log row and hands it over: the ticket then never refunds it', async () => {
    const m = new Meters();
    const t = m.spending().open(context(), taskEntry(300, { content: 'in progress' } as unknown as LogDraft));
    await t.admit();
    expect(m.calls).toContain('reserve 300');
    expect(t.hold?.logId).toBe(7);
    t.handOver();
    t.close();
    expect(m.settled).toHaveLength(0);
  });

  it('a realtime session counts one request and a slot; each response holds only its budget and bills per use', async () => {
    const m = new Meters();
    m.budgetOn = true;
    const s = m.spending();
    const session = s.open(context({ token: { concurrencyLimit: 1 } }), REALTIME_SESSION);
    await session.admit();
    expect(m.calls).toEqual(['token', 'budget 0']);
    expect(m.budgetAsked[0].opts).toMatchObject({ countRequest: true, durable: false });
    session.handOver();

    const r1 = s.open(session.ctx, REALTIME_RESPONSE, session);
    await r1.admit();
    expect(m.budgetAsked[1].opts).toMatchObject({ countRequest: false, durable: true });
    expect(m.calls.filter((c) => c === 'token')).toHaveLength(1); // the session's slot covers it
    r1.charge({ channel, charged: 400, usage, log: null });
    expect(m.settled[0]).toMatchObject({ charged: 400, hold: { reserved: 0 } });
    // The next response is held for at least the largest charge the session has seen.
    await s.open(session.ctx, REALTIME_RESPONSE, session).admit();
    expect(m.budgetAsked[2].bound).toBe(400);
    // A response the upstream started by itself counts on the session's budgets.
    const unasked = s.open(session.ctx, REALTIME_RESPONSE, session);
    unasked.charge({ channel, charged: 30, usage, log: null });
    await unasked.countedOn;
    expect(m.budgetAdded.map(([, c]) => c)).toEqual([30]);
    session.close();
    expect(m.released).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(m.successes).toBe(1); // one request, however many responses
  });
});

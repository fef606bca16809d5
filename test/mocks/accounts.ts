/**
 * Account endpoints of providers, as the gateway's channel balance and model-list calls read them:
 * OpenAI's billing subscription/usage (credit grants), OpenRouter credits, SiliconFlow user info,
 * DeepSeek and Moonshot balances, Ollama's model tags. They answer from `ctx.account`.
 */
import type { Ctx } from './exchange';

/** The account the balance endpoints describe, in the provider's currency. */
export interface MockAccount {
  /** What is left. */
  balance: number;
  /** What was spent this period. */
  used: number;
}

const money = (n: number): string => n.toFixed(2);

export function openaiSubscription(ctx: Ctx): void {
  const { balance, used } = ctx.account;
  ctx.ex.json(200, {
    object: 'billing_subscription',
    has_payment_method: true,
    hard_limit_usd: balance + used,
    soft_limit_usd: balance + used,
    system_hard_limit_usd: balance + used,
    access_until: 0,
  });
}

export function openaiUsage(ctx: Ctx): void {
  const { start_date, end_date } = ctx.record.query;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(start_date ?? '') || !/^\d{4}-\d{2}-\d{2}$/.test(end_date ?? ''))
    return ctx.ex.json(400, {
      error: { message: 'start_date and end_date are required', type: 'invalid_request_error' },
    });
  ctx.ex.json(200, { object: 'list', daily_costs: [], total_usage: ctx.account.used * 100 });
}

export function openrouterCredits(ctx: Ctx): void {
  const { balance, used } = ctx.account;
  ctx.ex.json(200, { data: { total_credits: balance + used, total_usage: used } });
}

export function siliconflowUserInfo(ctx: Ctx): void {
  const { balance } = ctx.account;
  ctx.ex.json(200, {
    code: 20000,
    message: 'OK',
    status: true,
    data: {
      id: 'u1',
      name: 'mock',
      balance: money(balance),
      chargeBalance: '0.00',
      totalBalance: money(balance),
    },
  });
}

export function deepseekBalance(ctx: Ctx): void {
  const { balance } = ctx.account;
  ctx.ex.json(200, {
    is_available: balance > 0,
    balance_infos: [
      { currency: 'USD', total_balance: '0.00', granted_balance: '0.00', topped_up_balance: '0.00' },
      {
        currency: 'CNY',
        total_balance: money(balance),
        granted_balance: '0.00',
        topped_up_balance: money(balance),
      },
    ],
  });
}

export function moonshotBalance(ctx: Ctx): void {
  const { balance } = ctx.account;
  ctx.ex.json(200, {
    code: 0,
    data: { available_balance: balance, voucher_balance: 0, cash_balance: balance },
    scode: '0x0',
    status: true,
  });
}

export function ollamaTags(ctx: Ctx): void {
  ctx.ex.json(200, {
    models: ctx.models.map((name) => ({
      name,
      model: name,
      modified_at: '2026-01-01T00:00:00Z',
      size: 1,
      digest: 'sha256:0',
      details: { format: 'gguf', family: 'llama' },
    })),
  });
}

import type { Schemas } from '../api/wire';

/** Periodic budgets (docs/budgets.md): caps per day, week (from Monday) and month, 0 = no cap. */
export const BUDGET_PERIODS = ['day', 'week', 'month'] as const;
export type BudgetPeriod = (typeof BUDGET_PERIODS)[number];

/** A budget and its current periods, as `/api/budget/...` reports it. */
export type BudgetStatus = Schemas['BudgetStatusView'];

/** Caps per period, as tokens, users and the GroupBudgets option carry them. */
export type Budget = NonNullable<BudgetStatus['budget']>;

/** The quota and request caps of one period (0 = no cap). */
export type PeriodCaps = NonNullable<Budget[BudgetPeriod]>;

/** One current period of a budget. */
export type PeriodUsage = Schemas['PeriodUsageView'];

/** The largest cap the server accepts (quota is exact up to 2^53 − 1). */
export const BUDGET_CAP_MAX = Number.MAX_SAFE_INTEGER;

/** The editor's form: the caps as typed ('' or 0 = no cap). */
export type BudgetForm = Record<BudgetPeriod, { quota: string; requests: string }>;

export function emptyBudgetForm(): BudgetForm {
  return {
    day: { quota: '0', requests: '0' },
    week: { quota: '0', requests: '0' },
    month: { quota: '0', requests: '0' },
  };
}

export function budgetFormOf(budget: Budget | null | undefined): BudgetForm {
  const form = emptyBudgetForm();
  for (const period of BUDGET_PERIODS) {
    const caps = budget?.[period];
    if (caps) form[period] = { quota: String(caps.quota ?? 0), requests: String(caps.requests ?? 0) };
  }
  return form;
}

/** A cap as typed: '' is 0 (no cap); null for anything but a whole number from 0 to 2^53 − 1. */
export function parseCap(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') {
    return 0;
  }
  if (!/^\d+$/.test(trimmed)) {
    return null;
  }
  const value = Number(trimmed);
  return Number.isSafeInteger(value) && value <= BUDGET_CAP_MAX ? value : null;
}

/**
 * The budget of a form: null when nothing is capped (the server clears it), or the first field that
 * is not a whole number from 0 to 2^53 − 1.
 */
export function buildBudget(
  form: BudgetForm,
): { ok: true; budget: Budget | null } | { ok: false; field: `${BudgetPeriod}.${'quota' | 'requests'}` } {
  const budget: Budget = {};
  for (const period of BUDGET_PERIODS) {
    const quota = parseCap(form[period].quota);
    if (quota === null) {
      return { ok: false, field: `${period}.quota` };
    }
    const requests = parseCap(form[period].requests);
    if (requests === null) {
      return { ok: false, field: `${period}.requests` };
    }
    if (quota || requests) {
      budget[period] = { quota, requests };
    }
  }
  return { ok: true, budget: Object.keys(budget).length ? budget : null };
}

/** How much of the period is used, 0–100: the larger share of its caps. */
export function usedPercent(usage: PeriodUsage): number {
  const shares = [
    usage.quota_cap ? usage.quota_used / usage.quota_cap : 0,
    usage.request_cap ? usage.requests_used / usage.request_cap : 0,
  ];
  return Math.min(100, Math.round(Math.max(...shares) * 100));
}

/** The progress colour of a period: red when a cap is reached, orange past 80 %. */
export function usageColor(usage: PeriodUsage): 'error' | 'warning' | 'primary' {
  const percent = usedPercent(usage);
  if (percent >= 100) {
    return 'error';
  }
  return percent >= 80 ? 'warning' : 'primary';
}

/** The option GroupBudgets as rows (group → form), and back. */
export function groupBudgetRows(text: string): { group: string; form: BudgetForm }[] {
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      return [];
    }
    return Object.entries(value as Record<string, Budget>).map(([group, budget]) => ({
      group,
      form: budgetFormOf(budget),
    }));
  } catch {
    return [];
  }
}

export function groupBudgetsText(
  rows: { group: string; form: BudgetForm }[],
): { ok: true; text: string } | { ok: false; group: string; field?: string } {
  const out: Record<string, Budget> = {};
  const seen = new Set<string>();
  for (const row of rows) {
    const group = row.group.trim();
    if (!group || group.length > 64 || seen.has(group)) {
      return { ok: false, group };
    }
    seen.add(group);
    const built = buildBudget(row.form);
    if (!built.ok) {
      return { ok: false, group, field: built.field };
    }
    if (built.budget) {
      out[group] = built.budget;
    }
  }
  return { ok: true, text: JSON.stringify(out) };
}

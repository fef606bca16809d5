import { fail } from './app-error';
import { PERIODS, Period } from './calendar';
import { isObject as isPlainObject } from './json';
import type { MessageKey } from './i18n/messages';

/** What a budget caps: the quota charged, and the number of calls. */
export const BUDGET_KINDS = ['quota', 'requests'] as const;
export type BudgetKind = (typeof BUDGET_KINDS)[number];

/** The caps of one period; 0 = no cap. */
export type PeriodCaps = Record<BudgetKind, number>;

/** Caps per calendar period (day, week from Monday, month) in the operator's time zone. */
export type Budget = Partial<Record<Period, PeriodCaps>>;

/** Largest cap: quota is exact up to 2^53 − 1. */
export const BUDGET_CAP_MAX = Number.MAX_SAFE_INTEGER;

/** A budget problem as a message key and its parameters (written by the API and the option check). */
export interface BudgetProblem {
  key: MessageKey;
  params?: Record<string, unknown>;
}
type Problem = BudgetProblem;

function problemOf(v: unknown, field: string): Problem | null {
  if (!isPlainObject(v)) return { key: 'budget_not_object', params: { field } };
  for (const [period, caps] of Object.entries(v)) {
    if (!(PERIODS as readonly string[]).includes(period))
      return { key: 'budget_period_unknown', params: { field, period: period.slice(0, 20) } };
    if (caps === null) continue;
    if (!isPlainObject(caps)) return { key: 'budget_not_object', params: { field: `${field}.${period}` } };
    for (const [kind, n] of Object.entries(caps)) {
      if (!(BUDGET_KINDS as readonly string[]).includes(kind))
        return {
          key: 'budget_kind_unknown',
          params: { field: `${field}.${period}`, kind: kind.slice(0, 20) },
        };
      if (n === null) continue;
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0 || n > BUDGET_CAP_MAX)
        return {
          key: 'budget_cap_invalid',
          params: { field: `${field}.${period}.${kind}`, max: BUDGET_CAP_MAX },
        };
    }
  }
  return null;
}

/** The budget without empty periods; null when nothing is capped. Expects a checked value. */
function normalize(v: Record<string, unknown>): Budget | null {
  const out: Budget = {};
  for (const period of PERIODS) {
    const caps = v[period] as Record<string, unknown> | null | undefined;
    if (!caps) continue;
    const quota = typeof caps.quota === 'number' ? caps.quota : 0;
    const requests = typeof caps.requests === 'number' ? caps.requests : 0;
    if (quota || requests) out[period] = { quota, requests };
  }
  return Object.keys(out).length ? out : null;
}

/**
 * A budget field of a write (`budget` of a token or a user): undefined when absent (unchanged), null
 * when cleared (null or no caps), else the caps. Non-negative whole numbers only; 0 = no cap.
 */
export function checkBudget(v: unknown, field = 'budget'): Budget | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const p = problemOf(v, field);
  if (p) throw fail(p.key, p.params);
  return normalize(v as Record<string, unknown>);
}

/** A budget as stored (JSON text), or null. */
export function budgetText(b: Budget | null): string | null {
  return b ? JSON.stringify(b) : null;
}

/** A stored budget; null when absent or unreadable (a budget that cannot be read caps nothing). */
export function parseBudget(text: string | null | undefined): Budget | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return problemOf(v, 'budget') ? null : normalize(v as Record<string, unknown>);
  } catch {
    return null;
  }
}

/** The option GroupBudgets: {"group": budget}. */
export function groupBudgetsProblem(v: unknown): BudgetProblem | null {
  if (!isPlainObject(v)) return { key: 'budget_not_object', params: { field: 'GroupBudgets' } };
  for (const [group, b] of Object.entries(v)) {
    if (group.length > 64) return { key: 'budget_group_invalid', params: { group: group.slice(0, 64) } };
    const p = problemOf(b, `GroupBudgets.${group}`);
    if (p) return p;
  }
  return null;
}

/** GroupBudgets as caps by group (groups without caps left out). */
export function parseGroupBudgets(text: string): Map<string, Budget> {
  const out = new Map<string, Budget>();
  try {
    const v: unknown = JSON.parse(text || '{}');
    if (!isPlainObject(v)) return out;
    for (const [group, b] of Object.entries(v)) {
      if (problemOf(b, group)) continue;
      const caps = normalize(b as Record<string, unknown>);
      if (caps) out.set(group, caps);
    }
  } catch {
    // An unreadable option caps nothing (the option API refuses one on write).
  }
  return out;
}

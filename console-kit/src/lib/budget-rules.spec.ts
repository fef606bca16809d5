import { describe, expect, it } from 'vitest';
import type { LocaleResource } from '../provider/console-i18n';
import {
  budgetFormOf,
  buildBudget,
  emptyBudgetForm,
  groupBudgetRows,
  groupBudgetsText,
  usageColor,
  usedPercent,
  type PeriodUsage,
} from './budget-rules';
import { budgetsLocales } from '../components/budgets-locales';

const usage = (over: Partial<PeriodUsage>): PeriodUsage => ({
  period: 'day',
  start: 0,
  resets_at: 86_400,
  resets: '1970-01-02 00:00',
  zone: 'UTC',
  quota_cap: 0,
  quota_used: 0,
  quota_remaining: null,
  request_cap: 0,
  requests_used: 0,
  requests_remaining: null,
  ...over,
});

describe('budget form', () => {
  it('an empty form caps nothing (the server clears the budget)', () => {
    expect(buildBudget(emptyBudgetForm())).toEqual({ ok: true, budget: null });
  });

  it('keeps the periods with a cap, blank meaning 0', () => {
    const form = emptyBudgetForm();
    form.day = { quota: '500000', requests: '' };
    form.month = { quota: '', requests: '100' };
    expect(buildBudget(form)).toEqual({
      ok: true,
      budget: { day: { quota: 500000, requests: 0 }, month: { quota: 0, requests: 100 } },
    });
  });

  it('names the first cap that is not a whole number from 0 to 2^53 − 1', () => {
    for (const [text, field] of [
      ['-1', 'week.quota'],
      ['1.5', 'week.quota'],
      ['abc', 'week.quota'],
      ['9007199254740992', 'week.quota'],
    ] as const) {
      const form = emptyBudgetForm();
      form.week.quota = text;
      expect(buildBudget(form)).toEqual({ ok: false, field });
    }
    const form = emptyBudgetForm();
    form.month.requests = '3e2';
    expect(buildBudget(form)).toEqual({ ok: false, field: 'month.requests' });
  });

  it('round-trips a stored budget', () => {
    const budget = { week: { quota: 7, requests: 3 } };
    expect(buildBudget(budgetFormOf(budget))).toEqual({ ok: true, budget });
    expect(budgetFormOf(null)).toEqual(emptyBudgetForm());
  });
});

describe('group budgets option', () => {
  it('reads and writes GroupBudgets, leaving out groups without caps', () => {
    const rows = groupBudgetRows('{"vip": {"day": {"quota": 10, "requests": 0}}, "free": {}}');
    expect(rows.map((r) => r.group)).toEqual(['vip', 'free']);
    expect(groupBudgetsText(rows)).toEqual({ ok: true, text: '{"vip":{"day":{"quota":10,"requests":0}}}' });
    expect(groupBudgetRows('not json')).toEqual([]);
  });

  it('refuses an empty or repeated group name and a bad cap', () => {
    expect(groupBudgetsText([{ group: ' ', form: emptyBudgetForm() }])).toEqual({ ok: false, group: '' });
    const form = emptyBudgetForm();
    expect(
      groupBudgetsText([
        { group: 'vip', form },
        { group: 'vip', form },
      ]),
    ).toEqual({ ok: false, group: 'vip' });
    const bad = emptyBudgetForm();
    bad.day.requests = '-2';
    expect(groupBudgetsText([{ group: 'vip', form: bad }])).toEqual({
      ok: false,
      group: 'vip',
      field: 'day.requests',
    });
  });
});

describe('usage', () => {
  it('shows the larger share of the caps, red at the cap and orange past 80 %', () => {
    expect(usedPercent(usage({ quota_cap: 1000, quota_used: 500, request_cap: 10, requests_used: 9 }))).toBe(
      90,
    );
    expect(usageColor(usage({ quota_cap: 1000, quota_used: 500, request_cap: 10, requests_used: 9 }))).toBe(
      'warning',
    );
    expect(usedPercent(usage({ quota_cap: 1000, quota_used: 1038 }))).toBe(100);
    expect(usageColor(usage({ quota_cap: 1000, quota_used: 1038 }))).toBe('error');
    expect(usageColor(usage({ request_cap: 10, requests_used: 1 }))).toBe('primary');
  });
});

function keysOf(resource: LocaleResource, prefix = ''): string[] {
  return Object.entries(resource).flatMap(([key, value]) =>
    typeof value === 'string' ? [`${prefix}${key}`] : keysOf(value, `${prefix}${key}.`),
  );
}

describe('translations', () => {
  it('has every budget string in both Chinese and English', () => {
    expect(keysOf(budgetsLocales.en).sort()).toEqual(keysOf(budgetsLocales.zh).sort());
  });
});

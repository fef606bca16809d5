import { describe, expect, it } from 'vitest';
import {
  bucketUsage,
  dashboardUrl,
  granularityFromStatus,
  modelColors,
  quotaChartLabel,
  type UsagePoint,
} from './dashboard-rules';

const point = (model: string, at: number, count: number, quota: number, tokens: number): UsagePoint => ({
  model_name: model,
  created_at: at,
  count,
  quota,
  token_used: tokens,
  user_id: 0,
  username: '',
});

describe('dashboard rules', () => {
  it('takes the default granularity from the status, else hour', () => {
    expect(granularityFromStatus('day')).toBe('day');
    expect(granularityFromStatus('week')).toBe('week');
    expect(granularityFromStatus('month')).toBe('hour');
    expect(granularityFromStatus(undefined)).toBe('hour');
  });

  it('builds the admin and the self URL (username only for admins)', () => {
    const filters = {
      start: 100,
      end: 200,
      granularity: 'day' as const,
      modelName: ' gpt ',
      username: 'bob',
    };
    expect(dashboardUrl(filters, true)).toBe(
      '/api/data/?default_time=day&start_timestamp=100&end_timestamp=200&model_name=gpt&username=bob',
    );
    expect(dashboardUrl({ ...filters, start: 0 }, false)).toBe(
      '/api/data/self?default_time=day&end_timestamp=200&model_name=gpt',
    );
  });

  it('buckets points per model on one axis, filling empty hours with zero and adding duplicates', () => {
    const h = 3600;
    const t0 = 1_700_000_000 - (1_700_000_000 % h);
    const chart = bucketUsage(
      [
        point('gpt-4o', t0, 2, 100, 30),
        point('claude', t0, 1, 50, 10),
        point('gpt-4o', t0 + 3 * h, 1, 40, 5),
        point('gpt-4o', t0 + 3 * h, 1, 10, 5),
      ],
      'hour',
    );
    expect(chart.buckets).toEqual([t0, t0 + h, t0 + 2 * h, t0 + 3 * h]);
    expect(chart.series.map((series) => series.model)).toEqual(['claude', 'gpt-4o']);
    const gpt = chart.series[1];
    expect(gpt.quota).toEqual([100, 0, 0, 50]);
    expect(gpt.count).toEqual([2, 0, 0, 2]);
    expect(gpt.tokens).toEqual([30, 0, 0, 10]);
    expect(chart.series[0].quota).toEqual([50, 0, 0, 0]);
    expect(chart.totals).toEqual({ quota: 200, count: 5, tokens: 50 });
    expect(chart.byModel[0]).toEqual({ model: 'gpt-4o', quota: 150, count: 4, tokens: 40 });
  });

  it('steps by days and weeks, and keeps off-grid buckets (time zone shifts) without duplicates', () => {
    const d = 86400;
    const days = bucketUsage([point('m', 0, 1, 1, 1), point('m', 2 * d, 1, 1, 1)], 'day');
    expect(days.buckets).toEqual([0, d, 2 * d]);
    const weeks = bucketUsage([point('m', 0, 1, 1, 1), point('m', 14 * d + 3600, 1, 1, 1)], 'week');
    expect(weeks.buckets).toEqual([0, 7 * d, 14 * d + 3600]);
  });

  it('answers empty data with empty series and does not explode on a huge range', () => {
    expect(bucketUsage([], 'hour')).toEqual({
      buckets: [],
      series: [],
      totals: { quota: 0, count: 0, tokens: 0 },
      byModel: [],
    });
    const wide = bucketUsage([point('m', 0, 1, 1, 1), point('m', 3600 * 100_000, 1, 1, 1)], 'hour');
    expect(wide.buckets).toEqual([0, 3600 * 100_000]);
  });

  it('labels chart quota precisely enough for fractions of a cent, and colours models the same everywhere', () => {
    const currency = { displayInCurrency: true, quotaPerUnit: 500000 };
    expect(quotaChartLabel(38, currency)).toBe('$0.000076');
    expect(quotaChartLabel(0, currency)).toBe('$0');
    expect(quotaChartLabel(1_250_000, currency)).toBe('$2.50');
    expect(quotaChartLabel(12_345, { displayInCurrency: false, quotaPerUnit: 500000 })).toBe('12.3k');
    const chart = bucketUsage([point('b', 0, 1, 1, 1), point('a', 0, 1, 1, 1)], 'hour');
    const colors = modelColors(chart.series);
    expect(colors.get('a')).not.toBe(colors.get('b'));
    expect(modelColors(chart.series).get('a')).toBe(colors.get('a'));
  });
});

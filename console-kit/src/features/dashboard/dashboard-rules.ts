import dayjs, { type Dayjs } from 'dayjs';
import type { Schemas } from '../../api/wire';
import {
  formatCurrency,
  formatShortNumber,
  quotaToCurrency,
  type QuotaDisplayOptions,
} from '../../format/quota';

/**
 * One point of `GET /api/data/` or `/api/data/self`: usage of one model in one time bucket; `created_at`
 * is the bucket's start, unix seconds (server time zone).
 */
export type UsagePoint = Schemas['QuotaPoint'];

export const GRANULARITIES = ['hour', 'day', 'week'] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export const GRANULARITY_SECONDS: Record<Granularity, number> = {
  hour: 3600,
  day: 86400,
  week: 7 * 86400,
};

/** docs/decisions.md#console-extras: the default granularity comes from the status (DataExportDefaultTime), else hour. */
export function granularityFromStatus(value: unknown): Granularity {
  return typeof value === 'string' && (GRANULARITIES as readonly string[]).includes(value)
    ? (value as Granularity)
    : 'hour';
}

export interface DashboardFilters {
  /** Seconds; 0 = open. */
  start: number;
  end: number;
  granularity: Granularity;
  modelName: string;
  /** Admins only: one user's usage instead of everyone's. */
  username: string;
}

/** The default range per granularity: a day of hours, a week of days, twelve weeks. */
export function defaultDashboardRange(
  granularity: Granularity,
  now: Dayjs = dayjs(),
): { start: Dayjs; end: Dayjs } {
  const back =
    granularity === 'hour'
      ? now.subtract(1, 'day')
      : granularity === 'day'
        ? now.subtract(7, 'day')
        : now.subtract(12, 'week');
  return { start: back.startOf('hour'), end: now.add(1, 'hour').startOf('hour') };
}

export function dashboardUrl(filters: DashboardFilters, admin: boolean): string {
  const params = new URLSearchParams({ default_time: filters.granularity });
  if (filters.start > 0) {
    params.set('start_timestamp', String(Math.floor(filters.start)));
  }
  if (filters.end > 0) {
    params.set('end_timestamp', String(Math.floor(filters.end)));
  }
  if (filters.modelName.trim() !== '') {
    params.set('model_name', filters.modelName.trim());
  }
  if (admin && filters.username.trim() !== '') {
    params.set('username', filters.username.trim());
  }
  return `${admin ? '/api/data/' : '/api/data/self'}?${params.toString()}`;
}

export interface ModelSeries {
  model: string;
  quota: number[];
  count: number[];
  tokens: number[];
}

export interface ChartData {
  /** Bucket starts (unix seconds), ascending, gaps filled. */
  buckets: number[];
  series: ModelSeries[];
  totals: { quota: number; count: number; tokens: number };
  /** Per model over the whole range, biggest consumer first. */
  byModel: { model: string; quota: number; count: number; tokens: number }[];
}

/** At most this many buckets are generated to fill gaps (a wide range in hours would be huge). */
export const MAX_FILLED_BUCKETS = 2000;

/**
 * Turns the server's points into per-model series over one time axis: every bucket the server
 * answered, plus the empty buckets between the first and the last one (stepping by the granularity),
 * so that quiet hours show as zero instead of being skipped. Points of the same model and bucket add up.
 */
export function bucketUsage(points: readonly UsagePoint[], granularity: Granularity): ChartData {
  const step = GRANULARITY_SECONDS[granularity];
  const seen = new Set<number>();
  for (const point of points) {
    seen.add(point.created_at);
  }
  if (seen.size > 0) {
    const sorted = [...seen].sort((a, b) => a - b);
    const first = sorted[0];
    const last = sorted[sorted.length - 1];
    if ((last - first) / step <= MAX_FILLED_BUCKETS) {
      for (let at = first + step; at < last; at += step) {
        // DST or a server-side week start may shift the grid: skip steps next to a real bucket.
        if (!sorted.some((real) => Math.abs(real - at) < step / 2)) {
          seen.add(at);
        }
      }
    }
  }
  const buckets = [...seen].sort((a, b) => a - b);
  const index = new Map(buckets.map((at, position) => [at, position]));
  const models = new Map<string, ModelSeries>();
  const totals = { quota: 0, count: 0, tokens: 0 };
  for (const point of points) {
    let series = models.get(point.model_name);
    if (!series) {
      series = {
        model: point.model_name,
        quota: buckets.map(() => 0),
        count: buckets.map(() => 0),
        tokens: buckets.map(() => 0),
      };
      models.set(point.model_name, series);
    }
    const position = index.get(point.created_at) ?? 0;
    series.quota[position] += point.quota;
    series.count[position] += point.count;
    series.tokens[position] += point.token_used;
    totals.quota += point.quota;
    totals.count += point.count;
    totals.tokens += point.token_used;
  }
  const series = [...models.values()].sort((a, b) => a.model.localeCompare(b.model));
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const byModel = series
    .map((item) => ({
      model: item.model,
      quota: sum(item.quota),
      count: sum(item.count),
      tokens: sum(item.tokens),
    }))
    .sort((a, b) => b.quota - a.quota || b.count - a.count || a.model.localeCompare(b.model));
  return { buckets, series, totals, byModel };
}

/** The axis label of a bucket for its granularity. */
export function bucketLabel(at: number, granularity: Granularity): string {
  const time = dayjs.unix(at);
  return granularity === 'hour' ? time.format('MM-DD HH:mm') : time.format('YYYY-MM-DD');
}

/** One colour per model, the same in every chart (series are sorted by model name). */
export const MODEL_COLORS = [
  '#1976d2',
  '#ef6c00',
  '#2e7d32',
  '#c62828',
  '#6a1b9a',
  '#00838f',
  '#ad1457',
  '#827717',
  '#4e342e',
  '#37474f',
] as const;

export function modelColors(series: readonly ModelSeries[]): Map<string, string> {
  return new Map(series.map((item, position) => [item.model, MODEL_COLORS[position % MODEL_COLORS.length]]));
}

/**
 * Quota as a chart label: in currency mode three significant digits (a request costs fractions of a
 * cent, which `formatQuota`'s two decimals would all show as $0.00), else the shortened number.
 */
export function quotaChartLabel(quota: number, options: QuotaDisplayOptions): string {
  if (!Number.isFinite(quota)) {
    return String(quota);
  }
  if (!options.displayInCurrency) {
    return formatShortNumber(quota);
  }
  const amount = quotaToCurrency(quota, options.quotaPerUnit);
  if (amount === 0) {
    return '$0';
  }
  return Math.abs(amount) >= 1 ? formatCurrency(amount) : `$${Number(amount.toPrecision(3))}`;
}

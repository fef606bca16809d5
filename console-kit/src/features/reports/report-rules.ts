import type { Schemas } from '../../api/wire';

export const REPORT_PERIODS = ['day', 'week', 'month'] as const;
export type ReportPeriod = (typeof REPORT_PERIODS)[number];
export const REPORT_DIMENSIONS = ['model', 'user', 'token', 'group', 'channel'] as const;
export type ReportDimension = (typeof REPORT_DIMENSIONS)[number];

/** Consumption summed over a set of calls (`/api/report` totals and rows). */
export type ReportFigures = Schemas['ReportFigures'];

/** One period × key of a report. */
export type ReportRow = Schemas['ReportRow'];

/** `GET /api/report` and `/api/report/self` → data. */
export type Report = Schemas['Report'];

export interface ReportFilters {
  period: ReportPeriod;
  groupBy: ReportDimension;
  startTimestamp: number;
  endTimestamp: number;
  tokenName: string;
  modelName: string;
  group: string;
  /** Admins only. */
  username: string;
}

/** The dimensions a viewer may pick: channels are for administrators. */
export function dimensionsFor(admin: boolean): ReportDimension[] {
  return REPORT_DIMENSIONS.filter((d) => admin || d !== 'channel');
}

/** The report of every user (admins) or the caller's own. */
export function reportUrl(filters: ReportFilters, admin: boolean): string {
  const params = new URLSearchParams();
  params.set('period', filters.period);
  params.set('group_by', admin || filters.groupBy !== 'channel' ? filters.groupBy : 'model');
  params.set('start_timestamp', String(Math.max(0, Math.floor(filters.startTimestamp))));
  if (filters.endTimestamp > 0) {
    params.set('end_timestamp', String(Math.floor(filters.endTimestamp)));
  }
  const text: [string, string][] = [
    ['token_name', filters.tokenName],
    ['model_name', filters.modelName],
    ['group', filters.group],
  ];
  if (admin) {
    text.push(['username', filters.username]);
  }
  for (const [key, value] of text) {
    if (value.trim() !== '') {
      params.set(key, value.trim());
    }
  }
  return `${admin ? '/api/report/' : '/api/report/self'}?${params.toString()}`;
}

/** The same report as a CSV file. */
export function reportExportUrl(filters: ReportFilters, admin: boolean): string {
  return reportUrl(filters, admin).replace(/^\/api\/report\/(self)?\?/, (_m, self?: string) =>
    self ? '/api/report/self/export?' : '/api/report/export?',
  );
}

/** How a row's key reads: a user, token or channel id gets its name; a gone channel its id. */
export function rowLabel(
  row: ReportRow,
  dimension: ReportDimension,
  gone: (id: number | string) => string,
): string {
  if (dimension === 'channel' && !row.name) {
    return Number(row.key) === 0 ? '—' : gone(row.key);
  }
  return row.name || String(row.key) || '—';
}

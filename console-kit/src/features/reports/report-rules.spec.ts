import { describe, expect, it } from 'vitest';
import { emptyLogFilters } from '../../lib/log-filters';
import { countLines, fileNameOf, isEnvelope, logExportUrl, progressPercent } from '../../lib/log-export';
import { dimensionsFor, reportExportUrl, reportUrl, rowLabel, type ReportFilters } from './report-rules';

const filters: ReportFilters = {
  period: 'week',
  groupBy: 'channel',
  startTimestamp: 1000,
  endTimestamp: 2000,
  tokenName: ' key ',
  modelName: '',
  group: 'vip',
  username: 'alice',
};

describe('reportUrl', () => {
  it('sends every filter to admins', () => {
    expect(reportUrl(filters, true)).toBe(
      '/api/report/?period=week&group_by=channel&start_timestamp=1000&end_timestamp=2000&token_name=key&group=vip&username=alice',
    );
  });

  it('keeps users on their own report, without the channel dimension or a user name', () => {
    expect(reportUrl(filters, false)).toBe(
      '/api/report/self?period=week&group_by=model&start_timestamp=1000&end_timestamp=2000&token_name=key&group=vip',
    );
    expect(dimensionsFor(false)).not.toContain('channel');
    expect(reportExportUrl(filters, false)).toMatch(
      /^\/api\/report\/self\/export\?period=week&group_by=model&/,
    );
    expect(reportExportUrl(filters, true)).toMatch(/^\/api\/report\/export\?period=week&group_by=channel&/);
    expect(dimensionsFor(true)).toContain('channel');
  });

  it('names a deleted channel by its id', () => {
    const row = {
      period: '2026-11',
      period_start: 0,
      key: 7,
      name: '',
      requests: 1,
      quota: 1,
      prompt_tokens: 0,
      completion_tokens: 0,
    };
    expect(rowLabel(row, 'channel', (id) => `#${id} gone`)).toBe('#7 gone');
    expect(rowLabel({ ...row, name: 'main' }, 'channel', () => '')).toBe('main');
  });
});

describe('log export', () => {
  it('exports the filtered view in the chosen format', () => {
    const f = { ...emptyLogFilters(), startTimestamp: 10, endTimestamp: 20, username: 'bob', type: 2 };
    expect(logExportUrl(f, true, 'jsonl')).toBe(
      '/api/log/export?type=2&start_timestamp=10&end_timestamp=20&username=bob&format=jsonl',
    );
    expect(logExportUrl(f, false, 'csv')).toBe(
      '/api/log/self/export?type=2&start_timestamp=10&end_timestamp=20&format=csv',
    );
  });

  it('counts rows and never shows 100 % before the end', () => {
    expect(countLines(new TextEncoder().encode('a\nb\nc'))).toBe(2);
    expect(progressPercent({ rows: 51, total: 100, bytes: 0 }, true)).toBe(50);
    expect(progressPercent({ rows: 500, total: 100, bytes: 0 }, false)).toBe(99);
    expect(progressPercent({ rows: 5, total: 0, bytes: 0 }, false)).toBe(0);
  });

  it('takes the file name the server proposes', () => {
    expect(fileNameOf('attachment; filename="logs-20261125-120000.csv"', 'csv')).toBe(
      'logs-20261125-120000.csv',
    );
    expect(fileNameOf(null, 'jsonl')).toBe('logs.jsonl');
  });
});

describe('isEnvelope', () => {
  it('takes only application/json as the API envelope; JSON Lines and CSV are the file', () => {
    expect(isEnvelope('application/json; charset=utf-8')).toBe(true);
    expect(isEnvelope('Application/JSON')).toBe(true);
    expect(isEnvelope('application/x-ndjson; charset=utf-8')).toBe(false);
    expect(isEnvelope('text/csv; charset=utf-8')).toBe(false);
    expect(isEnvelope(null)).toBe(false);
  });
});

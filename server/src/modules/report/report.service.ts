import { Injectable } from '@nestjs/common';
import { stringify } from 'csv-stringify/sync';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In } from 'typeorm';
import {
  isTimeZone,
  offsetStretches,
  Period,
  PERIODS,
  periodLabel,
  periodStartDay,
  dayStartInstant,
  serverTimeZone,
} from '../../common/calendar';
import { fail } from '../../common/app-error';
import type { AuthUser } from '../../common/http/request-context';
import { nowSeconds } from '../../common/time';
import { Channel, LogEntry, LogType } from '../../database/entities';
import { applyLogFilter, LogFilter, parseLogFilter, text } from '../log';
import { OptionService } from '../option';

import type { UnknownObject as Raw } from '../../common/json';
import { Dimension, DIMENSIONS, Report, ReportRow } from './report.view';

/** A range without a start reaches back this far from its end. */
const DEFAULT_SPAN = 30 * 86_400;
/** At most this many local days per report (ten years). */
const MAX_DAYS = 3_700;
const DAY = 86_400;

/** The column a dimension groups by, and the name shown for it. */
const KEY: Record<Dimension, { key: string; name: string | null }> = {
  user: { key: 'l.user_id', name: 'MAX(l.username)' },
  token: { key: 'l.token_id', name: 'MAX(l.token_name)' },
  model: { key: 'l.model_name', name: null },
  channel: { key: 'l.channel_id', name: null },
  group: { key: 'l.group', name: null },
};

const invalid = (field: string, reason: string) => fail('log_param_invalid', { field, reason });

/**
 * Usage and spend by period (day, week, month in the operator's time zone) × one dimension, read from
 * the consumption logs themselves, so the totals equal the sum of the logs for the same filters.
 * The database groups by local day (one query per stretch of constant UTC offset); days are folded
 * into weeks and months here.
 */
@Injectable()
export class ReportService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
  ) {}

  /** The operator's time zone (option TimeZone), else the server's. */
  timeZone(): string {
    const zone = this.options.get('TimeZone');
    return zone && isTimeZone(zone) ? zone : serverTimeZone();
  }

  reportAll(query: Raw): Promise<Report> {
    return this.report(query, null);
  }

  reportOwn(me: AuthUser, query: Raw): Promise<Report> {
    return this.report(query, me.id);
  }

  /** A report as a CSV file: one line per row, then a total line (period `total`). */
  async csv(query: Raw, userId: number | null): Promise<{ filename: string; body: string }> {
    const r = await this.report(query, userId);
    const lines = [...r.rows, { period: 'total', period_start: '', key: '', name: '', ...r.totals }];
    const body = stringify(lines, {
      header: true,
      bom: true,
      columns: [
        'period',
        'period_start',
        'key',
        'name',
        'requests',
        'quota',
        'prompt_tokens',
        'completion_tokens',
      ],
      // A name starting like a formula is not run by a spreadsheet.
      cast: { string: (v) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v) },
    });
    const stamp = new Date().toISOString().slice(0, 10).replace(/-/g, '');
    return { filename: `report-${r.period}-${r.group_by}-${stamp}.csv`, body };
  }

  private async report(query: Raw, userId: number | null): Promise<Report> {
    const period = (text(query, 'period', 8) || 'day') as Period;
    if (!PERIODS.includes(period)) throw invalid('period', 'must be day, week or month');
    const groupBy = (text(query, 'group_by', 8) || 'model') as Dimension;
    if (!DIMENSIONS.includes(groupBy)) throw invalid('group_by', `must be one of ${DIMENSIONS.join(', ')}`);
    if (userId !== null && groupBy === 'channel') throw invalid('group_by', 'channel is for administrators');
    const f = parseLogFilter(query, userId === null);
    const zone = this.timeZone();

    const end = f.end || nowSeconds();
    let start = f.start;
    if (!('start_timestamp' in query)) start = end - DEFAULT_SPAN;
    else if (!start) start = await this.firstLog(f, userId, end);
    const empty: Report = {
      period,
      group_by: groupBy,
      time_zone: zone,
      start_timestamp: start,
      end_timestamp: end,
      rows: [],
      totals: { requests: 0, quota: 0, prompt_tokens: 0, completion_tokens: 0 },
    };
    if (start > end) return empty;
    if ((end - start) / DAY > MAX_DAYS)
      throw invalid('start_timestamp', `the range may span at most ${MAX_DAYS} days`);

    // (period start day, key) → figures
    const cells = new Map<string, ReportRow & { day: number }>();
    for (const stretch of offsetStretches(zone, start, end)) {
      const rows = await this.byDay(f, userId, groupBy, stretch.from, stretch.to, stretch.offset);
      for (const r of rows) {
        const first = periodStartDay(Number(r.day), period);
        const key = groupBy === 'model' || groupBy === 'group' ? String(r.k ?? '') : Number(r.k ?? 0);
        const id = `${first}\u0000${key}`;
        let cell = cells.get(id);
        if (!cell) {
          cell = {
            day: first,
            period_start: dayStartInstant(zone, first),
            period: periodLabel(first, period),
            key,
            name: typeof key === 'string' ? key : String(r.n ?? ''),
            requests: 0,
            quota: 0,
            prompt_tokens: 0,
            completion_tokens: 0,
          };
          cells.set(id, cell);
        }
        cell.requests += Number(r.requests);
        cell.quota += Number(r.quota);
        cell.prompt_tokens += Number(r.prompt);
        cell.completion_tokens += Number(r.completion);
      }
    }
    if (groupBy === 'channel') await this.nameChannels([...cells.values()]);

    const rows = [...cells.values()]
      .sort((a, b) => a.day - b.day || b.quota - a.quota || String(a.key).localeCompare(String(b.key)))
      .map(({ day: _day, ...row }) => row);
    const totals = rows.reduce(
      (t, r) => ({
        requests: t.requests + r.requests,
        quota: t.quota + r.quota,
        prompt_tokens: t.prompt_tokens + r.prompt_tokens,
        completion_tokens: t.completion_tokens + r.completion_tokens,
      }),
      empty.totals,
    );
    return { ...empty, rows, totals };
  }

  /** Consumption summed per local day and key over [from, to], where the zone's offset is `offset`. */
  private byDay(
    f: LogFilter,
    userId: number | null,
    groupBy: Dimension,
    from: number,
    to: number,
    offset: number,
  ) {
    // `offset` is an integer computed here (never user text): written into the expression so the
    // same SQL groups by it on every database.
    const shifted = `(l.created_at + (${Math.trunc(offset)}))`;
    const day = `((${shifted} - (${shifted} % ${DAY})) / ${DAY})`;
    const { key, name } = KEY[groupBy];
    const qb = this.ds
      .getRepository(LogEntry)
      .createQueryBuilder('l')
      .where('l.type = :consume', { consume: LogType.Consume });
    if (userId !== null) qb.andWhere('l.user_id = :uid', { uid: userId });
    applyLogFilter(qb, { ...f, start: 0, end: 0 }, { withType: false })
      .andWhere('l.created_at >= :from', { from })
      .andWhere('l.created_at <= :to', { to })
      .select(day, 'day')
      .addSelect(key, 'k')
      .addSelect('COUNT(*)', 'requests')
      .addSelect('COALESCE(SUM(l.quota), 0)', 'quota')
      .addSelect('COALESCE(SUM(l.prompt_tokens), 0)', 'prompt')
      .addSelect('COALESCE(SUM(l.completion_tokens), 0)', 'completion')
      .groupBy(day)
      .addGroupBy(key);
    if (name) qb.addSelect(name, 'n');
    return qb.getRawMany<{
      day: string | number;
      k: string | number | null;
      n?: string | null;
      requests: string | number;
      quota: string | number;
      prompt: string | number;
      completion: string | number;
    }>();
  }

  /** The earliest matching consumption log (an open start), or `end` when there is none. */
  private async firstLog(f: LogFilter, userId: number | null, end: number): Promise<number> {
    const qb = this.ds
      .getRepository(LogEntry)
      .createQueryBuilder('l')
      .where('l.type = :consume', { consume: LogType.Consume });
    if (userId !== null) qb.andWhere('l.user_id = :uid', { uid: userId });
    const row = await applyLogFilter(qb, { ...f, start: 0, end: 0 }, { withType: false })
      .select('MIN(l.created_at)', 'first')
      .getRawOne<{ first: string | number | null }>();
    return row?.first === null || row?.first === undefined ? end : Number(row.first);
  }

  private async nameChannels(rows: ReportRow[]): Promise<void> {
    const ids = [...new Set(rows.map((r) => Number(r.key)).filter((id) => id > 0))];
    if (!ids.length) return;
    const channels = await this.ds
      .getRepository(Channel)
      .find({ where: { id: In(ids) }, select: { id: true, name: true } });
    const names = new Map(channels.map((c) => [c.id, c.name]));
    for (const r of rows) r.name = names.get(Number(r.key)) ?? '';
  }
}

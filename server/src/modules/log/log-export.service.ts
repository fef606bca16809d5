import { Readable } from 'node:stream';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { stringify } from 'csv-stringify/sync';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { fail } from '../../common/app-error';
import type { AuthUser } from '../../common/http/request-context';
import type { Lang } from '../../common/i18n/messages';
import { Channel, LogEntry } from '../../database/entities';
import { applyLogFilter, LogFilter, parseLogFilter, text } from './log-query';
import { LogView, toAdminLogView, toLogView } from './log.view';

import type { UnknownObject as Raw } from '../../common/json';

export const EXPORT_FORMATS = ['csv', 'jsonl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Rows read per keyset query: a few hundred kilobytes at most, whatever the size of the export. */
export const EXPORT_BATCH = 1000;

const OWN_COLUMNS: Array<keyof LogView> = [
  'id',
  'created_at',
  'type',
  'username',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'group',
  'ip',
  'request_id',
  'content',
  'other',
];
const ADMIN_COLUMNS: string[] = [...OWN_COLUMNS, 'channel', 'channel_name', 'node_name'];

/**
 * A spreadsheet treats a cell starting with one of these as a formula: such text cells get a leading
 * apostrophe in CSV (JSON Lines keep the value as it is).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const cell = (v: unknown): unknown => (typeof v === 'string' && FORMULA_START.test(v) ? `'${v}` : v);

export interface LogExport {
  format: ExportFormat;
  /** Rows matching the filters when the export started (the console's progress bar). */
  total: number;
  contentType: string;
  filename: string;
  body: Readable;
}

/**
 * Streams a filtered log view (the same filters and order as the list: newest first) as CSV or JSON
 * Lines. Rows are read by keyset pages of EXPORT_BATCH over (created_at, id), each read only when the
 * client has taken the previous one, so memory stays flat however many rows match.
 */
@Injectable()
export class LogExportService {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Every user's logs (admins), with the channel and node columns. */
  exportAll(query: Raw, lang: Lang): Promise<LogExport> {
    return this.export(parseLogFilter(query, true), null, readFormat(query), true, lang);
  }

  /** The caller's own logs. */
  exportOwn(me: AuthUser, query: Raw, lang: Lang): Promise<LogExport> {
    return this.export(parseLogFilter(query, false), me.id, readFormat(query), false, lang);
  }

  private scoped(f: LogFilter, userId: number | null): SelectQueryBuilder<LogEntry> {
    const qb = this.ds.getRepository(LogEntry).createQueryBuilder('l');
    if (userId !== null) qb.where('l.user_id = :uid', { uid: userId });
    return applyLogFilter(qb, f);
  }

  private async export(
    f: LogFilter,
    userId: number | null,
    format: ExportFormat,
    admin: boolean,
    lang: Lang,
  ): Promise<LogExport> {
    const total = await this.scoped(f, userId).getCount();
    const names = admin ? await this.channelNames() : new Map<number, string>();
    const columns = admin ? ADMIN_COLUMNS : OWN_COLUMNS;
    const stamp = new Date().toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
    // One chunk of text per keyset page (not per row): a few hundred socket writes per 100k rows.
    const pages = async function* (self: LogExportService): AsyncGenerator<string> {
      let first = true;
      for await (const batch of self.batches(f, userId)) {
        const views = batch.map((l) => (admin ? toAdminLogView(l, names, lang) : toLogView(l, lang)));
        if (format === 'jsonl') yield views.map((v) => `${JSON.stringify(v)}\n`).join('');
        else yield csvText(views as unknown as Array<Record<string, unknown>>, columns, first);
        first = false;
      }
      if (first && format === 'csv') yield csvText([], columns, true);
    };
    return {
      format,
      total,
      contentType: format === 'jsonl' ? 'application/x-ndjson; charset=utf-8' : 'text/csv; charset=utf-8',
      filename: `logs-${stamp}.${format}`,
      body: Readable.from(pages(this), { objectMode: false }),
    };
  }

  /** Keyset pages, newest first: each query starts strictly after the last row of the previous one. */
  async *batches(f: LogFilter, userId: number | null): AsyncGenerator<LogEntry[]> {
    let after: { created: number; id: number } | null = null;
    for (;;) {
      const qb = this.scoped(f, userId);
      if (after) {
        qb.andWhere('l.created_at <= :kc', { kc: after.created }).andWhere(
          '(l.created_at < :kc OR l.id < :kid)',
          { kid: after.id },
        );
      }
      const rows = await qb
        .orderBy('l.created_at', 'DESC')
        .addOrderBy('l.id', 'DESC')
        .limit(EXPORT_BATCH)
        .getMany();
      if (!rows.length) return;
      yield rows;
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1];
      after = { created: Number(last.created_at), id: Number(last.id) };
    }
  }

  private async channelNames(): Promise<Map<number, string>> {
    const channels = await this.ds.getRepository(Channel).find({ select: { id: true, name: true } });
    return new Map(channels.map((c) => [c.id, c.name]));
  }
}

function readFormat(query: Raw): ExportFormat {
  const v = text(query, 'format', 8) || 'csv';
  if (!(EXPORT_FORMATS as readonly string[]).includes(v))
    throw fail('log_param_invalid', { field: 'format', reason: 'must be csv or jsonl' });
  return v as ExportFormat;
}

/** Rows as CSV text; the first page carries a byte-order mark (spreadsheets then read UTF-8) and the header. */
function csvText(rows: Array<Record<string, unknown>>, columns: string[], first: boolean): string {
  return stringify(rows, {
    header: first,
    bom: first,
    columns,
    cast: { boolean: (v) => (v ? 'true' : 'false'), string: (v) => String(cell(v)) },
  });
}

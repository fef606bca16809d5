import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { fail } from '../../common/app-error';
import type { AuthUser } from '../../common/http/request-context';
import { escapeLike, LIKE_ESCAPE } from '../../common/pagination';
import { nowSeconds } from '../../common/time';
import { QuotaData, User } from '../../database/entities';
import { text, timestamp } from '../log';
import { OptionService } from '../option';
import { bucketStart, Granularity, isGranularity } from './buckets';

import type { UnknownObject as Raw } from '../../common/json';

/** Usage of one model in one time bucket. */
export class QuotaPoint {
  @ApiProperty() model_name!: string;
  /** Start of the bucket, unix seconds. */
  @ApiProperty() created_at!: number;
  /** Successful requests. */
  @ApiProperty() count!: number;
  @ApiProperty() quota!: number;
  @ApiProperty() token_used!: number;
  /** The one user the series is about (new-api's field); 0 for everyone's. */
  @ApiProperty({ description: 'the user the series is about; 0 when it sums everyone' }) user_id!: number;
  @ApiProperty({ description: "that user's name; empty when it sums everyone" }) username!: string;
}

/** Usage of one user in one time bucket (`GET /api/data/users`, new-api's per-user series). */
export class UserQuotaPoint {
  @ApiProperty() user_id!: number;
  @ApiProperty() username!: string;
  /** Start of the bucket, unix seconds. */
  @ApiProperty() created_at!: number;
  @ApiProperty() count!: number;
  @ApiProperty() quota!: number;
  @ApiProperty() token_used!: number;
}

/** Without a start time the dashboard shows this far back from the end. */
export const DEFAULT_RANGE_SECONDS = 7 * 24 * 3600;

interface DataQuery {
  start: number;
  end: number;
  granularity: Granularity;
  modelName: string;
}

/**
 * The dashboard (`/detail`): consumption per model over time, from the quota_data aggregates the
 * ledger writes when requests settle. Buckets are hours, days or weeks in the server's time zone.
 */
@Injectable()
export class DashboardService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly options: OptionService,
  ) {}

  private parse(query: Raw): DataQuery {
    const end = timestamp(query, 'end_timestamp') || nowSeconds();
    // An explicit 0 means "from the beginning"; no start at all, the default range.
    const start = text(query, 'start_timestamp', 20)
      ? timestamp(query, 'start_timestamp')
      : Math.max(0, end - DEFAULT_RANGE_SECONDS);
    const raw = text(query, 'default_time', 10) || text(query, 'granularity', 10);
    const granularity = raw || this.options.get('DataExportDefaultTime') || 'hour';
    if (!isGranularity(granularity)) throw fail('data_granularity_invalid');
    return { start, end, granularity, modelName: text(query, 'model_name') };
  }

  /** Everyone's usage (admins), or one user's by exact user name. */
  async all(query: Raw): Promise<QuotaPoint[]> {
    const q = this.parse(query);
    const username = text(query, 'username', 64);
    if (!username) return this.points(q, null, { user_id: 0, username: '' });
    const user = await this.ds.getRepository(User).findOne({ where: { username }, select: { id: true } });
    return this.points(q, user ? { userId: user.id } : { username }, { user_id: user?.id ?? 0, username });
  }

  own(me: AuthUser, query: Raw): Promise<QuotaPoint[]> {
    return this.points(this.parse(query), { userId: me.id }, { user_id: me.id, username: me.username });
  }

  /** Usage per user and time bucket (admins), all models summed; optionally one user by exact name. */
  async byUser(query: Raw): Promise<UserQuotaPoint[]> {
    const q = this.parse(query);
    if (q.start > q.end) return [];
    const qb = this.ds
      .getRepository(QuotaData)
      .createQueryBuilder('q')
      .select('q.user_id', 'user_id')
      .addSelect('q.username', 'username')
      .addSelect('q.created_at', 'created_at')
      .addSelect('SUM(q.count)', 'count')
      .addSelect('SUM(q.quota)', 'quota')
      .addSelect('SUM(q.token_used)', 'token_used')
      .where('q.created_at >= :start AND q.created_at <= :end', { start: q.start, end: q.end })
      .groupBy('q.user_id')
      .addGroupBy('q.username')
      .addGroupBy('q.created_at');
    const username = text(query, 'username', 64);
    if (username) qb.andWhere('q.username = :uname', { uname: username });
    if (q.modelName)
      qb.andWhere(`q.model_name LIKE :model ${LIKE_ESCAPE}`, { model: `%${escapeLike(q.modelName)}%` });
    const rows = await qb.getRawMany<Record<keyof UserQuotaPoint, string | number>>();
    const out = new Map<string, UserQuotaPoint>();
    for (const r of rows) {
      const at = bucketStart(Number(r.created_at), q.granularity);
      const userId = Number(r.user_id);
      const key = `${at}\u0000${userId}`;
      const p = out.get(key) ?? {
        user_id: userId,
        username: String(r.username),
        created_at: at,
        count: 0,
        quota: 0,
        token_used: 0,
      };
      p.count += Number(r.count);
      p.quota += Number(r.quota);
      p.token_used += Number(r.token_used);
      out.set(key, p);
    }
    return [...out.values()].sort((a, b) => a.created_at - b.created_at || a.user_id - b.user_id);
  }

  private async points(
    q: DataQuery,
    who: { userId: number } | { username: string } | null,
    owner: Pick<QuotaPoint, 'user_id' | 'username'>,
  ): Promise<QuotaPoint[]> {
    if (q.start > q.end) return [];
    const qb = this.ds
      .getRepository(QuotaData)
      .createQueryBuilder('q')
      .select('q.model_name', 'model_name')
      .addSelect('q.created_at', 'created_at')
      .addSelect('SUM(q.count)', 'count')
      .addSelect('SUM(q.quota)', 'quota')
      .addSelect('SUM(q.token_used)', 'token_used')
      .where('q.created_at >= :start AND q.created_at <= :end', { start: q.start, end: q.end })
      .groupBy('q.model_name')
      .addGroupBy('q.created_at');
    if (who && 'userId' in who) qb.andWhere('q.user_id = :uid', { uid: who.userId });
    else if (who) qb.andWhere('q.username = :uname', { uname: who.username });
    if (q.modelName)
      qb.andWhere(`q.model_name LIKE :model ${LIKE_ESCAPE}`, { model: `%${escapeLike(q.modelName)}%` });
    const rows = await qb.getRawMany<Record<keyof QuotaPoint, string | number>>();

    const out = new Map<string, QuotaPoint>();
    for (const r of rows) {
      const model = String(r.model_name);
      const at = bucketStart(Number(r.created_at), q.granularity);
      const key = `${at}\u0000${model}`;
      const p = out.get(key) ?? {
        model_name: model,
        created_at: at,
        count: 0,
        quota: 0,
        token_used: 0,
        ...owner,
      };
      p.count += Number(r.count);
      p.quota += Number(r.quota);
      p.token_used += Number(r.token_used);
      out.set(key, p);
    }
    return [...out.values()].sort(
      (a, b) =>
        a.created_at - b.created_at ||
        (a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0),
    );
  }
}

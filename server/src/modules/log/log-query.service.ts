import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, IsNull, SelectQueryBuilder } from 'typeorm';
import { fail } from '../../common/app-error';
import type { AuthUser } from '../../common/http/request-context';
import { getDefaultLang, Lang } from '../../common/i18n/messages';
import { Page, pageOf, PageQuery, parsePage } from '../../common/pagination';
import { nowSeconds } from '../../common/time';
import { Channel, LogEntry, LogType, Token, TokenStatus, User, UserStatus } from '../../database/entities';
import { CryptoService } from '../../common/crypto.service';
import { applyLogFilter, LogFilter, parseLogFilter, text, timestamp } from './log-query';
import { LogService } from './log.service';
import { AdminLogView, LogView, toAdminLogView, toLogView } from './log.view';

import type { UnknownObject as Raw } from '../../common/json';

/** The usage summary of the log screens. */
export class LogStat {
  /** Quota consumed by the matching consumption logs in the time range. */
  @ApiProperty() quota!: number;
  /** Matching consumption logs of the last 60 seconds. */
  @ApiProperty() rpm!: number;
  /** Their prompt + completion tokens. */
  @ApiProperty() tpm!: number;
}

export class UserSummary {
  @ApiProperty() username!: string;
  @ApiProperty() quota!: number;
  @ApiProperty() used_quota!: number;
  @ApiProperty() request_count!: number;
}

/** Rows one DELETE statement removes at most (keeps locks short on a large table). */
const DELETE_CHUNK = 1000;
/** `GET /api/log/token` without paging parameters answers this many newest rows (new-api's default). */
const TOKEN_LOG_RECENT = 100;
const PAGE_PARAMS = ['p', 'page_size', 'size', 'ps'];
/** rpm / tpm look this far back. */
const RATE_WINDOW_SECONDS = 60;

/**
 * Reading the usage logs (admins: everyone's; users: their own; a token: its own, by key), their
 * summary, and clearing old ones. Lists are newest first.
 */
@Injectable()
export class LogQueryService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly crypto: CryptoService,
    private readonly logs: LogService,
  ) {}

  private base(): SelectQueryBuilder<LogEntry> {
    return this.ds.getRepository(LogEntry).createQueryBuilder('l');
  }

  /** One page of a filtered query; the rows are read only when the page is not past the end. */
  private async page(
    qb: SelectQueryBuilder<LogEntry>,
    q: PageQuery,
  ): Promise<{ rows: LogEntry[]; total: number }> {
    const total = await qb.clone().getCount();
    if (q.offset >= total) return { rows: [], total };
    const rows = await qb
      .orderBy('l.created_at', 'DESC')
      .addOrderBy('l.id', 'DESC')
      .offset(q.offset)
      .limit(q.pageSize)
      .getMany();
    return { rows, total };
  }

  async listAll(query: Raw, lang: Lang = getDefaultLang()): Promise<Page<AdminLogView>> {
    const f = parseLogFilter(query, true);
    const q = parsePage(query);
    const { rows, total } = await this.page(applyLogFilter(this.base(), f), q);
    const names = await this.channelNames(rows);
    return pageOf(
      rows.map((l) => toAdminLogView(l, names, lang)),
      total,
      q,
    );
  }

  async listOwn(me: AuthUser, query: Raw, lang: Lang = getDefaultLang()): Promise<Page<LogView>> {
    const f = parseLogFilter(query, false);
    const q = parsePage(query);
    const qb = applyLogFilter(this.base().where('l.user_id = :uid', { uid: me.id }), f);
    const { rows, total } = await this.page(qb, q);
    return pageOf(
      rows.map((l) => toLogView(l, lang)),
      total,
      q,
    );
  }

  statAll(query: Raw): Promise<LogStat> {
    return this.stat(parseLogFilter(query, true), null);
  }

  statOwn(me: AuthUser, query: Raw): Promise<LogStat> {
    return this.stat(parseLogFilter(query, false), me.id);
  }

  /**
   * `quota`: the consumption logs matching the filters and the time range; `rpm`/`tpm`: those of the
   * last minute matching the same filters (the time range aside). The type filter does not apply: the
   * summary is about consumption.
   */
  private async stat(f: LogFilter, userId: number | null): Promise<LogStat> {
    const scoped = () => {
      const qb = this.base().where('l.type = :consume', { consume: LogType.Consume });
      if (userId !== null) qb.andWhere('l.user_id = :uid', { uid: userId });
      return qb;
    };
    const sum = await applyLogFilter(scoped(), f, { withType: false })
      .select('COALESCE(SUM(l.quota), 0)', 'quota')
      .getRawOne<{ quota: string | number | null }>();
    const rate = await applyLogFilter(scoped(), f, { withType: false, withTime: false })
      .andWhere('l.created_at >= :since', { since: nowSeconds() - RATE_WINDOW_SECONDS })
      .select('COUNT(*)', 'rpm')
      .addSelect('COALESCE(SUM(l.prompt_tokens), 0) + COALESCE(SUM(l.completion_tokens), 0)', 'tpm')
      .getRawOne<{ rpm: string | number | null; tpm: string | number | null }>();
    return { quota: Number(sum?.quota ?? 0), rpm: Number(rate?.rpm ?? 0), tpm: Number(rate?.tpm ?? 0) };
  }

  /**
   * Deletes every log written before `target_timestamp` (seconds), in chunks; returns how many. The
   * clean-up itself is recorded as a management log of the admin who ran it.
   */
  async deleteBefore(actor: AuthUser, query: Raw): Promise<number> {
    const target = timestamp(query, 'target_timestamp');
    if (!target) throw fail('log_target_required');
    const repo = this.ds.getRepository(LogEntry);
    let deleted = 0;
    for (;;) {
      const ids = (
        await this.base()
          .select('l.id', 'id')
          .where('l.created_at < :target', { target })
          .orderBy('l.id', 'ASC')
          .limit(DELETE_CHUNK)
          .getRawMany<{ id: number | string }>()
      ).map((r) => Number(r.id));
      if (!ids.length) break;
      const res = await repo.delete({ id: In(ids) });
      deleted += res.affected ?? ids.length;
      if (ids.length < DELETE_CHUNK) break;
    }
    const before = new Date(target * 1000)
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC');
    await this.logs.record({
      userId: actor.id,
      username: actor.username,
      type: LogType.Manage,
      content: { key: 'log_text_logs_deleted', params: { before, count: deleted, actor: actor.username } },
    });
    return deleted;
  }

  /**
   * The logs of one API token, found by its key (`Authorization: Bearer sk-…` or `?key=`), as its owner
   * sees them. A disabled or deleted token, or one whose user is banned or deregistered, reads nothing.
   */
  async listByKey(
    authorization: string | undefined,
    query: Raw,
    lang: Lang = getDefaultLang(),
  ): Promise<Page<LogView> | LogView[]> {
    const header =
      typeof authorization === 'string' ? authorization.trim().replace(/^Bearer(\s+|$)/i, '') : '';
    const key = text(query, 'key', 200) || header;
    if (!key) throw fail('log_token_required');
    let bare = key.startsWith('sk-') ? key.slice(3) : key;
    // A channel-pinned key (`sk-<key>-<channel id>`) names the same token.
    bare = bare.replace(/-\d{1,9}$/, '');
    if (!/^[A-Za-z0-9]{16,128}$/.test(bare)) throw fail('log_token_invalid');
    const token = await this.ds
      .getRepository(Token)
      .findOneBy({ key_hash: this.crypto.keyedHash(bare), deleted_at: IsNull() });
    if (!token) throw fail('log_token_invalid');
    if (token.status === TokenStatus.Disabled) throw fail('log_token_disabled');
    const user = await this.ds.getRepository(User).findOneBy({ id: token.user_id });
    if (!user || user.deleted_at !== null || user.status !== UserStatus.Enabled)
      throw fail('log_token_user_unavailable');

    const f = parseLogFilter(query, false);
    const q = parsePage(query);
    const qb = applyLogFilter(
      this.base()
        .where('l.token_id = :tid', { tid: token.id })
        .andWhere('l.user_id = :uid', { uid: token.user_id })
        .andWhere('l.type IN (:...types)', { types: [LogType.Consume, LogType.Error] }),
      f,
    );
    if (!PAGE_PARAMS.some((p) => query[p] !== undefined)) {
      // new-api's form (key-balance pages read `data` as the list): the newest rows, no paging.
      const rows = await qb
        .orderBy('l.created_at', 'DESC')
        .addOrderBy('l.id', 'DESC')
        .limit(TOKEN_LOG_RECENT)
        .getMany();
      return rows.map((l) => toLogView(l, lang));
    }
    const { rows, total } = await this.page(qb, q);
    return pageOf(
      rows.map((l) => toLogView(l, lang)),
      total,
      q,
    );
  }

  /** The log's user-info popup (admins, any user): balance and usage counters. */
  async userSummary(id: number): Promise<UserSummary> {
    const user =
      Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647
        ? await this.ds.getRepository(User).findOne({
            where: { id },
            select: { id: true, username: true, quota: true, used_quota: true, request_count: true },
          })
        : null;
    if (!user) throw fail('user_not_found');
    return {
      username: user.username,
      quota: Number(user.quota),
      used_quota: Number(user.used_quota),
      request_count: Number(user.request_count),
    };
  }

  private async channelNames(rows: LogEntry[]): Promise<Map<number, string>> {
    const ids = [...new Set(rows.map((r) => r.channel_id).filter((id) => id > 0))];
    const names = new Map<number, string>();
    if (!ids.length) return names;
    const channels = await this.ds
      .getRepository(Channel)
      .find({ where: { id: In(ids) }, select: { id: true, name: true } });
    for (const c of channels) names.set(c.id, c.name);
    return names;
  }
}

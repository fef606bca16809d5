import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, SelectQueryBuilder } from 'typeorm';
import { fail } from '../../common/app-error';
import type { AuthUser } from '../../common/http/request-context';
import { escapeLike, LIKE_ESCAPE, Page, pageOf, parsePage } from '../../common/pagination';
import { nowSeconds } from '../../common/time';
import { Redemption, RedemptionStatus } from '../../database/entities';
import { isRowId } from '../../common/ids';
import { WalletCreditService } from '../topup';
import {
  checkCount,
  checkExpiry,
  checkName,
  checkQuota,
  isExpired,
  REDEMPTION_KEY_MAX,
} from './redemption-rules';
import { toRedemptionView, RedemptionView } from './redemption.view';

import type { UnknownObject as Raw } from '../../common/json';

const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** A JSON body that is not an object (an array, a string, a number) carries no fields: refuse it. */
function assertObject(raw: unknown): asserts raw is Raw {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw fail('invalid_params');
}

/**
 * Redemption codes: administration (deleted codes are soft-deleted and invisible) and redeeming. A code
 * credits once: the redeem flips it from unused to used with a conditional UPDATE in the same
 * transaction as the balance change and its top-up log, so of any number of concurrent attempts
 * exactly one wins.
 */
@Injectable()
export class RedemptionService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly wallet: WalletCreditService,
  ) {}

  private get repo() {
    return this.ds.getRepository(Redemption);
  }

  private live(): SelectQueryBuilder<Redemption> {
    return this.repo.createQueryBuilder('r').where('r.deleted_at IS NULL');
  }

  async list(query: Raw): Promise<Page<RedemptionView>> {
    const q = parsePage(query);
    const qb = this.live();
    this.statusFilter(qb, query.status);
    const [rows, total] = await qb.orderBy('r.id', 'DESC').skip(q.offset).take(q.pageSize).getManyAndCount();
    return pageOf(rows.map(toRedemptionView), total, q);
  }

  /** `keyword`: the id (when numeric), or part of the name or of the code, matched literally. */
  async search(query: Raw): Promise<Page<RedemptionView>> {
    const q = parsePage(query);
    const qb = this.live();
    const kw = str(query.keyword);
    if (kw) {
      const like = `%${escapeLike(kw)}%`;
      qb.andWhere(
        new Brackets((w) => {
          if (/^\d{1,10}$/.test(kw)) w.orWhere('r.id = :id', { id: Number(kw) });
          w.orWhere(`r.name LIKE :like ${LIKE_ESCAPE}`, { like }).orWhere(`r.key LIKE :like ${LIKE_ESCAPE}`, {
            like,
          });
        }),
      );
    }
    this.statusFilter(qb, query.status);
    const [rows, total] = await qb.orderBy('r.id', 'DESC').skip(q.offset).take(q.pageSize).getManyAndCount();
    return pageOf(rows.map(toRedemptionView), total, q);
  }

  /** `status`: 1 (unused and not expired), 2, 3, or `expired` (unused but past its expiry). */
  private statusFilter(qb: SelectQueryBuilder<Redemption>, raw: unknown): void {
    const status = str(raw);
    if (!status) return;
    const now = nowSeconds();
    switch (status) {
      case '1':
        qb.andWhere('r.status = 1 AND (r.expired_time = 0 OR r.expired_time > :now)', { now });
        break;
      case '2':
      case '3':
        qb.andWhere('r.status = :status', { status: Number(status) });
        break;
      case 'expired':
        qb.andWhere('r.status = 1 AND r.expired_time <> 0 AND r.expired_time <= :now', { now });
        break;
      default:
        throw fail('field_invalid', { field: 'status', reason: 'one of 1, 2, 3, expired' });
    }
  }

  async get(id: number): Promise<RedemptionView> {
    return toRedemptionView(await this.mustFind(id));
  }

  /** Creates `count` codes in one transaction → the codes. An empty name becomes the formatted quota. */
  async create(me: AuthUser, raw: unknown): Promise<string[]> {
    assertObject(raw);
    const now = nowSeconds();
    const quota = checkQuota(raw.quota);
    const name = checkName(raw.name, this.wallet.fmt(quota));
    const expiredTime = checkExpiry(raw.expired_time, now);
    const count = checkCount(raw.count);
    const keys = Array.from({ length: count }, () => randomUUID().replace(/-/g, ''));
    await this.ds.transaction(async (m) => {
      await m.getRepository(Redemption).insert(
        keys.map((key) => ({
          user_id: me.id,
          key,
          status: RedemptionStatus.Unused,
          name,
          quota,
          created_time: now,
          redeemed_time: 0,
          used_user_id: 0,
          expired_time: expiredTime,
        })),
      );
    });
    return keys;
  }

  /**
   * Edits an unused code (name, quota, expiry); with `statusOnly` enables or disables a code that is not
   * used. Conditional on the status, so a code redeemed meanwhile is never changed.
   */
  async update(raw: unknown, statusOnly: boolean): Promise<RedemptionView> {
    assertObject(raw);
    const code = await this.mustFind(raw.id);
    if (statusOnly) {
      const status = raw.status;
      if (status !== RedemptionStatus.Unused && status !== RedemptionStatus.Disabled)
        throw fail('redemption_status_invalid');
      if (code.status === RedemptionStatus.Used) throw fail('redemption_used_locked');
      const res = await this.repo
        .createQueryBuilder()
        .update(Redemption)
        .set({ status })
        .where('id = :id AND status IN (:...allowed) AND deleted_at IS NULL', {
          id: code.id,
          allowed: [RedemptionStatus.Unused, RedemptionStatus.Disabled],
        })
        .execute();
      if (!res.affected) throw fail('redemption_used_locked');
      return this.get(code.id);
    }
    if (code.status !== RedemptionStatus.Unused) throw fail('redemption_only_unused_editable');
    const changes: Partial<Redemption> = {};
    if (raw.name !== undefined) changes.name = checkName(raw.name);
    if (raw.quota !== undefined) changes.quota = checkQuota(raw.quota);
    // The edit form sends the stored expiry back unchanged even when it has passed.
    if (raw.expired_time !== undefined && raw.expired_time !== Number(code.expired_time))
      changes.expired_time = checkExpiry(raw.expired_time, nowSeconds());
    if (Object.keys(changes).length) {
      const res = await this.repo
        .createQueryBuilder()
        .update(Redemption)
        .set(changes)
        .where('id = :id AND status = :unused AND deleted_at IS NULL', {
          id: code.id,
          unused: RedemptionStatus.Unused,
        })
        .execute();
      if (!res.affected) throw fail('redemption_only_unused_editable');
    }
    return this.get(code.id);
  }

  async remove(id: number): Promise<void> {
    const code = await this.mustFind(id);
    const res = await this.repo
      .createQueryBuilder()
      .update(Redemption)
      .set({ deleted_at: nowSeconds() })
      .where('id = :id AND deleted_at IS NULL', { id: code.id })
      .execute();
    if (!res.affected) throw fail('redemption_not_found');
  }

  /** Deletes every used, disabled or expired code → how many. */
  async removeInvalid(): Promise<number> {
    const now = nowSeconds();
    const res = await this.repo
      .createQueryBuilder()
      .update(Redemption)
      .set({ deleted_at: now })
      .where('deleted_at IS NULL')
      .andWhere(
        new Brackets((w) => {
          w.where('status IN (:...gone)', {
            gone: [RedemptionStatus.Disabled, RedemptionStatus.Used],
          }).orWhere('status = :unused AND expired_time <> 0 AND expired_time <= :now', {
            unused: RedemptionStatus.Unused,
            now,
          });
        }),
      )
      .execute();
    return res.affected ?? 0;
  }

  /** Redeems a code for the caller → the quota credited. */
  async redeem(me: AuthUser, body: unknown): Promise<number> {
    assertObject(body);
    const rawKey = body.key;
    if (rawKey === undefined || rawKey === null || (typeof rawKey === 'string' && !rawKey.trim()))
      throw fail('redemption_key_required');
    if (typeof rawKey !== 'string') throw fail('redemption_invalid');
    const key = rawKey.trim();
    if (key.length > REDEMPTION_KEY_MAX) throw fail('redemption_invalid');
    const code = await this.repo.findOneBy({ key });
    // MariaDB compares text case-insensitively: a code matches only as it was issued, on every database.
    if (!code || code.key !== key || code.deleted_at !== null) throw fail('redemption_invalid');
    this.assertRedeemable(code);
    const credit = await this.wallet.creditOnce(async (m) => {
      const now = nowSeconds();
      const res = await m
        .createQueryBuilder()
        .update(Redemption)
        .set({ status: RedemptionStatus.Used, used_user_id: me.id, redeemed_time: now })
        .where('id = :id AND status = :unused AND deleted_at IS NULL', {
          id: code.id,
          unused: RedemptionStatus.Unused,
        })
        .andWhere('(expired_time = 0 OR expired_time > :now)', { now })
        .execute();
      if (!res.affected) return null;
      return {
        userId: me.id,
        quota: Number(code.quota),
        content: (q: string) => ({ key: 'log_text_redeemed', params: { amount: q, id: code.id } }),
        other: { redemption_id: code.id },
      };
    });
    if (credit) return credit.quota;
    // Lost to a concurrent redeem (or a change made meanwhile): say why, from the row as it is now.
    const now = await this.repo.findOneBy({ id: code.id });
    if (!now || now.deleted_at !== null) throw fail('redemption_invalid');
    this.assertRedeemable(now);
    throw fail('redemption_used');
  }

  private assertRedeemable(code: Redemption): void {
    if (code.status === RedemptionStatus.Used) throw fail('redemption_used');
    if (code.status !== RedemptionStatus.Unused) throw fail('redemption_disabled');
    if (isExpired(Number(code.expired_time), nowSeconds())) throw fail('redemption_expired');
  }

  private async mustFind(id: unknown): Promise<Redemption> {
    const code = isRowId(id) ? await this.repo.findOneBy({ id }) : null;
    if (!code || code.deleted_at !== null) throw fail('redemption_not_found');
    return code;
  }
}

import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError, fail } from '../../common/app-error';
import { LogType, User } from '../../database/entities';
import type { LogText } from '../log';
import { LogService } from '../log';
import { OptionService } from '../option';
import { formatQuota } from '../user';
import { UserCacheService } from '../user';
import { UserService } from '../user';

/** What a claim took: whose balance grows, by how much, and the top-up log's text. */
export interface Credit {
  userId: number;
  quota: number;
  /** The log text; receives the quota as people read it. */
  content: (formattedQuota: string) => LogText;
  other?: Record<string, unknown>;
}

/**
 * Money coming in (redemption codes, paid orders, manual completion). One transaction holds three
 * writes: the claim (a conditional UPDATE that flips a code to used or an order to success, so only
 * one caller ever wins), the balance delta (`quota + n`, never a cached value written back) and the
 * type-1 top-up log that explains it. After the commit the user cache is told, as an admin's
 * add_quota does, so the relay's balance view follows at once on every node.
 * Concurrent claims are decided by the conditional UPDATE's row lock (on SQLite, transactions run one
 * at a time: server/src/database/sqlite-serial.ts).
 */
@Injectable()
export class WalletCreditService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly users: UserService,
    private readonly cache: UserCacheService,
    private readonly logs: LogService,
    private readonly options: OptionService,
  ) {}

  /** Quota as people read it (dollars in currency mode). */
  fmt(quota: number): string {
    return formatQuota(
      quota,
      this.options.num('QuotaPerUnit'),
      this.options.bool('DisplayInCurrencyEnabled'),
    );
  }

  /**
   * Runs `claim` in a transaction; when it returns a credit, the balance and the log are written in the
   * same transaction. Returns the credit, or null when the claim lost (nothing was written).
   */
  async creditOnce(claim: (m: EntityManager) => Promise<Credit | null>): Promise<Credit | null> {
    const credit = await this.ds.transaction(async (m) => {
      const c = await claim(m);
      if (!c) return null;
      try {
        await this.users.applyQuotaDelta(m, c.userId, c.quota, null);
      } catch (e) {
        if (e instanceof AppError && e.key === 'quota_invalid') throw fail('wallet_balance_overflow');
        throw e;
      }
      const user = await m
        .getRepository(User)
        .findOne({ where: { id: c.userId }, select: { id: true, username: true } });
      await this.logs.record(
        {
          userId: c.userId,
          username: user?.username ?? '',
          type: LogType.TopUp,
          content: c.content(this.fmt(c.quota)),
          quota: c.quota,
          other: c.other,
        },
        m,
      );
      return c;
    });
    if (credit) this.cache.invalidate(credit.userId);
    return credit;
  }
}

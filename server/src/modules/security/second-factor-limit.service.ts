import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyRequest } from 'fastify';
import { DataSource, LessThan } from 'typeorm';
import { fail } from '../../common/app-error';
import { nowSeconds } from '../../common/time';
import { SecondFactorFailure, User } from '../../database/entities';
import { MailService } from '../mail';
import { OptionService } from '../option';
import { AuditService } from './audit.service';

/** Failures of one account counted over this window (seconds). */
export const FAILURE_WINDOW = 3600;
/** From this many failures on, each next attempt waits: 1 s, 2 s, 4 s, 8 s, 16 s. */
export const DELAY_AFTER = 5;
/** This many failures lock the second step of the account… */
export const LOCK_AFTER = 10;
/** …for this long (seconds); the count starts again afterwards. */
export const LOCK_SECONDS = 900;
/** A waiting sign-in ends after this many failures (the password step must be done again). */
export const SIGNIN_FAILURES = 5;

/** What a second-factor attempt is for: the audit entry names it. */
export type SecondFactorStep = 'login' | 'step_up';

/** An attempt counted before its check; `succeeded` or `failed` settles it. */
export interface SecondFactorAttempt {
  succeeded(): Promise<void>;
  failed(): Promise<void>;
}

interface Scope {
  key: string;
  limit: number;
  /** Seconds the row lives from its first failure. */
  ttl: number;
}

/**
 * The second-factor failure limit shared by every second-factor path (TOTP and recovery codes at
 * sign-in and step-up, passkey assertions of a known user), per account and per waiting sign-in, in
 * the database so that every node counts the same failures whatever the client address.
 *
 * Per account: at most {@link LOCK_AFTER} failures in an hour; from the {@link DELAY_AFTER}th on each
 * next attempt waits twice as long as the one before; the {@link LOCK_AFTER}th locks the second step for
 * {@link LOCK_SECONDS} (the right code is refused too), then counting starts again: at most about 40
 * failures an hour. A success sets the account's count back to zero. Per waiting sign-in: after
 * {@link SIGNIN_FAILURES} failures it ends. Each failure and each lock is written to the audit trail,
 * and the user is told of a lock by e-mail when SMTP is configured.
 *
 * An attempt is counted before the code is checked, by a conditional increment that refuses once the
 * limit is reached, so guesses sent in parallel cannot run past it.
 */
@Injectable()
export class SecondFactorLimit {
  private readonly logger = new Logger('SecondFactor');

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly audit: AuditService,
    private readonly mail: MailService,
    private readonly options: OptionService,
  ) {}

  private repo() {
    return this.ds.getRepository(SecondFactorFailure);
  }

  /**
   * Counts an attempt of `user` (and of the waiting sign-in `signin`, when there is one) before the
   * factor is checked; refuses while the second step is locked or must wait, and when the sign-in has
   * used up its attempts (`onSigninEnded` runs then, to drop its cookie).
   */
  async begin(
    req: FastifyRequest,
    user: Pick<User, 'id' | 'username' | 'role' | 'status' | 'group' | 'email'>,
    step: SecondFactorStep,
    signin?: { nonce: string; expiresAt: number; onEnded: () => void },
  ): Promise<SecondFactorAttempt> {
    const now = nowSeconds();
    if (Math.random() < 0.01) void this.sweep(now);
    if (signin) {
      const s = { key: `signin:${signin.nonce}`, limit: SIGNIN_FAILURES, ttl: signin.expiresAt - now };
      if (!(await this.reserve(s, now))) {
        signin.onEnded();
        throw fail('two_factor_pending_missing');
      }
    }
    const account: Scope = { key: `user:${user.id}`, limit: LOCK_AFTER, ttl: FAILURE_WINDOW };
    if (!(await this.reserve(account, now))) {
      const row = await this.repo().findOneBy({ scope: account.key });
      if (row && row.locked_until > now)
        throw fail('two_factor_locked', { minutes: Math.ceil((row.locked_until - now) / 60) });
      throw fail('two_factor_slow_down', { seconds: Math.max(1, (row?.next_at ?? now) - now) });
    }
    let settled = false;
    return {
      succeeded: async () => {
        if (settled) return;
        settled = true;
        await this.repo().update(
          { scope: account.key },
          { failures: 0, next_at: 0, locked_until: 0, window_start: nowSeconds() },
        );
      },
      failed: async () => {
        if (settled) return;
        settled = true;
        await this.failed(req, user, step, account.key);
      },
    };
  }

  /**
   * Takes one attempt of the scope's allowance: false when the limit is reached, the scope is locked or
   * its delay has not passed. The increment is one conditional UPDATE, so it is atomic on every node.
   */
  private async reserve(scope: Scope, now: number): Promise<boolean> {
    const repo = this.repo();
    await repo
      .createQueryBuilder()
      .insert()
      .into(SecondFactorFailure)
      .values({
        scope: scope.key,
        failures: 0,
        window_start: now,
        next_at: 0,
        locked_until: 0,
        expires_at: now + scope.ttl,
      })
      .orIgnore()
      .execute();
    // A window that has passed, or a lock that has ended, starts the count again.
    await repo
      .createQueryBuilder()
      .update(SecondFactorFailure)
      .set({ failures: 0, window_start: now, next_at: 0, locked_until: 0, expires_at: now + scope.ttl })
      .where('scope = :scope AND locked_until <= :now', { scope: scope.key, now })
      .andWhere('(locked_until > 0 OR window_start <= :old)', { old: now - FAILURE_WINDOW })
      .execute();
    const taken = await repo
      .createQueryBuilder()
      .update(SecondFactorFailure)
      .set({ failures: () => 'failures + 1' })
      .where('scope = :scope AND failures < :limit AND locked_until <= :now AND next_at <= :now', {
        scope: scope.key,
        limit: scope.limit,
        now,
      })
      .execute();
    return !!taken.affected;
  }

  private async failed(
    req: FastifyRequest,
    user: Pick<User, 'id' | 'username' | 'role' | 'status' | 'group' | 'email'>,
    step: SecondFactorStep,
    key: string,
  ): Promise<void> {
    const now = nowSeconds();
    const row = await this.repo().findOneBy({ scope: key });
    const failures = row?.failures ?? 0;
    // The account the attempt was for (at sign-in, whoever passed its password step).
    const actor = {
      id: user.id,
      username: user.username,
      role: user.role,
      status: user.status,
      group: user.group,
      via: 'session' as const,
    };
    const base = { actor, ip: req.ip, requestId: String(req.id ?? ''), targetType: 'user' as const };
    const target = { targetId: String(user.id), targetName: user.username };
    await this.audit.record({
      ...base,
      ...target,
      action: 'auth.2fa_failed',
      summary: {
        key: step === 'login' ? 'audit_summary_2fa_failed_login' : 'audit_summary_2fa_failed_step_up',
        params: { failures },
      },
    });
    if (failures >= LOCK_AFTER) {
      const locked = await this.repo()
        .createQueryBuilder()
        .update(SecondFactorFailure)
        .set({ locked_until: now + LOCK_SECONDS, expires_at: now + LOCK_SECONDS })
        .where('scope = :scope AND locked_until = 0', { scope: key })
        .execute();
      if (!locked.affected) return;
      await this.audit.record({
        ...base,
        ...target,
        action: 'auth.locked',
        summary: { key: 'audit_summary_2fa_locked', params: { minutes: LOCK_SECONDS / 60 } },
      });
      void this.tell(user.email, LOCK_SECONDS / 60);
    } else if (failures >= DELAY_AFTER) {
      await this.repo().update({ scope: key }, { next_at: now + 2 ** (failures - DELAY_AFTER) });
    }
  }

  /** Tells the account's owner of a lock (somebody who knows the password is guessing codes). */
  private async tell(email: string | null | undefined, minutes: number): Promise<void> {
    if (!email || !this.mail.configured()) return;
    const system = this.options.get('SystemName') || 'Gatehouse';
    try {
      await this.mail.send(
        email,
        `${system} 两步验证已锁定 / second step locked`,
        `<p>您的账号连续多次输入错误的两步验证码，两步验证已锁定 ${minutes} 分钟。若不是您本人操作，请立即修改密码。</p>` +
          `<p>Too many wrong two-factor codes were entered for your account; the second step is locked for ${minutes} minutes. If this was not you, change your password now.</p>`,
      );
    } catch (e) {
      this.logger.warn(`lock notice not sent: ${(e as Error).message}`);
    }
  }

  private async sweep(now: number): Promise<void> {
    try {
      await this.repo().delete({ expires_at: LessThan(now - FAILURE_WINDOW) });
    } catch (e) {
      this.logger.warn(`old second-factor counts not removed: ${(e as Error).message}`);
    }
  }
}

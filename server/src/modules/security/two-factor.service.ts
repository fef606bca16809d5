import { ApiProperty } from '@nestjs/swagger';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { generateSecret, generateURI, verify } from 'otplib';
import { DataSource, EntityManager } from 'typeorm';
import { fail } from '../../common/app-error';
import { CryptoService } from '../../common/crypto.service';
import { nowSeconds } from '../../common/time';
import { Passkey, User, UserTotp } from '../../database/entities';
import { OptionService } from '../option';
import { UserCacheService } from '../user';

export const RECOVERY_CODE_COUNT = 10;
const PERIOD = 30;

export class TotpSetup {
  /** base32, for typing into an app that cannot scan. Shown during enrolment only. */
  @ApiProperty() secret!: string;
  @ApiProperty() uri!: string;
  /** data:image/png;base64,… of the otpauth URI. */
  @ApiProperty() qr_code!: string;
}

export interface TwoFactorStatus {
  enabled: boolean;
  totp_enabled: boolean;
  recovery_codes_left: number;
  passkeys: Array<{ id: number; name: string; created_at: number; last_used_at: number }>;
  /** Root requires admins to have a second factor. */
  required_for_admins: boolean;
}

const readCodes = (row: UserTotp | null): string[] => {
  try {
    const v: unknown = JSON.parse(row?.recovery_codes || '[]');
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
};

/** Recovery codes are compared case- and dash-insensitively. */
const normalizeRecovery = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();

/**
 * TOTP second factors (RFC 6238, 30-second steps, one step of clock drift either way) and recovery
 * codes. The secret is stored encrypted with CRYPTO_SECRET and only shown while enrolling; a code is
 * accepted once (the accepted step is stored by a conditional update, so two concurrent uses of the
 * same code cannot both pass); recovery codes are stored as keyed hashes and used up one by one.
 */
@Injectable()
export class TwoFactorService {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly crypto: CryptoService,
    private readonly options: OptionService,
    private readonly users: UserCacheService,
  ) {}

  private totpRepo(m?: EntityManager) {
    return (m ?? this.ds.manager).getRepository(UserTotp);
  }

  async status(userId: number): Promise<TwoFactorStatus> {
    const totp = await this.totpRepo().findOneBy({ user_id: userId });
    const passkeys = await this.ds
      .getRepository(Passkey)
      .find({ where: { user_id: userId }, order: { id: 'ASC' } });
    const totpOn = !!totp?.enabled;
    return {
      enabled: totpOn || passkeys.length > 0,
      totp_enabled: totpOn,
      recovery_codes_left: totpOn ? readCodes(totp).length : 0,
      passkeys: passkeys.map((p) => ({
        id: p.id,
        name: p.name,
        created_at: p.created_at,
        last_used_at: p.last_used_at,
      })),
      required_for_admins: this.options.bool('AdminTwoFactorRequired'),
    };
  }

  /** Starts (or restarts) enrolment: a new secret waits for its first code. */
  async setup(user: { id: number; username: string }): Promise<TotpSetup> {
    const existing = await this.totpRepo().findOneBy({ user_id: user.id });
    if (existing?.enabled) throw fail('totp_already_enabled');
    const secret = generateSecret();
    const row = {
      secret_enc: this.crypto.encrypt(secret),
      enabled: false,
      recovery_codes: null,
      last_step: 0,
      created_at: nowSeconds(),
    };
    if (existing) await this.totpRepo().update({ id: existing.id, enabled: false }, row);
    else await this.totpRepo().insert({ user_id: user.id, ...row });
    const issuer = this.options.get('SystemName') || 'Gatehouse';
    const uri = generateURI({ issuer, label: user.username, secret });
    return { secret, uri, qr_code: await (await import('qrcode')).toDataURL(uri, { margin: 1, width: 240 }) };
  }

  /** Completes enrolment with the app's first code; answers the recovery codes (shown this once). */
  async enable(userId: number, code: unknown): Promise<string[]> {
    const row = await this.totpRepo().findOneBy({ user_id: userId });
    if (!row || row.enabled) throw fail(row?.enabled ? 'totp_already_enabled' : 'totp_setup_missing');
    const step = await this.matchStep(row, code);
    if (step === null) throw fail('two_factor_code_invalid');
    const codes = this.newRecoveryCodes();
    const done = await this.totpRepo().update(
      { id: row.id, enabled: false },
      {
        enabled: true,
        last_step: step,
        recovery_codes: JSON.stringify(codes.map((c) => this.hashRecovery(c))),
      },
    );
    if (!done.affected) throw fail('totp_already_enabled');
    await this.syncFlag(userId);
    return codes;
  }

  async disable(userId: number): Promise<void> {
    const removed = await this.totpRepo().delete({ user_id: userId });
    if (!removed.affected) throw fail('totp_not_enabled');
    await this.syncFlag(userId);
  }

  async regenerateRecoveryCodes(userId: number): Promise<string[]> {
    const row = await this.totpRepo().findOneBy({ user_id: userId });
    if (!row?.enabled) throw fail('totp_not_enabled');
    const codes = this.newRecoveryCodes();
    await this.totpRepo().update(
      { id: row.id },
      { recovery_codes: JSON.stringify(codes.map((c) => this.hashRecovery(c))) },
    );
    return codes;
  }

  /** Removes every second factor of a user (an admin's reset for a lost phone). */
  async reset(userId: number): Promise<void> {
    await this.ds.transaction(async (m) => {
      await this.totpRepo(m).delete({ user_id: userId });
      await m.getRepository(Passkey).delete({ user_id: userId });
      await m.getRepository(User).update({ id: userId }, { two_factor: false });
    });
    this.users.invalidate(userId);
  }

  /** Removes a user's authenticator app (TOTP) and its recovery codes; passkeys stay. */
  async resetTotp(userId: number): Promise<void> {
    await this.totpRepo().delete({ user_id: userId });
    await this.syncFlag(userId);
  }

  /** Removes every passkey of a user; the authenticator app stays. */
  async resetPasskeys(userId: number): Promise<void> {
    await this.ds.getRepository(Passkey).delete({ user_id: userId });
    await this.syncFlag(userId);
  }

  /**
   * Checks a sign-in or step-up code: a current TOTP code (each accepted once) or an unused recovery
   * code (used up). False when neither.
   */
  async verifyCode(userId: number, raw: unknown): Promise<boolean> {
    if (typeof raw !== 'string' || raw.length > 64) return false;
    const code = raw.trim();
    const row = await this.totpRepo().findOneBy({ user_id: userId });
    if (!row?.enabled) return false;
    if (/^\d{6}$/.test(code)) {
      const step = await this.matchStep(row, code);
      if (step === null) return false;
      // Accepted once: the step only moves forward, and only one of two concurrent uses moves it.
      const moved = await this.totpRepo()
        .createQueryBuilder()
        .update(UserTotp)
        .set({ last_step: step })
        .where('id = :id AND last_step < :step', { id: row.id, step })
        .execute();
      return !!moved.affected;
    }
    const hash = this.hashRecovery(code);
    const codes = readCodes(row);
    if (!codes.includes(hash)) return false;
    const left = codes.filter((c) => c !== hash);
    const used = await this.totpRepo()
      .createQueryBuilder()
      .update(UserTotp)
      .set({ recovery_codes: JSON.stringify(left) })
      .where('id = :id AND recovery_codes = :before', { id: row.id, before: row.recovery_codes })
      .execute();
    return !!used.affected;
  }

  /** Keeps `users.two_factor` equal to "has an enabled TOTP or a passkey". */
  async syncFlag(userId: number): Promise<void> {
    const totp = await this.totpRepo().countBy({ user_id: userId, enabled: true });
    const passkeys = await this.ds.getRepository(Passkey).countBy({ user_id: userId });
    await this.ds.getRepository(User).update({ id: userId }, { two_factor: totp + passkeys > 0 });
    this.users.invalidate(userId);
  }

  /** The time step a code belongs to (current ±1), refused when not after the last accepted one. */
  private async matchStep(row: UserTotp, code: unknown): Promise<number | null> {
    if (typeof code !== 'string' || !/^\d{6}$/.test(code.trim())) return null;
    let secret: string;
    try {
      secret = this.crypto.decrypt(row.secret_enc);
    } catch {
      return null;
    }
    const result = await verify({
      secret,
      token: code.trim(),
      epochTolerance: PERIOD,
      afterTimeStep: row.last_step || undefined,
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  }

  private newRecoveryCodes(): string[] {
    return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
      const raw = CryptoService.randomString(10).toLowerCase();
      return `${raw.slice(0, 5)}-${raw.slice(5)}`;
    });
  }

  private hashRecovery(code: string): string {
    return this.crypto.keyedHash(`recovery:${normalizeRecovery(code)}`);
  }
}

import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, Repository } from 'typeorm';
import { fail } from '../../common/app-error';
import { CryptoService } from '../../common/crypto.service';
import { nowSeconds } from '../../common/time';
import { CodePurpose, VerificationCode } from '../../database/entities';
import { OptionService } from '../option';

export const CODE_VALID_SECONDS = 180;
export const RESEND_AFTER_SECONDS = 30;

/**
 * Single-use codes bound to a purpose and an address. Only a hash is stored; a code is consumed by an
 * atomic conditional update, so two concurrent uses cannot both succeed.
 */
@Injectable()
export class VerificationService {
  constructor(
    @InjectRepository(VerificationCode) private readonly repo: Repository<VerificationCode>,
    private readonly options: OptionService,
  ) {}

  /** Creates a code (digits, or a long token for reset links); refuses a resend within 30 s. */
  async issue(purpose: CodePurpose, target: string, kind: 'code' | 'token' = 'code'): Promise<string> {
    const now = nowSeconds();
    const recent = await this.repo.findOne({
      where: { purpose, target, created_at: MoreThan(now - RESEND_AFTER_SECONDS) },
      order: { id: 'DESC' },
    });
    if (recent) throw fail('code_too_soon', { seconds: RESEND_AFTER_SECONDS - (now - recent.created_at) });
    const code = kind === 'code' ? CryptoService.randomDigits(6) : CryptoService.randomString(32);
    await this.repo.insert({
      purpose,
      target,
      code_hash: CryptoService.sha256(`${purpose}:${target}:${code}`),
      created_at: now,
      expires_at: now + CODE_VALID_SECONDS,
    });
    return code;
  }

  /** Forgets a code that never reached its recipient, so an immediate resend is not refused. */
  async discard(purpose: CodePurpose, target: string, code: string): Promise<void> {
    await this.repo.delete({
      purpose,
      target,
      code_hash: CryptoService.sha256(`${purpose}:${target}:${code}`),
    });
  }

  /** Consumes a code; throws `code_invalid` when it is wrong, used or expired. */
  async consume(
    purpose: CodePurpose,
    target: string,
    code: unknown,
    invalid: 'code_invalid' | 'reset_link_invalid' = 'code_invalid',
  ): Promise<void> {
    if (typeof code !== 'string' || !code.trim() || code.length > 128) throw fail(invalid);
    const result = await this.repo
      .createQueryBuilder()
      .update(VerificationCode)
      .set({ used_at: nowSeconds() })
      .where('purpose = :purpose AND target = :target AND code_hash = :hash', {
        purpose,
        target,
        hash: CryptoService.sha256(`${purpose}:${target}:${code.trim()}`),
      })
      .andWhere('used_at IS NULL')
      .andWhere('expires_at >= :now', { now: nowSeconds() })
      .execute();
    if (!result.affected) throw fail(invalid);
  }

  /** Domain whitelist and alias rules for addresses used to sign up or bind. */
  checkEmailAllowed(email: string): void {
    const [local, domain] = email.split('@');
    if (this.options.bool('EmailDomainRestrictionEnabled')) {
      const allowed = this.options
        .get('EmailDomainWhitelist')
        .split(',')
        .map((d) => d.trim().toLowerCase())
        .filter(Boolean);
      if (!allowed.includes(domain)) throw fail('email_domain_not_allowed');
    }
    if (this.options.bool('EmailAliasRestrictionEnabled')) {
      const gmail = domain === 'gmail.com' || domain === 'googlemail.com';
      if (local.includes('+') || (gmail && local.includes('.'))) throw fail('email_alias_not_allowed');
    }
  }
}

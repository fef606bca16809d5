import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { fail } from '../../common/app-error';
import { CacheBus } from '../../common/cache-bus';
import { hashApiKey } from '../../common/api-key';
import { CryptoService } from '../../common/crypto.service';
import { nowSeconds } from '../../common/time';
import { Token, TokenStatus } from '../../database/entities';

/** Length of the random part of an API key (`sk-` + 48 characters). */
export const TOKEN_KEY_LENGTH = 48;

/** What the tokens.key_hint column (16 characters) stores: the first and last four characters. */
export const keyHint = (key: string): string => `${key.slice(0, 4)}${key.slice(-4)}`;

/** The listed form of a key: `abcd**********wxyz` (from the stored hint). */
export function maskHint(hint: string): string {
  if (hint.includes('*')) return hint;
  return `${hint.slice(0, 4)}**********${hint.slice(-4)}`;
}

export interface NewToken {
  name: string;
  remain_quota: number;
  unlimited_quota: boolean;
  expired_time: number;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  rpm_limit?: number;
  tpm_limit?: number;
  concurrency_limit?: number;
  /** Periodic budget as stored (JSON), null = none. */
  budget?: string | null;
}

/**
 * API tokens. The key is stored twice: as a keyed hash (the relay's lookup) and encrypted (so its
 * owner can copy it again). The clear key is returned once, at creation, and on the owner's reveal.
 */
@Injectable()
export class TokenService {
  constructor(
    @InjectRepository(Token) private readonly repo: Repository<Token>,
    private readonly crypto: CryptoService,
    private readonly bus: CacheBus,
  ) {}

  /** Keys are looked up without their `sk-` prefix. */
  hashKey(key: string): string {
    return hashApiKey(key, (k) => this.crypto.keyedHash(k));
  }

  maskKey(key: string): string {
    return maskHint(keyHint(key));
  }

  async create(userId: number, t: NewToken): Promise<{ token: Token; key: string }> {
    if (!Number.isSafeInteger(t.remain_quota) || t.remain_quota < 0) throw fail('quota_invalid');
    const key = CryptoService.randomString(TOKEN_KEY_LENGTH);
    const row = this.repo.create({
      user_id: userId,
      name: t.name,
      key_hash: this.hashKey(key),
      key_enc: this.crypto.encrypt(key),
      key_hint: keyHint(key),
      status: TokenStatus.Enabled,
      created_time: nowSeconds(),
      accessed_time: 0,
      expired_time: t.expired_time,
      remain_quota: t.remain_quota,
      used_quota: 0,
      unlimited_quota: t.unlimited_quota,
      model_limits_enabled: t.model_limits_enabled,
      model_limits: t.model_limits,
      allow_ips: t.allow_ips,
      group: t.group,
      rpm_limit: t.rpm_limit ?? 0,
      tpm_limit: t.tpm_limit ?? 0,
      concurrency_limit: t.concurrency_limit ?? 0,
      budget: t.budget ?? null,
      deleted_at: null,
    });
    const token = await this.repo.save(row);
    return { token, key: `sk-${key}` };
  }

  revealKey(token: Token): string {
    return `sk-${this.crypto.decrypt(token.key_enc)}`;
  }

  /** Call after any write to a token row. */
  invalidate(id: number, keyHash?: string): void {
    this.bus.publish('tokens', keyHash ? [id, keyHash] : [id]);
  }
}

import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, BoolColumn, LongTextColumn } from '../columns';

export const TokenStatus = {
  Enabled: 1,
  Disabled: 2,
  Expired: 3,
  Exhausted: 4,
} as const;
export type TokenStatus = (typeof TokenStatus)[keyof typeof TokenStatus];

@Entity('tokens')
export class Token {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id', type: 'int' }) user_id!: number;
  @Column({ type: 'varchar', length: 64, default: '' }) name!: string;
  /** Keyed hash of the key (lookup on the relay path). */
  @Column({ name: 'key_hash', type: 'varchar', length: 64 }) key_hash!: string;
  /** AES-GCM ciphertext of the key, so its owner can copy it again. */
  @Column({ name: 'key_enc', type: 'text' }) key_enc!: string;
  /** First and last four characters, for the masked listing. */
  @Column({ name: 'key_hint', type: 'varchar', length: 32, default: '' }) key_hint!: string;
  @Column({ type: 'int', default: TokenStatus.Enabled }) status!: number;
  @BigIntColumn({ name: 'created_time' }) created_time!: number;
  @BigIntColumn({ name: 'accessed_time' }) accessed_time!: number;
  @BigIntColumn({ name: 'expired_time', default: -1 }) expired_time!: number;
  @BigIntColumn({ name: 'remain_quota' }) remain_quota!: number;
  @BigIntColumn({ name: 'used_quota' }) used_quota!: number;
  @BoolColumn({ name: 'unlimited_quota' }) unlimited_quota!: boolean;
  @BoolColumn({ name: 'model_limits_enabled' }) model_limits_enabled!: boolean;
  @LongTextColumn({ name: 'model_limits' }) model_limits!: string | null;
  @LongTextColumn({ name: 'allow_ips' }) allow_ips!: string | null;
  @Column({ name: 'group', type: 'varchar', length: 64, default: '' }) group!: string;
  /** Requests per minute, tokens per minute and requests in flight with this token (0 = unlimited). */
  @Column({ name: 'rpm_limit', type: 'int', default: 0 }) rpm_limit!: number;
  @Column({ name: 'tpm_limit', type: 'int', default: 0 }) tpm_limit!: number;
  @Column({ name: 'concurrency_limit', type: 'int', default: 0 }) concurrency_limit!: number;
  /** Quota and request caps per day, week and month (JSON, see modules/budget); null = none. */
  @LongTextColumn() budget!: string | null;
  @BigIntColumn({ name: 'deleted_at', nullable: true, default: null }) deleted_at!: number | null;
}

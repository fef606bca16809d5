import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, BoolColumn, LongTextColumn } from '../columns';

export const Role = {
  Guest: 0,
  User: 1,
  Admin: 10,
  Root: 100,
} as const;
export type Role = (typeof Role)[keyof typeof Role];

export const UserStatus = {
  Enabled: 1,
  Disabled: 2,
} as const;
export type UserStatus = (typeof UserStatus)[keyof typeof UserStatus];

@Entity('users')
export class User {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 64 }) username!: string;
  /** bcrypt hash; empty for accounts created through third-party sign-in only. */
  @Column({ type: 'varchar', length: 255, default: '' }) password!: string;
  @Column({ name: 'display_name', type: 'varchar', length: 64, default: '' }) display_name!: string;
  @Column({ type: 'int', default: Role.User }) role!: number;
  @Column({ type: 'int', default: UserStatus.Enabled }) status!: number;
  @Column({ type: 'varchar', length: 255, nullable: true }) email!: string | null;
  @Column({ name: 'github_id', type: 'varchar', length: 64, nullable: true }) github_id!: string | null;
  @Column({ name: 'oidc_id', type: 'varchar', length: 255, nullable: true }) oidc_id!: string | null;
  @Column({ name: 'wechat_id', type: 'varchar', length: 64, nullable: true }) wechat_id!: string | null;
  @Column({ name: 'telegram_id', type: 'varchar', length: 64, nullable: true }) telegram_id!: string | null;
  @Column({ name: 'linux_do_id', type: 'varchar', length: 64, nullable: true }) linux_do_id!: string | null;
  /** Keyed hash of the system access token; the token itself is shown once. */
  @Column({ name: 'access_token_hash', type: 'varchar', length: 64, nullable: true })
  access_token_hash!: string | null;
  @BigIntColumn() quota!: number;
  @BigIntColumn({ name: 'used_quota' }) used_quota!: number;
  @Column({ name: 'request_count', type: 'int', default: 0 }) request_count!: number;
  @Column({ name: 'group', type: 'varchar', length: 64, default: 'default' }) group!: string;
  @Column({ name: 'aff_code', type: 'varchar', length: 32 }) aff_code!: string;
  @Column({ name: 'aff_count', type: 'int', default: 0 }) aff_count!: number;
  @BigIntColumn({ name: 'aff_quota' }) aff_quota!: number;
  @BigIntColumn({ name: 'aff_history_quota' }) aff_history_quota!: number;
  @Column({ name: 'inviter_id', type: 'int', default: 0 }) inviter_id!: number;
  @LongTextColumn() setting!: string | null;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  /** True while the user has a second factor (TOTP or a passkey): sign-in asks for it. */
  @BoolColumn({ name: 'two_factor' }) two_factor!: boolean;
  /** Unix seconds; set when the account is deregistered (soft delete). */
  @BigIntColumn({ name: 'deleted_at', nullable: true, default: null }) deleted_at!: number | null;
  /**
   * Unix milliseconds; sessions issued before it are refused (set when the password changes, so every
   * session that knew the old password ends on every node).
   */
  @BigIntColumn({ name: 'sessions_valid_after' }) sessions_valid_after!: number;
  /** Quota and request caps per day, week and month (JSON, see modules/budget); null = none. */
  @LongTextColumn() budget!: string | null;
}

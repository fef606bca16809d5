import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../columns';

/** Hourly usage per user and model, for the dashboard. */
@Entity('quota_data')
export class QuotaData {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: number;
  @Column({ name: 'user_id', type: 'int', default: 0 }) user_id!: number;
  @Column({ type: 'varchar', length: 64, default: '' }) username!: string;
  @Column({ name: 'model_name', type: 'varchar', length: 191, default: '' }) model_name!: string;
  /** Start of the hour, unix seconds. */
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  @BigIntColumn({ name: 'token_used' }) token_used!: number;
  @Column({ type: 'int', default: 0 }) count!: number;
  @BigIntColumn() quota!: number;
  @Column({ name: 'node_name', type: 'varchar', length: 64, default: '' }) node_name!: string;
}

/** One row once the first-run setup is done. */
@Entity('setups')
export class Setup {
  @PrimaryGeneratedColumn() id!: number;
  /** Always 1, under a unique index: the database itself refuses a second setup. */
  @Column({ type: 'int', default: 1 }) singleton!: number;
  @Column({ type: 'varchar', length: 50, default: '' }) version!: string;
  @BigIntColumn({ name: 'initialized_at' }) initialized_at!: number;
}

export const CodePurpose = {
  Register: 'register',
  Bind: 'bind',
  Reset: 'reset',
} as const;
export type CodePurpose = (typeof CodePurpose)[keyof typeof CodePurpose];

/** Single-use codes sent by email (registration, binding, password reset). */
@Entity('verification_codes')
export class VerificationCode {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 16 }) purpose!: string;
  @Column({ type: 'varchar', length: 255 }) target!: string;
  @Column({ name: 'code_hash', type: 'varchar', length: 64 }) code_hash!: string;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  @BigIntColumn({ name: 'expires_at' }) expires_at!: number;
  @BigIntColumn({ name: 'used_at', nullable: true, default: null }) used_at!: number | null;
}

import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../columns';

export const RedemptionStatus = {
  Unused: 1,
  Disabled: 2,
  Used: 3,
} as const;
export type RedemptionStatus = (typeof RedemptionStatus)[keyof typeof RedemptionStatus];

@Entity('redemptions')
export class Redemption {
  @PrimaryGeneratedColumn() id!: number;
  /** The admin who created it. */
  @Column({ name: 'user_id', type: 'int', default: 0 }) user_id!: number;
  @Column({ type: 'varchar', length: 64 }) key!: string;
  @Column({ type: 'int', default: RedemptionStatus.Unused }) status!: number;
  @Column({ type: 'varchar', length: 64, default: '' }) name!: string;
  @BigIntColumn() quota!: number;
  @BigIntColumn({ name: 'created_time' }) created_time!: number;
  @BigIntColumn({ name: 'redeemed_time' }) redeemed_time!: number;
  @Column({ name: 'used_user_id', type: 'int', default: 0 }) used_user_id!: number;
  @BigIntColumn({ name: 'expired_time' }) expired_time!: number;
  @BigIntColumn({ name: 'deleted_at', nullable: true, default: null }) deleted_at!: number | null;
}

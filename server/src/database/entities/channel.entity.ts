import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, BoolColumn, DoubleColumn, LongTextColumn } from '../columns';

export const ChannelStatus = {
  Enabled: 1,
  ManuallyDisabled: 2,
  AutoDisabled: 3,
} as const;
export type ChannelStatus = (typeof ChannelStatus)[keyof typeof ChannelStatus];

@Entity('channels')
export class Channel {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', default: 1 }) type!: number;
  /** AES-GCM ciphertext of the key(s), one per line. */
  @LongTextColumn() key!: string | null;
  @Column({ name: 'openai_organization', type: 'varchar', length: 128, nullable: true })
  openai_organization!: string | null;
  @Column({ name: 'test_model', type: 'varchar', length: 255, nullable: true }) test_model!: string | null;
  @Column({ type: 'int', default: ChannelStatus.Enabled }) status!: number;
  @Column({ type: 'varchar', length: 128, default: '' }) name!: string;
  @Column({ type: 'int', default: 0 }) weight!: number;
  @BigIntColumn({ name: 'created_time' }) created_time!: number;
  @BigIntColumn({ name: 'test_time' }) test_time!: number;
  @Column({ name: 'response_time', type: 'int', default: 0 }) response_time!: number;
  @Column({ name: 'base_url', type: 'varchar', length: 512, nullable: true }) base_url!: string | null;
  @LongTextColumn() other!: string | null;
  @DoubleColumn() balance!: number;
  @BigIntColumn({ name: 'balance_updated_time' }) balance_updated_time!: number;
  @LongTextColumn() models!: string | null;
  @Column({ name: 'group', type: 'varchar', length: 255, default: 'default' }) group!: string;
  @BigIntColumn({ name: 'used_quota' }) used_quota!: number;
  @LongTextColumn({ name: 'model_mapping' }) model_mapping!: string | null;
  @LongTextColumn({ name: 'status_code_mapping' }) status_code_mapping!: string | null;
  @BigIntColumn() priority!: number;
  @Column({ name: 'auto_ban', type: 'int', default: 1 }) auto_ban!: number;
  @LongTextColumn({ name: 'other_info' }) other_info!: string | null;
  @Column({ type: 'varchar', length: 64, nullable: true }) tag!: string | null;
  @LongTextColumn() setting!: string | null;
  @LongTextColumn({ name: 'param_override' }) param_override!: string | null;
  @Column({ name: 'max_input_tokens', type: 'int', default: 0 }) max_input_tokens!: number;
  /** Requests per minute, tokens per minute and requests in flight on this channel (0 = unlimited). */
  @Column({ name: 'rpm_limit', type: 'int', default: 0 }) rpm_limit!: number;
  @Column({ name: 'tpm_limit', type: 'int', default: 0 }) tpm_limit!: number;
  @Column({ name: 'concurrency_limit', type: 'int', default: 0 }) concurrency_limit!: number;
}

/** The group × model → channel index used by channel selection. */
@Entity('abilities')
export class Ability {
  @PrimaryColumn({ name: 'group', type: 'varchar', length: 64 }) group!: string;
  @PrimaryColumn({ type: 'varchar', length: 191 }) model!: string;
  @PrimaryColumn({ name: 'channel_id', type: 'int' }) channel_id!: number;
  @BoolColumn({ default: true }) enabled!: boolean;
  @BigIntColumn() priority!: number;
  @Column({ type: 'int', default: 0 }) weight!: number;
  @Column({ type: 'varchar', length: 64, nullable: true }) tag!: string | null;
}

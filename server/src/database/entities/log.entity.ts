import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, BoolColumn, LongTextColumn } from '../columns';

export const LogType = {
  Unknown: 0,
  TopUp: 1,
  Consume: 2,
  Manage: 3,
  System: 4,
  Error: 5,
} as const;
export type LogType = (typeof LogType)[keyof typeof LogType];

@Entity('logs')
export class LogEntry {
  @PrimaryGeneratedColumn({ type: 'bigint' }) id!: number;
  @Column({ name: 'user_id', type: 'int', default: 0 }) user_id!: number;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  @Column({ type: 'int', default: 0 }) type!: number;
  @LongTextColumn() content!: string | null;
  @Column({ type: 'varchar', length: 64, default: '' }) username!: string;
  @Column({ name: 'token_name', type: 'varchar', length: 64, default: '' }) token_name!: string;
  @Column({ name: 'token_id', type: 'int', default: 0 }) token_id!: number;
  @Column({ name: 'model_name', type: 'varchar', length: 191, default: '' }) model_name!: string;
  @BigIntColumn() quota!: number;
  @Column({ name: 'prompt_tokens', type: 'int', default: 0 }) prompt_tokens!: number;
  @Column({ name: 'completion_tokens', type: 'int', default: 0 }) completion_tokens!: number;
  @Column({ name: 'use_time', type: 'int', default: 0 }) use_time!: number;
  @BoolColumn({ name: 'is_stream' }) is_stream!: boolean;
  @Column({ name: 'channel_id', type: 'int', default: 0 }) channel_id!: number;
  @Column({ name: 'group', type: 'varchar', length: 64, default: '' }) group!: string;
  @Column({ type: 'varchar', length: 64, default: '' }) ip!: string;
  @Column({ name: 'request_id', type: 'varchar', length: 64, default: '' }) request_id!: string;
  @Column({ name: 'node_name', type: 'varchar', length: 64, default: '' }) node_name!: string;
  @LongTextColumn() other!: string | null;
}

import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, LongTextColumn } from '../columns';

/** A Midjourney-proxy drawing task. */
@Entity('midjourneys')
export class Midjourney {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', default: 0 }) code!: number;
  @Column({ name: 'user_id', type: 'int', default: 0 }) user_id!: number;
  @Column({ type: 'varchar', length: 40, default: '' }) action!: string;
  @Column({ name: 'mj_id', type: 'varchar', length: 191, default: '' }) mj_id!: string;
  @LongTextColumn() prompt!: string | null;
  @LongTextColumn({ name: 'prompt_en' }) prompt_en!: string | null;
  @LongTextColumn() description!: string | null;
  @LongTextColumn() state!: string | null;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  @BigIntColumn({ name: 'submit_time' }) submit_time!: number;
  @BigIntColumn({ name: 'start_time' }) start_time!: number;
  @BigIntColumn({ name: 'finish_time' }) finish_time!: number;
  @LongTextColumn({ name: 'image_url' }) image_url!: string | null;
  @Column({ type: 'varchar', length: 20, default: '' }) status!: string;
  @Column({ type: 'varchar', length: 30, default: '' }) progress!: string;
  @LongTextColumn({ name: 'fail_reason' }) fail_reason!: string | null;
  @Column({ name: 'channel_id', type: 'int', default: 0 }) channel_id!: number;
  @BigIntColumn() quota!: number;
  @LongTextColumn() buttons!: string | null;
  @LongTextColumn() properties!: string | null;
}

/** A generic asynchronous task (Suno music and lyrics). */
@Entity('tasks')
export class Task {
  @PrimaryGeneratedColumn() id!: number;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  @BigIntColumn({ name: 'updated_at' }) updated_at!: number;
  @Column({ name: 'task_id', type: 'varchar', length: 191, default: '' }) task_id!: string;
  @Column({ type: 'varchar', length: 30, default: '' }) platform!: string;
  @Column({ name: 'user_id', type: 'int', default: 0 }) user_id!: number;
  @Column({ name: 'channel_id', type: 'int', default: 0 }) channel_id!: number;
  @BigIntColumn() quota!: number;
  @Column({ type: 'varchar', length: 40, default: '' }) action!: string;
  @Column({ type: 'varchar', length: 20, default: '' }) status!: string;
  @LongTextColumn({ name: 'fail_reason' }) fail_reason!: string | null;
  @BigIntColumn({ name: 'submit_time' }) submit_time!: number;
  @BigIntColumn({ name: 'start_time' }) start_time!: number;
  @BigIntColumn({ name: 'finish_time' }) finish_time!: number;
  @Column({ type: 'varchar', length: 20, default: '' }) progress!: string;
  @LongTextColumn() properties!: string | null;
  @LongTextColumn() data!: string | null;
}

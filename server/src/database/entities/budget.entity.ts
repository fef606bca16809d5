import { Column, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn } from '../columns';

/**
 * One budget counter: the quota charged (plus the holds of calls in flight) and the calls of one scope
 * (token, user or group) in one calendar period. `subject` is the token or user id, or the group name.
 */
@Entity('budget_usage')
export class BudgetUsage {
  @PrimaryColumn({ type: 'varchar', length: 8 }) scope!: string;
  @PrimaryColumn({ type: 'varchar', length: 64 }) subject!: string;
  @PrimaryColumn({ type: 'varchar', length: 8 }) period!: string;
  @BigIntColumn({ name: 'period_start', primary: true }) period_start!: number;
  @BigIntColumn() quota!: number;
  @BigIntColumn() requests!: number;
  /** What calls in flight hold of `quota` (it is included there). */
  @BigIntColumn({ default: 0 }) held!: number;
  @BigIntColumn({ name: 'updated_at' }) updated_at!: number;
}

/** The budget hold of a relay call in flight (JSON of its counters and amount), until it settles. */
@Entity('budget_holds')
export class BudgetHoldRow {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'node_name', type: 'varchar', length: 64, default: '' }) node_name!: string;
  @BigIntColumn({ name: 'created_at' }) created_at!: number;
  @Column({ type: 'text' }) hold!: string;
}

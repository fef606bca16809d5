import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { BigIntColumn, DoubleColumn } from '../columns';

@Entity('top_ups')
export class TopUp {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id', type: 'int' }) user_id!: number;
  /** Quota units bought. */
  @BigIntColumn() amount!: number;
  @DoubleColumn() money!: number;
  @Column({ name: 'trade_no', type: 'varchar', length: 64 }) trade_no!: string;
  @Column({ name: 'payment_method', type: 'varchar', length: 32, default: '' }) payment_method!: string;
  @BigIntColumn({ name: 'create_time' }) create_time!: number;
  @BigIntColumn({ name: 'complete_time' }) complete_time!: number;
  @Column({ type: 'varchar', length: 16, default: 'pending' }) status!: string;
}

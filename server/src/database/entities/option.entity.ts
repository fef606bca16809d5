import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('options')
export class OptionRow {
  @PrimaryColumn({ type: 'varchar', length: 128 }) key!: string;
  @Column({ type: 'text', nullable: true }) value!: string | null;
}

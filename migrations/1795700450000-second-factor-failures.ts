import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnKit, idx } from './schema-helpers';

/** Second-factor failures counted per account and per waiting sign-in, shared by every node. */
export class SecondFactorFailures1795700450000 implements MigrationInterface {
  name = 'SecondFactorFailures1795700450000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    await qr.createTable(
      new Table({
        name: 'second_factor_failures',
        columns: [
          { ...c.str('scope', 64), isPrimary: true },
          c.int('failures'),
          c.bigint('window_start'),
          c.bigint('next_at'),
          c.bigint('locked_until'),
          c.bigint('expires_at'),
        ],
        indices: [idx('second_factor_failures', ['expires_at'])],
      }),
      true,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('second_factor_failures', true);
  }
}

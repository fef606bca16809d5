import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnKit, idx } from './schema-helpers';

/**
 * The budget holds of relay calls in flight, one row each from admission to settlement (written in the
 * admission's transaction, removed with the settlement's counter change). After a stop, the next start
 * gives back the holds its node left, as the ledger refunds the reservations of interrupted calls.
 */
export class BudgetHolds1795700200000 implements MigrationInterface {
  name = 'BudgetHolds1795700200000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    await qr.createTable(
      new Table({
        name: 'budget_holds',
        columns: [c.id('id', true), c.str('node_name', 64), c.bigint('created_at'), c.text('hold', false)],
        indices: [idx('budget_holds', ['node_name', 'created_at'])],
      }),
      true,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('budget_holds', true);
  }
}

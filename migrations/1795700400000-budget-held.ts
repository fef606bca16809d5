import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { columnKit } from './schema-helpers';

/**
 * What calls in flight hold of each budget counter, beside the counter itself (which includes it): a
 * refusal can then tell a budget that is used up from one whose remainder is only held for a moment.
 */
export class BudgetHeld1795700400000 implements MigrationInterface {
  name = 'BudgetHeld1795700400000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    if (!(await qr.hasColumn('budget_usage', 'held')))
      await qr.addColumn('budget_usage', new TableColumn(c.bigint('held')));
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropColumn('budget_usage', 'held');
  }
}

import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { columnKit, idx } from './schema-helpers';

/**
 * Periodic budgets: quota and request caps per day, week and month on a token, a user and a group.
 *
 * - tokens.budget and users.budget hold the caps as JSON ({"day": {"quota": n, "requests": n}, ...}),
 *   next to the columns the relay already caches with the row, so a caller without budgets costs the
 *   relay nothing extra. Group caps are the option GroupBudgets (JSON keyed by group), cached and
 *   synchronised across nodes like GroupRatio.
 * - budget_usage counts, per scope (token, user, group), subject (its id or name), period and period
 *   start, the quota charged plus the holds of calls in flight, and the calls. Admission raises a row
 *   with a conditional update, so nodes sharing the database can never admit past a cap together.
 */
export class Budgets1795700000000 implements MigrationInterface {
  name = 'Budgets1795700000000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    for (const table of ['tokens', 'users'])
      if (!(await qr.hasColumn(table, 'budget')))
        await qr.addColumn(table, new TableColumn(c.text('budget')));
    await qr.createTable(
      new Table({
        name: 'budget_usage',
        columns: [
          { ...c.str('scope', 8), isPrimary: true },
          { ...c.str('subject', 64), isPrimary: true },
          { ...c.str('period', 8), isPrimary: true },
          { ...c.bigint('period_start'), isPrimary: true },
          c.bigint('quota'),
          c.bigint('requests'),
          c.bigint('updated_at'),
        ],
        indices: [idx('budget_usage', ['period_start'])],
      }),
      true,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('budget_usage', true);
    for (const table of ['tokens', 'users'])
      if (await qr.hasColumn(table, 'budget')) await qr.dropColumn(table, 'budget');
  }
}

import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { columnKit, idx } from './schema-helpers';

/**
 * Content logs (opt-in): the request and response bodies of relay calls, kept apart from `logs` so log
 * queries never read them.
 *
 * - tokens.content_log and users.content_log switch storing on for a token or a user (channels keep the
 *   switch in their setting JSON, `content_log`).
 * - log_contents holds one row per stored call, found by the log row's request id; created_at drives
 *   the retention purge. Bodies are longtext on MySQL/MariaDB (text stops at 64 KiB there).
 */
export class ContentLogs1795700100000 implements MigrationInterface {
  name = 'ContentLogs1795700100000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    for (const table of ['tokens', 'users'])
      if (!(await qr.hasColumn(table, 'content_log')))
        await qr.addColumn(table, new TableColumn(c.bool('content_log')));
    await qr.createTable(
      new Table({
        name: 'log_contents',
        columns: [
          c.id('id', true),
          c.str('request_id', 64),
          c.int('user_id'),
          c.bigint('created_at'),
          c.text('request'),
          c.text('response'),
          c.text('meta'),
        ],
        indices: [idx('log_contents', ['request_id']), idx('log_contents', ['created_at'])],
      }),
      true,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('log_contents', true);
    for (const table of ['tokens', 'users'])
      if (await qr.hasColumn(table, 'content_log')) await qr.dropColumn(table, 'content_log');
  }
}

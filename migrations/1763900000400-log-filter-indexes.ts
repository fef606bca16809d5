import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';
import { idx } from './schema-helpers';

/** The log filters that single out a token, a user name or a channel, newest first. */
const REPLACED = ['token_id', 'username', 'channel_id'];

/**
 * The usage-log lists sort newest first under a filter: on a large table a filter column alone makes
 * the database sort every matching row for one page (a busy token's public log page above all).
 * Each single-column index becomes (column, created_at), which still serves the column alone.
 */
export class LogFilterIndexes1763900000400 implements MigrationInterface {
  name = 'LogFilterIndexes1763900000400';

  async up(qr: QueryRunner): Promise<void> {
    for (const col of REPLACED) {
      await qr.createIndex('logs', new TableIndex(idx('logs', [col, 'created_at'])));
      await qr.dropIndex('logs', idx('logs', [col]).name!);
    }
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const col of REPLACED) {
      await qr.createIndex('logs', new TableIndex(idx('logs', [col])));
      await qr.dropIndex('logs', idx('logs', [col, 'created_at']).name!);
    }
  }
}

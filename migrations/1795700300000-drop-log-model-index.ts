import { MigrationInterface, QueryRunner, TableIndex } from 'typeorm';
import { idx } from './schema-helpers';

/**
 * The consume log's `model_name` index served no query: the log lists and exports filter the model by
 * a part of its name (`LIKE '%…%'`, which no B-tree index can serve on any of the three databases),
 * the usage reports group by model within a time range (read through `created_at`), and the dashboard
 * reads `quota_data`. Every log row still paid for it on insert (about 0.5–1 µs on SQLite, one more
 * B-tree page per settlement batch).
 */
export class DropLogModelIndex1795700300000 implements MigrationInterface {
  name = 'DropLogModelIndex1795700300000';

  async up(qr: QueryRunner): Promise<void> {
    await qr.dropIndex('logs', idx('logs', ['model_name']).name!);
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.createIndex('logs', new TableIndex(idx('logs', ['model_name'])));
  }
}

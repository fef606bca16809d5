import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { columnKit } from './schema-helpers';

const TABLES = ['channels', 'tokens'] as const;
const COLUMNS = ['rpm_limit', 'tpm_limit', 'concurrency_limit'] as const;

/** Per-channel and per-token limits: requests per minute, tokens per minute, requests in flight (0 = unlimited). */
export class ScopedLimits1764000000000 implements MigrationInterface {
  name = 'ScopedLimits1764000000000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    for (const table of TABLES) {
      const missing = [];
      for (const col of COLUMNS)
        if (!(await qr.hasColumn(table, col))) missing.push(new TableColumn(c.int(col)));
      if (missing.length) await qr.addColumns(table, missing);
    }
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const table of TABLES)
      for (const col of COLUMNS) if (await qr.hasColumn(table, col)) await qr.dropColumn(table, col);
  }
}

import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { columnKit } from './schema-helpers';

/** The masked key shown in token lists (`abcd**********wxyz`, 18 characters) outgrew its 16-character column. */
export class TokenKeyHint1763800000000 implements MigrationInterface {
  name = 'TokenKeyHint1763800000000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    await qr.changeColumn('tokens', 'key_hint', new TableColumn(c.str('key_hint', 32)));
  }

  async down(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    await qr.changeColumn('tokens', 'key_hint', new TableColumn(c.str('key_hint', 16)));
  }
}

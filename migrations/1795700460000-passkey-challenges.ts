import { MigrationInterface, QueryRunner, Table } from 'typeorm';
import { columnKit, idx } from './schema-helpers';

/** Passkey challenges kept server-side until their ceremony uses them (once). */
export class PasskeyChallenges1795700460000 implements MigrationInterface {
  name = 'PasskeyChallenges1795700460000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    await qr.createTable(
      new Table({
        name: 'passkey_challenges',
        columns: [
          { ...c.str('challenge_hash', 64), isPrimary: true },
          c.str('purpose', 8),
          c.int('user_id'),
          c.bigint('expires_at'),
        ],
        indices: [idx('passkey_challenges', ['expires_at'])],
      }),
      true,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('passkey_challenges', true);
  }
}

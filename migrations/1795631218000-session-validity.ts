import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { columnKit, idx } from './schema-helpers';

/**
 * Sessions that outlive a restart only as long as they should: logouts are kept in the database, and a
 * password change ends every session of the user issued before it (users.sessions_valid_after).
 */
export class SessionValidity1795631218000 implements MigrationInterface {
  name = 'SessionValidity1795631218000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    if (!(await qr.hasColumn('users', 'sessions_valid_after')))
      await qr.addColumn('users', new TableColumn(c.bigint('sessions_valid_after')));
    await qr.createTable(
      new Table({
        name: 'session_revocations',
        columns: [{ ...c.str('sid', 32), isPrimary: true }, c.bigint('expires_at'), c.bigint('revoked_at')],
        indices: [idx('session_revocations', ['expires_at']), idx('session_revocations', ['revoked_at'])],
      }),
      true,
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    await qr.dropTable('session_revocations', true);
    if (await qr.hasColumn('users', 'sessions_valid_after'))
      await qr.dropColumn('users', 'sessions_valid_after');
  }
}

import { MigrationInterface, QueryRunner, Table, TableColumn } from 'typeorm';
import { columnKit, idx } from './schema-helpers';

/** The audit trail of administrative changes, TOTP second factors, passkeys, and the users' 2FA flag. */
export class TwoFactorAudit1795630918000 implements MigrationInterface {
  name = 'TwoFactorAudit1795630918000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    await qr.createTable(
      new Table({
        name: 'audit_logs',
        columns: [
          c.id('id', true),
          c.bigint('created_at'),
          c.int('actor_id'),
          c.str('actor_name', 64),
          c.int('actor_role'),
          c.str('action', 64),
          c.str('target_type', 32),
          c.str('target_id', 128),
          c.str('target_name', 128),
          c.str('ip', 64),
          c.text('changes'),
          c.str('summary', 255),
          c.str('request_id', 64),
          c.str('node_name', 64),
        ],
        indices: [
          idx('audit_logs', ['created_at']),
          idx('audit_logs', ['actor_id', 'created_at']),
          idx('audit_logs', ['target_type', 'target_id']),
          idx('audit_logs', ['action']),
        ],
      }),
      true,
    );
    await qr.createTable(
      new Table({
        name: 'user_totp',
        columns: [
          c.id(),
          c.int('user_id'),
          c.text('secret_enc', false),
          c.bool('enabled'),
          c.text('recovery_codes'),
          c.bigint('last_step'),
          c.bigint('created_at'),
        ],
        indices: [idx('user_totp', ['user_id'], true)],
      }),
      true,
    );
    await qr.createTable(
      new Table({
        name: 'passkeys',
        columns: [
          c.id(),
          c.int('user_id'),
          c.str('credential_id', 512),
          c.text('public_key', false),
          c.bigint('counter'),
          c.str('transports', 255),
          c.str('name', 64),
          c.bigint('created_at'),
          c.bigint('last_used_at'),
        ],
        indices: [idx('passkeys', ['credential_id'], true), idx('passkeys', ['user_id'])],
      }),
      true,
    );
    if (!(await qr.hasColumn('users', 'two_factor')))
      await qr.addColumn('users', new TableColumn(c.bool('two_factor')));
  }

  async down(qr: QueryRunner): Promise<void> {
    if (await qr.hasColumn('users', 'two_factor')) await qr.dropColumn('users', 'two_factor');
    for (const t of ['passkeys', 'user_totp', 'audit_logs']) if (await qr.hasTable(t)) await qr.dropTable(t);
  }
}

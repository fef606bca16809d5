import { MigrationInterface, QueryRunner, Table, TableColumnOptions, TableIndexOptions } from 'typeorm';
import { columnKit, idx } from './schema-helpers';

/** Every table of the product. Quota columns are 64-bit; indexes follow the filters of the spec's lists. */
export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(qr: QueryRunner): Promise<void> {
    const c = columnKit(qr);
    const create = (name: string, columns: TableColumnOptions[], indices: TableIndexOptions[] = []) =>
      qr.createTable(new Table({ name, columns, indices }), true);

    await create(
      'users',
      [
        c.id(),
        c.str('username', 64),
        c.str('password', 255),
        c.str('display_name', 64),
        c.int('role', 1),
        c.int('status', 1),
        c.str('email', 255, null),
        c.str('github_id', 64, null),
        c.str('oidc_id', 255, null),
        c.str('wechat_id', 64, null),
        c.str('telegram_id', 64, null),
        c.str('linux_do_id', 64, null),
        c.str('access_token_hash', 64, null),
        c.bigint('quota'),
        c.bigint('used_quota'),
        c.int('request_count'),
        c.str('group', 64, 'default'),
        c.str('aff_code', 32),
        c.int('aff_count'),
        c.bigint('aff_quota'),
        c.bigint('aff_history_quota'),
        c.int('inviter_id'),
        c.text('setting'),
        c.bigint('created_at'),
        c.bigint('deleted_at', null),
      ],
      [
        idx('users', ['username'], true),
        idx('users', ['email'], true),
        idx('users', ['github_id'], true),
        idx('users', ['oidc_id'], true),
        idx('users', ['wechat_id'], true),
        idx('users', ['telegram_id'], true),
        idx('users', ['linux_do_id'], true),
        idx('users', ['access_token_hash'], true),
        idx('users', ['aff_code'], true),
        idx('users', ['inviter_id']),
        idx('users', ['group']),
        idx('users', ['display_name']),
      ],
    );

    await create('options', [{ ...c.str('key', 128), isPrimary: true }, c.text('value')]);

    await create(
      'tokens',
      [
        c.id(),
        c.int('user_id'),
        c.str('name', 64),
        c.str('key_hash', 64),
        c.text('key_enc', false),
        c.str('key_hint', 16),
        c.int('status', 1),
        c.bigint('created_time'),
        c.bigint('accessed_time'),
        c.bigint('expired_time', -1),
        c.bigint('remain_quota'),
        c.bigint('used_quota'),
        c.bool('unlimited_quota'),
        c.bool('model_limits_enabled'),
        c.text('model_limits'),
        c.text('allow_ips'),
        c.str('group', 64),
        c.bigint('deleted_at', null),
      ],
      [idx('tokens', ['key_hash'], true), idx('tokens', ['user_id']), idx('tokens', ['name'])],
    );

    await create(
      'channels',
      [
        c.id(),
        c.int('type', 1),
        c.text('key'),
        c.str('openai_organization', 128, null),
        c.str('test_model', 255, null),
        c.int('status', 1),
        c.str('name', 128),
        c.int('weight'),
        c.bigint('created_time'),
        c.bigint('test_time'),
        c.int('response_time'),
        c.str('base_url', 512, null),
        c.text('other'),
        c.double('balance'),
        c.bigint('balance_updated_time'),
        c.text('models'),
        c.str('group', 255, 'default'),
        c.bigint('used_quota'),
        c.text('model_mapping'),
        c.text('status_code_mapping'),
        c.bigint('priority'),
        c.int('auto_ban', 1),
        c.text('other_info'),
        c.str('tag', 64, null),
        c.text('setting'),
        c.text('param_override'),
        c.int('max_input_tokens'),
      ],
      [
        idx('channels', ['name']),
        idx('channels', ['tag']),
        idx('channels', ['status']),
        idx('channels', ['type']),
      ],
    );

    await create(
      'abilities',
      [
        { ...c.str('group', 64), isPrimary: true },
        { ...c.str('model', 191), isPrimary: true },
        { ...c.int('channel_id'), isPrimary: true },
        c.bool('enabled', true),
        c.bigint('priority'),
        c.int('weight'),
        c.str('tag', 64, null),
      ],
      [idx('abilities', ['channel_id']), idx('abilities', ['tag']), idx('abilities', ['model'])],
    );

    await create(
      'redemptions',
      [
        c.id(),
        c.int('user_id'),
        c.str('key', 64),
        c.int('status', 1),
        c.str('name', 64),
        c.bigint('quota'),
        c.bigint('created_time'),
        c.bigint('redeemed_time'),
        c.int('used_user_id'),
        c.bigint('expired_time'),
        c.bigint('deleted_at', null),
      ],
      [idx('redemptions', ['key'], true), idx('redemptions', ['name'])],
    );

    await create(
      'logs',
      [
        c.id('id', true),
        c.int('user_id'),
        c.bigint('created_at'),
        c.int('type'),
        c.text('content'),
        c.str('username', 64),
        c.str('token_name', 64),
        c.int('token_id'),
        c.str('model_name', 191),
        c.bigint('quota'),
        c.int('prompt_tokens'),
        c.int('completion_tokens'),
        c.int('use_time'),
        c.bool('is_stream'),
        c.int('channel_id'),
        c.str('group', 64),
        c.str('ip', 64),
        c.str('request_id', 64),
        c.str('node_name', 64),
        c.text('other'),
      ],
      [
        idx('logs', ['created_at']),
        idx('logs', ['user_id', 'created_at']),
        idx('logs', ['type', 'created_at']),
        idx('logs', ['username']),
        idx('logs', ['token_name']),
        idx('logs', ['model_name']),
        idx('logs', ['channel_id']),
        idx('logs', ['group']),
        idx('logs', ['token_id']),
        idx('logs', ['request_id']),
      ],
    );

    await create(
      'top_ups',
      [
        c.id(),
        c.int('user_id'),
        c.bigint('amount'),
        c.double('money'),
        c.str('trade_no', 64),
        c.str('payment_method', 32),
        c.bigint('create_time'),
        c.bigint('complete_time'),
        c.str('status', 16, 'pending'),
      ],
      [idx('top_ups', ['trade_no'], true), idx('top_ups', ['user_id'])],
    );

    await create(
      'midjourneys',
      [
        c.id(),
        c.int('code'),
        c.int('user_id'),
        c.str('action', 40),
        c.str('mj_id', 191),
        c.text('prompt'),
        c.text('prompt_en'),
        c.text('description'),
        c.text('state'),
        c.bigint('created_at'),
        c.bigint('submit_time'),
        c.bigint('start_time'),
        c.bigint('finish_time'),
        c.text('image_url'),
        c.str('status', 20),
        c.str('progress', 30),
        c.text('fail_reason'),
        c.int('channel_id'),
        c.bigint('quota'),
        c.text('buttons'),
        c.text('properties'),
      ],
      [
        idx('midjourneys', ['user_id']),
        idx('midjourneys', ['mj_id']),
        idx('midjourneys', ['status']),
        idx('midjourneys', ['channel_id']),
        idx('midjourneys', ['submit_time']),
      ],
    );

    await create(
      'tasks',
      [
        c.id(),
        c.bigint('created_at'),
        c.bigint('updated_at'),
        c.str('task_id', 191),
        c.str('platform', 30),
        c.int('user_id'),
        c.int('channel_id'),
        c.bigint('quota'),
        c.str('action', 40),
        c.str('status', 20),
        c.text('fail_reason'),
        c.bigint('submit_time'),
        c.bigint('start_time'),
        c.bigint('finish_time'),
        c.str('progress', 20),
        c.text('properties'),
        c.text('data'),
      ],
      [
        idx('tasks', ['task_id']),
        idx('tasks', ['user_id']),
        idx('tasks', ['channel_id']),
        idx('tasks', ['status']),
        idx('tasks', ['platform']),
        idx('tasks', ['submit_time']),
      ],
    );

    await create(
      'quota_data',
      [
        c.id('id', true),
        c.int('user_id'),
        c.str('username', 64),
        c.str('model_name', 191),
        c.bigint('created_at'),
        c.bigint('token_used'),
        c.int('count'),
        c.bigint('quota'),
        c.str('node_name', 64),
      ],
      [
        idx('quota_data', ['created_at']),
        idx('quota_data', ['user_id', 'created_at']),
        idx('quota_data', ['username']),
        idx('quota_data', ['model_name']),
      ],
    );

    // `singleton` is always 1 and unique: a second, concurrent setup fails on it.
    await create(
      'setups',
      [c.id(), c.int('singleton', 1), c.str('version', 50), c.bigint('initialized_at')],
      [idx('setups', ['singleton'], true)],
    );

    await create(
      'verification_codes',
      [
        c.id(),
        c.str('purpose', 16),
        c.str('target', 255),
        c.str('code_hash', 64),
        c.bigint('created_at'),
        c.bigint('expires_at'),
        c.bigint('used_at', null),
      ],
      [idx('verification_codes', ['purpose', 'target'])],
    );
  }

  async down(qr: QueryRunner): Promise<void> {
    for (const t of [
      'verification_codes',
      'setups',
      'quota_data',
      'tasks',
      'midjourneys',
      'top_ups',
      'logs',
      'redemptions',
      'abilities',
      'channels',
      'tokens',
      'options',
      'users',
    ]) {
      await qr.dropTable(t, true);
    }
  }
}

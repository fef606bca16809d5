/**
 * The tables of one-api and new-api as their Go models declare them (column names and types), written
 * here for the import tests. Types are abstract and rendered per database the way GORM renders them.
 */
export type ColType =
  | 'id'
  | 'int'
  | 'bigint'
  | 'double'
  | 'bool'
  | 'text'
  | 'datetime'
  | `varchar(${number})`
  | `char(${number})`;

export interface LegacyColumn {
  name: string;
  type: ColType;
  unique?: boolean;
  notNull?: boolean;
  default?: string | number;
}
export type LegacyTable = { name: string; columns: LegacyColumn[] };
export type Flavor = 'one-api' | 'new-api';

const c = (name: string, type: ColType, extra: Partial<LegacyColumn> = {}): LegacyColumn => ({
  name,
  type,
  ...extra,
});
const id = c('id', 'id');

const ONE_API: LegacyTable[] = [
  {
    name: 'users',
    columns: [
      id,
      c('username', 'varchar(191)', { unique: true }),
      c('password', 'text', { notNull: true }),
      c('display_name', 'varchar(191)'),
      c('role', 'int', { default: 1 }),
      c('status', 'int', { default: 1 }),
      c('email', 'varchar(191)'),
      c('github_id', 'varchar(191)'),
      c('wechat_id', 'varchar(191)'),
      c('lark_id', 'varchar(191)'),
      c('oidc_id', 'varchar(191)'),
      c('access_token', 'char(32)', { unique: true }),
      c('quota', 'bigint', { default: 0 }),
      c('used_quota', 'bigint', { default: 0 }),
      c('request_count', 'int', { default: 0 }),
      c('group', 'varchar(32)', { default: 'default' }),
      c('aff_code', 'varchar(32)', { unique: true }),
      c('inviter_id', 'int'),
    ],
  },
  {
    name: 'tokens',
    columns: [
      id,
      c('user_id', 'int'),
      c('key', 'char(48)', { unique: true }),
      c('status', 'int', { default: 1 }),
      c('name', 'varchar(191)'),
      c('created_time', 'bigint'),
      c('accessed_time', 'bigint'),
      c('expired_time', 'bigint', { default: -1 }),
      c('remain_quota', 'bigint', { default: 0 }),
      c('unlimited_quota', 'bool', { default: 0 }),
      c('used_quota', 'bigint', { default: 0 }),
      c('models', 'text'),
      c('subnet', 'varchar(191)', { default: '' }),
    ],
  },
  {
    name: 'channels',
    columns: [
      id,
      c('type', 'int', { default: 0 }),
      c('key', 'text'),
      c('status', 'int', { default: 1 }),
      c('name', 'varchar(191)'),
      c('weight', 'int', { default: 0 }),
      c('created_time', 'bigint'),
      c('test_time', 'bigint'),
      c('response_time', 'int'),
      c('base_url', 'varchar(191)', { default: '' }),
      c('other', 'text'),
      c('balance', 'double'),
      c('balance_updated_time', 'bigint'),
      c('models', 'text'),
      c('group', 'varchar(32)', { default: 'default' }),
      c('used_quota', 'bigint', { default: 0 }),
      c('model_mapping', 'varchar(1024)', { default: '' }),
      c('priority', 'bigint', { default: 0 }),
      c('config', 'text'),
      c('system_prompt', 'text'),
    ],
  },
  {
    name: 'abilities',
    columns: [
      c('group', 'varchar(32)'),
      c('model', 'varchar(191)'),
      c('channel_id', 'int'),
      c('enabled', 'bool'),
      c('priority', 'bigint', { default: 0 }),
    ],
  },
  { name: 'options', columns: [c('key', 'varchar(191)', { unique: true }), c('value', 'text')] },
  {
    name: 'redemptions',
    columns: [
      id,
      c('user_id', 'int'),
      c('key', 'char(32)', { unique: true }),
      c('status', 'int', { default: 1 }),
      c('name', 'varchar(191)'),
      c('quota', 'bigint', { default: 100 }),
      c('created_time', 'bigint'),
      c('redeemed_time', 'bigint'),
    ],
  },
  {
    name: 'logs',
    columns: [
      id,
      c('user_id', 'int'),
      c('created_at', 'bigint'),
      c('type', 'int'),
      c('content', 'text'),
      c('username', 'varchar(191)', { default: '' }),
      c('token_name', 'varchar(191)', { default: '' }),
      c('model_name', 'varchar(191)', { default: '' }),
      c('quota', 'int', { default: 0 }),
      c('prompt_tokens', 'int', { default: 0 }),
      c('completion_tokens', 'int', { default: 0 }),
      c('channel_id', 'int'),
      c('request_id', 'varchar(32)', { default: '' }),
      c('elapsed_time', 'bigint', { default: 0 }),
      c('is_stream', 'bool', { default: 0 }),
      c('system_prompt_reset', 'bool', { default: 0 }),
    ],
  },
];

const NEW_API: LegacyTable[] = [
  {
    name: 'users',
    columns: [
      id,
      c('username', 'varchar(191)', { unique: true }),
      c('password', 'text', { notNull: true }),
      c('display_name', 'varchar(191)'),
      c('role', 'int', { default: 1 }),
      c('status', 'int', { default: 1 }),
      c('email', 'varchar(191)'),
      c('github_id', 'varchar(191)'),
      c('oidc_id', 'varchar(191)'),
      c('wechat_id', 'varchar(191)'),
      c('telegram_id', 'varchar(191)'),
      c('access_token', 'char(32)', { unique: true }),
      c('quota', 'int', { default: 0 }),
      c('used_quota', 'int', { default: 0 }),
      c('request_count', 'int', { default: 0 }),
      c('group', 'varchar(64)', { default: 'default' }),
      c('aff_code', 'varchar(32)', { unique: true }),
      c('aff_count', 'int', { default: 0 }),
      c('aff_quota', 'int', { default: 0 }),
      c('aff_history', 'int', { default: 0 }),
      c('inviter_id', 'int'),
      c('deleted_at', 'datetime'),
      c('linux_do_id', 'varchar(191)'),
      c('setting', 'text'),
      c('remark', 'varchar(255)'),
      c('stripe_customer', 'varchar(64)'),
    ],
  },
  {
    name: 'tokens',
    columns: [
      id,
      c('user_id', 'int'),
      c('key', 'char(48)', { unique: true }),
      c('status', 'int', { default: 1 }),
      c('name', 'varchar(191)'),
      c('created_time', 'bigint'),
      c('accessed_time', 'bigint'),
      c('expired_time', 'bigint', { default: -1 }),
      c('remain_quota', 'int', { default: 0 }),
      c('unlimited_quota', 'bool'),
      c('model_limits_enabled', 'bool'),
      c('model_limits', 'varchar(1024)', { default: '' }),
      c('allow_ips', 'text'),
      c('used_quota', 'int', { default: 0 }),
      c('group', 'varchar(191)', { default: '' }),
      c('deleted_at', 'datetime'),
    ],
  },
  {
    name: 'channels',
    columns: [
      id,
      c('type', 'int', { default: 0 }),
      c('key', 'text', { notNull: true }),
      c('openai_organization', 'text'),
      c('test_model', 'text'),
      c('status', 'int', { default: 1 }),
      c('name', 'varchar(191)'),
      c('weight', 'int', { default: 0 }),
      c('created_time', 'bigint'),
      c('test_time', 'bigint'),
      c('response_time', 'int'),
      c('base_url', 'varchar(191)', { default: '' }),
      c('other', 'text'),
      c('balance', 'double'),
      c('balance_updated_time', 'bigint'),
      c('models', 'text'),
      c('group', 'varchar(64)', { default: 'default' }),
      c('used_quota', 'bigint', { default: 0 }),
      c('model_mapping', 'text'),
      c('status_code_mapping', 'varchar(1024)', { default: '' }),
      c('priority', 'bigint', { default: 0 }),
      c('auto_ban', 'int', { default: 1 }),
      c('other_info', 'text'),
      c('tag', 'varchar(191)'),
      c('setting', 'text'),
      c('param_override', 'text'),
      c('header_override', 'text'),
      c('remark', 'varchar(255)'),
      c('channel_info', 'text'),
      c('settings', 'text'),
    ],
  },
  {
    name: 'abilities',
    columns: [
      c('group', 'varchar(64)'),
      c('model', 'varchar(255)'),
      c('channel_id', 'int'),
      c('enabled', 'bool'),
      c('priority', 'bigint', { default: 0 }),
      c('weight', 'int', { default: 0 }),
      c('tag', 'varchar(191)'),
    ],
  },
  { name: 'options', columns: [c('key', 'varchar(191)', { unique: true }), c('value', 'text')] },
  {
    name: 'redemptions',
    columns: [
      id,
      c('user_id', 'int'),
      c('key', 'char(32)', { unique: true }),
      c('status', 'int', { default: 1 }),
      c('name', 'varchar(191)'),
      c('quota', 'int', { default: 100 }),
      c('created_time', 'bigint'),
      c('redeemed_time', 'bigint'),
      c('used_user_id', 'int'),
      c('deleted_at', 'datetime'),
      c('expired_time', 'bigint'),
    ],
  },
  {
    name: 'top_ups',
    columns: [
      id,
      c('user_id', 'int'),
      c('amount', 'bigint'),
      c('money', 'double'),
      c('trade_no', 'varchar(255)', { unique: true }),
      c('payment_method', 'varchar(50)'),
      c('create_time', 'bigint'),
      c('complete_time', 'bigint'),
      c('status', 'varchar(255)'),
    ],
  },
  {
    name: 'logs',
    columns: [
      id,
      c('user_id', 'int'),
      c('created_at', 'bigint'),
      c('type', 'int'),
      c('content', 'text'),
      c('username', 'varchar(191)', { default: '' }),
      c('token_name', 'varchar(191)', { default: '' }),
      c('model_name', 'varchar(191)', { default: '' }),
      c('quota', 'int', { default: 0 }),
      c('prompt_tokens', 'int', { default: 0 }),
      c('completion_tokens', 'int', { default: 0 }),
      c('use_time', 'int', { default: 0 }),
      c('is_stream', 'bool'),
      c('channel_id', 'int'),
      c('token_id', 'int', { default: 0 }),
      c('group', 'varchar(191)'),
      c('ip', 'varchar(191)', { default: '' }),
      c('other', 'text'),
    ],
  },
  {
    name: 'midjourneys',
    columns: [
      id,
      c('code', 'int'),
      c('user_id', 'int'),
      c('action', 'varchar(40)'),
      c('mj_id', 'varchar(191)'),
      c('prompt', 'text'),
      c('prompt_en', 'text'),
      c('description', 'text'),
      c('state', 'text'),
      c('submit_time', 'bigint'),
      c('start_time', 'bigint'),
      c('finish_time', 'bigint'),
      c('image_url', 'text'),
      c('video_url', 'text'),
      c('status', 'varchar(20)'),
      c('progress', 'varchar(30)'),
      c('fail_reason', 'text'),
      c('channel_id', 'int'),
      c('quota', 'bigint'),
      c('buttons', 'text'),
      c('properties', 'text'),
    ],
  },
  {
    name: 'tasks',
    columns: [
      id,
      c('created_at', 'bigint'),
      c('updated_at', 'bigint'),
      c('task_id', 'varchar(191)'),
      c('platform', 'varchar(30)'),
      c('user_id', 'int'),
      c('group', 'varchar(50)'),
      c('channel_id', 'int'),
      c('quota', 'int'),
      c('action', 'varchar(40)'),
      c('status', 'varchar(20)'),
      c('fail_reason', 'text'),
      c('submit_time', 'bigint'),
      c('start_time', 'bigint'),
      c('finish_time', 'bigint'),
      c('progress', 'varchar(20)'),
      c('properties', 'text'),
      c('data', 'text'),
    ],
  },
  {
    name: 'quota_data',
    columns: [
      id,
      c('user_id', 'int'),
      c('username', 'varchar(64)', { default: '' }),
      c('model_name', 'varchar(64)', { default: '' }),
      c('created_at', 'bigint'),
      c('token_used', 'int', { default: 0 }),
      c('count', 'int', { default: 0 }),
      c('quota', 'int', { default: 0 }),
    ],
  },
  {
    name: 'setups',
    columns: [id, c('version', 'varchar(50)'), c('initialized_at', 'bigint')],
  },
];

export const LEGACY_SCHEMAS: Record<Flavor, LegacyTable[]> = { 'one-api': ONE_API, 'new-api': NEW_API };

export type Driver = 'sqlite' | 'mysql' | 'postgres';

export function quote(driver: Driver, name: string): string {
  return driver === 'mysql' ? `\`${name}\`` : `"${name}"`;
}

function renderType(driver: Driver, t: ColType): string {
  if (t === 'id')
    return driver === 'sqlite'
      ? 'integer PRIMARY KEY AUTOINCREMENT'
      : driver === 'mysql'
        ? 'bigint NOT NULL AUTO_INCREMENT PRIMARY KEY'
        : 'bigserial PRIMARY KEY';
  if (driver === 'sqlite') {
    if (t === 'int' || t === 'bigint') return 'integer';
    if (t === 'bool') return 'numeric';
    if (t === 'double') return 'real';
    if (t === 'datetime') return 'datetime';
    return 'text';
  }
  if (t === 'bool') return driver === 'mysql' ? 'boolean' : 'boolean';
  if (t === 'double') return driver === 'mysql' ? 'double' : 'decimal';
  if (t === 'datetime') return driver === 'mysql' ? 'datetime(3)' : 'timestamptz';
  if (t === 'text') return driver === 'mysql' ? 'longtext' : 'text';
  return t;
}

/** CREATE TABLE statements for one flavor on one database. */
export function legacyDdl(flavor: Flavor, driver: Driver): string[] {
  const out: string[] = [];
  for (const table of LEGACY_SCHEMAS[flavor]) {
    const cols = table.columns.map((col) => {
      let def = `${quote(driver, col.name)} ${renderType(driver, col.type)}`;
      if (col.notNull) def += ' NOT NULL';
      if (col.default !== undefined) {
        const v =
          col.type === 'bool' && driver === 'postgres'
            ? String(Boolean(col.default))
            : typeof col.default === 'number'
              ? String(col.default)
              : `'${col.default}'`;
        // MySQL accepts no literal default on text columns.
        if (!(driver === 'mysql' && col.type === 'text')) def += ` DEFAULT ${v}`;
      }
      return def;
    });
    if (table.name === 'options') cols[0] += ' PRIMARY KEY';
    if (table.name === 'abilities')
      cols.push(`PRIMARY KEY (${['group', 'model', 'channel_id'].map((n) => quote(driver, n)).join(', ')})`);
    const charset = driver === 'mysql' ? ' DEFAULT CHARSET=utf8mb4' : '';
    out.push(`CREATE TABLE ${quote(driver, table.name)} (${cols.join(', ')})${charset}`);
    for (const col of table.columns)
      if (col.unique && table.name !== 'options')
        out.push(
          `CREATE UNIQUE INDEX ${quote(driver, `idx_${table.name}_${col.name}`)} ON ${quote(driver, table.name)} (${quote(driver, col.name)})`,
        );
  }
  return out;
}

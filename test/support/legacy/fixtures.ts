import type { LegacyDb, LegacyRow } from './legacy-db';
import { goBcrypt } from './legacy-db';

/** What the tests know about the rows they wrote: credentials and the outcome each awkward row should have. */
export interface LegacyFacts {
  root: { id: number; username: string; password: string; accessToken: string };
  alice: { id: number; username: string; password: string; key: string; tokenId: number; group: string };
  /** A deleted user; `key` is the key of one of its tokens. */
  deleted: { id: number; username: string; password: string; key: string };
  disabled: { username: string; password: string };
  unusedCode: { id: number; key: string; quota: number };
  usedCode: { id: number; key: string };
  /** Rows per table written to the source. */
  rows: Record<string, number>;
  /** Rows per table the import must refuse (and report). */
  rejected: Record<string, number>;
  /** The model ratio of gpt-4o and alice's group ratio, as the source stores them (old formats). */
  gpt4oRatio: number;
  aliceGroupRatio: number;
}

const NOW = Math.floor(Date.now() / 1000);
const key48 = (seed: string) => (seed + 'x'.repeat(48)).slice(0, 48);

/** Fills a one-api or new-api database with realistic and awkward rows. */
export async function fillLegacy(db: LegacyDb, upstreamUrl: string): Promise<LegacyFacts> {
  const newApi = db.flavor === 'new-api';
  const deletedAt = new Date((NOW - 86_400) * 1000);
  const aliceKey = key48(`AliceOldKey${db.flavor.replace('-', '')}`);
  const facts: LegacyFacts = {
    root: {
      id: 1,
      username: 'root',
      password: 'old-root-pass',
      accessToken: '0123456789abcdef0123456789abcdef',
    },
    alice: {
      id: 2,
      username: 'alice',
      password: 'alice-old-pw',
      key: `sk-${aliceKey}`,
      tokenId: 1,
      group: 'vip',
    },
    deleted: {
      id: 3,
      username: newApi ? 'bob' : 'deleted_3f1c',
      password: 'bob-old-pw',
      key: `sk-${key48('DeletedUsersKey')}`,
    },
    disabled: { username: 'carol', password: 'carol-old-pw' },
    unusedCode: { id: 1, key: 'UNUSEDc0de000000000000000000000a', quota: 250_000 },
    usedCode: { id: 2, key: 'USEDc0de0000000000000000000000bb' },
    rows: {},
    rejected: {},
    gpt4oRatio: 2.5,
    aliceGroupRatio: 0.5,
  };
  const user = (u: LegacyRow): LegacyRow => {
    const base: LegacyRow = {
      role: 1,
      status: 1,
      email: '',
      github_id: '',
      wechat_id: '',
      oidc_id: '',
      quota: 0,
      used_quota: 0,
      request_count: 0,
      group: 'default',
      inviter_id: 0,
      ...u,
    };
    if (!newApi) {
      base.lark_id = u.lark_id ?? '';
      delete base.telegram_id;
      delete base.linux_do_id;
      delete base.setting;
      delete base.remark;
      delete base.aff_count;
      delete base.aff_quota;
      delete base.aff_history;
      delete base.deleted_at;
    } else delete base.lark_id;
    return base;
  };
  const users: LegacyRow[] = [
    user({
      id: 1,
      username: 'root',
      password: goBcrypt(facts.root.password),
      display_name: 'Root User',
      role: 100,
      email: 'root@example.com',
      access_token: facts.root.accessToken,
      quota: 2_147_483_647,
      aff_code: 'rOOt',
    }),
    user({
      id: 2,
      username: 'alice',
      password: goBcrypt(facts.alice.password),
      display_name: '爱丽丝 🌸',
      github_id: 'gh-alice',
      quota: 5_000_000,
      used_quota: 123_456,
      request_count: 42,
      group: 'vip',
      aff_code: 'aLic',
      inviter_id: 1,
      access_token: 'a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1',
      lark_id: 'ou_lark_alice',
      telegram_id: 'tg-alice',
      aff_count: 2,
      aff_quota: 1000,
      aff_history: 3000,
      setting: '{"notify_type":"email","quota_warning_threshold":100000}',
      remark: 'VIP since 2023',
    }),
    newApi
      ? user({
          id: 3,
          username: 'bob',
          password: goBcrypt('bob-old-pw'),
          quota: 777,
          aff_code: 'b0b0',
          deleted_at: deletedAt,
        })
      : user({
          id: 3,
          username: 'deleted_3f1c',
          password: goBcrypt('bob-old-pw'),
          status: 3,
          quota: 777,
          aff_code: 'b0b0',
        }),
    user({
      id: 4,
      username: 'carol',
      password: goBcrypt(facts.disabled.password),
      status: 2,
      wechat_id: 'wx-carol',
      quota: 0,
      aff_code: 'c4r0',
    }),
    // Same e-mail as root: one-api never made e-mails unique.
    user({
      id: 5,
      username: 'zoë_测试',
      password: goBcrypt('zoe-old-pw'),
      email: 'root@example.com',
      quota: 31_337,
      aff_code: 'z0e5',
    }),
    // A gap in ids; a password that is not a bcrypt hash; no affiliate code.
    user({ id: 7, username: 'eve', password: 'plaintext', quota: 10, aff_code: null, access_token: null }),
  ];
  if (db.driver === 'sqlite')
    // SQLite keeps 64-bit integers: a quota past 2^53 that this product cannot hold exactly.
    users.push(
      user({
        id: 8,
        username: 'whale',
        password: goBcrypt('whale-pw'),
        quota: 4611686018427387904n,
        aff_code: 'wh8',
      }),
    );
  await db.insert('users', users);
  facts.rows.users = users.length;
  facts.rejected.users = 0;

  const token = (t: LegacyRow): LegacyRow => {
    const base: LegacyRow = {
      status: 1,
      created_time: NOW - 1000,
      accessed_time: NOW - 10,
      expired_time: -1,
      remain_quota: 0,
      unlimited_quota: false,
      used_quota: 0,
      ...t,
    };
    if (!newApi) {
      delete base.model_limits_enabled;
      delete base.model_limits;
      delete base.allow_ips;
      delete base.group;
      delete base.deleted_at;
    } else {
      delete base.models;
      delete base.subnet;
      base.model_limits_enabled ??= false;
      base.model_limits ??= '';
      base.allow_ips ??= '';
    }
    return base;
  };
  const tokens: LegacyRow[] = [
    token({
      id: 1,
      user_id: 2,
      key: aliceKey,
      name: 'alice 的 key',
      remain_quota: 1_000_000,
      used_quota: 5000,
    }),
    token({ id: 2, user_id: 2, key: key48('UnlimitedKey'), name: 'unlimited', unlimited_quota: true }),
    token({
      id: 3,
      user_id: 1,
      key: key48('ExpiredKey'),
      name: 'expired',
      status: 3,
      expired_time: NOW - 3600,
      remain_quota: 42,
    }),
    // Its owner does not exist: reported, not imported.
    token({ id: 4, user_id: 99, key: key48('OrphanKey'), name: 'orphan', remain_quota: 9 }),
    token({
      id: 5,
      user_id: 3,
      key: key48('DeletedUsersKey'),
      name: 'of a deleted user',
      remain_quota: 500,
      deleted_at: deletedAt,
    }),
    newApi
      ? token({
          id: 6,
          user_id: 2,
          key: key48('LimitedKey'),
          name: 'limited',
          remain_quota: 100,
          model_limits_enabled: true,
          model_limits: 'gpt-4o,gpt-4o-mini',
          allow_ips: '10.0.0.0/8\n192.168.1.1',
          group: 'default',
        })
      : token({
          id: 6,
          user_id: 2,
          key: key48('LimitedKey'),
          name: 'limited',
          remain_quota: 100,
          models: 'gpt-4o,gpt-4o-mini',
          subnet: '10.0.0.0/8,192.168.1.1',
        }),
  ];
  await db.insert('tokens', tokens);
  facts.rows.tokens = tokens.length;
  facts.rejected.tokens = 1;

  const channel = (ch: LegacyRow): LegacyRow => {
    const base: LegacyRow = {
      status: 1,
      weight: 0,
      created_time: NOW - 5000,
      test_time: 0,
      response_time: 0,
      base_url: '',
      balance: 0,
      balance_updated_time: 0,
      group: 'default',
      used_quota: 0,
      priority: 0,
      ...ch,
    };
    const oneApiOnly = ['config', 'system_prompt'];
    const newApiOnly = [
      'openai_organization',
      'test_model',
      'status_code_mapping',
      'auto_ban',
      'other_info',
      'tag',
      'setting',
      'param_override',
      'header_override',
      'remark',
      'channel_info',
      'settings',
    ];
    for (const k of newApi ? oneApiOnly : newApiOnly) delete base[k];
    return base;
  };
  const channels: LegacyRow[] = [
    channel({
      id: 1,
      type: 1,
      key: 'sk-upstream-key',
      name: 'OpenAI 主线路',
      base_url: upstreamUrl,
      models: 'gpt-4o,gpt-4o-mini',
      group: 'default,vip',
      priority: 10,
      weight: 5,
      balance: 12.5,
      used_quota: 987_654,
      model_mapping: newApi ? '{}' : '',
      status_code_mapping: '{"429":"500"}',
      tag: 'main',
      setting: '{"proxy":""}',
      param_override: '{"temperature":0.5}',
      header_override: '{"X-Legacy":"1"}',
      auto_ban: 0,
      settings: '{"azure_responses_version":"preview"}',
      channel_info: '{"is_multi_key":false}',
      remark: 'main line',
    }),
    channel({
      id: 2,
      type: 14,
      key: 'sk-ant-one\nsk-ant-two',
      name: 'Claude (disabled)',
      status: 2,
      base_url: upstreamUrl,
      models: 'claude-sonnet-4',
      config: '{"region":"us-east-1","api_version":"2024-02-01"}',
      system_prompt: 'Be nice.',
      channel_info: '{"is_multi_key":true,"multi_key_size":2,"multi_key_status_list":{"1":2}}',
    }),
    channel({
      id: 3,
      type: 1,
      key: 'sk-broken',
      name: 'broken mapping',
      base_url: upstreamUrl,
      models: 'gpt-3.5-turbo',
      model_mapping: 'not json',
    }),
  ];
  // The same provider under each flavor's own type number, and a type with no adapter here.
  channels.push(
    channel({ id: 4, type: newApi ? 43 : 36, key: 'sk-deepseek', name: 'DeepSeek', models: 'deepseek-chat' }),
    channel({ id: 5, type: newApi ? 55 : 34, key: 'sk-other', name: 'no adapter', models: 'some-model' }),
  );
  await db.insert('channels', channels);
  facts.rows.channels = channels.length;
  facts.rejected.channels = 0;

  const code = (r: LegacyRow): LegacyRow => {
    const base: LegacyRow = {
      user_id: 1,
      status: 1,
      created_time: NOW - 7200,
      redeemed_time: 0,
      used_user_id: 0,
      expired_time: 0,
      ...r,
    };
    if (!newApi) {
      delete base.used_user_id;
      delete base.expired_time;
      delete base.deleted_at;
    }
    return base;
  };
  const redemptions: LegacyRow[] = [
    code({ id: 1, key: facts.unusedCode.key, name: '新年礼包', quota: facts.unusedCode.quota }),
    code({
      id: 2,
      key: facts.usedCode.key,
      name: 'used',
      quota: 1_000_000,
      status: 3,
      redeemed_time: NOW - 600,
      used_user_id: 2,
    }),
    newApi
      ? code({
          id: 3,
          key: 'EXPIREDc0de00000000000000000000c',
          name: 'expired',
          quota: 5,
          expired_time: NOW - 60,
        })
      : code({ id: 3, key: 'DISABLEDc0de0000000000000000000c', name: 'disabled', quota: 5, status: 2 }),
  ];
  if (newApi)
    redemptions.push(
      code({
        id: 4,
        key: 'DELETEDc0de00000000000000000000d',
        name: 'deleted',
        quota: 6,
        deleted_at: deletedAt,
      }),
    );
  await db.insert('redemptions', redemptions);
  facts.rows.redemptions = redemptions.length;
  facts.rejected.redemptions = 0;

  const opt = (key: string, value: string) => ({ key, value });
  const options = newApi
    ? [
        opt('ModelRatio', '{"gpt-4o":2.5,"gpt-4o-mini":"0.075"}'),
        opt('ModelPrice', '{"mj_imagine":0.1,"free-model":0}'),
        opt('GroupRatio', '{"default":1,"vip":0.5,"svip":0.8}'),
        opt('UserUsableGroups', '{"default":"默认分组","vip":"VIP"}'),
        opt('oidc.enabled', 'false'),
        opt('general_setting.docs_link', 'https://docs.example.com'),
        opt('SMTPToken', 'smtp-secret'),
        opt('SystemName', '旧网关 Legacy'),
        opt('RetryTimes', '3.0'),
        opt('console_setting.api_info', '[]'),
        opt('Notice', '维护通知 🚧'),
      ]
    : [
        opt('ModelRatio', '{"gpt-4o":"2.5","gpt-4o-mini":0.075}'),
        opt('GroupRatio', '{"default":1,"vip":"0.5"}'),
        opt('OidcEnabled', 'false'),
        opt('OidcClientId', 'legacy-client'),
        opt('OidcClientSecret', 'legacy-secret'),
        opt('ChatLink', 'https://chat.example.com'),
        opt('SystemName', 'One API 旧站'),
        opt('Theme', 'berry'),
        opt('RegisterEnabled', '1'),
        opt('TopUpLink', 'https://shop.example.com/'),
        opt('QuotaPerUnit', '500000'),
      ];
  await db.insert('options', options);
  facts.rows.options = options.length;
  facts.rejected.options = 1; // console_setting.api_info / Theme: no such setting here

  if (newApi) {
    const topups: LegacyRow[] = [
      {
        id: 1,
        user_id: 2,
        amount: 10,
        money: 7.3,
        trade_no: 'USR2NO1',
        payment_method: 'alipay',
        create_time: NOW - 900,
        complete_time: NOW - 890,
        status: 'success',
      },
      {
        id: 2,
        user_id: 2,
        amount: 5,
        money: 3.65,
        trade_no: 'USR2NO2',
        payment_method: 'wxpay',
        create_time: NOW - 100,
        complete_time: 0,
        status: 'pending',
      },
      {
        id: 3,
        user_id: 99,
        amount: 1,
        money: 0.73,
        trade_no: 'USR99NO1',
        payment_method: 'alipay',
        create_time: NOW - 50,
        complete_time: 0,
        status: 'pending',
      },
    ];
    await db.insert('top_ups', topups);
    facts.rows.top_ups = topups.length;
    facts.rejected.top_ups = 1;
    await db.insert('midjourneys', [
      {
        id: 1,
        code: 1,
        user_id: 2,
        action: 'IMAGINE',
        mj_id: 'mj-1',
        prompt: '一只猫',
        submit_time: (NOW - 500) * 1000,
        start_time: 0,
        finish_time: 0,
        status: 'SUCCESS',
        progress: '100%',
        channel_id: 1,
        quota: 50_000,
        video_url: '',
      },
    ]);
    await db.insert('tasks', [
      {
        id: 1,
        created_at: NOW - 400,
        updated_at: NOW - 300,
        task_id: 'suno-1',
        platform: 'suno',
        user_id: 2,
        group: 'vip',
        channel_id: 1,
        quota: 30_000,
        action: 'MUSIC',
        status: 'SUCCESS',
        submit_time: NOW - 400,
        start_time: NOW - 390,
        finish_time: NOW - 300,
        progress: '100%',
        properties: '{}',
        data: '[]',
      },
    ]);
    await db.insert('quota_data', [
      {
        id: 1,
        user_id: 2,
        username: 'alice',
        model_name: 'gpt-4o',
        created_at: NOW - 3600,
        token_used: 1500,
        count: 3,
        quota: 4200,
      },
    ]);
  }
  const logs: LegacyRow[] = [
    {
      id: 1,
      user_id: 2,
      created_at: NOW - 300,
      type: 2,
      content: '模型倍率 2.5',
      username: 'alice',
      token_name: 'alice 的 key',
      model_name: 'gpt-4o',
      quota: 38,
      prompt_tokens: 10,
      completion_tokens: 5,
      channel_id: 1,
      is_stream: false,
    },
    {
      id: 2,
      user_id: 1,
      created_at: NOW - 200,
      type: 1,
      content: '通过兑换码充值',
      username: 'root',
      quota: 100_000,
      channel_id: 0,
      is_stream: false,
    },
    // A busy deployment's log ids pass 2^31.
    {
      id: 3_000_000_001,
      user_id: 2,
      created_at: NOW - 100,
      type: 2,
      content: '',
      username: 'alice',
      token_name: 'alice 的 key',
      model_name: 'gpt-4o-mini',
      quota: 7,
      prompt_tokens: 3,
      completion_tokens: 1,
      channel_id: 1,
      is_stream: true,
    },
  ];
  for (const l of logs) {
    if (newApi)
      Object.assign(l, {
        use_time: 2,
        token_id: 1,
        group: 'vip',
        ip: '203.0.113.9',
        other: '{"model_ratio":2.5}',
      });
    else Object.assign(l, { elapsed_time: 2300, request_id: 'req-1' });
  }
  await db.insert('logs', logs);
  facts.rows.logs = logs.length;
  return facts;
}

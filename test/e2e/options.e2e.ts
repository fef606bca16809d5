/**
 * Runtime settings as operators see them: who may read and write which keys, secrets that never come
 * back and are encrypted at rest, the validation messages of the settings panels, and the public status
 * object and site texts that reflect a change at once.
 */
import request from 'supertest';
import { CryptoService } from '../../server/src/common/crypto.service';
import { OptionRow } from '../../server/src/database/entities';
import { ApiClient, makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

type Item = { key: string; value: string; root_only?: true };

/** Write-only secrets (docs/decisions.md#secret-options). */
const SECRETS = [
  'GitHubClientSecret',
  'oidc.client_secret',
  'LinuxDOClientSecret',
  'SMTPToken',
  'WeChatServerToken',
  'TelegramBotToken',
  'TurnstileSecretKey',
  'EpayKey',
  'WorkerValidKey',
];

/** Root-only keys that are listed (docs/decisions.md#root-only-options), each with a valid value root may set. */
const ROOT_ONLY: Array<[string, string]> = [
  ['ServerAddress', 'https://gw.example.com'],
  ['PayAddress', 'https://pay.example.com'],
  ['EpayId', '10086'],
  ['Price', '7.5'],
  ['MinTopUp', '5'],
  ['TopupGroupRatio', '{"default":1,"vip":0.9}'],
  ['PayMethods', '[{"name":"Alipay","type":"zfb","color":"blue"}]'],
  ['TopUpLink', 'https://shop.example.com'],
  ['CustomCallbackAddress', 'https://cb.example.com'],
  ['QuotaPerUnit', '400000'],
  ['SMTPServer', 'smtp.example.com'],
  ['SMTPPort', '465'],
  ['SMTPAccount', 'mailer@example.com'],
  ['SMTPFrom', 'noreply@example.com'],
  ['SMTPSSLEnabled', 'true'],
  ['GitHubClientId', 'gh-client-id-1'],
  ['oidc.client_id', 'oidc-client-1'],
  ['oidc.well_known', 'https://idp.example.com/.well-known/openid-configuration'],
  ['oidc.authorization_endpoint', 'https://idp.example.com/authorize'],
  ['oidc.token_endpoint', 'https://idp.example.com/token'],
  ['oidc.user_info_endpoint', 'https://idp.example.com/userinfo'],
  ['LinuxDOClientId', 'linuxdo-client-1'],
  ['WeChatServerAddress', 'https://wechat.example.com'],
  ['WeChatAccountQRCodeImageURL', 'https://wechat.example.com/qr.png'],
  ['TelegramBotName', 'gatehouse_bot'],
  ['TurnstileSiteKey', 'site-key-1'],
  ['WorkerUrl', 'https://worker.example.com'],
];

/** Every public field of the status object (docs/decisions.md#status-mirrors), plus the gateway's own additions. */
const STATUS_FIELDS = [
  'system_name',
  'logo',
  'footer_html',
  'quota_per_unit',
  'display_in_currency',
  'enable_drawing',
  'enable_task',
  'enable_data_export',
  'chats',
  'pay_methods',
  'data_export_default_time',
  'default_collapse_sidebar',
  'mj_notify_enabled',
  'chat_link',
  'chat_link2',
  'docs_link',
  'version',
  'start_time',
  'email_verification',
  'turnstile_check',
  'turnstile_site_key',
  'github_oauth',
  'github_client_id',
  'oidc_enabled',
  'oidc_authorization_endpoint',
  'oidc_client_id',
  'wechat_login',
  'wechat_qrcode',
  'telegram_oauth',
  'telegram_bot_name',
  'linuxdo_oauth',
  'linuxdo_client_id',
  'server_address',
  'setup',
  'self_use_mode_enabled',
  'demo_site_enabled',
  'default_use_auto_group',
  'enable_online_topup',
  'price',
  'usd_exchange_rate',
];

describe('options', () => {
  let t: TestApp;
  let root: ApiClient;
  let admin: ApiClient;
  let user: ApiClient;
  let defaults: Item[];

  const stored = async (key: string) =>
    (await t.ds.getRepository(OptionRow).findOneBy({ key }))?.value ?? null;
  const list = async (c: ApiClient): Promise<Item[]> => {
    const res = await c.get('/api/option/').expect(200);
    expect(res.body.success).toBe(true);
    return res.body.data;
  };
  const listed = async (key: string, c: ApiClient = root) =>
    (await list(c)).find((i) => i.key === key)?.value;
  const put = (c: ApiClient, key: string, value: unknown, extra: Record<string, unknown> = {}) =>
    c.put('/api/option/', { key, value, ...extra });
  const status = async () =>
    (await request(t.url).get('/api/status').expect(200)).body.data as Record<string, unknown>;
  const setOk = async (c: ApiClient, key: string, value: unknown) => {
    const res = await put(c, key, value).expect(200);
    expect(res.body).toMatchObject({ success: true });
  };

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    user = await makeUser(t, root);
    defaults = await list(root);
  });
  afterAll(() => t.close());

  // ---------------------------------------------------------------- reading

  describe('GET /api/option/', () => {
    it('is for admins only', async () => {
      const anon = await new ApiClient(t.url).get('/api/option/').expect(401);
      expect(anon.body).toMatchObject({ success: false });
      const u = await user.get('/api/option/').expect(403);
      expect(u.body).toMatchObject({ success: false });
      expect(JSON.stringify(u.body)).not.toContain('SystemName');
      await admin.get('/api/option/').expect(200);
    });

    it('is a list of {key, value} strings with unique keys', async () => {
      expect(Array.isArray(defaults)).toBe(true);
      expect(defaults.length).toBeGreaterThan(50);
      for (const item of defaults) {
        expect(Object.keys(item)).toEqual(['key', 'value']);
        expect(typeof item.key).toBe('string');
        expect(typeof item.value).toBe('string');
      }
      expect(new Set(defaults.map((i) => i.key)).size).toBe(defaults.length);
    });

    it('starts from the documented defaults', () => {
      const v = Object.fromEntries(defaults.map((i) => [i.key, i.value]));
      expect(v).toMatchObject({
        QuotaPerUnit: '500000',
        QuotaForNewUser: '0',
        QuotaForInviter: '0',
        QuotaForInvitee: '0',
        PreConsumedQuota: '500',
        RetryTimes: '0',
        ChannelDisableThreshold: '5',
        AutomaticDisableChannelEnabled: 'false',
        AutomaticEnableChannelEnabled: 'false',
        QuotaRemindThreshold: '1000',
        ModelRequestRateLimitDurationMinutes: '1',
        ModelRequestRateLimitCount: '0',
        ModelRequestRateLimitSuccessCount: '1000',
        LogConsumeEnabled: 'true',
        SystemName: 'Gatehouse',
        USDExchangeRate: '7.3',
        Price: '7.3',
        MinTopUp: '1',
        DataExportInterval: '5',
        DataExportDefaultTime: 'hour',
        SensitiveWords: 'test_sensitive',
        StreamCacheQueueLength: '0',
        TaskEnabled: 'true',
      });
      expect(JSON.parse(v.GroupRatio)).toEqual({ default: 1, vip: 1, svip: 1 });
      expect(JSON.parse(v.UserUsableGroups)).toEqual({ default: '默认分组', vip: 'vip分组' });
      expect(JSON.parse(v.AutoGroups)).toEqual(['default']);
      expect(v.AutomaticDisableKeywords.split('\n')).toEqual([
        'Your credit balance is too low',
        'This organization has been disabled.',
        'You exceeded your current quota',
        'Permission denied',
        'The security token included in the request is invalid',
        'Operation not allowed',
        'Your account is not authorized',
      ]);
      const ratio = JSON.parse(v.ModelRatio);
      expect(ratio).toMatchObject({ 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, 'gpt-3.5-turbo': 0.25 });
      expect(JSON.parse(v.CompletionRatio)).toMatchObject({ 'gpt-4o': 4 });
      expect(JSON.parse(v.ModelPrice)).toMatchObject({
        'dall-e-3': 0.04,
        mj_imagine: 0.1,
        suno_lyrics: 0.01,
      });
    });

    it('never lists a secret, to admin or root', async () => {
      for (const c of [admin, root]) {
        const keys = (await list(c)).map((i) => i.key);
        for (const s of SECRETS) expect(keys).not.toContain(s);
      }
    });

    it('marks root-only keys read-only for admins, and only for admins', async () => {
      const forAdmin = await list(admin);
      for (const [key] of ROOT_ONLY)
        expect(forAdmin.find((i) => i.key === key)).toMatchObject({ key, root_only: true });
      for (const key of [
        'SystemName',
        'Notice',
        'RetryTimes',
        'ModelRatio',
        'PasswordLoginEnabled',
        'QuotaForNewUser',
      ]) {
        expect(forAdmin.find((i) => i.key === key)).not.toHaveProperty('root_only');
      }
      expect((await list(root)).filter((i) => 'root_only' in i)).toEqual([]);
    });
  });

  // ---------------------------------------------------------------- secrets

  describe('secret options', () => {
    const crypto = () => t.app.get(CryptoService);

    it.each(SECRETS)('%s is stored encrypted and never returned', async (key) => {
      const clear = `clear-${key}-Zq81`;
      await setOk(root, key, clear);
      const raw = await stored(key);
      expect(raw).toBeTruthy();
      expect(raw).not.toBe(clear);
      expect(raw).not.toContain(clear);
      expect(crypto().decrypt(raw!)).toBe(clear);
      const everything = JSON.stringify([await list(root), await list(admin), await status()]);
      expect(everything).not.toContain(clear);
      expect(everything).not.toContain(raw!);
    });

    it('an empty value leaves a secret unchanged; clear:true clears it', async () => {
      await setOk(root, 'SMTPToken', 'smtp-pass-1');
      const before = await stored('SMTPToken');
      await setOk(root, 'SMTPToken', '');
      await setOk(root, 'SMTPToken', null);
      expect(await stored('SMTPToken')).toBe(before);
      expect(crypto().decrypt(before!)).toBe('smtp-pass-1');

      await setOk(root, 'SMTPToken', '');
      const cleared = await put(root, 'SMTPToken', '', { clear: true }).expect(200);
      expect(cleared.body.success).toBe(true);
      expect(await stored('SMTPToken')).toBe('');
      expect((await list(root)).map((i) => i.key)).not.toContain('SMTPToken');
    });

    it('admins cannot write secrets (403, unchanged)', async () => {
      await setOk(root, 'GitHubClientSecret', 'gh-secret-root');
      const before = await stored('GitHubClientSecret');
      await put(admin, 'GitHubClientSecret', 'gh-secret-admin').expect(403);
      await put(admin, 'GitHubClientSecret', '', { clear: true }).expect(403);
      expect(await stored('GitHubClientSecret')).toBe(before);
      await user.put('/api/option/', { key: 'GitHubClientSecret', value: 'x' }).expect(403);
      expect(await stored('GitHubClientSecret')).toBe(before);
    });
  });

  // ---------------------------------------------------------------- root-only

  describe('root-only keys', () => {
    it('PayAddress needs a ServerAddress first', async () => {
      expect(await listed('ServerAddress')).toBe('');
      const res = await put(root, 'PayAddress', 'https://pay.example.com').expect(200);
      expect(res.body).toMatchObject({ success: false, message: '请先填写服务器地址' });
      expect(await stored('PayAddress')).toBeNull();
      expect(await listed('PayAddress')).toBe('');
    });

    it.each(ROOT_ONLY)('%s: admin gets 403 and nothing changes; root succeeds', async (key, value) => {
      const before = await stored(key);
      const listedBefore = await listed(key);
      const res = await put(admin, key, value).expect(403);
      expect(res.body).toMatchObject({ success: false });
      expect(await stored(key)).toBe(before);
      expect(await listed(key)).toBe(listedBefore);
      if (key === 'PayAddress') await setOk(root, 'ServerAddress', 'https://gw.example.com');
      await setOk(root, key, value);
      expect(await listed(key)).toBe(value);
      expect(await listed(key, admin)).toBe(value);
    });
  });

  // ---------------------------------------------------------------- validation

  describe('validation', () => {
    const cases: Array<[string, 'admin' | 'root', string, unknown, string]> = [
      ['a boolean must be true or false', 'admin', 'PasswordLoginEnabled', 'yes', 'PasswordLoginEnabled'],
      ['a boolean must be true or false (1)', 'admin', 'DrawingEnabled', '1', 'DrawingEnabled'],
      ['a boolean must not be empty', 'admin', 'RegisterEnabled', '', 'RegisterEnabled'],
      ['RetryTimes above 10', 'admin', 'RetryTimes', '11', 'RetryTimes'],
      ['RetryTimes below 0', 'admin', 'RetryTimes', '-1', 'RetryTimes'],
      ['RetryTimes not whole', 'admin', 'RetryTimes', '3.5', 'RetryTimes'],
      ['RetryTimes not a number', 'admin', 'RetryTimes', 'three', 'RetryTimes'],
      ['DataExportInterval below 1', 'admin', 'DataExportInterval', '0', 'DataExportInterval'],
      ['QuotaForNewUser below 0', 'admin', 'QuotaForNewUser', '-1', 'QuotaForNewUser'],
      ['QuotaForNewUser beyond 2^53', 'admin', 'QuotaForNewUser', '9007199254740993', 'QuotaForNewUser'],
      ['ModelRatio not JSON', 'admin', 'ModelRatio', 'not json', '不是合法的 JSON'],
      ['ModelRatio negative', 'admin', 'ModelRatio', '{"gpt-4o":-1}', 'ModelRatio'],
      ['ModelRatio a list', 'admin', 'ModelRatio', '[1,2]', 'ModelRatio'],
      ['ModelRatio text values', 'admin', 'ModelRatio', '{"gpt-4o":"1"}', 'ModelRatio'],
      ['CompletionRatio not JSON', 'admin', 'CompletionRatio', '{', '不是合法的 JSON'],
      ['GroupRatio not JSON', 'admin', 'GroupRatio', "{'default':1}", '不是合法的 JSON'],
      ['ModelPrice with a 0 price', 'admin', 'ModelPrice', '{"dall-e-3":0.04,"m":0}', '模型价格不能为0'],
      [
        'TopupGroupRatio not JSON',
        'root',
        'TopupGroupRatio',
        '{default:1',
        '充值分组倍率不是合法的 JSON 字符串',
      ],
      ['PayMethods not JSON', 'root', 'PayMethods', '[{"name":', '充值方式设置不是合法的 JSON 字符串'],
      [
        'EmailDomainWhitelist with a bad domain',
        'admin',
        'EmailDomainWhitelist',
        'gmail.com,not_a_domain',
        '邮箱域名格式不正确',
      ],
      [
        'EmailDomainWhitelist with a bare word',
        'admin',
        'EmailDomainWhitelist',
        'localhost',
        '邮箱域名格式不正确',
      ],
      [
        'EmailDomainWhitelist with a duplicate',
        'admin',
        'EmailDomainWhitelist',
        'a.com,b.com,a.com',
        '该域名已存在于白名单中',
      ],
      [
        'EmailDomainWhitelist with a duplicate in other case',
        'admin',
        'EmailDomainWhitelist',
        'a.com,A.COM',
        '该域名已存在于白名单中',
      ],
      [
        'oidc.well_known with ftp',
        'root',
        'oidc.well_known',
        'ftp://idp.example.com/.well-known/openid-configuration',
        'Well-Known URL 必须以',
      ],
      [
        'oidc.well_known without a scheme',
        'root',
        'oidc.well_known',
        'idp.example.com/.well-known/openid-configuration',
        'Well-Known URL 必须以',
      ],
      ['ServerAddress not a URL', 'root', 'ServerAddress', 'not a url', 'ServerAddress'],
      ['ServerAddress with a script scheme', 'root', 'ServerAddress', 'javascript:alert(1)', 'ServerAddress'],
      [
        'DataExportDefaultTime not hour/day/week',
        'admin',
        'DataExportDefaultTime',
        'month',
        'DataExportDefaultTime',
      ],
      ['Chats not a list', 'admin', 'Chats', '{"a":"https://x.example.com"}', 'Chats'],
      ['SystemName too long', 'admin', 'SystemName', 'n'.repeat(129), 'SystemName'],
      ['an unknown key', 'admin', 'NoSuchOption', 'x', '未知的配置项'],
      ['an inherited property name', 'admin', 'constructor', 'x', '未知的配置项'],
      ['an object value', 'admin', 'SystemName', { name: 'x' }, 'SystemName'],
      ['a list value', 'admin', 'Notice', ['x'], 'Notice'],
    ];

    it.each(cases)('refuses %s and keeps the stored value', async (_label, who, key, value, message) => {
      const c = who === 'root' ? root : admin;
      const before = await stored(key);
      const listedBefore = await listed(key);
      const statusBefore = await status();
      const res = await put(c, key, value).expect(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toContain(message);
      expect(await stored(key)).toBe(before);
      expect(await listed(key)).toBe(listedBefore);
      expect(await status()).toEqual(statusBefore);
    });

    it('refuses a body without a key', async () => {
      const res = await admin.put('/api/option/', { value: 'x' }).expect(200);
      expect(res.body.success).toBe(false);
      const res2 = await admin.put('/api/option/', { key: 42, value: 'x' }).expect(200);
      expect(res2.body.success).toBe(false);
    });

    it('accepts the edges of the ranges and JSON numbers/booleans as text', async () => {
      await setOk(admin, 'RetryTimes', '10');
      expect(await listed('RetryTimes')).toBe('10');
      await setOk(admin, 'RetryTimes', 0);
      expect(await listed('RetryTimes')).toBe('0');
      await setOk(admin, 'DataExportInterval', '1');
      expect(await listed('DataExportInterval')).toBe('1');
      await setOk(admin, 'QuotaForNewUser', 0);
      await setOk(admin, 'QuotaForNewUser', 250);
      expect(await listed('QuotaForNewUser')).toBe('250');
      expect(await stored('QuotaForNewUser')).toBe('250');
      await setOk(admin, 'PasswordRegisterEnabled', false);
      expect(await listed('PasswordRegisterEnabled')).toBe('false');
      await setOk(admin, 'PasswordRegisterEnabled', 'true');
      expect(await listed('PasswordRegisterEnabled')).toBe('true');
      await setOk(admin, 'EmailDomainWhitelist', 'example.com,mail.example.org');
      expect(await listed('EmailDomainWhitelist')).toBe('example.com,mail.example.org');
    });

    it('a new user gets the QuotaForNewUser just set', async () => {
      await setOk(admin, 'QuotaForNewUser', 4321);
      const reg = await new ApiClient(t.url)
        .post('/api/user/register', { username: 'newbie1', password: 'password-1', password2: 'password-1' })
        .expect(200);
      expect(reg.body.success).toBe(true);
      const self = await (
        await new ApiClient(t.url).login('newbie1', 'password-1')
      )
        .get('/api/user/self')
        .expect(200);
      expect(self.body.data.quota).toBe(4321);
      await setOk(admin, 'QuotaForNewUser', 0);
    });

    it('strips trailing slashes from addresses', async () => {
      await setOk(root, 'ServerAddress', 'https://gw2.example.com/');
      expect(await listed('ServerAddress')).toBe('https://gw2.example.com');
      expect(await stored('ServerAddress')).toBe('https://gw2.example.com');
      expect((await status()).server_address).toBe('https://gw2.example.com');
      await setOk(root, 'oidc.authorization_endpoint', 'https://idp.example.com/authorize///');
      expect((await status()).oidc_authorization_endpoint).toBe('https://idp.example.com/authorize');
      await setOk(admin, 'general_setting.docs_link', 'https://docs.example.com/');
      expect((await status()).docs_link).toBe('https://docs.example.com');
      await setOk(root, 'oidc.well_known', 'http://idp.example.com/.well-known/openid-configuration/');
      expect(await listed('oidc.well_known')).toBe('http://idp.example.com/.well-known/openid-configuration');
    });
  });

  // ---------------------------------------------------------------- effects

  describe('changes are visible at once', () => {
    it('SystemName', async () => {
      await setOk(admin, 'SystemName', '我的网关');
      expect((await status()).system_name).toBe('我的网关');
      expect(await listed('SystemName', admin)).toBe('我的网关');
    });

    it('QuotaPerUnit (root)', async () => {
      await setOk(root, 'QuotaPerUnit', '250000');
      expect((await status()).quota_per_unit).toBe(250000);
      expect(await listed('QuotaPerUnit')).toBe('250000');
    });

    it('DisplayInCurrencyEnabled', async () => {
      expect((await status()).display_in_currency).toBe(true);
      await setOk(admin, 'DisplayInCurrencyEnabled', 'false');
      expect((await status()).display_in_currency).toBe(false);
      await setOk(admin, 'DisplayInCurrencyEnabled', 'true');
      expect((await status()).display_in_currency).toBe(true);
    });

    it('Chats become chats, chat_link and chat_link2', async () => {
      const chats = [
        { 'ChatGPT Next Web': 'https://next.example.com/#/?settings={"key":"{key}"}' },
        { Lobe: 'https://lobe.example.com' },
      ];
      await setOk(admin, 'Chats', JSON.stringify(chats));
      const s = await status();
      expect(s.chats).toEqual(chats);
      expect(s.chat_link).toBe(chats[0]['ChatGPT Next Web']);
      expect(s.chat_link2).toBe('https://lobe.example.com');
      await setOk(admin, 'Chats', '[]');
      expect(await status()).toMatchObject({ chats: [], chat_link: '', chat_link2: '' });
    });

    it('sign-in switches and public identifiers', async () => {
      await setOk(admin, 'GitHubOAuthEnabled', 'true');
      await setOk(root, 'GitHubClientId', 'gh-public-id');
      await setOk(admin, 'TurnstileCheckEnabled', 'false');
      await setOk(root, 'TurnstileSiteKey', 'ts-site-key');
      await setOk(admin, 'EmailVerificationEnabled', 'false');
      expect(await status()).toMatchObject({
        github_oauth: true,
        github_client_id: 'gh-public-id',
        turnstile_site_key: 'ts-site-key',
        turnstile_check: false,
        email_verification: false,
      });
      await setOk(admin, 'GitHubOAuthEnabled', 'false');
      expect((await status()).github_oauth).toBe(false);
    });
  });

  describe('POST /api/option/rest_model_ratio', () => {
    it('restores the model price tables to the built-in defaults', async () => {
      const dflt = (key: string) => defaults.find((i) => i.key === key)!.value;
      await setOk(admin, 'ModelRatio', '{"only-model":3}');
      await setOk(admin, 'CompletionRatio', '{"only-model":2}');
      await setOk(admin, 'ModelPrice', '{"only-model":0.5}');
      await setOk(admin, 'GroupRatio', '{"default":1,"vip":2}');
      expect(await listed('ModelRatio')).toBe('{"only-model":3}');

      await user.post('/api/option/rest_model_ratio').expect(403);
      expect(await listed('ModelRatio')).toBe('{"only-model":3}');

      const res = await admin.post('/api/option/rest_model_ratio').expect(200);
      expect(res.body.success).toBe(true);
      for (const key of ['ModelRatio', 'CompletionRatio', 'ModelPrice']) {
        expect(JSON.parse((await listed(key))!)).toEqual(JSON.parse(dflt(key)));
        expect(JSON.parse((await stored(key))!)).toEqual(JSON.parse(dflt(key)));
      }
      expect(JSON.parse((await listed('ModelRatio'))!)['gpt-4o']).toBe(1.25);
      // Group ratios are not model prices: they stay.
      expect(await listed('GroupRatio')).toBe('{"default":1,"vip":2}');
    });
  });

  // ---------------------------------------------------------------- status and texts

  describe('GET /api/status', () => {
    it('has every public field, with the right types, for anyone', async () => {
      const s = await status();
      for (const f of STATUS_FIELDS) expect(s).toHaveProperty(f);
      const bools = [
        'display_in_currency',
        'enable_drawing',
        'enable_task',
        'enable_data_export',
        'default_collapse_sidebar',
        'mj_notify_enabled',
        'email_verification',
        'turnstile_check',
        'github_oauth',
        'oidc_enabled',
        'wechat_login',
        'telegram_oauth',
        'linuxdo_oauth',
        'setup',
        'self_use_mode_enabled',
        'demo_site_enabled',
        'default_use_auto_group',
        'enable_online_topup',
      ];
      for (const f of bools) expect([f, typeof s[f]]).toEqual([f, 'boolean']);
      for (const f of ['quota_per_unit', 'price', 'usd_exchange_rate', 'start_time'])
        expect([f, typeof s[f]]).toEqual([f, 'number']);
      const strings = [
        'system_name',
        'logo',
        'footer_html',
        'data_export_default_time',
        'chat_link',
        'chat_link2',
        'docs_link',
        'version',
        'turnstile_site_key',
        'github_client_id',
        'oidc_authorization_endpoint',
        'oidc_client_id',
        'wechat_qrcode',
        'telegram_bot_name',
        'linuxdo_client_id',
        'server_address',
      ];
      for (const f of strings) expect([f, typeof s[f]]).toEqual([f, 'string']);
      expect(Array.isArray(s.chats)).toBe(true);
      expect(Array.isArray(s.pay_methods)).toBe(true);
      expect(s.setup).toBe(true);
      expect(s.version).toMatch(/^\d+\.\d+\.\d+/);
      // Off unless VERSION_CHECK_REPO names a repository (owner/name).
      expect(s.version_check_repo).toBe('');
      expect(s.start_time as number).toBeGreaterThan(1_600_000_000);
      expect(s.start_time as number).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000));
    });

    it('reflects the public options', async () => {
      await setOk(root, 'TelegramBotName', 'my_bot');
      await setOk(root, 'LinuxDOClientId', 'ldo-id');
      await setOk(root, 'oidc.client_id', 'oidc-id');
      await setOk(root, 'WeChatAccountQRCodeImageURL', 'https://wx.example.com/qr.png');
      await setOk(admin, 'Footer', '<b>foot</b>');
      await setOk(admin, 'Logo', 'https://img.example.com/logo.png');
      await setOk(admin, 'DataExportDefaultTime', 'week');
      await setOk(admin, 'USDExchangeRate', '7.1');
      await setOk(root, 'Price', '6.8');
      await setOk(admin, 'DefaultUseAutoGroup', 'true');
      await setOk(admin, 'DrawingEnabled', 'true');
      await setOk(admin, 'TaskEnabled', 'false');
      expect(await status()).toMatchObject({
        telegram_bot_name: 'my_bot',
        linuxdo_client_id: 'ldo-id',
        oidc_client_id: 'oidc-id',
        wechat_qrcode: 'https://wx.example.com/qr.png',
        footer_html: '<b>foot</b>',
        logo: 'https://img.example.com/logo.png',
        data_export_default_time: 'week',
        usd_exchange_rate: 7.1,
        price: 6.8,
        default_use_auto_group: true,
        enable_drawing: true,
        enable_task: false,
      });
    });

    it('turns online top-up on only when pay address, merchant id and key are all set', async () => {
      await setOk(root, 'ServerAddress', 'https://gw.example.com');
      await setOk(root, 'PayAddress', 'https://pay.example.com');
      await setOk(root, 'EpayId', '1001');
      await setOk(root, 'EpayKey', '');
      await put(root, 'EpayKey', '', { clear: true }).expect(200);
      expect((await status()).enable_online_topup).toBe(false);
      await setOk(root, 'EpayKey', 'epay-key-secret');
      expect((await status()).enable_online_topup).toBe(true);
      await setOk(root, 'EpayId', '');
      expect((await status()).enable_online_topup).toBe(false);
    });

    it('carries no secret', async () => {
      const markers = SECRETS.map((k, i) => `status-secret-${i}-Xy7`);
      for (const [i, k] of SECRETS.entries()) await setOk(root, k, markers[i]);
      const text = JSON.stringify(await status());
      for (const m of markers) expect(text).not.toContain(m);
      for (const k of SECRETS) expect(text).not.toContain(k);
    });
  });

  describe('public site texts', () => {
    it.each([
      ['/api/notice', 'Notice'],
      ['/api/about', 'About'],
      ['/api/home_page_content', 'HomePageContent'],
    ])('%s returns the %s text as data', async (path, key) => {
      const empty = await request(t.url).get(path).expect(200);
      expect(empty.body).toEqual({ success: true, message: '', data: '' });
      const text = `# ${key}\n\n<p>多行 text</p>`;
      await setOk(admin, key, text);
      const res = await request(t.url).get(path).expect(200);
      expect(res.body).toEqual({ success: true, message: '', data: text });
      await setOk(admin, key, '');
      expect((await request(t.url).get(path).expect(200)).body.data).toBe('');
    });
  });
});

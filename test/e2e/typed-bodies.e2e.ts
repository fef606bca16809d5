/**
 * Body fields of the wrong JSON type are refused by the field's own rule before any write: the answer
 * is the business failure in the caller's language (Chinese by default, English on request), and
 * nothing changes.
 */
import { Channel, OptionRow, Token, TopUp, User } from '../../server/src/database/entities';
import { ApiClient, makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

let t: TestApp;
let root: ApiClient;
let alice: ApiClient & { username: string };
let tokenId: number;
let channelId: number;

async function counts(): Promise<Record<string, unknown>> {
  const option = await t.ds.getRepository(OptionRow).findOneBy({ key: 'SystemName' });
  const users = await t.ds
    .getRepository(User)
    .find({ select: { id: true, budget: true }, order: { id: 'ASC' } });
  const tokens = await t.ds.getRepository(Token).find({ order: { id: 'ASC' } });
  const channels = await t.ds.getRepository(Channel).find({ order: { id: 'ASC' } });
  return {
    channels: channels.map((c) => [c.id, c.name, c.tag, c.other, c.weight, c.status]),
    topups: await t.ds.getRepository(TopUp).count(),
    system: option?.value ?? null,
    users: users.map((u) => [u.id, u.budget]),
    tokens: tokens.map((k) => [k.id, k.name, k.status, k.remain_quota, k.budget, k.deleted_at]),
  };
}

beforeAll(async () => {
  t = await startApp();
  root = await setupRoot(t);
  alice = await makeUser(t, root);
  const made = await alice.post('/api/token/', { name: 'typed' });
  expect(made.body.success).toBe(true);
  const list = await alice.get('/api/token/?p=1&page_size=10');
  tokenId = list.body.data.items[0].id;
  const channel = await root.post('/api/channel/', {
    type: 1,
    name: 'typed',
    key: 'k-typed',
    models: 'gpt-4o',
    tag: 'typed-tag',
  });
  expect(channel.body.success).toBe(true);
  channelId = channel.body.data.id;
});

afterAll(async () => {
  await t?.close();
});

const BUDGET = {
  zh: 'budget 必须是按周期（day、week、month）给出上限的对象，例如 {"day": {"quota": 500000, "requests": 100}}',
  en: 'budget must be an object of caps by period (day, week, month), e.g. {"day": {"quota": 500000, "requests": 100}}',
};

type Case = [
  label: string,
  who: () => ApiClient,
  method: 'post' | 'put',
  path: () => string,
  body: () => unknown,
  zh: string,
  en: string,
];

const cases: Case[] = [
  [
    'channel status as text',
    () => root,
    'post',
    () => '/api/channel/',
    () => ({ type: 1, name: 'typed', key: 'k-valid', models: 'gpt-4o', status: '2' }),
    '渠道字段 status 无效：must be one of 1, 2, 3',
    'Invalid channel field status: must be one of 1, 2, 3',
  ],
  [
    'channel name as a number',
    () => root,
    'post',
    () => '/api/channel/',
    () => ({ type: 1, name: 5, key: 'k-valid', models: 'gpt-4o' }),
    '渠道字段 name 无效：must be text',
    'Invalid channel field name: must be text',
  ],
  [
    'channel key as a list',
    () => root,
    'post',
    () => '/api/channel/',
    () => ({ type: 1, name: 'typed', key: ['k-1', 'k-2'], models: 'gpt-4o' }),
    '渠道字段 key 无效：must be text',
    'Invalid channel field key: must be text',
  ],
  [
    'channel create mode not in its list',
    () => root,
    'post',
    () => '/api/channel/',
    () => ({ type: 1, name: 'typed', key: 'k-valid', models: 'gpt-4o', mode: 'bulk' }),
    "渠道字段 mode 无效：must be 'single' or 'batch'",
    "Invalid channel field mode: must be 'single' or 'batch'",
  ],
  [
    'channel id as text',
    () => root,
    'put',
    () => '/api/channel/',
    () => ({ id: String(channelId), name: 'renamed' }),
    '渠道字段 id 无效：must be a channel id',
    'Invalid channel field id: must be a channel id',
  ],
  [
    'channel extra setting as an object',
    () => root,
    'put',
    () => '/api/channel/',
    () => ({ id: channelId, other: { version: 'v2' } }),
    '渠道字段 other 无效：must be text',
    'Invalid channel field other: must be text',
  ],
  [
    'channel weight past the column',
    () => root,
    'put',
    () => '/api/channel/',
    () => ({ id: channelId, weight: 2 ** 40 }),
    '权重必须是非负整数',
    'weight must be a non-negative integer',
  ],
  [
    'channel tag as a number',
    () => root,
    'post',
    () => '/api/channel/tag/disabled',
    () => ({ tag: 7 }),
    '渠道字段 tag 无效：must be text',
    'Invalid channel field tag: must be text',
  ],
  [
    'new channel tag as a list',
    () => root,
    'put',
    () => '/api/channel/tag',
    () => ({ tag: 'typed-tag', new_tag: ['a'] }),
    '渠道字段 new_tag 无效：must be text',
    'Invalid channel field new_tag: must be text',
  ],
  [
    'channel ids with a text entry',
    () => root,
    'post',
    () => '/api/channel/batch/tag',
    () => ({ ids: [1, 'two'], tag: 'x' }),
    '渠道字段 ids 无效：must be a list of channel ids',
    'Invalid channel field ids: must be a list of channel ids',
  ],
  [
    'token ids as a comma list',
    () => alice,
    'post',
    () => '/api/token/batch',
    () => ({ ids: '1,2' }),
    '请先选择令牌',
    'Select tokens first',
  ],
  [
    'token ids with a text entry',
    () => alice,
    'post',
    () => '/api/token/batch',
    () => ({ ids: [tokenId, 'x'] }),
    '参数 ids 无效：a list of at most 1000 token ids',
    'Invalid ids: a list of at most 1000 token ids',
  ],
  [
    'token id as text',
    () => alice,
    'put',
    () => '/api/token/',
    () => ({ id: String(tokenId), name: 'renamed' }),
    '参数 id 无效：must be a token id',
    'Invalid id: must be a token id',
  ],
  [
    'token quota negative',
    () => alice,
    'put',
    () => '/api/token/',
    () => ({ id: tokenId, remain_quota: -5 }),
    `额度必须是 0 到 ${Number.MAX_SAFE_INTEGER} 之间的整数，不能为负数`,
    `Quota must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}; it cannot be negative`,
  ],
  [
    'token status not in its list',
    () => alice,
    'put',
    () => '/api/token/',
    () => ({ id: tokenId, status: 9 }),
    '无效的令牌状态',
    'Invalid token status',
  ],
  [
    'top-up order number as a number',
    () => root,
    'post',
    () => '/api/user/topup/complete',
    () => ({ trade_no: 42 }),
    '请提供订单号',
    'Give the order number (trade_no)',
  ],
  [
    'token budget as text',
    () => alice,
    'put',
    () => '/api/token/',
    () => ({ id: tokenId, budget: 'lots' }),
    BUDGET.zh,
    BUDGET.en,
  ],
  [
    'user budget as a list',
    () => root,
    'put',
    () => '/api/user/',
    () => ({ id: alice.userId, budget: [1] }),
    BUDGET.zh,
    BUDGET.en,
  ],
  [
    'option value as an object',
    () => root,
    'put',
    () => '/api/option/',
    () => ({ key: 'SystemName', value: { name: 'x' } }),
    '配置项 SystemName 的值无效：must be text',
    'Invalid value for SystemName: must be text',
  ],
  [
    'content-log switch as text',
    () => root,
    'put',
    () => `/api/content_log/user/${alice.userId}`,
    () => ({ enabled: 'yes' }),
    '',
    '',
  ],
  [
    'passkey response as text',
    () => alice,
    'post',
    () => '/api/user/passkey/step_up',
    () => ({ response: 'not a credential' }),
    '通行密钥验证失败',
    'The passkey could not be verified',
  ],
];

it.each(cases)(
  '%s is refused with its message and changes nothing',
  async (_label, who, method, path, body, zh, en) => {
    const before = await counts();
    const res = await who()[method](path(), body()).expect(200);
    expect(res.body).toMatchObject({ success: false, data: null });
    const english = await who()[method](path(), body()).set('Accept-Language', 'en').expect(200);
    expect(english.body).toMatchObject({ success: false, data: null });
    if (zh) {
      expect(res.body.message).toBe(zh);
      expect(english.body.message).toBe(en);
    } else {
      expect(res.body.message).not.toBe('');
      expect(english.body.message).not.toBe(res.body.message);
    }
    expect(await counts()).toEqual(before);
  },
);

/** `/amount` and `/pay` refuse in their own shape: `{success: false, message: "error", data: "<why>"}`. */
const payCases: Array<[label: string, path: string, body: unknown, zh: string, en: string]> = [
  [
    'amount as text',
    '/api/user/amount',
    { amount: '10' },
    '充值数量必须是正整数',
    'The top-up amount must be a positive whole number',
  ],
  [
    'amount negative',
    '/api/user/pay',
    { amount: -3, payment_method: 'zfb' },
    '充值数量必须是正整数',
    'The top-up amount must be a positive whole number',
  ],
  [
    'amount past what JSON carries exactly',
    '/api/user/amount',
    { amount: 1e300 },
    '充值数量过大',
    'The top-up amount is too large',
  ],
  [
    'payment method as a number',
    '/api/user/pay',
    { amount: 10, payment_method: 5 },
    '支付方式不存在',
    'No such payment method',
  ],
  [
    'top-up code as a number',
    '/api/user/amount',
    { amount: 10, top_up_code: 5 },
    '参数 top_up_code 无效：must be text',
    'Invalid top_up_code: must be text',
  ],
];

it.each(payCases)(
  'top-up %s is refused in the top-up shape and changes nothing',
  async (_label, path, body, zh, en) => {
    const before = await counts();
    const res = await alice.post(path, body).expect(200);
    expect(res.body).toEqual({ success: false, message: 'error', data: zh });
    const english = await alice.post(path, body).set('Accept-Language', 'en').expect(200);
    expect(english.body).toEqual({ success: false, message: 'error', data: en });
    expect(await counts()).toEqual(before);
  },
);

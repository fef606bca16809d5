/**
 * Body fields of the wrong JSON type are refused by the field's own rule before any write: the answer
 * is the business failure in the caller's language (Chinese by default, English on request), and
 * nothing changes.
 */
import { Channel, OptionRow, Token, User } from '../../server/src/database/entities';
import { ApiClient, makeUser, setupRoot, startApp, TestApp } from '../support/test-app';

let t: TestApp;
let root: ApiClient;
let alice: ApiClient & { username: string };
let tokenId: number;

async function counts(): Promise<Record<string, unknown>> {
  const option = await t.ds.getRepository(OptionRow).findOneBy({ key: 'SystemName' });
  const users = await t.ds
    .getRepository(User)
    .find({ select: { id: true, budget: true }, order: { id: 'ASC' } });
  const tokens = await t.ds
    .getRepository(Token)
    .find({ select: { id: true, budget: true, deleted_at: true }, order: { id: 'ASC' } });
  return {
    channels: await t.ds.getRepository(Channel).count(),
    system: option?.value ?? null,
    users: users.map((u) => [u.id, u.budget]),
    tokens: tokens.map((k) => [k.id, k.budget, k.deleted_at]),
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

/**
 * The public pricing page (`GET /api/pricing`): models of enabled channels with the relay's own price
 * figures, gpt-first order, groups per model, and the viewer's groups and ratios (visitors as the
 * default group, signed-in users with their group's overrides). Also the group and model lists the
 * console's forms read.
 */
import request from 'supertest';
import { makeChannel } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

interface Entry {
  model_name: string;
  quota_type: number;
  model_ratio: number;
  completion_ratio: number;
  model_price: number;
  enable_groups: string[];
}
interface Answer {
  success: boolean;
  data: Entry[];
  group_ratio: Record<string, number>;
  usable_group: Record<string, string>;
}

describe('pricing and group lists', () => {
  let t: TestApp;
  let root: ApiClient;
  let user: Awaited<ReturnType<typeof makeUser>>;
  let svip: Awaited<ReturnType<typeof makeUser>>;
  let vipChannel: number;

  const visitor = async (): Promise<Answer> => {
    const res = await request(t.url).get('/api/pricing');
    expect(res.status).toBe(200);
    return res.body as Answer;
  };
  const as = async (client: ApiClient): Promise<Answer> => {
    const res = await client.get('/api/pricing/');
    expect(res.status).toBe(200);
    return res.body as Answer;
  };
  const names = (a: Answer) => a.data.map((e) => e.model_name);

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    user = await makeUser(t, root);
    svip = await makeUser(t, root);
    await putOption(
      root,
      'ModelRatio',
      JSON.stringify({
        'gpt-4o': 1.25,
        'gpt-3.5-turbo': 0.25,
        'alpha-model': 3,
        'claude-x': 1.5,
        'hidden-model': 1,
      }),
    );
    await putOption(root, 'CompletionRatio', JSON.stringify({ 'gpt-4o': 4, 'claude-x': 5 }));
    await putOption(root, 'ModelPrice', JSON.stringify({ 'zeta-draw': 0.04 }));
    await putOption(root, 'GroupRatio', JSON.stringify({ default: 1.5, vip: 2, svip: 0.8 }));
    await putOption(root, 'UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'VIP 分组' }));
    await putOption(root, 'GroupGroupRatio', JSON.stringify({ svip: { vip: 0.5 } }));
    const base = { base_url: 'https://upstream.example.com' };
    await makeChannel(t, {
      ...base,
      models: 'zeta-draw,gpt-4o,alpha-model,unpriced-x,claude-x',
      group: 'default',
    });
    vipChannel = await makeChannel(t, { ...base, models: 'gpt-4o,gpt-3.5-turbo', group: 'vip' });
    await makeChannel(t, { ...base, models: 'hidden-model', group: 'default', status: 2 });
    const moved = await root.put('/api/user/', { id: svip.userId, group: 'svip' });
    expect(moved.body.success).toBe(true);
  });
  afterAll(() => t?.close());

  it('answers outside the envelope with data, group_ratio and usable_group, and no message', async () => {
    const res = await request(t.url).get('/api/pricing').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['data', 'group_ratio', 'success', 'usable_group']);
    expect(res.body.success).toBe(true);
    for (const e of res.body.data as Entry[])
      expect(Object.keys(e).sort()).toEqual(
        [
          'completion_ratio',
          'enable_groups',
          'model_name',
          'model_price',
          'model_ratio',
          'quota_type',
        ].sort(),
      );
  });

  it('lists the models of enabled channels, gpt first then by name, with the relay’s figures', async () => {
    const a = await visitor();
    // hidden-model is on a disabled channel only; unpriced-x has no price (refused by the relay).
    expect(names(a)).toEqual(['gpt-3.5-turbo', 'gpt-4o', 'alpha-model', 'claude-x', 'zeta-draw']);
    const by = Object.fromEntries(a.data.map((e) => [e.model_name, e]));
    expect(by['gpt-4o']).toEqual({
      model_name: 'gpt-4o',
      quota_type: 0,
      model_ratio: 1.25,
      completion_ratio: 4,
      model_price: 0,
      enable_groups: ['default', 'vip'],
    });
    expect(by['gpt-3.5-turbo']).toMatchObject({
      quota_type: 0,
      model_ratio: 0.25,
      completion_ratio: 1,
      enable_groups: ['vip'],
    });
    expect(by['claude-x']).toMatchObject({
      model_ratio: 1.5,
      completion_ratio: 5,
      enable_groups: ['default'],
    });
    expect(by['zeta-draw']).toMatchObject({ quota_type: 1, model_price: 0.04, model_ratio: 0 });
  });

  it('shows visitors the default group’s ratio and the usable groups', async () => {
    const a = await visitor();
    expect(a.group_ratio).toEqual({ default: 1.5, vip: 2 });
    expect(a.usable_group).toEqual({ default: '默认分组', vip: 'VIP 分组' });
    // A signed-in user of the default group sees the same; a broken sign-in is just a visitor.
    const mine = await as(user);
    expect(mine.group_ratio).toEqual(a.group_ratio);
    expect(mine.usable_group).toEqual(a.usable_group);
    const broken = await request(t.url)
      .get('/api/pricing')
      .set('New-Api-User', '999999')
      .set('Authorization', 'Bearer nonsense-token-0123456789');
    expect(broken.status).toBe(200);
    expect(broken.body.group_ratio).toEqual(a.group_ratio);
  });

  it('shows a signed-in user their own group and its group-to-group ratios', async () => {
    const a = await as(svip);
    expect(a.group_ratio).toEqual({ default: 1.5, vip: 0.5, svip: 0.8 });
    expect(a.usable_group).toEqual({ default: '默认分组', vip: 'VIP 分组', svip: 'svip' });
    expect(names(a)).toEqual(names(await visitor()));
  });

  it('lists unpriced models (free) in self-use mode, as the relay then serves them', async () => {
    await putOption(root, 'SelfUseModeEnabled', true);
    try {
      const a = await visitor();
      expect(a.data.find((e) => e.model_name === 'unpriced-x')).toEqual({
        model_name: 'unpriced-x',
        quota_type: 0,
        model_ratio: 0,
        completion_ratio: 1,
        model_price: 0,
        enable_groups: ['default'],
      });
    } finally {
      await putOption(root, 'SelfUseModeEnabled', false);
    }
    expect(names(await visitor())).not.toContain('unpriced-x');
  });

  it('follows channel and price changes at once', async () => {
    expect((await root.put('/api/channel/', { id: vipChannel, status: 2 })).body.success).toBe(true);
    try {
      const a = await visitor();
      expect(names(a)).not.toContain('gpt-3.5-turbo');
      expect(a.data.find((e) => e.model_name === 'gpt-4o')!.enable_groups).toEqual(['default']);
    } finally {
      expect((await root.put('/api/channel/', { id: vipChannel, status: 1 })).body.success).toBe(true);
    }
    expect(names(await visitor())).toContain('gpt-3.5-turbo');
    await putOption(root, 'ModelPrice', JSON.stringify({ 'zeta-draw': 0.04, 'alpha-model': 0.1 }));
    expect((await visitor()).data.find((e) => e.model_name === 'alpha-model')).toMatchObject({
      quota_type: 1,
      model_price: 0.1,
      model_ratio: 0,
    });
  });

  it('serves the group and model lists of the forms with the contract’s shapes', async () => {
    const groups = await root.get('/api/group/').expect(200);
    expect(groups.body).toEqual({ success: true, message: '', data: ['default', 'vip', 'svip'] });
    expect((await user.get('/api/group/')).status).toBe(403);

    const usable = await user.get('/api/user/self/groups').expect(200);
    expect(usable.body.data).toEqual({
      default: { ratio: 1.5, desc: '默认分组' },
      vip: { ratio: 2, desc: 'VIP 分组' },
    });

    const byType = (await user.get('/api/models').expect(200)).body.data as Record<string, string[]>;
    expect(byType['1']).toContain('gpt-4o');
    expect(Object.values(byType).every((list) => Array.isArray(list))).toBe(true);

    // The models the user can call: unpriced-x has no price, so the relay would refuse it (as /api/pricing
    // leaves it out), unless the site runs in self-use mode.
    const models = (await user.get('/api/user/models').expect(200)).body.data;
    expect(models).toEqual(['alpha-model', 'claude-x', 'gpt-3.5-turbo', 'gpt-4o', 'zeta-draw']);
    expect(names(await as(user)).filter((name) => !['gpt-3.5-turbo'].includes(name))).toEqual(
      expect.arrayContaining(models.filter((name: string) => name !== 'gpt-3.5-turbo')),
    );
    await putOption(root, 'SelfUseModeEnabled', true);
    try {
      expect((await user.get('/api/user/models').expect(200)).body.data).toContain('unpriced-x');
    } finally {
      await putOption(root, 'SelfUseModeEnabled', false);
    }
    expect((await user.get('/api/user/models?group=vip').expect(200)).body.data).toEqual([
      'gpt-3.5-turbo',
      'gpt-4o',
    ]);
    for (const path of ['/api/models', '/api/user/models', '/api/user/self/groups'])
      expect((await request(t.url).get(path)).status).toBe(401);
  });

  it('lists the models the relay cannot price for admins, with its own prefix lookup', async () => {
    await makeChannel(t, {
      base_url: 'https://upstream.example.com',
      models: 'gpt-4o-mini-fail500,zeta-draw-hd,nothing-like-it',
      group: 'default',
    });
    const res = await root.get('/api/pricing/unpriced');
    expect(res.body.success).toBe(true);
    // gpt-4o-mini-fail500 and zeta-draw-hd are billed by the gpt-4o and zeta-draw prefixes.
    expect(res.body.data).toEqual(['nothing-like-it', 'unpriced-x']);
    expect((await user.get('/api/pricing/unpriced')).status).toBe(403);
    expect((await request(t.url).get('/api/pricing/unpriced')).status).toBe(401);
  });
});

/**
 * Channel administration as an operator sees it: create (single and one per key), validation with the
 * spec's messages, keys that never leave the server, lists (paged, filtered, by tag), search with
 * literal LIKE, edits, tag operations, deletes, copies and the ability index that follows every write
 * (observed through GET /api/channel/models_enabled). Real HTTP against the real app.
 */
import { Ability, Channel } from '../../server/src/database/entities';
import { ChannelService } from '../../server/src/modules/channel/channel.service';
import { ApiClient, makeUser, setupRoot, startApp, TestApp, uname } from '../support/test-app';

const MSG = {
  nameKey: '请填写渠道名称和渠道密钥',
  models: '请至少选择一个模型',
  json: (field: string) => `${field} 必须是合法的 JSON 对象`,
  priority: '优先级必须是不小于 -999 的整数',
  weight: '权重必须是非负整数',
  weightEn: 'weight must be a non-negative integer',
  type: '未知的渠道类型',
  notFound: '渠道不存在，请刷新后重试',
  selectFirst: '请先选择要删除的渠道',
  noChanges: '没有任何修改',
  tagRequired: '标签不能为空',
  tooLong: '过长',
  baseUrl: 'Base URL 必须以 http:// 或 https:// 开头',
};

interface ChannelRowBody {
  id?: number;
  name: string;
  key: string;
  tag?: string | null;
  status: number;
  priority: number | null;
  weight: number | null;
  models: string;
  group: string;
  children?: ChannelRowBody[];
  is_tag?: boolean;
  type: number | null;
}

describe('channel administration', () => {
  let t: TestApp;
  let root: ApiClient;
  let admin: ApiClient;
  let plain: ApiClient;
  let channelService: ChannelService;

  const channels = () => t.ds.getRepository(Channel);
  const abilities = () => t.ds.getRepository(Ability);
  const dbCounts = async () => ({ channels: await channels().count(), abilities: await abilities().count() });

  /** Creates a channel as admin (defaults: OpenAI, a unique name and key, model gpt-4o); returns its id. */
  async function create(body: Record<string, unknown> = {}): Promise<number> {
    const res = await admin.post('/api/channel/', {
      type: 1,
      name: uname('ch'),
      key: `sk-${uname('key')}-secret`,
      models: 'gpt-4o',
      group: 'default',
      ...body,
    });
    expect(res.status).toBe(200);
    if (!res.body.success) throw new Error(`create channel: ${res.body.message}`);
    return res.body.data.id as number;
  }

  const get = async (id: number): Promise<ChannelRowBody> => {
    const res = await admin.get(`/api/channel/${id}`).expect(200);
    expect(res.body.success).toBe(true);
    return res.body.data;
  };
  const enabledModels = async (): Promise<string[]> => {
    const res = await admin.get('/api/channel/models_enabled').expect(200);
    expect(res.body.success).toBe(true);
    return res.body.data;
  };

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    plain = await makeUser(t, root);
    channelService = t.app.get(ChannelService);
  });
  afterAll(() => t.close());

  // ---------------------------------------------------------------- create and read

  describe('create and read', () => {
    it('creates one channel, normalises its fields and never shows the key', async () => {
      const key = 'sk-create-one-very-secret-key';
      const res = await admin.post('/api/channel/', {
        type: 1,
        name: '  主渠道 🚀  ',
        key,
        models: 'gpt-4o, gpt-4o-mini,,gpt-4o',
        group: 'default,vip',
        base_url: 'https://example.com/proxy///',
        model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
        priority: -999,
        weight: 0,
      });
      expect(res.body).toMatchObject({ success: true });
      const { id, ids } = res.body.data;
      expect(ids).toEqual([id]);
      expect(res.text).not.toContain(key);

      const ch = await get(id);
      expect(ch).toMatchObject({
        name: '主渠道 🚀',
        key: '',
        models: 'gpt-4o,gpt-4o-mini',
        group: 'default,vip',
        base_url: 'https://example.com/proxy',
        model_mapping: '{"gpt-4o":"gpt-4o-2024-08-06"}',
        priority: -999,
        weight: 0,
        auto_ban: 1,
        status: 1,
      });
      // At rest the key is encrypted; the service can read it back.
      const row = await channels().findOneByOrFail({ id });
      expect(row.key).not.toContain(key);
      expect(channelService.decryptKey(row)).toBe(key);
      // One ability per group × model.
      expect(await abilities().countBy({ channel_id: id })).toBe(4);
    });

    it('the key is empty in every answer: get, list, search, tag mode, update', async () => {
      const key = 'sk-never-leaves-the-server-0123456789';
      const id = await create({ key, tag: 'keytag', name: 'keyless-view' });
      const texts = [
        (await admin.get(`/api/channel/${id}`)).text,
        (await admin.get('/api/channel/?page_size=100')).text,
        (await admin.get('/api/channel/search?keyword=keyless')).text,
        (await admin.get('/api/channel/?tag_mode=true&page_size=100')).text,
        (await admin.put('/api/channel/', { id, name: 'keyless-view-2' })).text,
      ];
      for (const text of texts) {
        expect(text).not.toContain(key);
        expect(text).not.toContain('gcm1:');
      }
      // Searching for the key finds nothing (no oracle on secrets).
      const found = await admin.get(`/api/channel/search?keyword=${encodeURIComponent(key)}`).expect(200);
      expect(found.body.data.total).toBe(0);
    });

    it('batch mode creates one channel per non-empty key line', async () => {
      const name = uname('batch');
      const res = await admin.post('/api/channel/', {
        mode: 'batch',
        type: 14,
        name,
        key: 'key-a\n\n  key-b  \r\nkey-c\nkey-a\n',
        models: 'claude-sonnet-4',
      });
      expect(res.body.success).toBe(true);
      const ids: number[] = res.body.data.ids;
      expect(ids).toHaveLength(3);
      const rows = await channels().findBy(ids.map((id) => ({ id })));
      expect(rows.map((r) => channelService.decryptKey(r)).sort()).toEqual(['key-a', 'key-b', 'key-c']);
      expect(new Set(rows.map((r) => r.name))).toEqual(new Set([name]));
      expect(new Set(rows.map((r) => r.type))).toEqual(new Set([14]));
    });

    it('single mode keeps a multi-line key as one channel', async () => {
      const res = await admin.post('/api/channel/', {
        type: 1,
        name: uname('multi'),
        key: 'line-1\nline-2',
        models: 'gpt-4o',
      });
      expect(res.body.data.ids).toHaveLength(1);
      const row = await channels().findOneByOrFail({ id: res.body.data.id });
      expect(channelService.decryptKey(row)).toBe('line-1\nline-2');
    });

    it('defaults: group "default", auto_ban 1, Spark gets other = v2.1, groups as a list', async () => {
      const a = await get(await create({ group: undefined }));
      expect(a).toMatchObject({ group: 'default', auto_ban: 1 });
      const spark = await get(await create({ type: 18, models: 'SparkDesk-v3.5', other: '' }));
      expect(spark).toMatchObject({ other: 'v2.1' });
      const b = await get(
        await create({ group: undefined, groups: ['vip', 'default'], models: ['gpt-4o', 'o3'] }),
      );
      expect(b).toMatchObject({ group: 'vip,default', models: 'gpt-4o,o3' });
    });

    it('GET /models lists the built-in models of every type once; GET /:id/ with a trailing slash works', async () => {
      const res = await admin.get('/api/channel/models').expect(200);
      const models: Array<{ id: string; object: string; owned_by: string }> = res.body.data;
      expect(models.length).toBeGreaterThan(20);
      expect(models).toContainEqual({ id: 'gpt-4o', object: 'model', owned_by: 'OpenAI' });
      expect(models.find((m) => m.id === 'claude-sonnet-4')).toBeTruthy();
      expect(new Set(models.map((m) => m.id)).size).toBe(models.length);

      const id = await create();
      const slash = await admin.get(`/api/channel/${id}/`).expect(200);
      expect(slash.body.data.id).toBe(id);
    });

    it('an unknown id answers "channel not found"; a non-numeric id is refused', async () => {
      const res = await admin.get('/api/channel/99999999').expect(200);
      expect(res.body).toMatchObject({ success: false, data: null });
      expect(res.body.message).toContain(MSG.notFound);
      const bad = await admin.get('/api/channel/abc').expect(200);
      expect(bad.body.success).toBe(false);
      // Ids past the 32-bit column range match nothing (never a database error).
      for (const path of ['/api/channel/99999999999', '/api/channel/copy/99999999999']) {
        const huge = path.includes('copy') ? await admin.post(path) : await admin.get(path);
        expect(huge.status).toBe(200);
        expect(huge.body).toMatchObject({ success: false, message: MSG.notFound });
      }
      const hugeDel = await admin.delete('/api/channel/99999999999').expect(200);
      expect(hugeDel.body.success).toBe(false);
      const hugeBatch = await admin.post('/api/channel/batch', { ids: [2 ** 40] }).expect(200);
      expect(hugeBatch.body).toMatchObject({ success: true, data: 0 });
      const hugeTag = await admin.post('/api/channel/batch/tag', { ids: [2 ** 40], tag: 'x' }).expect(200);
      expect(hugeTag.body).toMatchObject({ success: true, data: 0 });
      const hugePut = await admin.put('/api/channel/', { id: 2 ** 40, name: 'x' }).expect(200);
      expect(hugePut.body).toMatchObject({ success: false, message: MSG.notFound });
      const farPage = await admin.get('/api/channel/?p=99999999&page_size=100').expect(200);
      expect(farPage.body.data.items).toEqual([]);
    });

    it('ordinary users get 403 on every channel route', async () => {
      await plain.get('/api/channel/').expect(403);
      await plain.get('/api/channel/models_enabled').expect(403);
      const res = await plain
        .post('/api/channel/', { type: 1, name: 'x', key: 'k', models: 'gpt-4o' })
        .expect(403);
      expect(res.body.success).toBe(false);
    });
  });

  // ---------------------------------------------------------------- validation

  describe('validation (success:false, nothing written)', () => {
    const base = () => ({ type: 1, name: uname('v'), key: 'k-valid', models: 'gpt-4o' });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['missing name', { name: undefined }, MSG.nameKey],
      ['blank name', { name: '   ' }, MSG.nameKey],
      ['missing key', { key: undefined }, MSG.nameKey],
      ['blank key', { key: ' \n ' }, MSG.nameKey],
      ['no models', { models: '' }, MSG.models],
      ['only commas as models', { models: ' , ,' }, MSG.models],
      ['models as a number', { models: 5 }, 'models'],
      ['malformed model_mapping', { model_mapping: '{"a": ' }, MSG.json('model_mapping')],
      ['model_mapping as a JSON array', { model_mapping: '["a"]' }, MSG.json('model_mapping')],
      ['model_mapping as a JSON string', { model_mapping: '"a"' }, MSG.json('model_mapping')],
      [
        'malformed status_code_mapping',
        { status_code_mapping: '{400: 500}' },
        MSG.json('status_code_mapping'),
      ],
      ['malformed param_override', { param_override: 'nope' }, MSG.json('param_override')],
      ['malformed setting', { setting: '{' }, MSG.json('setting')],
      ['malformed JSON in other', { other: '{"region":' }, MSG.json('other')],
      ['priority below -999', { priority: -1000 }, MSG.priority],
      ['fractional priority', { priority: 1.5 }, MSG.priority],
      ['priority as text', { priority: '5' }, MSG.priority],
      ['negative weight', { weight: -1 }, MSG.weight],
      ['fractional weight', { weight: 0.5 }, MSG.weight],
      ['weight too large for the column', { weight: 2 ** 31 }, MSG.weight],
      ['weight as text', { weight: '10' }, MSG.weight],
      ['unknown type', { type: 9999 }, MSG.type],
      ['type as text', { type: '1' }, MSG.type],
      ['base URL without a scheme', { base_url: 'example.com' }, MSG.baseUrl],
      ['base URL with another scheme', { base_url: 'ftp://example.com' }, MSG.baseUrl],
      ['name too long', { name: 'n'.repeat(129) }, MSG.tooLong],
      ['tag too long', { tag: 't'.repeat(65) }, MSG.tooLong],
      ['model name too long', { models: 'm'.repeat(192) }, MSG.tooLong],
      ['group name too long', { group: 'g'.repeat(65) }, MSG.tooLong],
      ['name with a control character', { name: 'bad\u0000name' }, 'name'],
      ['name as a number', { name: 12345 }, ''],
      ['group as an object', { group: { a: 1 } }, 'group'],
      ['auto_ban out of range', { auto_ban: 7 }, 'auto_ban'],
      ['status out of range', { status: 9 }, 'status'],
      ['negative max_input_tokens', { max_input_tokens: -5 }, 'max_input_tokens'],
      ['unknown mode', { mode: 'many' }, ''],
    ];

    it.each(cases)('%s', async (_label, patch, message) => {
      const before = await dbCounts();
      const res = await admin.post('/api/channel/', { ...base(), ...patch }).expect(200);
      expect(res.body).toMatchObject({ success: false, data: null });
      expect(res.body.message).toContain(message);
      expect(await dbCounts()).toEqual(before);
    });

    it('the weight message is localised (English with Accept-Language: en)', async () => {
      const res = await admin
        .post('/api/channel/', { ...base(), weight: -3 })
        .set('Accept-Language', 'en')
        .expect(200);
      expect(res.body).toMatchObject({ success: false, message: MSG.weightEn });
    });

    it('bodies that are not channel objects are refused', async () => {
      const before = await dbCounts();
      for (const body of [[1, 2], 'text', 42]) {
        const res = await admin
          .post('/api/channel/')
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body));
        expect(res.status).toBe(200);
        expect(res.body.success).toBe(false);
      }
      const broken = await admin
        .post('/api/channel/')
        .set('Content-Type', 'application/json')
        .send('{"name":');
      expect(broken.status).toBe(200);
      expect(broken.body.success).toBe(false);
      const empty = await admin.post('/api/channel/');
      expect(empty.body.success).toBe(false);
      expect(await dbCounts()).toEqual(before);
    });

    it('updates are validated too and change nothing when refused', async () => {
      const id = await create({ priority: 3, weight: 4 });
      const before = await channels().findOneByOrFail({ id });
      const bad: Array<Record<string, unknown>> = [
        { weight: -1 },
        { priority: -5000 },
        { models: '' },
        { name: '' },
        { model_mapping: 'not json' },
        { type: 0 },
      ];
      for (const patch of bad) {
        const res = await admin.put('/api/channel/', { id, ...patch }).expect(200);
        expect(res.body.success).toBe(false);
      }
      expect(await channels().findOneByOrFail({ id })).toEqual(before);
      const missing = await admin.put('/api/channel/', { id: 99999999, name: 'x' }).expect(200);
      expect(missing.body).toMatchObject({ success: false });
      expect(missing.body.message).toContain(MSG.notFound);
    });
  });

  // ---------------------------------------------------------------- update

  describe('update', () => {
    it('changes the fields sent; an empty key keeps the key; a new key replaces it', async () => {
      const id = await create({ key: 'original-key', models: 'gpt-4o', priority: 1, weight: 1 });
      const res = await admin.put('/api/channel/', {
        id,
        key: '',
        name: 'renamed',
        models: 'o3,o4-mini',
        priority: 7,
        weight: 9,
        base_url: 'http://10.0.0.1:8080/',
        // Read-only fields sent back by a form are ignored.
        used_quota: 123456,
        balance: 99,
        created_time: 1,
      });
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        id,
        name: 'renamed',
        models: 'o3,o4-mini',
        priority: 7,
        weight: 9,
        base_url: 'http://10.0.0.1:8080',
        key: '',
        used_quota: 0,
        balance: 0,
      });
      let row = await channels().findOneByOrFail({ id });
      expect(channelService.decryptKey(row)).toBe('original-key');
      const ab = await abilities().findBy({ channel_id: id });
      expect(ab.map((a) => a.model).sort()).toEqual(['o3', 'o4-mini']);
      expect(ab.every((a) => Number(a.priority) === 7 && a.weight === 9)).toBe(true);

      await admin.put('/api/channel/', { id, key: 'replacement-key' }).expect(200);
      row = await channels().findOneByOrFail({ id });
      expect(channelService.decryptKey(row)).toBe('replacement-key');
      expect(row.name).toBe('renamed');
    });

    it('status edits move the channel in and out of models_enabled', async () => {
      const model = `status-model-${uname('m')}`;
      const id = await create({ models: model });
      expect(await enabledModels()).toContain(model);
      expect((await admin.put('/api/channel/', { id, status: 2 })).body.success).toBe(true);
      expect(await enabledModels()).not.toContain(model);
      expect((await admin.put('/api/channel/', { id, status: 1 })).body.success).toBe(true);
      expect(await enabledModels()).toContain(model);
      // A channel created disabled serves nothing.
      const off = `off-model-${uname('m')}`;
      await create({ models: off, status: 2 });
      expect(await enabledModels()).not.toContain(off);
    });

    it('clearing a JSON field with an empty string stores null', async () => {
      const id = await create({ model_mapping: '{"a":"b"}' });
      await admin.put('/api/channel/', { id, model_mapping: '' }).expect(200);
      expect((await get(id)).models).toBe('gpt-4o');
      expect((await channels().findOneByOrFail({ id })).model_mapping).toBeNull();
    });
  });

  // ---------------------------------------------------------------- lists and search

  describe('lists and search', () => {
    const type = 43; // DeepSeek: only this block creates channels of this type
    let ids: number[] = [];

    beforeAll(async () => {
      ids = [];
      for (let i = 0; i < 5; i++)
        ids.push(
          await create({
            type,
            name: `listing-${i}`,
            models: 'deepseek-chat',
            group: i % 2 ? 'svip' : 'default,svip2',
            priority: i === 2 ? 100 : 0,
          }),
        );
      await admin.put('/api/channel/', { id: ids[4], status: 2 }).expect(200);
    });

    it('pages with {items, total, page, page_size, type_counts}', async () => {
      const all = await admin.get('/api/channel/?p=1&page_size=3').expect(200);
      expect(all.body.success).toBe(true);
      const data = all.body.data;
      expect(data).toMatchObject({ page: 1, page_size: 3 });
      expect(data.items).toHaveLength(3);
      expect(data.total).toBe(await channels().count());
      expect(data.type_counts[String(type)]).toBe(5);
      const sum = Object.values(data.type_counts as Record<string, number>).reduce((a, b) => a + b, 0);
      expect(sum).toBe(data.total);
      for (const item of data.items as ChannelRowBody[]) expect(item.key).toBe('');
    });

    it('filters by type, status and group; sorts by priority or by id', async () => {
      const byType = (await admin.get(`/api/channel/?type=${type}&page_size=100`).expect(200)).body.data;
      expect(byType.total).toBe(5);
      // type_counts ignores the type filter (the tabs show every type).
      expect(Object.keys(byType.type_counts).length).toBeGreaterThan(1);
      // Default order: priority first.
      expect(byType.items[0].id).toBe(ids[2]);
      const byId = (await admin.get(`/api/channel/?type=${type}&id_sort=true`).expect(200)).body.data;
      expect(byId.items.map((c: ChannelRowBody) => c.id)).toEqual([...ids].reverse());

      const enabled = (await admin.get(`/api/channel/?type=${type}&status=1`).expect(200)).body.data;
      expect(enabled.total).toBe(4);
      const disabled = (await admin.get(`/api/channel/?type=${type}&status=disabled`).expect(200)).body.data;
      expect(disabled.items.map((c: ChannelRowBody) => c.id)).toEqual([ids[4]]);

      const svip = (await admin.get(`/api/channel/?type=${type}&group=svip`).expect(200)).body.data;
      expect(svip.items.map((c: ChannelRowBody) => c.id).sort()).toEqual([ids[1], ids[3]].sort());
      const svip2 = (await admin.get(`/api/channel/?type=${type}&group=svip2`).expect(200)).body.data;
      expect(svip2.total).toBe(3);
      const none = (await admin.get(`/api/channel/?type=${type}&group=svi`).expect(200)).body.data;
      expect(none.total).toBe(0);
    });

    it('search matches name, tag, base URL and id; LIKE wildcards match literally', async () => {
      const pct = await create({ name: 'lit 50%off' });
      const other = await create({ name: 'lit 50Xoff' });
      const under = await create({ name: 'lit a_b' });
      await create({ name: 'lit aXb' });
      const search = async (qs: string) =>
        ((await admin.get(`/api/channel/search?${qs}`).expect(200)).body.data.items as ChannelRowBody[]).map(
          (c) => c.id,
        );
      expect(await search(`keyword=${encodeURIComponent('50%off')}`)).toEqual([pct]);
      expect(await search(`keyword=${encodeURIComponent('a_b')}`)).toEqual([under]);
      expect((await search('keyword=lit%2050')).sort()).toEqual([pct, other].sort());
      expect(await search(`keyword=${other}`)).toContain(other);
      const tagged = await create({ tag: 'search-tag-x' });
      expect(await search('keyword=search-tag-x')).toEqual([tagged]);
      const url = await create({ base_url: 'https://unique-host-for-search.example' });
      expect(await search('keyword=unique-host-for-search')).toEqual([url]);
    });

    it('search filters by model (part of a name, literal) and group; answers the list shape', async () => {
      const a = await create({ models: 'search-model_one,shared' });
      const b = await create({ models: 'search-modelXone', group: 'only-here' });
      const res = await admin.get('/api/channel/search?model=search-model_one').expect(200);
      expect(res.body.data.items.map((c: ChannelRowBody) => c.id)).toEqual([a]);
      expect(res.body.data).toHaveProperty('type_counts');
      const both = await admin.get('/api/channel/search?model=search-model').expect(200);
      expect(both.body.data.total).toBe(2);
      const grp = await admin.get('/api/channel/search?model=search-model&group=only-here').expect(200);
      expect(grp.body.data.items.map((c: ChannelRowBody) => c.id)).toEqual([b]);
    });
  });

  // ---------------------------------------------------------------- tags

  describe('tags', () => {
    const type = 42; // Mistral: only this block creates channels of this type
    let t1: number[] = [];
    let t2: number;
    let plainIds: number[] = [];
    const modelA = 'tag-model-a';

    beforeAll(async () => {
      t1 = [
        await create({ type, tag: 'grpA', models: modelA, priority: 5, weight: 1 }),
        await create({ type, tag: 'grpA', models: modelA, priority: 9, weight: 1, group: 'vip' }),
      ];
      t2 = await create({ type, tag: 'grpB', models: 'tag-model-b', priority: 2, weight: 3 });
      plainIds = [
        await create({ type, models: 'tag-model-c' }),
        await create({ type, models: 'tag-model-d' }),
      ];
    });

    it('tag mode pages over tags; a tag row carries children; untagged channels are plain rows', async () => {
      const res = await admin
        .get(`/api/channel/?tag_mode=true&type=${type}&page_size=100&id_sort=true`)
        .expect(200);
      const data = res.body.data;
      expect(data.total).toBe(4); // grpA, grpB and two untagged channels
      const rows: ChannelRowBody[] = data.items;
      const a = rows.find((r) => r.tag === 'grpA' && r.children)!;
      expect(a).toMatchObject({
        is_tag: true,
        name: 'grpA',
        key: '',
        status: 1,
        priority: null,
        weight: 1,
        type,
      });
      expect(a.children!.map((c) => c.id).sort()).toEqual([...t1].sort());
      for (const c of a.children!) expect(c.key).toBe('');
      expect(a.group.split(',').sort()).toEqual(['default', 'vip']);
      const b = rows.find((r) => r.tag === 'grpB')!;
      expect(b).toMatchObject({ priority: 2, weight: 3 });
      expect(b.children!.map((c) => c.id)).toEqual([t2]);
      const plainRows = rows.filter((r) => !r.children);
      expect(plainRows.map((r) => r.id).sort()).toEqual([...plainIds].sort());

      // Paging counts rows, not channels.
      const p1 = (await admin.get(`/api/channel/?tag_mode=true&type=${type}&page_size=3&p=1`).expect(200))
        .body.data;
      const p2 = (await admin.get(`/api/channel/?tag_mode=true&type=${type}&page_size=3&p=2`).expect(200))
        .body.data;
      expect(p1.items).toHaveLength(3);
      expect(p2.items).toHaveLength(1);
      expect(p1.total).toBe(4);
    });

    it('a tag row is enabled when any child is; tag disable/enable moves the abilities', async () => {
      await admin.put('/api/channel/', { id: t1[0], status: 2 }).expect(200);
      let rows: ChannelRowBody[] = (await admin.get(`/api/channel/?tag_mode=true&type=${type}`).expect(200))
        .body.data.items;
      expect(rows.find((r) => r.tag === 'grpA')!.status).toBe(1);
      expect(await enabledModels()).toContain(modelA);

      const off = await admin.post('/api/channel/tag/disabled', { tag: 'grpA' }).expect(200);
      expect(off.body).toMatchObject({ success: true, data: 2 });
      expect(await enabledModels()).not.toContain(modelA);
      rows = (await admin.get(`/api/channel/?tag_mode=true&type=${type}`).expect(200)).body.data.items;
      expect(rows.find((r) => r.tag === 'grpA')!.status).toBe(2);

      const on = await admin.post('/api/channel/tag/enabled', { tag: 'grpA' }).expect(200);
      expect(on.body).toMatchObject({ success: true, data: 2 });
      expect(await enabledModels()).toContain(modelA);
      expect((await get(t1[0])).status).toBe(1);

      const empty = await admin.post('/api/channel/tag/enabled', { tag: '' }).expect(200);
      expect(empty.body.message).toContain(MSG.tagRequired);
      const unknown = await admin.post('/api/channel/tag/enabled', { tag: 'no-such-tag' }).expect(200);
      expect(unknown.body.message).toContain(MSG.notFound);
    });

    it('PUT /tag edits every channel of the tag and its abilities', async () => {
      const res = await admin.put('/api/channel/tag', {
        tag: 'grpA',
        models: 'tag-model-a2,tag-model-a3',
        groups: ['default', 'svip'],
        priority: 42,
        weight: 7,
        model_mapping: '{"tag-model-a2":"real-a2"}',
      });
      expect(res.body).toMatchObject({ success: true, data: 2 });
      const models = await enabledModels();
      expect(models).toEqual(expect.arrayContaining(['tag-model-a2', 'tag-model-a3']));
      expect(models).not.toContain(modelA);
      for (const id of t1) {
        const ch = await get(id);
        expect(ch).toMatchObject({ priority: 42, weight: 7, group: 'default,svip', tag: 'grpA' });
        const ab = await abilities().findBy({ channel_id: id });
        expect(ab).toHaveLength(4);
        expect(ab.every((a) => Number(a.priority) === 42 && a.weight === 7 && a.tag === 'grpA')).toBe(true);
      }
      // Empty fields change nothing.
      const none = await admin.put('/api/channel/tag', {
        tag: 'grpA',
        models: '',
        priority: null,
        weight: '',
      });
      expect(none.body).toMatchObject({ success: false, message: MSG.noChanges });
      const bad = await admin.put('/api/channel/tag', { tag: 'grpA', weight: -1 });
      expect(bad.body).toMatchObject({ success: false, message: MSG.weight });
      const badJson = await admin.put('/api/channel/tag', { tag: 'grpA', model_mapping: '{oops' });
      expect(badJson.body.success).toBe(false);
      expect((await get(t1[0])).weight).toBe(7);
    });

    it('PUT /tag renames a tag, and an empty new_tag dissolves it', async () => {
      const renamed = await admin.put('/api/channel/tag', { tag: 'grpA', new_tag: 'grpA2' });
      expect(renamed.body).toMatchObject({ success: true, data: 2 });
      expect((await get(t1[0])).tag).toBe('grpA2');
      expect((await abilities().findBy({ channel_id: t1[1] })).every((a) => a.tag === 'grpA2')).toBe(true);

      const dissolved = await admin.put('/api/channel/tag', { tag: 'grpA2', new_tag: '' });
      expect(dissolved.body).toMatchObject({ success: true, data: 2 });
      for (const id of t1) expect((await get(id)).tag).toBeNull();
      const rows: ChannelRowBody[] = (
        await admin.get(`/api/channel/?tag_mode=true&type=${type}&page_size=100`)
      ).body.data.items;
      expect(rows.filter((r) => r.children).map((r) => r.tag)).toEqual(['grpB']);
      expect(rows).toHaveLength(5);
    });

    it('POST /batch/tag tags the chosen channels and their abilities', async () => {
      const res = await admin.post('/api/channel/batch/tag', {
        ids: [...plainIds, 99999999],
        tag: 'batched',
      });
      expect(res.body).toMatchObject({ success: true, data: 2 });
      for (const id of plainIds) {
        expect((await get(id)).tag).toBe('batched');
        expect((await abilities().findBy({ channel_id: id })).every((a) => a.tag === 'batched')).toBe(true);
      }
      const noIds = await admin.post('/api/channel/batch/tag', { ids: [], tag: 'x' });
      expect(noIds.body.success).toBe(false);
      const noTag = await admin.post('/api/channel/batch/tag', { ids: plainIds, tag: '' });
      expect(noTag.body).toMatchObject({ success: false });
      expect(noTag.body.message).toContain(MSG.tagRequired);
      const badIds = await admin.post('/api/channel/batch/tag', {
        ids: ['1; DROP TABLE channels'],
        tag: 'x',
      });
      expect(badIds.body.success).toBe(false);
    });
  });

  // ---------------------------------------------------------------- delete, fix, copy

  describe('delete, fix and copy', () => {
    it('DELETE /:id removes the channel and its abilities', async () => {
      const model = `deleted-model-${uname('d')}`;
      const id = await create({ models: model });
      expect(await enabledModels()).toContain(model);
      const res = await admin.delete(`/api/channel/${id}/`).expect(200);
      expect(res.body.success).toBe(true);
      expect(await channels().countBy({ id })).toBe(0);
      expect(await abilities().countBy({ channel_id: id })).toBe(0);
      expect(await enabledModels()).not.toContain(model);
      const again = await admin.delete(`/api/channel/${id}`).expect(200);
      expect(again.body).toMatchObject({ success: false });
      expect(again.body.message).toContain(MSG.notFound);
    });

    it('POST /batch deletes the chosen channels and answers the count', async () => {
      const ids = [await create(), await create(), await create()];
      const res = await admin.post('/api/channel/batch', { ids: [ids[0], ids[1], 99999999] }).expect(200);
      expect(res.body).toMatchObject({ success: true, data: 2 });
      expect(await channels().countBy({ id: ids[2] })).toBe(1);
      const empty = await admin.post('/api/channel/batch', { ids: [] }).expect(200);
      expect(empty.body).toMatchObject({ success: false });
      expect(empty.body.message).toContain(MSG.selectFirst);
      const missing = await admin.post('/api/channel/batch', {}).expect(200);
      expect(missing.body.message).toContain(MSG.selectFirst);
      const wrong = await admin.post('/api/channel/batch', { ids: 'all' }).expect(200);
      expect(wrong.body.success).toBe(false);
      expect(await channels().countBy({ id: ids[2] })).toBe(1);
    });

    it('DELETE /disabled deletes every disabled channel and answers the count', async () => {
      const a = await create({ status: 2 });
      const b = await create();
      await channelService.setStatus(b, 3, 'test: automatically disabled');
      const keep = await create();
      const disabledBefore = await channels().createQueryBuilder('c').where('c.status <> 1').getCount();
      const res = await admin.delete('/api/channel/disabled').expect(200);
      expect(res.body).toMatchObject({ success: true, data: disabledBefore });
      expect(await channels().countBy({ id: a })).toBe(0);
      expect(await channels().countBy({ id: b })).toBe(0);
      expect(await channels().countBy({ id: keep })).toBe(1);
      expect(await abilities().countBy({ channel_id: a })).toBe(0);
      expect((await admin.delete('/api/channel/disabled').expect(200)).body.data).toBe(0);
    });

    it('POST /fix rebuilds the abilities of every channel', async () => {
      const model = `fix-model-${uname('f')}`;
      const id = await create({ models: model, group: 'default,vip' });
      await abilities().delete({ channel_id: id });
      await abilities().insert({
        group: 'ghost',
        model: 'ghost-model',
        channel_id: 99999999,
        enabled: true,
        priority: 0,
        weight: 0,
        tag: null,
      });
      expect(await enabledModels()).not.toContain(model);
      const res = await admin.post('/api/channel/fix').expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toEqual({ success: await channels().count(), fails: 0 });
      expect(await abilities().countBy({ channel_id: id })).toBe(2);
      expect(await abilities().countBy({ channel_id: 99999999 })).toBe(0);
      expect(await enabledModels()).toContain(model);
    });

    it('POST /copy/:id copies a channel (key included) with a suffix; balance restarts', async () => {
      const id = await create({
        name: 'source',
        key: 'copied-key',
        models: 'gpt-4o,o3',
        tag: 'copytag',
        priority: 4,
      });
      await channels().update({ id }, { balance: 12.5, used_quota: 777 });
      const res = await admin.post(`/api/channel/copy/${id}?suffix=-copy`).expect(200);
      expect(res.body.success).toBe(true);
      const copyId = res.body.data.id;
      expect(copyId).not.toBe(id);
      const copy = await get(copyId);
      expect(copy).toMatchObject({
        name: 'source-copy',
        models: 'gpt-4o,o3',
        tag: 'copytag',
        priority: 4,
        key: '',
      });
      const row = await channels().findOneByOrFail({ id: copyId });
      expect(channelService.decryptKey(row)).toBe('copied-key');
      expect(Number(row.balance)).toBe(0);
      expect(Number(row.used_quota)).toBe(0);
      expect(await abilities().countBy({ channel_id: copyId })).toBe(2);

      const keep = await admin.post(`/api/channel/copy/${id}?reset_balance=false`).expect(200);
      const kept = await channels().findOneByOrFail({ id: keep.body.data.id });
      expect(kept.name).toBe('source_复制');
      expect(Number(kept.used_quota)).toBe(777);

      const missing = await admin.post('/api/channel/copy/99999999').expect(200);
      expect(missing.body.success).toBe(false);
      const long = await create({ name: 'L'.repeat(128) });
      const tooLong = await admin.post(`/api/channel/copy/${long}?suffix=-x`).expect(200);
      expect(tooLong.body.success).toBe(false);
    });
  });
});

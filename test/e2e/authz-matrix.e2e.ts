/**
 * Who may call what: every management route × every kind of caller, with the HTTP status each cell must
 * answer (401 not signed in, 403 not allowed, 200 otherwise), and proof that a refused call changed
 * nothing in the database. Adding a route is one line in ROUTES; a route missing from ROUTES fails
 * the completeness check against the OpenAPI document.
 */
import request from 'supertest';
import {
  Ability,
  Channel,
  LogEntry,
  Midjourney,
  OptionRow,
  QuotaData,
  Redemption,
  Setup,
  Task,
  TopUp,
  Token,
  User,
  VerificationCode,
} from '../../server/src/database/entities';
import { ApiClient, makeUser, ROOT, setupRoot, startApp, TestApp, uname } from '../support/test-app';
import { CHANNEL_OPS_ROUTES } from '../support/authz/channel-ops';
import { LOGS_ROUTES } from '../support/authz/logs';
import { OAUTH_ROUTES } from '../support/authz/oauth';
import { SECURITY_ROUTES } from '../support/authz/security';
import { TASKS_ROUTES } from '../support/authz/tasks';
import { WALLET_ROUTES } from '../support/authz/wallet';
import { type Actor, type Ctx, type Level, r, type Route } from '../support/authz/route';

export const ROUTES: Route[] = [
  // user: self service
  r('get', '/api/user/self', 'user'),
  r('put', '/api/user/self', 'user', { body: () => ({ display_name: uname('dn') }) }),
  r('delete', '/api/user/self', 'user', { body: () => ({ username: 'not-my-own-name' }) }),
  r('get', '/api/user/token', 'user'),
  r('get', '/api/user/aff', 'user'),
  r('post', '/api/user/aff_transfer', 'user', { body: () => ({ quota: 500000 }) }),
  r('put', '/api/user/setting', 'user', {
    body: () => ({ notify_type: 'email', quota_warning_threshold: 123456 }),
  }),
  r('get', '/api/user/self/groups', 'user'),
  r('get', '/api/user/models', 'user'),
  // user: administration
  r('get', '/api/user', 'admin', { query: '?p=1&page_size=5' }),
  r('get', '/api/user/search', 'admin', { query: '?keyword=u' }),
  r('post', '/api/user/manage', 'admin', {
    body: (c) => ({ id: c.victimId, action: 'add_quota', value: 7 }),
  }),
  r('post', '/api/user', 'admin', { body: () => ({ username: uname('mx'), password: 'password-1' }) }),
  r('put', '/api/user', 'admin', {
    body: (c) => ({ id: c.victimId, display_name: uname('ed'), quota: 999 }),
  }),
  r('get', '/api/user/{id}', 'admin'),
  r('get', '/api/group', 'admin'),
  // options
  r('get', '/api/option', 'admin'),
  r('put', '/api/option', 'admin', {
    body: () => ({ key: 'Notice', value: uname('notice') }),
    label: 'an admin key',
  }),
  r('put', '/api/option', 'root', {
    body: () => ({ key: 'ServerAddress', value: `https://${uname('h')}.example.com` }),
    label: 'a root-only key',
  }),
  r('put', '/api/option', 'root', {
    body: () => ({ key: 'SMTPToken', value: uname('secret') }),
    label: 'a secret',
  }),
  r('post', '/api/option/rest_model_ratio', 'admin', {
    prepare: async (root) => {
      const res = await root.put('/api/option/', { key: 'ModelRatio', value: '{"matrix-model":3}' });
      if (!res.body.success) throw new Error(res.body.message);
    },
    effect: async (t) => {
      const v = (await t.ds.getRepository(OptionRow).findOneByOrFail({ key: 'ModelRatio' })).value!;
      expect(JSON.parse(v)).not.toHaveProperty('matrix-model');
    },
  }),
  // setup and status
  r('get', '/api/setup', 'public'),
  r('post', '/api/setup', 'public', {
    body: () => ({ username: uname('s'), password: 'password-1', confirmPassword: 'password-1' }),
  }),
  r('get', '/api/status', 'public'),
  r('get', '/api/notice', 'public'),
  r('get', '/api/about', 'public'),
  r('get', '/api/home_page_content', 'public'),
  r('get', '/api/models', 'user'),
  // sign-in
  r('post', '/api/user/login', 'public', {
    body: () => ({ username: ROOT.username, password: 'wrong-password' }),
  }),
  r('post', '/api/user/register', 'public', {
    body: () => ({ username: uname('rg'), password: 'password-1', password2: 'password-1' }),
  }),
  r('get', '/api/user/logout', 'public', { endsSession: true }),
  r('get', '/api/verification', 'public', { query: '?email=nobody%40example.com' }),
  r('get', '/api/reset_password', 'public', { query: '?email=nobody%40example.com' }),
  r('post', '/api/user/reset', 'public', {
    body: () => ({ email: 'nobody@example.com', token: 'x'.repeat(32) }),
  }),
  r('get', '/api/oauth/email/bind', 'user', { query: '?email=bind%40example.com&code=123456' }),
  // channels (admin)
  r('get', '/api/channel', 'admin', { query: '?p=1&page_size=5&tag_mode=true' }),
  r('get', '/api/channel/search', 'admin', { query: '?keyword=matrix' }),
  r('get', '/api/channel/models', 'admin'),
  r('get', '/api/channel/models_enabled', 'admin'),
  r('get', '/api/pricing/unpriced', 'admin'),
  r('post', '/api/channel', 'admin', {
    body: () => ({ type: 1, name: uname('mc'), key: 'matrix-key', models: 'gpt-4o', tag: 'matrix-tag' }),
  }),
  r('put', '/api/channel', 'admin', { body: (c) => ({ id: c.victimId, name: uname('mc'), weight: 3 }) }),
  r('get', '/api/channel/{id}', 'admin'),
  r('post', '/api/channel/copy/{id}', 'admin', { query: '?suffix=-m' }),
  r('delete', '/api/channel/{id}', 'admin'),
  r('post', '/api/channel/tag/disabled', 'admin', { body: () => ({ tag: 'matrix-tag' }) }),
  r('post', '/api/channel/tag/enabled', 'admin', { body: () => ({ tag: 'matrix-tag' }) }),
  r('put', '/api/channel/tag', 'admin', { body: () => ({ tag: 'matrix-tag', priority: 5 }) }),
  r('post', '/api/channel/batch/tag', 'admin', { body: (c) => ({ ids: [c.victimId], tag: 'matrix-tag2' }) }),
  r('post', '/api/channel/batch', 'admin', { body: (c) => ({ ids: [c.victimId + 1000] }) }),
  r('post', '/api/channel/{id}/status', 'admin', { body: () => ({ status: 2 }) }),
  r('post', '/api/channel/status/batch', 'admin', { body: (c) => ({ ids: [c.victimId], status: 2 }) }),
  r('delete', '/api/channel/disabled', 'admin'),
  r('post', '/api/channel/fix', 'admin'),
  // tokens (own)
  r('get', '/api/token', 'user', { query: '?p=1&page_size=5' }),
  r('get', '/api/token/search', 'user', { query: '?keyword=mt' }),
  r('post', '/api/token', 'user', {
    body: () => ({ name: uname('mt'), remain_quota: 100, expired_time: -1 }),
  }),
  r('put', '/api/token', 'user', { body: (c) => ({ id: c.victimId, name: uname('mt') }) }),
  r('get', '/api/token/{id}', 'user'),
  r('post', '/api/token/{id}/key', 'user'),
  r('delete', '/api/token/{id}', 'user'),
  r('post', '/api/token/batch', 'user', { body: (c) => ({ ids: [c.victimId] }) }),
  // each area's routes live in test/support/authz/<area>.ts
  ...CHANNEL_OPS_ROUTES,
  ...LOGS_ROUTES,
  ...OAUTH_ROUTES,
  ...SECURITY_ROUTES,
  ...TASKS_ROUTES,
  ...WALLET_ROUTES,
];

const ACTORS: Actor[] = ['anonymous', 'user', 'admin', 'root', 'banned', 'deregistered'];
const RANK: Record<Exclude<Level, 'public'>, number> = { user: 1, admin: 10, root: 100 };

/** The status a cell must answer. */
function expectedStatus(level: Level, actor: Actor): number {
  if (level === 'public') return 200;
  if (actor === 'anonymous' || actor === 'deregistered') return 401;
  if (actor === 'banned') return 403;
  return RANK[actor] >= RANK[level] ? 200 : 403;
}

describe('authorization matrix', () => {
  let t: TestApp;
  let root: ApiClient;
  const main = new Map<Actor, ApiClient>();
  const spare = new Map<Actor, ApiClient>();
  const ctx: Ctx = { victimId: 0 };

  /** Everything a refused call could have touched. */
  async function snapshot(): Promise<string> {
    const users = await t.ds.getRepository(User).find({ order: { id: 'ASC' } });
    const options = await t.ds.getRepository(OptionRow).find({ order: { key: 'ASC' } });
    const logs = await t.ds.getRepository(LogEntry).count();
    const codes = await t.ds.getRepository(VerificationCode).count();
    const setups = await t.ds.getRepository(Setup).count();
    const channels = await t.ds.getRepository(Channel).find({ order: { id: 'ASC' } });
    const abilities = await t.ds.getRepository(Ability).count();
    const tokens = await t.ds.getRepository(Token).find({ order: { id: 'ASC' } });
    const redemptions = await t.ds.getRepository(Redemption).find({ order: { id: 'ASC' } });
    const topups = await t.ds.getRepository(TopUp).find({ order: { id: 'ASC' } });
    const drawings = await t.ds.getRepository(Midjourney).find({ order: { id: 'ASC' } });
    const tasks = await t.ds.getRepository(Task).find({ order: { id: 'ASC' } });
    const quotaData = await t.ds.getRepository(QuotaData).count();
    return JSON.stringify({
      users,
      options,
      logs,
      codes,
      setups,
      channels,
      abilities,
      tokens,
      redemptions,
      topups,
      drawings,
      tasks,
      quotaData,
    });
  }

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    const victim = await makeUser(t, root);
    ctx.victimId = victim.userId!;
    const u = await makeUser(t, root);
    const a = await makeUser(t, root, { role: 'admin' });
    const b = await makeUser(t, root);
    const d = await makeUser(t, root);
    const creds: Array<[Actor, { username: string; password: string }, ApiClient]> = [
      ['user', u, u],
      ['admin', a, a],
      ['root', ROOT, root],
      ['banned', b, b],
      ['deregistered', d, d],
    ];
    main.set('anonymous', new ApiClient(t.url));
    spare.set('anonymous', new ApiClient(t.url));
    for (const [actor, c, client] of creds) {
      main.set(actor, client);
      spare.set(actor, await new ApiClient(t.url).login(c.username, c.password));
    }
    expect((await root.post('/api/user/manage', { id: b.userId, action: 'disable' })).body.success).toBe(
      true,
    );
    expect((await root.post('/api/user/manage', { id: d.userId, action: 'delete' })).body.success).toBe(true);
  });
  afterAll(() => t.close());

  it('lists every route the server has (OpenAPI document) and nothing it does not', async () => {
    const doc = (await request(t.url).get('/api/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const served = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths)) {
      // The model routes the document also describes (tag relay, API-token auth, GET /api/usage/token
      // among them) are checked by route-inventory.e2e.ts.
      if (!path.startsWith('/api/')) continue;
      for (const [m, op] of Object.entries(ops))
        if (['get', 'post', 'put', 'delete', 'patch'].includes(m) && !op.tags?.includes('relay'))
          served.add(`${m.toUpperCase()} ${path}`);
    }
    const tabled = new Set(ROUTES.map((x) => `${x.method.toUpperCase()} ${x.path}`));
    expect([...served].filter((s) => !tabled.has(s))).toEqual([]);
    expect([...tabled].filter((s) => !served.has(s))).toEqual([]);
  });

  describe.each(
    ROUTES.map(
      (route) =>
        [
          `${route.method.toUpperCase()} ${route.path}${route.label ? ` (${route.label})` : ''}`,
          route,
        ] as const,
    ),
  )('%s', (_name, route) => {
    it.each(ACTORS.map((actor) => [actor, expectedStatus(route.level, actor)] as const))(
      '%s → %i',
      async (actor, status) => {
        if (route.prepare) await route.prepare(root);
        const client = (route.endsSession ? spare : main).get(actor)!;
        const url = route.path.replace('{id}', String(ctx.victimId)) + (route.query ?? '');
        const before = status === 200 ? null : await snapshot();
        const res = route.body
          ? await client[route.method](url, route.body(ctx))
          : await client[route.method](url);
        if (status === 200 && route.contentType) {
          expect(res.status).toBe(200);
          expect(res.headers['content-type']).toMatch(route.contentType);
          return;
        }
        expect({ status: res.status, message: res.body?.message }).toEqual({
          status,
          message: status === 200 && route.noMessage ? undefined : expect.any(String),
        });
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(typeof res.body.success).toBe('boolean');
        if (status !== 200) {
          expect(res.body.success).toBe(false);
          expect(res.body.data).toBeNull();
          expect(await snapshot()).toBe(before);
        } else if (route.effect) {
          await route.effect(t);
        }
      },
    );
  });

  it('the allowed calls really took effect (the bodies above are not no-ops)', async () => {
    const victim = await t.ds.getRepository(User).findOneByOrFail({ id: ctx.victimId });
    // add_quota 7 by admin and by root, after the two PUTs set 999 from the loaded balance.
    expect(victim.quota).toBeGreaterThan(0);
    const logs = await t.ds.getRepository(LogEntry).findBy({ user_id: ctx.victimId, type: 3 });
    expect(logs.filter((l) => l.quota === 7)).toHaveLength(2);
    const opt = async (key: string) =>
      (await t.ds.getRepository(OptionRow).findOneBy({ key }))?.value ?? null;
    expect(await opt('ServerAddress')).toMatch(/^https:\/\/h.*\.example\.com$/);
    expect(await opt('SMTPToken')).toMatch(/^gcm1:/);
    expect(await t.ds.getRepository(User).countBy({ username: 'not-my-own-name' })).toBe(0);
    // The actors' main sessions survived the logout row (it ran on spare sessions).
    await main.get('user')!.get('/api/user/self').expect(200);
    await main.get('root')!.get('/api/user/self').expect(200);
    await spare.get('user')!.get('/api/user/self').expect(401);
  });
});

/**
 * The audit trail of administrative changes: who changed what (users, roles, quota, options, channels,
 * redemption codes, logs), from which address, with the changed fields and never a secret value; a save
 * that changes nothing writes nothing; the trail is read-only through the API, filterable and exported
 * as CSV; only admins read it.
 */
import { AuditEntry } from '../../server/src/database/entities';
import { makeToken } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp, uname } from '../support/test-app';

interface Entry {
  id: number;
  actor_name: string;
  actor_id: number;
  action: string;
  target_type: string;
  target_id: string;
  target_name: string;
  ip: string;
  changes: Record<string, { from?: unknown; to?: unknown; secret?: true }> | null;
  summary: string;
}

describe('audit trail', () => {
  let t: TestApp;
  let root: ApiClient;
  let admin: ApiClient & { username: string };
  let plain: ApiClient & { username: string };

  const entries = async (query = ''): Promise<Entry[]> => {
    const res = await root.get(`/api/audit/?page_size=100${query}`).expect(200);
    expect(res.body.success).toBe(true);
    return res.body.data.items as Entry[];
  };
  const count = () => t.ds.getRepository(AuditEntry).count();

  beforeAll(async () => {
    t = await startApp();
    root = await setupRoot(t);
    admin = await makeUser(t, root, { role: 'admin' });
    plain = await makeUser(t, root);
  });
  afterAll(() => t?.close());

  it('records a user edit with actor, target, address and the changed fields only', async () => {
    const victim = await makeUser(t, root);
    admin.ip = '203.0.113.7';
    const res = await admin.put('/api/user/', {
      id: victim.userId,
      display_name: 'Renamed',
      group: 'vip',
      password: 'new-password-9',
    });
    expect(res.body.success).toBe(true);
    const [e] = await entries(`&target_type=user&target_id=${victim.userId}&action=user.update`);
    expect(e).toMatchObject({
      actor_name: admin.username,
      actor_id: admin.userId,
      action: 'user.update',
      target_type: 'user',
      target_id: String(victim.userId),
      target_name: victim.username,
      ip: '203.0.113.7',
    });
    expect(e.changes).toEqual({
      display_name: { from: victim.username, to: 'Renamed' },
      group: { from: 'default', to: 'vip' },
      password: { secret: true },
    });
    expect(JSON.stringify(e)).not.toContain('new-password-9');
    expect(JSON.stringify(e)).not.toMatch(/\$2[aby]\$/); // no bcrypt hash either
  });

  it('writes nothing for a save that changes nothing, or for a refused change', async () => {
    const victim = await makeUser(t, root);
    await admin.put('/api/user/', { id: victim.userId, display_name: 'Same' }).expect(200);
    const before = await count();
    const again = await admin.put('/api/user/', {
      id: victim.userId,
      display_name: 'Same',
      group: 'default',
    });
    expect(again.body.success).toBe(true);
    expect(await count()).toBe(before);
    // an admin acting on root is refused: no entry
    const refused = await admin.post('/api/user/manage', { id: root.userId, action: 'disable' });
    expect(refused.body.success).toBe(false);
    expect(await count()).toBe(before);
  });

  it('records role, status and quota changes under their own actions', async () => {
    const victim = await makeUser(t, root);
    await root.post('/api/user/manage', { id: victim.userId, action: 'promote' }).expect(200);
    await root.post('/api/user/manage', { id: victim.userId, action: 'disable' }).expect(200);
    await root.post('/api/user/manage', { id: victim.userId, action: 'add_quota', value: 5000 }).expect(200);
    const list = await entries(`&target_id=${victim.userId}&target_type=user`);
    const byAction = Object.fromEntries(list.map((e) => [e.action, e.changes]));
    expect(byAction['user.promote']).toEqual({ role: { from: 1, to: 10 } });
    expect(byAction['user.disable']).toEqual({ status: { from: 1, to: 2 } });
    expect(byAction['user.add_quota']).toEqual({ quota: { from: 0, to: 5000 } });
    expect(byAction['user.create']).toMatchObject({ username: { from: null, to: victim.username } });
    expect(JSON.stringify(byAction['user.create'])).not.toContain('password-1');
  });

  it('records option changes, with secret options named but never their values', async () => {
    await putOption(root, 'SystemName', 'Audited Gateway');
    await putOption(root, 'SMTPToken', 'smtp-secret-value');
    const list = await entries('&target_type=option');
    const name = list.find((e) => e.target_id === 'SystemName');
    expect(name?.changes).toEqual({ value: { from: expect.any(String), to: 'Audited Gateway' } });
    const secret = list.find((e) => e.target_id === 'SMTPToken');
    expect(secret?.changes).toEqual({ value: { secret: true } });
    const csv = await root.get('/api/audit/export').expect(200);
    expect(csv.text).not.toContain('smtp-secret-value');
    // setting the same value again is no change
    const before = await count();
    await putOption(root, 'SystemName', 'Audited Gateway');
    expect(await count()).toBe(before);
  });

  it('records channel creation, edits (a new key only as changed) and deletion', async () => {
    const created = await admin.post('/api/channel/', {
      type: 1,
      name: uname('ch'),
      key: 'sk-channel-secret-1',
      models: 'gpt-4o',
      group: 'default',
    });
    expect(created.body.success).toBe(true);
    const id = created.body.data.id as number;
    await admin.put('/api/channel/', { id, key: 'sk-channel-secret-2', weight: 7 }).expect(200);
    await admin.delete(`/api/channel/${id}`).expect(200);
    const list = await entries(`&target_type=channel&target_id=${id}`);
    expect(list.map((e) => e.action).sort()).toEqual(['channel.create', 'channel.delete', 'channel.update']);
    const update = list.find((e) => e.action === 'channel.update')!;
    expect(update.changes).toEqual({ key: { secret: true }, weight: { from: 0, to: 7 } });
    expect(list.find((e) => e.action === 'channel.delete')?.changes).toMatchObject({
      weight: { from: 7, to: null },
    });
    expect(JSON.stringify(list)).not.toContain('sk-channel-secret');
  });

  it('records redemption codes without the codes', async () => {
    const res = await admin.post('/api/redemption/', { name: 'gift', quota: 1000, count: 2 });
    expect(res.body.success).toBe(true);
    const codes = res.body.data as string[];
    const [e] = await entries('&action=redemption.create');
    const all = JSON.stringify(await entries()) + (await root.get('/api/audit/export')).text;
    for (const code of codes) expect(all).not.toContain(code);

    // The summary is in the reader's language, in the list and in the export.
    expect(e.summary).toBe('gift × 2，每个额度 1000');
    const summaryIn = async (lang: string) => {
      const res = await root.get('/api/audit/?action=redemption.create').set('Accept-Language', lang);
      return (res.body.data.items as Entry[])[0].summary;
    };
    expect(await summaryIn('en')).toBe('gift × 2, 1000 quota each');
    expect(await summaryIn('zh-CN')).toBe('gift × 2，每个额度 1000');
    const csv = await root.get('/api/audit/export?action=redemption.create').set('Accept-Language', 'en');
    expect(csv.text).toContain('"gift × 2, 1000 quota each"');
  });

  it('shows the plain-text summary of an entry written before summaries were keyed as it was written', async () => {
    await t.ds.getRepository(AuditEntry).insert({
      created_at: Math.floor(Date.now() / 1000),
      actor_id: root.userId!,
      actor_name: 'root',
      actor_role: 100,
      action: 'channel.delete_disabled',
      target_type: 'channel',
      summary: '×3',
      changes: null,
    });
    const [e] = await entries('&action=channel.delete_disabled');
    expect(e.summary).toBe('×3');
  });

  it('records the content-log switches of a token and a user; a repeat or a refused switch writes nothing', async () => {
    const owner = await makeUser(t, root);
    const token = await makeToken(t, owner.userId!, { name: 'audited-token' });
    const turn = async (scope: 'token' | 'user', id: number, enabled: unknown) =>
      (await admin.put(`/api/content_log/${scope}/${id}`, { enabled })).body.success as boolean;
    admin.ip = '203.0.113.9';
    expect(await turn('token', token.id, true)).toBe(true);
    const [te] = await entries(`&target_type=token&target_id=${token.id}`);
    expect(te).toMatchObject({
      actor_name: admin.username,
      action: 'token.content_log',
      target_type: 'token',
      target_id: String(token.id),
      target_name: 'audited-token',
      ip: '203.0.113.9',
      changes: { content_log: { from: false, to: true } },
    });

    expect(await turn('user', owner.userId!, true)).toBe(true);
    expect(await turn('user', owner.userId!, false)).toBe(true);
    const ue = await entries(`&target_type=user&target_id=${owner.userId}&action=user.content_log`);
    expect(ue.map((e) => e.changes)).toEqual([
      { content_log: { from: true, to: false } },
      { content_log: { from: false, to: true } },
    ]);
    expect(ue[0]).toMatchObject({ target_name: owner.username, actor_name: admin.username });

    // The same value again, bad input and an unknown target change nothing and write nothing.
    const before = await count();
    expect(await turn('token', token.id, true)).toBe(true);
    expect(await turn('token', token.id, 'yes')).toBe(false);
    expect(await turn('user', 999999, true)).toBe(false);
    expect(await count()).toBe(before);
    expect(await turn('token', token.id, false)).toBe(true);
  });

  it('filters by actor, kind and time, and exports CSV', async () => {
    const mine = await entries(`&actor=${admin.username}`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.actor_name === admin.username)).toBe(true);
    const users = await entries('&action=user');
    expect(users.length).toBeGreaterThan(0);
    expect(users.every((e) => e.target_type === 'user')).toBe(true);
    expect(await entries('&start_timestamp=4000000000')).toEqual([]);
    const bad = await root.get('/api/audit/?start_timestamp=abc');
    expect(bad.body.success).toBe(false);

    const csv = await root.get(`/api/audit/export?actor=${admin.username}`).expect(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe(
      'id,time,actor_id,actor,actor_role,action,target_type,target_id,target,ip,changes,summary,request_id',
    );
    expect(lines.length).toBe(mine.length + 1);
    expect(lines.slice(1).every((l) => l.split(',')[3] === admin.username)).toBe(true);
  });

  it('is read-only through the API and closed to non-admins', async () => {
    const before = await count();
    expect((await root.delete('/api/audit/')).status).toBe(404);
    expect((await root.put('/api/audit/', {})).status).toBe(404);
    expect((await root.delete('/api/log/?target_timestamp=4000000000')).body.success).toBe(true);
    expect(await count()).toBeGreaterThanOrEqual(before); // deleting usage logs leaves the trail
    const logDelete = await entries('&action=log.delete');
    expect(logDelete.length).toBeLessThanOrEqual(1);
    expect((await plain.get('/api/audit/')).status).toBe(403);
    expect((await plain.get('/api/audit/export')).status).toBe(403);
    expect((await new ApiClient(t.url).get('/api/audit/')).status).toBe(401);
  });
});

/**
 * Content logs (opt-in): a channel, token or user switched on stores the request and the answer of its
 * calls in log_contents (apart from the log table), its log row marked `content_logged`; nothing is
 * stored when all are off. Keys, credential headers and configured JSON paths are redacted; bodies are
 * cut at the cap and marked; streams are reassembled into the final answer; the master's purge drops
 * rows past the retention; only admins read any row, users their own and only when the operator allows.
 */
import { ContentLogService } from '../../server/src/modules/log/content/content-log.service';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, setQuota, settle, updateChannel } from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

let t: TestApp;
let mock: MockUpstream;
let root: ApiClient;
let alice: ApiClient & { username: string };
let bob: ApiClient & { username: string };
let channelId: number;
let aliceKey: { id: number; key: string };
let aliceKey2: { id: number; key: string };
let bobKey: { id: number; key: string };

interface Answer {
  status: number;
  requestId: string;
  text: string;
}

async function chat(
  key: string,
  body: Record<string, unknown>,
  path = '/v1/chat/completions',
  extra: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    requestId: res.headers.get('x-oneapi-request-id') ?? '',
    text: await res.text(),
  };
}

const hello = (content = 'hi', more: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content }],
  ...more,
});

async function flush(): Promise<void> {
  await settle(t);
  await t.app.get(ContentLogService).flush();
}

async function contentRows(requestId?: string): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = await t.ds.query('SELECT * FROM log_contents ORDER BY id');
  return requestId === undefined ? rows : rows.filter((r) => r.request_id === requestId);
}

async function logIdOf(requestId: string): Promise<number> {
  const rows: Array<{ id: number | string }> = await t.ds.query(
    `SELECT id FROM logs WHERE request_id = '${requestId.replace(/[^A-Za-z0-9-]/g, '')}'`,
  );
  expect(rows).toHaveLength(1);
  return Number(rows[0].id);
}

async function setSwitch(scope: 'token' | 'user', id: number, enabled: boolean): Promise<void> {
  const res = await root.put(`/api/content_log/${scope}/${id}`, { enabled });
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ success: true, data: { enabled } });
}

beforeAll(async () => {
  mock = await MockUpstream.start();
  t = await startApp();
  root = await setupRoot(t);
  alice = await makeUser(t, root);
  bob = await makeUser(t, root);
  await setQuota(t, alice.userId!, 100_000_000);
  await setQuota(t, bob.userId!, 100_000_000);
  channelId = await makeChannel(t, { base_url: mock.url, key: 'sk-upstream-secret-key-0123456789' });
  aliceKey = await makeToken(t, alice.userId!, { name: 'a1' });
  aliceKey2 = await makeToken(t, alice.userId!, { name: 'a2' });
  bobKey = await makeToken(t, bob.userId!, { name: 'b1' });
});

afterAll(async () => {
  await t?.close();
  await mock?.close();
});

describe('off by default', () => {
  it('stores nothing and marks nothing when no channel, token or user is switched on', async () => {
    for (const key of [aliceKey.key, bobKey.key]) {
      expect((await chat(key, hello())).status).toBe(200);
      expect((await chat(key, hello('streamed', { stream: true }))).status).toBe(200);
    }
    await flush();
    expect(await contentRows()).toHaveLength(0);
    for (const l of [...(await logsOf(t, alice.userId!)), ...(await logsOf(t, bob.userId!))])
      expect(l.other.content_logged).toBeUndefined();
    expect(t.app.get(ContentLogService).active).toBe(false);
    expect(await root.get(`/api/content_log/token/${aliceKey.id}`).then((r) => r.body)).toMatchObject({
      success: true,
      data: { enabled: false },
    });
  });
});

describe('switched on per token, user and channel', () => {
  afterEach(async () => {
    await setSwitch('token', aliceKey.id, false);
    await setSwitch('user', bob.userId!, false);
    await updateChannel(t, channelId, { setting: '{}' });
  });

  it('a token: its calls are stored and marked, the same user’s other token is not', async () => {
    await setSwitch('token', aliceKey.id, true);
    expect(await root.get(`/api/content_log/token/${aliceKey.id}`).then((r) => r.body.data)).toEqual({
      enabled: true,
    });
    const on = await chat(aliceKey.key, hello('token on'));
    const off = await chat(aliceKey2.key, hello('other token'));
    expect([on.status, off.status]).toEqual([200, 200]);
    await flush();
    const [row] = await contentRows(on.requestId);
    expect(row).toBeDefined();
    expect(await contentRows(off.requestId)).toHaveLength(0);
    expect(Number(row.user_id)).toBe(alice.userId);
    const logs = await logsOf(t, alice.userId!);
    expect(logs.find((l) => l.request_id === on.requestId)!.other.content_logged).toBe(true);
    expect(logs.find((l) => l.request_id === off.requestId)!.other.content_logged).toBeUndefined();

    const read = await root.get(`/api/log/${await logIdOf(on.requestId)}/content`);
    expect(read.status).toBe(200);
    expect(read.body.success).toBe(true);
    const data = read.body.data;
    expect(JSON.parse(data.request)).toEqual(hello('token on'));
    const answer = JSON.parse(data.response);
    expect(answer).toEqual(JSON.parse(on.text));
    expect(data.meta).toMatchObject({
      format: 'openai',
      mode: 'chat',
      status: 200,
      stream: false,
      response_kind: 'json',
      channel_id: channelId,
      request_truncated: false,
      response_truncated: false,
    });
  });

  it('a user: every token of the user is stored, other users are not', async () => {
    await setSwitch('user', bob.userId!, true);
    const on = await chat(bobKey.key, hello('user on'));
    const off = await chat(aliceKey.key, hello('alice'));
    await flush();
    expect(await contentRows(on.requestId)).toHaveLength(1);
    expect(await contentRows(off.requestId)).toHaveLength(0);
  });

  it('a channel (setting content_log: true): every call it serves is stored, a refused one too', async () => {
    await updateChannel(t, channelId, { setting: JSON.stringify({ content_log: true }) });
    const served = await chat(aliceKey2.key, hello('channel on'));
    const failed = await chat(aliceKey2.key, hello('boom [[status=400]] [[error=bad thing]]'));
    expect(served.status).toBe(200);
    expect(failed.status).toBe(400);
    await flush();
    expect(await contentRows(served.requestId)).toHaveLength(1);
    const [row] = await contentRows(failed.requestId);
    const meta = JSON.parse(String(row.meta));
    expect(meta.status).toBe(400);
    expect(JSON.parse(String(row.response)).error.message).toContain('bad thing');
    const errorLog = (await logsOf(t, alice.userId!)).find((l) => l.request_id === failed.requestId)!;
    expect(errorLog.type).toBe(5);
    expect(errorLog.other.content_logged).toBe(true);
  });
});

describe('what is stored', () => {
  beforeAll(async () => {
    await setSwitch('token', aliceKey.id, true);
  });
  afterAll(async () => {
    await setSwitch('token', aliceKey.id, false);
    await putOption(root, 'ContentLogRedactPaths', '');
    await putOption(root, 'ContentLogMaxBytes', 65536);
  });

  it('redacts API keys, credential headers and the configured JSON paths', async () => {
    await putOption(
      root,
      'ContentLogRedactPaths',
      'messages[*].content\n$.metadata.user_id\nchoices[*].message.content',
    );
    const leaked = 'sk-abcdefghijklmnopqrstuvwxyz012345';
    const body = hello('secret prompt', {
      metadata: { user_id: 'employee-42', team: 'kept' },
      user: `key ${leaked} and ${aliceKey.key}`,
    });
    const res = await chat(aliceKey.key, body, '/v1/chat/completions', {
      'x-api-key': 'another-credential',
      'x-goog-api-key': 'AIzaSyA-0123456789abcdefghijklmnop',
      'x-client': 'kept-header',
    });
    expect(res.status).toBe(200);
    await flush();
    const data = (await root.get(`/api/log/${await logIdOf(res.requestId)}/content`)).body.data;
    const all = JSON.stringify(data);
    for (const secret of [
      leaked,
      aliceKey.key,
      'secret prompt',
      'employee-42',
      'another-credential',
      'AIzaSyA-0123456789abcdefghijklmnop',
      'sk-upstream-secret-key-0123456789',
      'Hello from the mock upstream',
    ])
      expect(all).not.toContain(secret);
    const request = JSON.parse(data.request);
    expect(request.messages[0]).toEqual({ role: 'user', content: '[REDACTED]' });
    expect(request.metadata).toEqual({ user_id: '[REDACTED]', team: 'kept' });
    expect(request.user).toBe('key [REDACTED] and [REDACTED]');
    expect(JSON.parse(data.response).choices[0].message.content).toBe('[REDACTED]');
    expect(data.meta.headers).toMatchObject({
      authorization: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      'x-goog-api-key': '[REDACTED]',
      'x-client': 'kept-header',
    });
  });

  it('content_log_no_key: the caller’s key in any header and without its sk- prefix, and the channel’s key, are never stored; a JSON call is not multipart', async () => {
    await putOption(root, 'ContentLogRedactPaths', '');
    const bare = aliceKey.key.replace(/^sk-/, '');
    const res = await chat(
      `${bare}`,
      hello(`my gateway key is ${bare}, the channel's is upstream-secret-key-0123456789`),
      '/v1/chat/completions',
      {
        'x-backup-key': aliceKey.key,
        'x-other': `token=${bare}`,
        'sec-websocket-protocol': `realtime, openai-insecure-api-key.${aliceKey.key}`,
        'x-client': 'kept-header',
      },
    );
    expect(res.status).toBe(200);
    await flush();
    const data = (await root.get(`/api/log/${await logIdOf(res.requestId)}/content`)).body.data;
    const all = JSON.stringify(data);
    expect(all).not.toContain(bare);
    expect(all).not.toContain('upstream-secret-key-0123456789');
    expect(JSON.parse(data.request).messages[0].content).toBe(
      "my gateway key is [REDACTED], the channel's is [REDACTED]",
    );
    expect(data.meta.headers).toMatchObject({
      authorization: '[REDACTED]',
      'x-backup-key': '[REDACTED]',
      'x-other': 'token=[REDACTED]',
      'sec-websocket-protocol': 'realtime, openai-insecure-api-key.[REDACTED]',
      'x-client': 'kept-header',
    });
    expect(data.meta.multipart).toBeUndefined();
  });

  it('refuses a redaction path that is not valid JSONPath (script filters included), changing nothing', async () => {
    await putOption(root, 'ContentLogRedactPaths', 'messages[*].content');
    for (const bad of [
      '$.messages[?(@.role=="user")].content',
      '$.a[',
      'messages[*].content\n$.(@.length-1)',
    ]) {
      const res = await root.put('/api/option/', { key: 'ContentLogRedactPaths', value: bad });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toMatch(/脱敏路径无效|Invalid redaction path/);
    }
    const rows: Array<{ value: string }> = await t.ds.query(
      "SELECT value FROM options WHERE key = 'ContentLogRedactPaths'".replace(
        'key',
        t.ds.driver.escape('key'),
      ),
    );
    expect(rows[0].value).toBe('messages[*].content');
    await putOption(root, 'ContentLogRedactPaths', '');
  });

  it('cuts each direction at the size cap and says so', async () => {
    await putOption(root, 'ContentLogMaxBytes', 1024);
    const long = 'ж'.repeat(3000);
    const res = await chat(aliceKey.key, hello(long, { max_tokens: 5 }), '/v1/chat/completions');
    const reply = await chat(aliceKey.key, hello(`[[reply=${'z'.repeat(4000)}]]`));
    expect([res.status, reply.status]).toEqual([200, 200]);
    await flush();
    const [a] = await contentRows(res.requestId);
    expect(Buffer.byteLength(String(a.request))).toBeLessThanOrEqual(1024);
    expect(Buffer.byteLength(String(a.request))).toBeGreaterThan(1000);
    expect(String(a.request)).not.toContain('\uFFFD');
    expect(JSON.parse(String(a.meta))).toMatchObject({
      request_truncated: true,
      response_truncated: false,
      cap: 1024,
    });
    const [b] = await contentRows(reply.requestId);
    expect(Buffer.byteLength(String(b.response))).toBeLessThanOrEqual(1024);
    expect(JSON.parse(String(b.meta))).toMatchObject({ response_truncated: true, response_kind: 'json' });
    await putOption(root, 'ContentLogMaxBytes', 65536);
  });

  it('reassembles an OpenAI stream into the final message', async () => {
    const res = await chat(
      aliceKey.key,
      hello('[[reply=Streamed answer in pieces.]]', {
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toContain('data: ');
    await flush();
    const [row] = await contentRows(res.requestId);
    const meta = JSON.parse(String(row.meta));
    expect(meta).toMatchObject({ stream: true, response_kind: 'stream', response_truncated: false });
    const whole = JSON.parse(String(row.response));
    expect(whole.object).toBe('chat.completion');
    expect(whole.choices[0].message).toMatchObject({
      role: 'assistant',
      content: 'Streamed answer in pieces.',
    });
    expect(whole.choices[0].finish_reason).toBe('stop');
    expect(whole.usage).toBeDefined();
  });

  it('reassembles an Anthropic stream (caller format) into the final message', async () => {
    const res = await chat(
      aliceKey.key,
      {
        model: 'gpt-4o',
        max_tokens: 64,
        stream: true,
        messages: [{ role: 'user', content: '[[reply=Anthropic pieces here.]]' }],
      },
      '/v1/messages',
    );
    expect(res.status).toBe(200);
    await flush();
    const [row] = await contentRows(res.requestId);
    const whole = JSON.parse(String(row.response));
    expect(whole.type).toBe('message');
    expect(whole.content).toEqual([
      expect.objectContaining({ type: 'text', text: 'Anthropic pieces here.' }),
    ]);
    expect(JSON.parse(String(row.meta))).toMatchObject({ format: 'anthropic', response_kind: 'stream' });
  });
});

describe('retention', () => {
  it('the purge drops content past the retention period and keeps the rest', async () => {
    await setSwitch('token', aliceKey.id, true);
    const old = await chat(aliceKey.key, hello('old'));
    const fresh = await chat(aliceKey.key, hello('fresh'));
    await setSwitch('token', aliceKey.id, false);
    await flush();
    await putOption(root, 'ContentLogRetentionDays', 3);
    const now = Math.floor(Date.now() / 1000);
    await t.ds.query(
      `UPDATE log_contents SET created_at = ${now - 3 * 86400 - 10} WHERE request_id = '${old.requestId}'`,
    );
    const before = (await contentRows()).length;
    expect(await t.app.get(ContentLogService).purge(now)).toBeGreaterThanOrEqual(1);
    expect(await contentRows(old.requestId)).toHaveLength(0);
    expect(await contentRows(fresh.requestId)).toHaveLength(1);
    expect((await contentRows()).length).toBe(before - 1);
    // The log row stays; its content is gone.
    const res = await root.get(`/api/log/${await logIdOf(old.requestId)}/content`);
    expect(res.body).toMatchObject({ success: false, data: null });
  });
});

describe('who may read', () => {
  let aliceLog: number;
  let bobLog: number;

  beforeAll(async () => {
    await setSwitch('user', alice.userId!, true);
    await setSwitch('user', bob.userId!, true);
    const a = await chat(aliceKey.key, hello('alice private'));
    const b = await chat(bobKey.key, hello('bob private'));
    await setSwitch('user', alice.userId!, false);
    await setSwitch('user', bob.userId!, false);
    await flush();
    aliceLog = await logIdOf(a.requestId);
    bobLog = await logIdOf(b.requestId);
  });
  afterAll(async () => {
    await putOption(root, 'ContentLogUserViewEnabled', false);
  });

  it('nobody signed out; users not while the operator has not allowed it', async () => {
    expect((await new ApiClient(t.url).get(`/api/log/${aliceLog}/content`)).status).toBe(401);
    const res = await alice.get(`/api/log/${aliceLog}/content`);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ success: false, data: null });
    expect(typeof res.body.message).toBe('string');
  });

  it('with the switch on: a user reads their own row, never another user’s; admins read any', async () => {
    await putOption(root, 'ContentLogUserViewEnabled', true);
    const own = await alice.get(`/api/log/${aliceLog}/content`);
    expect(own.body.success).toBe(true);
    expect(own.body.data.request).toContain('alice private');
    expect(own.body.data.meta.channel_id).toBeUndefined();
    const other = await alice.get(`/api/log/${bobLog}/content`);
    expect(other.body).toMatchObject({ success: false, data: null });
    expect(JSON.stringify(other.body)).not.toContain('bob private');
    const admin = await root.get(`/api/log/${bobLog}/content`);
    expect(admin.body.data.request).toContain('bob private');
    expect(admin.body.data.meta.channel_id).toBe(channelId);
  });

  it('only admins switch tokens and users; bad input changes nothing', async () => {
    expect((await alice.put(`/api/content_log/user/${alice.userId}`, { enabled: true })).status).toBe(403);
    for (const [path, body] of [
      [`/api/content_log/user/${alice.userId}`, { enabled: 'yes' }],
      [`/api/content_log/user/${alice.userId}`, {}],
      ['/api/content_log/token/999999', { enabled: true }],
    ] as const) {
      const res = await root.put(path, body);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: false, data: null });
    }
    const flags: Array<{ content_log: unknown }> = await t.ds.query('SELECT content_log FROM users');
    expect(flags.every((f) => !Number(f.content_log) && f.content_log !== true)).toBe(true);
    expect(t.app.get(ContentLogService).active).toBe(false);
    expect((await root.put(`/api/content_log/group/${alice.userId}`, { enabled: true })).status).toBe(404);
  });

  it('content_log_role_rule: an admin switches no content logging of root, of another admin or of their tokens', async () => {
    const admin = await makeUser(t, root, { role: 'admin' });
    const peer = await makeUser(t, root, { role: 'admin' });
    const rootToken = await makeToken(t, root.userId!, { name: 'root-t' });
    const peerToken = await makeToken(t, peer.userId!, { name: 'peer-t' });
    for (const path of [
      `/api/content_log/user/${root.userId}`,
      `/api/content_log/token/${rootToken.id}`,
      `/api/content_log/user/${peer.userId}`,
      `/api/content_log/token/${peerToken.id}`,
    ]) {
      const res = await admin.put(path, { enabled: true });
      expect({ path, status: res.status, success: res.body.success }).toEqual({
        path,
        status: 403,
        success: false,
      });
    }
    const on: Array<{ id: unknown }> = await t.ds.query(
      `SELECT id FROM users WHERE content_log = ${t.ds.options.type === 'postgres' ? 'true' : '1'}`,
    );
    expect(on).toHaveLength(0);
    expect(t.app.get(ContentLogService).active).toBe(false);
    // a lower role, and root on an admin, still work
    expect((await admin.put(`/api/content_log/user/${bob.userId}`, { enabled: true })).body.success).toBe(
      true,
    );
    expect((await admin.put(`/api/content_log/user/${bob.userId}`, { enabled: false })).body.success).toBe(
      true,
    );
    expect((await root.put(`/api/content_log/token/${peerToken.id}`, { enabled: true })).body.success).toBe(
      true,
    );
    expect((await root.put(`/api/content_log/token/${peerToken.id}`, { enabled: false })).body.success).toBe(
      true,
    );
  });
});

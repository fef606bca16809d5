import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import request from 'supertest';
import { textTokens } from '../../server/src/modules/relay/usage';
import { DEFAULT_REPLY, MockUpstream } from '../mocks/mock-upstream';
import {
  LogRow,
  logsOf,
  makeChannel,
  makeToken,
  quotaOf,
  setQuota,
  settle,
  updateChannel,
} from '../support/relay-fixtures';
import { ApiClient, makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/** A local port nothing listens on (a channel pointed there fails with a network error). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The text of the `data:` lines of an OpenAI SSE answer, and its delta contents joined. */
function parseSse(text: string): { events: string[]; content: string } {
  const events = text
    .split('\n')
    .filter((l) => l.startsWith('data: '))
    .map((l) => l.slice(6));
  let content = '';
  for (const e of events) {
    if (e === '[DONE]') continue;
    const chunk = JSON.parse(e) as { choices?: Array<{ delta?: { content?: string } }> };
    content += chunk.choices?.[0]?.delta?.content ?? '';
  }
  return { events, content };
}

/**
 * Channel routing end to end: priority tiers, retries, weights, model mapping, per-channel overrides,
 * pinning, disabled and auto-disabled channels, and billing of interrupted streams.
 *
 * Channels of every test serve their own model names (`gpt-4o-<test>`, priced as gpt-4o by prefix: a
 * 10 + 5 token answer costs (10 + 5 × 4) × 1.25 = 38), so the tests do not see each other's channels.
 */
describe('relay routing', () => {
  let t: TestApp;
  /** The upstream that answers. */
  let mock: MockUpstream;
  /** An upstream that refuses every channel key with 401. */
  let refusing: MockUpstream;
  let root: ApiClient;
  let user: Awaited<ReturnType<typeof makeUser>>;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    refusing = await MockUpstream.start();
    refusing.requireKey = 'sk-a-key-no-channel-has';
    t = await startApp();
    root = await setupRoot(t);
    user = await makeUser(t, root);
    await setQuota(t, user.userId!, 10_000_000);
    key = (await makeToken(t, user.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
    await refusing?.close();
  });

  afterEach(async () => {
    await putOption(root, 'RetryTimes', 0);
  });

  const openai = (k = key) => new OpenAI({ apiKey: k, baseURL: `${t.url}/v1`, maxRetries: 0 });

  const chat = (model: string, content = 'hi', extra: Record<string, unknown> = {}, k = key) =>
    request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${k}`)
      .set('Accept-Language', 'en')
      .send({ model, messages: [{ role: 'user', content }], ...extra });

  /** Streams a chat completion with fetch and answers the raw SSE text. */
  const streamText = async (
    model: string,
    content: string,
  ): Promise<{ status: number; text: string; headers: Headers }> => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content }] }),
    });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };

  /** The consume logs (type 2) of `model`, after the ledger flushed; waits until `count` exist. */
  const consumeLogs = async (model: string, count = 1, userId = user.userId!): Promise<LogRow[]> => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      await settle(t);
      const logs = (await logsOf(t, userId)).filter((l) => l.type === 2 && l.model_name === model);
      if (logs.length >= count || Date.now() > deadline) return logs;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  const calls = (m: MockUpstream, model: string) => m.requests.filter((r) => r.body?.model === model).length;

  async function channelRow(id: number): Promise<{ status: number; other_info: Record<string, unknown> }> {
    const rows: Array<{ status: number | string; other_info: string | null }> = await t.ds.query(
      `SELECT status, other_info FROM channels WHERE id = ${Math.floor(id)}`,
    );
    return {
      status: Number(rows[0].status),
      other_info: JSON.parse(rows[0].other_info || '{}') as Record<string, unknown>,
    };
  }

  it('always picks the higher-priority channel first', async () => {
    const low = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-prio', priority: 0, weight: 100 });
    const high = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-prio', priority: 5 });
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const res = await chat('gpt-4o-prio');
      expect(res.status).toBe(200);
      ids.push(String(res.headers['x-oneapi-request-id']));
    }
    const logs = await consumeLogs('gpt-4o-prio', 8);
    expect(logs).toHaveLength(8);
    // Every answer carries the request id that its log stores.
    expect(logs.map((l) => l.request_id)).toEqual(ids);
    expect(logs.map((l) => l.channel_id)).toEqual(Array(8).fill(high));
    expect(logs.map((l) => l.channel_id)).not.toContain(low);
  });

  it('retries a failed upstream (401) on the next tier: the answer succeeds and is billed once', async () => {
    await putOption(root, 'RetryTimes', 2);
    const bad = await makeChannel(t, { base_url: refusing.url, models: 'gpt-4o-retry', priority: 10 });
    const good = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-retry', priority: 0 });
    await settle(t);
    const before = await quotaOf(t, user.userId!);

    const res = await openai().chat.completions.create({
      model: 'gpt-4o-retry',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.choices[0].message.content).toBe(DEFAULT_REPLY);
    expect(calls(refusing, 'gpt-4o-retry')).toBe(1);
    expect(calls(mock, 'gpt-4o-retry')).toBe(1);

    const logs = await consumeLogs('gpt-4o-retry');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ channel_id: good, quota: 38, prompt_tokens: 10, completion_tokens: 5 });
    expect(logs[0].other).toMatchObject({ admin_info: { use_channel: [bad, good] } });
    expect(await quotaOf(t, user.userId!)).toBe(before - 38);

    // The same for a streamed answer.
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o-retry',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe(DEFAULT_REPLY);
    const streamed = (await consumeLogs('gpt-4o-retry', 2)).at(-1)!;
    expect(streamed).toMatchObject({ channel_id: good, quota: 38, is_stream: true });
    expect(streamed.other).toMatchObject({ admin_info: { use_channel: [bad, good] } });
  });

  it('retries a network error (closed port) on the next channel', async () => {
    await putOption(root, 'RetryTimes', 1);
    const dead = await makeChannel(t, {
      base_url: `http://127.0.0.1:${await closedPort()}`,
      models: 'gpt-4o-neterr',
      priority: 10,
    });
    const good = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-neterr', priority: 0 });
    const res = await chat('gpt-4o-neterr');
    expect(res.status).toBe(200);
    expect(res.body.choices[0].message.content).toBe(DEFAULT_REPLY);
    const logs = await consumeLogs('gpt-4o-neterr');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ channel_id: good, quota: 38 });
    expect(logs[0].other).toMatchObject({ admin_info: { use_channel: [dead, good] } });
  });

  it('without retries (RetryTimes 0) a failing first channel is the answer', async () => {
    await makeChannel(t, { base_url: refusing.url, models: 'gpt-4o-noretry', priority: 10 });
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-noretry', priority: 0 });
    const res = await chat('gpt-4o-noretry');
    // The upstream refused the gateway's key: a gateway error, not an authentication error of the caller.
    expect(res.status).toBe(502);
    expect(calls(mock, 'gpt-4o-noretry')).toBe(0);
  });

  it('when every attempt fails the client gets the upstream status and nothing is charged', async () => {
    await putOption(root, 'RetryTimes', 2);
    const a = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-allfail', priority: 1 });
    const b = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-allfail', priority: 0 });
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const res = await chat('gpt-4o-allfail', '[[status=502]] [[error=upstream is down]]');
    expect(res.status).toBe(502);
    expect(res.body.error.message).toContain('upstream is down');
    expect(calls(mock, 'gpt-4o-allfail')).toBe(3);
    await settle(t);
    expect(await quotaOf(t, user.userId!)).toBe(before);
    const errors = (await logsOf(t, user.userId!)).filter(
      (l) => l.type === 5 && l.model_name === 'gpt-4o-allfail',
    );
    expect(errors).toHaveLength(1);
    const tried = (errors[0].other.admin_info as { use_channel: number[] }).use_channel;
    expect(tried.slice(0, 2)).toEqual([a, b]);
    expect((await consumeLogs('gpt-4o-allfail', 0)).length).toBe(0);
  });

  it('never retries an upstream 400: the client sees it in its format, with the upstream message, unbilled', async () => {
    await putOption(root, 'RetryTimes', 2);
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-bad', priority: 1 });
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-bad', priority: 0 });
    await settle(t);
    const before = await quotaOf(t, user.userId!);

    const res = await chat('gpt-4o-bad', '[[status=400]] [[error=Unsupported value for temperature]]');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(res.body.error.message).toContain('Unsupported value for temperature');
    expect(calls(mock, 'gpt-4o-bad')).toBe(1);

    const sdk = openai().chat.completions.create({
      model: 'gpt-4o-bad',
      messages: [{ role: 'user', content: '[[status=400]] [[error=Unsupported value for temperature]]' }],
    });
    await expect(sdk).rejects.toMatchObject({ status: 400 });
    expect(calls(mock, 'gpt-4o-bad')).toBe(2);

    // An Anthropic-format caller gets the same refusal in Anthropic's error shape.
    const viaMessages = await request(t.url)
      .post('/v1/messages')
      .set('x-api-key', key)
      .set('anthropic-version', '2023-06-01')
      .send({
        model: 'gpt-4o-bad',
        max_tokens: 50,
        messages: [{ role: 'user', content: '[[status=400]] [[error=Unsupported value for temperature]]' }],
      });
    expect(viaMessages.status).toBe(400);
    expect(viaMessages.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(viaMessages.body.error.message).toContain('Unsupported value for temperature');
    expect(calls(mock, 'gpt-4o-bad')).toBe(3);

    await settle(t);
    expect(await quotaOf(t, user.userId!)).toBe(before);
    expect(await consumeLogs('gpt-4o-bad', 0)).toHaveLength(0);
  });

  it('does not retry an upstream 504', async () => {
    await putOption(root, 'RetryTimes', 2);
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-504', priority: 1 });
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-504', priority: 0 });
    const res = await chat('gpt-4o-504', '[[status=504]]');
    expect(res.status).toBe(504);
    expect(calls(mock, 'gpt-4o-504')).toBe(1);
  });

  it('never shows upstream URLs or keys in the error message the client gets', async () => {
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-leak' });
    const res = await chat(
      'gpt-4o-leak',
      '[[status=400]] [[error=bad request at https://internal.example.com/v1/chat for key sk-live-0123456789abcdefghij]]',
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('bad request at');
    expect(res.body.error.message).not.toContain('internal.example.com');
    expect(res.body.error.message).not.toContain('sk-live-0123456789abcdefghij');
  });

  it('skips a channel whose max_input_tokens is below the estimated prompt', async () => {
    const small = await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o-maxin',
      priority: 10,
      max_input_tokens: 50,
    });
    const big = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-maxin', priority: 0 });
    expect((await chat('gpt-4o-maxin', 'short')).status).toBe(200);
    expect((await chat('gpt-4o-maxin', 'many words '.repeat(200))).status).toBe(200);
    const logs = await consumeLogs('gpt-4o-maxin', 2);
    expect(logs.map((l) => l.channel_id)).toEqual([small, big]);
  });

  it('spreads a tier by weight: weight 10 serves the large majority against weight 0', async () => {
    const light = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-weight', weight: 0 });
    const heavy = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-weight', weight: 10 });
    const results = await Promise.all(Array.from({ length: 40 }, () => chat('gpt-4o-weight')));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const logs = await consumeLogs('gpt-4o-weight', 40);
    expect(logs).toHaveLength(40);
    const byHeavy = logs.filter((l) => l.channel_id === heavy).length;
    const byLight = logs.filter((l) => l.channel_id === light).length;
    expect(byHeavy + byLight).toBe(40);
    expect(byHeavy).toBeGreaterThanOrEqual(30);
  });

  it('maps the model upstream while the client and the log keep the requested name', async () => {
    const ch = await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o',
      model_mapping: JSON.stringify({ 'gpt-4o': 'gpt-4o-mini' }),
    });
    const res = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(mock.last!.body.model).toBe('gpt-4o-mini');
    expect(res.model).toBe('gpt-4o');
    expect(res.choices[0].message.content).toBe(DEFAULT_REPLY);

    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      stream: true,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const models = new Set<string>();
    let text = '';
    for await (const chunk of stream) {
      models.add(chunk.model);
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    expect(mock.last!.body.model).toBe('gpt-4o-mini');
    expect(text).toBe(DEFAULT_REPLY);
    expect([...models]).toEqual(['gpt-4o']);

    const logs = await consumeLogs('gpt-4o', 2);
    expect(logs).toHaveLength(2);
    for (const log of logs) {
      expect(log).toMatchObject({ model_name: 'gpt-4o', channel_id: ch });
      expect(log.other).toMatchObject({ is_model_mapped: true, upstream_model_name: 'gpt-4o-mini' });
    }
  });

  it('answers an error, not a hang, when the model mapping has a cycle', async () => {
    await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o-cycle',
      model_mapping: JSON.stringify({ 'gpt-4o-cycle': 'gpt-4o-loop', 'gpt-4o-loop': 'gpt-4o-cycle' }),
    });
    const res = await chat('gpt-4o-cycle').timeout(5_000);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.body.error).toEqual(expect.objectContaining({ message: expect.any(String) }));
    expect(
      mock.requests.filter((r) => r.body?.model === 'gpt-4o-cycle' || r.body?.model === 'gpt-4o-loop'),
    ).toHaveLength(0);
  });

  it('status_code_mapping changes the status the client sees', async () => {
    await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o-scm',
      status_code_mapping: JSON.stringify({ '429': '503' }),
    });
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-scm-plain' });
    const mapped = await chat('gpt-4o-scm', '[[status=429]]');
    expect(mapped.status).toBe(503);
    expect(mapped.body.error.message).toEqual(expect.any(String));
    const plain = await chat('gpt-4o-scm-plain', '[[status=429]]');
    expect(plain.status).toBe(429);
  });

  it('merges param_override into the upstream body', async () => {
    await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o-param',
      param_override: JSON.stringify({ temperature: 0.25, max_tokens: 77, seed: 42 }),
    });
    const res = await chat('gpt-4o-param', 'hi', { temperature: 1, top_p: 0.9 });
    expect(res.status).toBe(200);
    expect(mock.last!.body).toMatchObject({
      model: 'gpt-4o-param',
      temperature: 0.25,
      max_tokens: 77,
      seed: 42,
      top_p: 0.9,
    });
  });

  it('injects the channel system prompt (prepended, or in front of the client’s own system message)', async () => {
    await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o-sys',
      setting: JSON.stringify({ system_prompt: 'Answer in French.' }),
    });
    expect((await chat('gpt-4o-sys', 'hi')).status).toBe(200);
    expect(mock.last!.body.messages).toEqual([
      { role: 'system', content: 'Answer in French.' },
      { role: 'user', content: 'hi' },
    ]);

    const res = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', `Bearer ${key}`)
      .send({
        model: 'gpt-4o-sys',
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'hi' },
        ],
      });
    expect(res.status).toBe(200);
    const messages = mock.last!.body.messages as Array<{ role: string; content: string }>;
    expect(messages.filter((m) => m.role === 'system')).toHaveLength(1);
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('Answer in French.');
    expect(messages[0].content).toContain('Be brief.');
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'hi' });
  });

  it('sends the channel’s header_override headers upstream', async () => {
    await makeChannel(t, {
      base_url: mock.url,
      models: 'gpt-4o-hdr',
      setting: JSON.stringify({ header_override: { 'X-Test': '1' } }),
    });
    expect((await chat('gpt-4o-hdr')).status).toBe(200);
    expect(mock.last!.headers['x-test']).toBe('1');
    expect(mock.last!.credential).toBe('sk-upstream-key');
  });

  it('lets an admin pin a channel with sk-<key>-<channel id>; a normal user gets 403', async () => {
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-pin', priority: 10 });
    const pinned = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-pin', priority: 0 });
    const rootKey = (await makeToken(t, root.userId!)).key;
    for (let i = 0; i < 3; i++)
      expect((await chat('gpt-4o-pin', 'hi', {}, `${rootKey}-${pinned}`)).status).toBe(200);
    const logs = await consumeLogs('gpt-4o-pin', 3, root.userId!);
    expect(logs.map((l) => l.channel_id)).toEqual([pinned, pinned, pinned]);

    // A pinned channel that is disabled is not served around.
    await updateChannel(t, pinned, { status: 2 });
    const gone = await chat('gpt-4o-pin', 'hi', {}, `${rootKey}-${pinned}`);
    expect(gone.status).toBe(503);
    await updateChannel(t, pinned, { status: 1 });

    const before = calls(mock, 'gpt-4o-pin');
    const refused = await chat('gpt-4o-pin', 'hi', {}, `${key}-${pinned}`);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toMatchObject({ type: 'permission_error' });
    expect(calls(mock, 'gpt-4o-pin')).toBe(before);
  });

  it('answers 503 in OpenAI format when no channel serves the model', async () => {
    const res = await chat('gpt-4o-nochannel');
    expect(res.status).toBe(503);
    expect(res.body.error).toEqual(
      expect.objectContaining({ message: expect.stringContaining('gpt-4o-nochannel') }),
    );
  });

  it('never uses a manually disabled channel', async () => {
    const off = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-dis', priority: 10 });
    const on = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-dis', priority: 0 });
    const only = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-dis-only' });
    await updateChannel(t, off, { status: 2 });
    await updateChannel(t, only, { status: 2 });
    for (let i = 0; i < 5; i++) expect((await chat('gpt-4o-dis')).status).toBe(200);
    const logs = await consumeLogs('gpt-4o-dis', 5);
    expect(logs.map((l) => l.channel_id)).toEqual(Array(5).fill(on));
    expect((await chat('gpt-4o-dis-only')).status).toBe(503);
    expect(calls(mock, 'gpt-4o-dis-only')).toBe(0);
  });

  it('auto-disables a channel on an upstream 401 (auto_ban 1 only) and routes the next request elsewhere', async () => {
    await putOption(root, 'AutomaticDisableChannelEnabled', true);
    try {
      const bad = await makeChannel(t, { base_url: refusing.url, models: 'gpt-4o-ban', priority: 10 });
      const good = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-ban', priority: 0 });
      const kept = await makeChannel(t, { base_url: refusing.url, models: 'gpt-4o-noban', auto_ban: 0 });

      expect((await chat('gpt-4o-ban')).status).toBe(502);
      const deadline = Date.now() + 5_000;
      while ((await channelRow(bad)).status !== 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      const row = await channelRow(bad);
      expect(row.status).toBe(3);
      expect(String(row.other_info.status_reason)).toContain('401');
      expect(row.other_info.status_time).toEqual(expect.any(Number));
      const notes: Array<{ content: string }> = await t.ds.query(
        `SELECT content FROM logs WHERE type = 4 AND user_id = ${Math.floor(root.userId!)}`,
      );
      expect(notes.some((n) => n.content.includes(`#${bad}`))).toBe(true);

      // The next request goes to the other channel (the disabled one is not called again).
      const refusedBefore = calls(refusing, 'gpt-4o-ban');
      const next = await chat('gpt-4o-ban');
      expect(next.status).toBe(200);
      expect(calls(refusing, 'gpt-4o-ban')).toBe(refusedBefore);
      const logs = await consumeLogs('gpt-4o-ban');
      expect(logs.at(-1)!.channel_id).toBe(good);

      // auto_ban = 0: the channel keeps failing but stays enabled and keeps being used.
      expect((await chat('gpt-4o-noban')).status).toBe(502);
      await new Promise((r) => setTimeout(r, 300));
      expect((await channelRow(kept)).status).toBe(1);
      expect((await chat('gpt-4o-noban')).status).toBe(502);
      expect(calls(refusing, 'gpt-4o-noban')).toBe(2);
    } finally {
      await putOption(root, 'AutomaticDisableChannelEnabled', false);
    }
  });

  it('auto-disables on an error message containing a disable keyword; the last channel gone → 503', async () => {
    await putOption(root, 'AutomaticDisableChannelEnabled', true);
    try {
      const ch = await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-keyword' });
      const res = await chat(
        'gpt-4o-keyword',
        '[[status=429]] [[error=You exceeded your current quota, please check your plan]]',
      );
      expect(res.status).toBe(429);
      const deadline = Date.now() + 5_000;
      while ((await channelRow(ch)).status !== 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect((await channelRow(ch)).status).toBe(3);
      await new Promise((r) => setTimeout(r, 100));
      expect((await chat('gpt-4o-keyword')).status).toBe(503);
    } finally {
      await putOption(root, 'AutomaticDisableChannelEnabled', false);
    }
  });

  it('aborts the upstream request when the client disconnects mid-stream, and bills what was delivered', async () => {
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-abort' });
    const ac = new AbortController();
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-abort',
        stream: true,
        messages: [{ role: 'user', content: '[[chunks=60]] [[slow=40]]' }],
      }),
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let received = '';
    while (!received.includes(' w4')) {
      const { value, done } = await reader.read();
      if (done) break;
      received += decoder.decode(value, { stream: true });
    }
    ac.abort();
    const upstream = mock.requests.filter((r) => r.body?.model === 'gpt-4o-abort').at(-1)!;
    await mock.waitFor(() => upstream.aborted, 3_000);
    expect(upstream.aborted).toBe(true);

    const logs = await consumeLogs('gpt-4o-abort');
    expect(logs).toHaveLength(1);
    expect(logs[0].is_stream).toBe(true);
    expect(logs[0].completion_tokens).toBeGreaterThan(0);
    expect(logs[0].completion_tokens).toBeLessThan(60);
    expect(logs[0].quota).toBeGreaterThan(0);
  });

  it('aborts the upstream and charges nothing when the client gives up before any answer', async () => {
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-giveup' });
    await settle(t);
    const before = await quotaOf(t, user.userId!);
    const ac = new AbortController();
    const pending = fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-giveup', messages: [{ role: 'user', content: '[[hang]]' }] }),
      signal: ac.signal,
    }).then(
      () => 'answered',
      (err: { name?: string }) => err.name,
    );
    await mock.waitFor(() => calls(mock, 'gpt-4o-giveup') === 1);
    ac.abort();
    expect(await pending).toBe('AbortError');
    const upstream = mock.requests.filter((r) => r.body?.model === 'gpt-4o-giveup')[0];
    await mock.waitFor(() => upstream.aborted, 3_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(await consumeLogs('gpt-4o-giveup', 0)).toHaveLength(0);
    await settle(t);
    expect(await quotaOf(t, user.userId!)).toBe(before);
  });

  it('StreamCacheQueueLength buffers the stream without changing what the client receives', async () => {
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-buffered' });
    await putOption(root, 'StreamCacheQueueLength', 4);
    try {
      const { status, text } = await streamText('gpt-4o-buffered', '[[chunks=9]]');
      expect(status).toBe(200);
      const { events, content } = parseSse(text);
      expect(content).toBe('w1 w2 w3 w4 w5 w6 w7 w8 w9');
      expect(events.at(-1)).toBe('[DONE]');
    } finally {
      await putOption(root, 'StreamCacheQueueLength', 0);
    }
  });

  it('ends the client stream cleanly when the upstream stream is cut, and bills the delivered part', async () => {
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-cut' });
    const { status, text } = await streamText('gpt-4o-cut', '[[cut=2]]');
    expect(status).toBe(200);
    const { events, content } = parseSse(text);
    expect(content).toBe('Hello from');
    expect(events.at(-1)).toBe('[DONE]');
    const logs = await consumeLogs('gpt-4o-cut');
    expect(logs).toHaveLength(1);
    expect(logs[0].completion_tokens).toBe(textTokens('Hello from'));
    expect(logs[0].quota).toBeGreaterThan(0);
  });

  it('bills a stream without upstream usage from tokenizer counts', async () => {
    await makeChannel(t, { base_url: mock.url, models: 'gpt-4o-nousage' });
    const { status, text, headers } = await streamText('gpt-4o-nousage', 'count me [[nousage]]');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toContain('text/event-stream');
    expect(headers.get('x-accel-buffering')).toBe('no');
    expect(parseSse(text).content).toBe(DEFAULT_REPLY);
    const logs = await consumeLogs('gpt-4o-nousage');
    expect(logs).toHaveLength(1);
    const log = logs[0];
    expect(log.completion_tokens).toBe(textTokens(DEFAULT_REPLY));
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.quota).toBe(Math.round((log.prompt_tokens + log.completion_tokens * 4) * 1.25));
  });
});

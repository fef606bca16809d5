/**
 * Upstream misbehaviour answered cleanly: stalls, cuts, errors inside a 200, undecodable events,
 * trickles, silent streams, refused credentials and echoed keys, and a client that trickles its body.
 * A failure before anything reached the caller goes to the next channel; after it, the stream ends with
 * an error event and what was delivered is charged. After every case the money adds up: the balance
 * moved by exactly Σ consume logs, the token's used quota too, and no reservation is left open.
 */
import { connect } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { FaultUpstream } from '../mocks/fault-upstream';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { makeUser, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

const ZHIPU_KEY = 'abcdefghij12.zyxwvuts98765432';
const START = 10_000_000;

describe('relay under upstream faults', () => {
  let t: TestApp;
  let fault: FaultUpstream;
  let mock: MockUpstream;
  let userId: number;
  let token: { id: number; key: string };
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    fault = await FaultUpstream.start();
    mock = await MockUpstream.start();
    t = await startApp({
      STREAMING_TIMEOUT: '1',
      STREAMING_FIRST_BYTE_TIMEOUT: '1',
      // A safety net only: the stalls below are cut by the idle and first-event timeouts. Long enough
      // that the 40 MB answer (mock, gateway and reader share one busy process) is never cut by it.
      RELAY_TIMEOUT: '60',
      CLIENT_BODY_TIMEOUT: '2',
    });
    const root = await setupRoot(t);
    await putOption(root, 'RetryTimes', '3');
    const user = await makeUser(t, root);
    userId = user.userId!;
    await setQuota(t, userId, START);
    // The faulty channel of each format first (priority 10), a healthy one behind it (priority 0).
    ids.openai = await makeChannel(t, { type: 1, base_url: fault.url, models: 'gpt-4o', priority: 10 });
    ids.anthropic = await makeChannel(t, {
      type: 14,
      base_url: fault.url,
      models: 'claude-sonnet-4',
      priority: 10,
    });
    ids.gemini = await makeChannel(t, {
      type: 24,
      base_url: fault.url,
      models: 'gemini-2.0-flash',
      priority: 10,
    });
    ids.backupOpenai = await makeChannel(t, { type: 1, base_url: mock.url, models: 'gpt-4o' });
    ids.backupAnthropic = await makeChannel(t, { type: 14, base_url: mock.url, models: 'claude-sonnet-4' });
    ids.backupGemini = await makeChannel(t, { type: 24, base_url: mock.url, models: 'gemini-2.0-flash' });
    // A model only the faulty upstream serves, with a key that does not look like one.
    ids.solo = await makeChannel(t, { type: 1, base_url: fault.url, key: ZHIPU_KEY, models: 'gpt-4o-mini' });
    token = await makeToken(t, userId, { remain_quota: START, unlimited_quota: false });
  });

  afterAll(async () => {
    await t?.close();
    await fault?.close();
    await mock?.close();
  });

  const openai = () => new OpenAI({ apiKey: token.key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  const anthropic = () => new Anthropic({ apiKey: token.key, baseURL: t.url, maxRetries: 0 });
  const ask = (f: string) => [{ role: 'user' as const, content: `fault:${f} hello` }];

  /** The money invariant: balance change = Σ consume logs = token used change; nothing left in progress. */
  async function moneyAddsUp(): Promise<void> {
    await settle(t);
    const logs = (await logsOf(t, userId)).filter((l) => l.type === 2);
    const charged = logs.reduce((s, l) => s + l.quota, 0);
    expect(START - (await quotaOf(t, userId))).toBe(charged);
    const [row] = await t.ds.query<Array<{ used_quota: string | number }>>(
      `SELECT used_quota FROM tokens WHERE id = ${token.id}`,
    );
    expect(Number(row.used_quota)).toBe(charged);
    expect(logs.filter((l) => l.content === 'in progress')).toHaveLength(0);
  }

  const lastLog = async () => (await logsOf(t, userId)).at(-1)!;

  afterEach(moneyAddsUp);

  it('a complete answer that stalls after its headers times out and the next channel answers', async () => {
    const started = Date.now();
    const res = await openai().chat.completions.create({ model: 'gpt-4o', messages: ask('stall-body') });
    expect(res.choices[0].message.content).toBe('Hello from the mock upstream.');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(fault.count('stall-body')).toBe(1);
    await settle(t);
    expect(await lastLog()).toMatchObject({ type: 2, channel_id: ids.backupOpenai });
  });

  it('a complete answer cut half-way is retried, not a 500', async () => {
    const res = await openai().chat.completions.create({ model: 'gpt-4o', messages: ask('reset-body') });
    expect(res.choices[0].message.content).toBe('Hello from the mock upstream.');
    await settle(t);
    expect(await lastLog()).toMatchObject({ type: 2, channel_id: ids.backupOpenai });
  });

  it.each([
    ['openai', 'gpt-4o'],
    ['anthropic', 'claude-sonnet-4'],
    ['gemini', 'gemini-2.0-flash'],
  ])(
    'an error inside a 200 from a %s channel is an upstream failure: not passed on, not charged, retried',
    async (format, model) => {
      const before = await logsOf(t, userId);
      const res = await openai().chat.completions.create({ model, messages: ask('error-200') });
      expect(res.choices[0].message.content).toBe('Hello from the mock upstream.');
      await settle(t);
      const added = (await logsOf(t, userId)).slice(before.length).filter((l) => l.type === 2);
      expect(added).toHaveLength(1);
      expect(added[0].channel_id).toBe(ids[`backup${format[0].toUpperCase()}${format.slice(1)}`]);
    },
  );

  it.each([
    ['openai', 'gpt-4o'],
    ['anthropic', 'claude-sonnet-4'],
    ['gemini', 'gemini-2.0-flash'],
  ])('a %s stream that opens with an error event goes to the next channel', async (_format, model) => {
    const stream = await openai().chat.completions.create({
      model,
      messages: ask('stream-error-first'),
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the mock upstream.');
  });

  it("an Anthropic 529-style error inside an Anthropic stream reaches an Anthropic caller as the next channel's answer", async () => {
    const stream = anthropic().messages.stream({
      model: 'claude-sonnet-4',
      max_tokens: 64,
      messages: ask('stream-error-first'),
    });
    const msg = await stream.finalMessage();
    expect(msg.content[0]).toMatchObject({ type: 'text', text: 'Hello from the mock upstream.' });
  });

  it('a stream that fails after content ends with an error event; what was delivered is charged once', async () => {
    const stream = await openai().chat.completions.create({
      model: 'claude-sonnet-4',
      messages: ask('stream-error-late'),
      stream: true,
    });
    let text = '';
    await expect(
      (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      })(),
    ).rejects.toThrow(/upstream fell over/);
    expect(text).toBe('Hello');
    await settle(t);
    const log = await lastLog();
    expect(log).toMatchObject({ type: 2, channel_id: ids.anthropic });
    expect(log.other.stream_interrupted).toBe(true);
    expect(log.quota).toBeGreaterThan(0);
  });

  it('undecodable events are dropped and counted, never passed to an OpenAI caller', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: ask('malformed-sse'),
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello there');
    await settle(t);
    const log = await lastLog();
    expect(log).toMatchObject({ type: 2, channel_id: ids.openai, prompt_tokens: 12, completion_tokens: 3 });
    expect(log.other.stream_bad_events).toBe(1);
  });

  it('an undecodable event does not end an Anthropic stream: the events after it arrive', async () => {
    const stream = anthropic().messages.stream({
      model: 'claude-sonnet-4',
      max_tokens: 64,
      messages: ask('malformed-sse'),
    });
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'text', text: 'Hello there' });
    expect(final.usage.output_tokens).toBe(3);
  });

  it('a trickle of bytes that never makes an event does not keep a stream open: the next channel answers', async () => {
    const started = Date.now();
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: ask('drip'),
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the mock upstream.');
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('a stream with no first event within the first-event timeout goes to the next channel', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o',
      messages: ask('silent-stream'),
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Hello from the mock upstream.');
  });

  it('a timed-out channel is not tried again for the same request (504 after one wait, not four)', async () => {
    const before = fault.count('silent-stream');
    const started = Date.now();
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', stream: true, messages: ask('silent-stream') }),
    });
    expect(res.status).toBe(504);
    expect(fault.count('silent-stream') - before).toBe(1);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("an upstream 401 is the gateway's error (502), not the caller's bad key; the operator's log has the detail", async () => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token.key}`,
        'content-type': 'application/json',
        'accept-language': 'en',
      },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: ask('auth-401') }),
    });
    expect(res.status).toBe(502);
    const body = (await res.json()) as { error: { type: string; message: string; code: string } };
    expect(body.error.type).not.toBe('authentication_error');
    expect(body.error.message).toContain('refused');
    expect(body.error.code).toBe('upstream_auth_failed');
    await settle(t);
    const log = await lastLog();
    expect(log.type).toBe(5);
    expect(log.content).toContain('Incorrect API key provided');
    expect(log.content).not.toContain('zyxwvuts98765432');
  });

  it('a key of any shape echoed by the upstream never reaches the caller, whole or in parts', async () => {
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: ask('echo-key') }),
    });
    const text = await res.text();
    expect(res.status).toBe(500);
    expect(text).toContain('credential');
    expect(text).not.toContain('abcdefghij12');
    expect(text).not.toContain('zyxwvuts98765432');
    await settle(t);
    const log = await lastLog();
    expect(log.content).not.toContain('zyxwvuts98765432');
  });

  it('a 40 MB complete answer that needs no conversion is passed through, not buffered, and billed from its usage', async () => {
    fault.prepareBig();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const res = await fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o', messages: ask('big') }),
    });
    expect(res.status).toBe(200);
    // Read and drop the answer as it comes, keeping its first bytes.
    let size = 0;
    let first = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (first.length < 200) first += Buffer.from(chunk).toString('utf8').slice(0, 200);
      size += chunk.length;
    }
    clearInterval(sampler);
    expect(size).toBeGreaterThan(40 * 1024 * 1024);
    expect(first).toContain('"model":"gpt-4o"');
    // Buffering a 40 MB answer costs several times its size; passed through it costs next to nothing.
    expect((peak - base) / 1024 / 1024).toBeLessThan(80);
    await settle(t);
    expect(await lastLog()).toMatchObject({
      type: 2,
      prompt_tokens: 12,
      completion_tokens: 3,
      channel_id: ids.openai,
    });
  });

  it('a client that trickles its request body is cut off after CLIENT_BODY_TIMEOUT', async () => {
    const { port } = new URL(t.url);
    const socket = connect(Number(port), '127.0.0.1');
    const started = Date.now();
    const answer = await new Promise<string>((resolve) => {
      let got = '';
      socket.on('data', (d) => (got += d.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', () => resolve(got));
      socket.write(
        `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token.key}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
      );
      const drip = setInterval(() => (socket.writable ? socket.write(' ') : clearInterval(drip)), 300);
      socket.on('close', () => clearInterval(drip));
    });
    expect(Date.now() - started).toBeLessThan(6000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    socket.destroy();
  });
});

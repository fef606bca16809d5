import { randomBytes } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, setQuota, settle, updateChannel } from '../support/relay-fixtures';
import {
  ApiClient,
  putOption,
  REDIS_URL,
  setupRoot,
  startApp,
  startNode,
  TestApp,
} from '../support/test-app';

/**
 * Channel affinity: the requests of one agent session (Codex's prompt_cache_key and session_id header,
 * Claude Code's metadata.user_id, an operator rule) keep to one channel among equals, so the provider's
 * prompt cache keeps hitting; a failing or disabled channel hands the session to another.
 */
const MODEL = 'sticky-model';
const KEYS = ['sk-aff-a', 'sk-aff-b', 'sk-aff-c'];

async function world(env: Record<string, string> = {}) {
  const mock = await MockUpstream.start();
  const t = await startApp(env);
  const root = await setupRoot(t);
  await putOption(root, 'ModelRatio', JSON.stringify({ [MODEL]: 1 }));
  await putOption(root, 'RetryTimes', 2);
  const channels: number[] = [];
  for (const key of KEYS)
    channels.push(await makeChannel(t, { type: 1, base_url: mock.url, key, models: MODEL }));
  await setQuota(t, root.userId!, 100_000_000);
  const key = (await makeToken(t, root.userId!)).key;
  return { mock, t, root, channels, key };
}

describe('channel affinity', () => {
  let mock: MockUpstream;
  let t: TestApp;
  let root: ApiClient;
  let channels: number[];
  let key: string;

  beforeAll(async () => {
    ({ mock, t, root, channels, key } = await world({ METRICS_ENABLED: 'true' }));
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const openai = (headers: Record<string, string> = {}) =>
    new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0, defaultHeaders: headers });
  const servedBy = async (n: number) => {
    await settle(t);
    return (await logsOf(t, root.userId!)).slice(-n).map((l) => l.channel_id);
  };
  const distinct = (xs: number[]) => new Set(xs).size;

  it('keeps a Codex session (prompt_cache_key) on one channel and spreads other sessions', async () => {
    for (let i = 0; i < 6; i++)
      await openai().responses.create({
        model: MODEL,
        input: `turn ${i}`,
        prompt_cache_key: 'codex-session-1',
      });
    expect(distinct(await servedBy(6))).toBe(1);
    for (let i = 0; i < 12; i++)
      await openai().responses.create({
        model: MODEL,
        input: 'hi',
        prompt_cache_key: `codex-session-${100 + i}`,
      });
    expect(distinct(await servedBy(12))).toBeGreaterThan(1);
  });

  it('keys sessions by the session_id header and by Claude Code metadata.user_id', async () => {
    for (let i = 0; i < 5; i++)
      await openai({ session_id: 'hdr-session-1' }).chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: `turn ${i}` }],
      });
    expect(distinct(await servedBy(5))).toBe(1);
    const claude = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
    const user_id = 'user_2f1e6c0a7b_account__session_5a0c7d8e-1b2c-4d3e-9f00-1234567890ab';
    for (let i = 0; i < 5; i++)
      await claude.messages.create({
        model: MODEL,
        max_tokens: 64,
        metadata: { user_id },
        messages: [{ role: 'user', content: `turn ${i}` }],
      });
    expect(distinct(await servedBy(5))).toBe(1);
  });

  it('follows an operator rule (JSON path of the body) and can be switched off', async () => {
    await putOption(
      root,
      'channel_affinity.rules',
      JSON.stringify([{ model: '^sticky-', json: 'metadata.thread' }]),
    );
    for (let i = 0; i < 5; i++)
      await openai().chat.completions.create({
        model: MODEL,
        metadata: { thread: 'thread-7' },
        messages: [{ role: 'user', content: 'x' }],
      });
    expect(distinct(await servedBy(5))).toBe(1);
    await putOption(root, 'channel_affinity.enabled', false);
    try {
      for (let i = 0; i < 15; i++)
        await openai().chat.completions.create({
          model: MODEL,
          prompt_cache_key: 'always-the-same',
          messages: [{ role: 'user', content: 'x' }],
        });
      expect(distinct(await servedBy(15))).toBeGreaterThan(1);
    } finally {
      await putOption(root, 'channel_affinity.enabled', true);
      await putOption(root, 'channel_affinity.rules', '[]');
    }
  });

  it('follows an operator rule by path and header', async () => {
    await putOption(
      root,
      'channel_affinity.rules',
      JSON.stringify([{ path: '/v1/chat/', header: 'x-thread' }]),
    );
    try {
      for (let i = 0; i < 5; i++)
        await openai({ 'x-thread': 'thread-path-1' }).chat.completions.create({
          model: MODEL,
          messages: [{ role: 'user', content: 'x' }],
        });
      expect(distinct(await servedBy(5))).toBe(1);
      // Another path: the rule does not apply (and nothing else names a session).
      for (let i = 0; i < 15; i++)
        await openai({ 'x-thread': 'thread-path-1' }).responses.create({ model: MODEL, input: 'x' });
      expect(distinct(await servedBy(15))).toBeGreaterThan(1);
    } finally {
      await putOption(root, 'channel_affinity.rules', '[]');
    }
  });

  it('moves a session off a failing channel, then off a disabled one, and keeps to the new one', async () => {
    const session = 'failover-session';
    const ask = (content = 'x') =>
      openai().chat.completions.create({
        model: MODEL,
        prompt_cache_key: session,
        messages: [{ role: 'user', content }],
      });
    await ask();
    const [first] = await servedBy(1);
    const firstKey = KEYS[channels.indexOf(first)];
    // The session's channel now refuses its key: the call fails over and the session moves.
    mock.requireKey = KEYS.filter((k) => k !== firstKey);
    try {
      await ask();
      await ask();
      await ask();
    } finally {
      mock.requireKey = null;
    }
    const moved = await servedBy(3);
    expect(moved[0]).not.toBe(first);
    expect(distinct(moved)).toBe(1);
    await updateChannel(t, moved[0], { status: 2 });
    try {
      for (let i = 0; i < 3; i++) await ask();
      const after = await servedBy(3);
      expect(after).not.toContain(moved[0]);
      expect(distinct(after)).toBe(1);
    } finally {
      await updateChannel(t, moved[0], { status: 1 });
      await updateChannel(t, first, { status: 1 });
    }
  });

  it('counts its decisions in the metrics (hits, new sessions, moves)', async () => {
    const text = await (await fetch(`${t.url}/metrics`)).text();
    const count = (result: string) =>
      Number(
        new RegExp(`gatehouse_relay_channel_affinity_total\\{result="${result}"\\} (\\d+)`).exec(text)?.[1] ??
          -1,
      );
    expect(count('hit')).toBeGreaterThan(10);
    expect(count('new')).toBeGreaterThan(10);
    expect(count('moved')).toBeGreaterThan(0);
  });

  it("shows the prompt cache's hit tokens on each call's log", async () => {
    await openai().chat.completions.create({
      model: MODEL,
      prompt_cache_key: 'cache-session',
      messages: [{ role: 'user', content: 'x [[usage=10,5]] [[cache=90,0]]' }],
    });
    await settle(t);
    const log = (await logsOf(t, root.userId!)).at(-1)!;
    expect(log.prompt_tokens).toBe(100);
    expect(log.other.cache_tokens).toBe(90);
  });
});

describe('channel affinity across nodes (Redis)', () => {
  it('routes one session to the same channel from every node', async () => {
    const env = { REDIS_CONN_STRING: REDIS_URL, REDIS_PREFIX: `gh-aff-${randomBytes(4).toString('hex')}` };
    const { mock, t, root, key } = await world(env);
    const b = await startNode(t, { ...env, NODE_TYPE: 'slave' });
    try {
      const client = (url: string) => new OpenAI({ apiKey: key, baseURL: `${url}/v1`, maxRetries: 0 });
      for (let i = 0; i < 8; i++)
        await client(i % 2 ? b.url : t.url).chat.completions.create({
          model: MODEL,
          prompt_cache_key: 'cross-node',
          messages: [{ role: 'user', content: 'x' }],
        });
      await settle(t);
      await settle(b);
      const logs = await logsOf(t, root.userId!);
      expect(logs).toHaveLength(8);
      expect(new Set(logs.map((l) => l.channel_id)).size).toBe(1);
    } finally {
      await b.close();
      await t.close();
      await mock.close();
    }
  });
});

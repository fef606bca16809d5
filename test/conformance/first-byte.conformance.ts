import OpenAI from 'openai';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * A channel's first-byte timeout (`setting.first_byte_timeout`): an upstream that does not start its
 * answer in time is left for the next channel, so an agent never hangs on a stuck provider.
 */
const MODEL = 'fb-model';
const REPLY = 'Hello from the mock upstream.';

describe('per-channel first-byte timeout', () => {
  let stuck: MockUpstream;
  let good: MockUpstream;
  let t: TestApp;
  let root: ApiClient;
  let key: string;
  let stuckId: number;
  let goodId: number;

  beforeAll(async () => {
    stuck = await MockUpstream.start();
    good = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    await putOption(root, 'ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await putOption(root, 'RetryTimes', 1);
    stuckId = await makeChannel(t, {
      type: 1,
      base_url: stuck.url,
      models: MODEL,
      priority: 10,
      setting: JSON.stringify({ first_byte_timeout: 1 }),
    });
    goodId = await makeChannel(t, { type: 14, base_url: good.url, models: MODEL, priority: 0 });
    await setQuota(t, root.userId!, 10_000_000);
    key = (await makeToken(t, root.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await stuck?.close();
    await good?.close();
  });

  const openai = () => new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  const last = async () => {
    await settle(t);
    return (await logsOf(t, root.userId!)).at(-1)!;
  };

  it('moves on when the upstream sends no response headers in time', async () => {
    stuck.stall = 'headers';
    const started = Date.now();
    const res = await openai().chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.choices[0].message.content).toBe(REPLY);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(stuck.requests).toHaveLength(1);
    expect(await last()).toMatchObject({ type: 2, channel_id: goodId });
  });

  it('moves on when a stream opens but stays silent (Responses stream, as Codex asks)', async () => {
    stuck.stall = 'body';
    const started = Date.now();
    const stream = await openai().responses.create({ model: MODEL, input: 'hi', stream: true });
    let text = '';
    for await (const e of stream) if (e.type === 'response.output_text.delta') text += e.delta;
    expect(text).toBe(REPLY);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await last()).toMatchObject({ type: 2, channel_id: goodId, is_stream: true });
  });

  it('keeps a channel that answers in time', async () => {
    stuck.stall = null;
    const stream = await openai().chat.completions.create({
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: '[[chunks=3]] [[slow=300]]' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('w1 w2 w3');
    expect(await last()).toMatchObject({ type: 2, channel_id: stuckId });
  });
});

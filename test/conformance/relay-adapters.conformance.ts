import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { OPENAI_COMPATIBLE_TYPES } from '../../server/src/modules/relay/adapters';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * The shared battery every adapter whose wire format the mock upstream speaks must pass, driven by the
 * official SDKs through the gateway: text, streaming, tool calls (plain and streamed), upstream errors,
 * cut streams, slow streams, and exact billing of the usage the upstream reported.
 */
const TYPES: Array<{ type: number; name: string; other?: string }> = [
  ...OPENAI_COMPATIBLE_TYPES.map((type) => ({ type, name: `openai-compatible type ${type}` })),
  { type: 3, name: 'Azure OpenAI', other: '2025-04-01-preview' },
  { type: 14, name: 'Anthropic' },
  { type: 24, name: 'Gemini' },
];

const REPLY = 'Hello from the mock upstream.';

describe('adapter conformance', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    const models = TYPES.map((x) => `conf-${x.type}`);
    await putOption(root, 'ModelRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))));
    await putOption(root, 'CompletionRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 2]))));
    for (const x of TYPES)
      await makeChannel(t, {
        type: x.type,
        base_url: mock.url,
        models: `conf-${x.type}`,
        other: x.other ?? null,
      });
    await setQuota(t, root.userId!, 1_000_000);
    key = (await makeToken(t, root.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const openai = () => new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  const lastLog = async () => (await logsOf(t, root.userId!)).at(-1)!;

  describe.each(TYPES)('$name', ({ type }) => {
    const model = `conf-${type}`;

    it('answers text and bills the reported usage exactly', async () => {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      const res = await openai().chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi [[usage=20,5]]' }],
      });
      expect(res.choices[0].message.content).toBe(REPLY);
      expect(res.choices[0].finish_reason).toBe('stop');
      await settle(t);
      expect(await lastLog()).toMatchObject({
        type: 2,
        model_name: model,
        prompt_tokens: 20,
        completion_tokens: 5,
        quota: 30,
      });
      expect(await quotaOf(t, root.userId!)).toBe(before - 30);
    });

    it('streams text chunk by chunk and bills the streamed usage', async () => {
      const stream = await openai().chat.completions.create({
        model,
        stream: true,
        messages: [{ role: 'user', content: '[[usage=20,5]]' }],
      });
      const parts: string[] = [];
      for await (const chunk of stream)
        if (chunk.choices[0]?.delta?.content) parts.push(chunk.choices[0].delta.content);
      expect(parts.join('')).toBe(REPLY);
      expect(parts.length).toBeGreaterThan(1);
      await settle(t);
      expect(await lastLog()).toMatchObject({
        is_stream: true,
        prompt_tokens: 20,
        completion_tokens: 5,
        quota: 30,
      });
    });

    it('returns tool calls, plain and streamed', async () => {
      const tools = [
        {
          type: 'function' as const,
          function: {
            name: 'get_weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ];
      const res = await openai().chat.completions.create({
        model,
        tools,
        messages: [{ role: 'user', content: 'weather? [[tool=get_weather]]' }],
      });
      const call = res.choices[0].message.tool_calls?.[0];
      expect(call?.type === 'function' && call.function.name).toBe('get_weather');
      expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
      expect(res.choices[0].finish_reason).toBe('tool_calls');

      const runner = openai().chat.completions.stream({
        model,
        tools,
        messages: [{ role: 'user', content: 'weather? [[tool=get_weather]]' }],
      });
      const final = await runner.finalChatCompletion();
      const streamed = final.choices[0].message.tool_calls?.[0];
      expect(streamed?.type === 'function' && streamed.function.name).toBe('get_weather');
      expect(streamed?.type === 'function' && JSON.parse(streamed.function.arguments)).toEqual({
        city: 'Paris',
      });
    });

    it('passes an upstream 400 through in OpenAI format without charging', async () => {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      await expect(
        openai().chat.completions.create({
          model,
          messages: [{ role: 'user', content: '[[status=400]] [[error=bad thing]]' }],
        }),
      ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('bad thing') });
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
      expect(await lastLog()).toMatchObject({ type: 5, quota: 0 });
    });

    it('ends a cut stream and bills only what was delivered', async () => {
      const stream = await openai().chat.completions.create({
        model,
        stream: true,
        messages: [{ role: 'user', content: '[[chunks=6]] [[cut=2]]' }],
      });
      let text = '';
      await expect(
        (async () => {
          for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
        })(),
      ).rejects.toThrow();
      expect(text.startsWith('w1')).toBe(true);
      expect(text).not.toContain('w6');
      await settle(t);
      const log = await lastLog();
      expect(log.type).toBe(2);
      expect(log.completion_tokens).toBeGreaterThan(0);
      expect(log.quota).toBeGreaterThan(0);
    });

    it('relays a slow stream without losing chunks, and serves Anthropic-format clients', async () => {
      const stream = await openai().chat.completions.create({
        model,
        stream: true,
        messages: [{ role: 'user', content: '[[chunks=4]] [[slow=30]]' }],
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe('w1 w2 w3 w4');

      const anthropic = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
      const msg = await anthropic.messages
        .stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
        .finalMessage();
      expect(msg.content[0]).toMatchObject({ type: 'text', text: REPLY });
    });
  });
});

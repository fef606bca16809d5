import { generateKeyPairSync } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { adapterForChannel } from '../../server/src/modules/relay/adapter-registry';
import { signSigV4 } from '../../server/src/modules/relay/adapters/bedrock';
import { adapterRequest } from '../../server/src/modules/relay/adapters/testing';
import { vertexCredentials } from '../../server/src/modules/relay/adapters/vertex';
import { baiduCredentials } from '../../server/src/modules/relay/adapters/baidu-legacy';
import { createEventDecoder } from '../../server/src/modules/relay/streaming/event-decoder';
import type { SseEvent, UpstreamCall } from '../../server/src/modules/relay/types';
import { bedrockChunk } from '../mocks/bedrock';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * The adapter battery for the channel types whose providers speak a wire format of their own (Cohere,
 * Dify, Ollama, Cloudflare, Bedrock, Vertex AI, Baidu, Zhipu v3, Tencent Hunyuan) and for the
 * embedding/rerank-only ones (Jina, MokaAI): the mock upstream answers in each provider's format and
 * checks what the gateway sends (signatures included: it knows the secrets), the official OpenAI SDK
 * talks to the gateway. Text, streams, tool calls, upstream errors, cut streams, and exact billing of
 * the usage the upstream reported.
 */

const REPLY = 'Hello from the mock upstream.';
const CLOUDFLARE_ACCOUNT = '0123456789abcdef0123456789abcdef';
const AWS = { accessKeyId: 'AKIAMOCKBEDROCK', secretAccessKey: 'mock/bedrock+secret', region: 'us-east-1' };
const TENCENT = { secretId: 'AKIDmockTencent', secretKey: 'mock-tencent-secret' };
const ZHIPU = { id: 'mockzhipuid', secret: 'mock-zhipu-secret' };
const BAIDU = { apiKey: 'mock-baidu-ak', secretKey: 'mock-baidu-sk' };
const VERTEX_EMAIL = 'gatehouse@mock-project.iam.gserviceaccount.com';

interface ChatCase {
  name: string;
  type: number;
  /** The model clients ask the gateway for. */
  model: string;
  /** Upstream paths of a plain and a streamed chat call. */
  paths: [RegExp, RegExp];
  /** Whether the adapter and provider carry tool calls. */
  tools: boolean;
}

const CHAT_CASES: ChatCase[] = [
  { name: 'Cohere (34)', type: 34, model: 'command-r', paths: [/^\/v2\/chat$/, /^\/v2\/chat$/], tools: true },
  {
    name: 'Dify (37)',
    type: 37,
    model: 'dify',
    paths: [/^\/v1\/chat-messages$/, /^\/v1\/chat-messages$/],
    tools: false,
  },
  { name: 'Ollama (4)', type: 4, model: 'llama3.1', paths: [/^\/api\/chat$/, /^\/api\/chat$/], tools: true },
  {
    name: 'Cloudflare Workers AI (39)',
    type: 39,
    model: '@cf/meta/llama-3.1-8b-instruct',
    paths: [
      new RegExp(`^/client/v4/accounts/${CLOUDFLARE_ACCOUNT}/ai/v1/chat/completions$`),
      new RegExp(`^/client/v4/accounts/${CLOUDFLARE_ACCOUNT}/ai/v1/chat/completions$`),
    ],
    tools: true,
  },
  {
    name: 'AWS Bedrock (33)',
    type: 33,
    model: 'bedrock-haiku',
    paths: [
      /^\/model\/anthropic\.claude-3-5-haiku-20241022-v1%3A0\/invoke$/,
      /^\/model\/anthropic\.claude-3-5-haiku-20241022-v1%3A0\/invoke-with-response-stream$/,
    ],
    tools: true,
  },
  {
    name: 'Vertex AI Claude (41)',
    type: 41,
    model: 'vertex-haiku',
    paths: [
      /^\/v1\/projects\/mock-project\/locations\/us-east5\/publishers\/anthropic\/models\/claude-3-5-haiku@20241022:rawPredict$/,
      /^\/v1\/projects\/mock-project\/locations\/us-east5\/publishers\/anthropic\/models\/claude-3-5-haiku@20241022:streamRawPredict$/,
    ],
    tools: true,
  },
  {
    name: 'Vertex AI Gemini (41)',
    type: 41,
    model: 'vertex-gemini',
    paths: [
      /^\/v1\/projects\/mock-project\/locations\/us-east5\/publishers\/google\/models\/gemini-2\.0-flash:generateContent$/,
      /^\/v1\/projects\/mock-project\/locations\/us-east5\/publishers\/google\/models\/gemini-2\.0-flash:streamGenerateContent$/,
    ],
    tools: true,
  },
  {
    name: 'Baidu legacy (15)',
    type: 15,
    model: 'ERNIE-3.5-8K',
    paths: [
      /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/completions$/,
      /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/completions$/,
    ],
    tools: true,
  },
  {
    name: 'Zhipu legacy (16)',
    type: 16,
    model: 'chatglm_turbo',
    paths: [
      /^\/api\/paas\/v3\/model-api\/chatglm_turbo\/invoke$/,
      /^\/api\/paas\/v3\/model-api\/chatglm_turbo\/sse-invoke$/,
    ],
    tools: false,
  },
  { name: 'Tencent Hunyuan (23)', type: 23, model: 'hunyuan-lite', paths: [/^\/$/, /^\/$/], tools: true },
];

interface EmbeddingCase {
  name: string;
  model: string;
  path: RegExp;
}

const EMBEDDING_CASES: EmbeddingCase[] = [
  { name: 'Cohere (34)', model: 'embed-english-v3.0', path: /^\/v2\/embed$/ },
  { name: 'Jina (38)', model: 'jina-embeddings-v3', path: /^\/v1\/embeddings$/ },
  { name: 'MokaAI (44)', model: 'm3e-base', path: /^\/v1\/embeddings$/ },
  { name: 'Ollama (4)', model: 'nomic-embed-text', path: /^\/api\/embed$/ },
  {
    name: 'Cloudflare Workers AI (39)',
    model: '@cf/baai/bge-base-en-v1.5',
    path: new RegExp(`^/client/v4/accounts/${CLOUDFLARE_ACCOUNT}/ai/v1/embeddings$`),
  },
  {
    name: 'Baidu legacy (15)',
    model: 'Embedding-V1',
    path: /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/embeddings\/embedding-v1$/,
  },
];

const ALL_MODELS = [
  ...CHAT_CASES.map((c) => c.model),
  ...EMBEDDING_CASES.map((c) => c.model),
  'bedrock-sonnet-4-5',
  'rerank-english-v3.0',
  'jina-reranker-v2-base-multilingual',
];

/** A Google service-account key whose token_uri is the mock's, and the public key the mock checks it with. */
/** A JSON answer, asserted on field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Body = any;

/** Sends an adapter's upstream call as is. */
async function send(call: UpstreamCall): Promise<{ status: number; headers: Headers; body: Body }> {
  const res = await fetch(call.url, { method: call.method, headers: call.headers, body: call.body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

function serviceAccount(mockUrl: string): { key: string; publicKey: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = JSON.stringify({
    type: 'service_account',
    project_id: 'mock-project',
    private_key_id: 'mock-key-id',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: VERTEX_EMAIL,
    client_id: '1234567890',
    token_uri: `${mockUrl}/token`,
  });
  return { key, publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

describe('private-format adapter conformance', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;
  let vertexKey: string;
  let difyChannel: number;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    const account = serviceAccount(mock.url);
    vertexKey = account.key;
    Object.assign(mock.auth.signingKeys, {
      [AWS.accessKeyId]: AWS.secretAccessKey,
      [TENCENT.secretId]: TENCENT.secretKey,
      [ZHIPU.id]: ZHIPU.secret,
      [BAIDU.apiKey]: BAIDU.secretKey,
      [VERTEX_EMAIL]: account.publicKey,
    });
    t = await startApp();
    root = await setupRoot(t);
    await putOption(root, 'ModelRatio', JSON.stringify(Object.fromEntries(ALL_MODELS.map((m) => [m, 1]))));
    await putOption(
      root,
      'CompletionRatio',
      JSON.stringify(Object.fromEntries(ALL_MODELS.map((m) => [m, 2]))),
    );
    const base = { base_url: mock.url };
    await makeChannel(t, {
      ...base,
      type: 34,
      key: 'co-mock-key',
      models: 'command-r,embed-english-v3.0,rerank-english-v3.0',
    });
    difyChannel = await makeChannel(t, { ...base, type: 37, key: 'app-mock-dify', models: 'dify' });
    await makeChannel(t, { ...base, type: 4, key: 'ollama-mock-key', models: 'llama3.1,nomic-embed-text' });
    await makeChannel(t, {
      ...base,
      type: 38,
      key: 'jina_mock_key',
      models: 'jina-embeddings-v3,jina-reranker-v2-base-multilingual',
    });
    await makeChannel(t, { ...base, type: 44, key: 'moka-mock-key', models: 'm3e-base' });
    await makeChannel(t, {
      ...base,
      type: 39,
      key: 'cf-mock-token',
      other: CLOUDFLARE_ACCOUNT,
      models: '@cf/meta/llama-3.1-8b-instruct,@cf/baai/bge-base-en-v1.5',
    });
    await makeChannel(t, {
      ...base,
      type: 33,
      key: `${AWS.accessKeyId}|${AWS.secretAccessKey}|${AWS.region}`,
      models: 'bedrock-haiku,bedrock-sonnet-4-5',
      model_mapping: JSON.stringify({
        'bedrock-haiku': 'claude-3-5-haiku-20241022',
        'bedrock-sonnet-4-5': 'claude-sonnet-4-5-20250929',
      }),
    });
    await makeChannel(t, {
      ...base,
      type: 41,
      key: vertexKey,
      other: 'us-east5',
      models: 'vertex-haiku,vertex-gemini',
      model_mapping: JSON.stringify({
        'vertex-haiku': 'claude-3-5-haiku-20241022',
        'vertex-gemini': 'gemini-2.0-flash',
      }),
    });
    await makeChannel(t, {
      ...base,
      type: 15,
      key: `${BAIDU.apiKey}|${BAIDU.secretKey}`,
      models: 'ERNIE-3.5-8K,Embedding-V1',
    });
    await makeChannel(t, { ...base, type: 16, key: `${ZHIPU.id}.${ZHIPU.secret}`, models: 'chatglm_turbo' });
    await makeChannel(t, {
      ...base,
      type: 23,
      key: `${TENCENT.secretId}|${TENCENT.secretKey}`,
      other: 'ap-guangzhou',
      models: 'hunyuan-lite',
    });
    await setQuota(t, root.userId!, 10_000_000);
    key = (await makeToken(t, root.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const openai = () => new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  const lastLog = async () => (await logsOf(t, root.userId!)).at(-1)!;
  const user = (content: string) => [{ role: 'user' as const, content }];
  const tools = [
    {
      type: 'function' as const,
      function: {
        name: 'get_weather',
        parameters: { type: 'object', properties: { city: { type: 'string' } } },
      },
    },
  ];

  /**
   * Bedrock and Vertex AI build their URLs from the region alone (bedrock-runtime.{region}.amazonaws.com,
   * {region}-aiplatform.googleapis.com): unless their adapter takes the channel's base URL, the gateway
   * cannot reach the mock. Checked on the adapter itself, so that the cases fail at once with this
   * reason instead of calling the real hosts.
   */
  function usesChannelBaseUrl(type: number, model: string): boolean {
    if (type !== 33 && type !== 41) return true;
    const upstream =
      { 'bedrock-haiku': 'claude-3-5-haiku-20241022', 'vertex-haiku': 'claude-3-5-haiku-20241022' }[model] ??
      'gemini-2.0-flash';
    const channelKey = type === 33 ? `${AWS.accessKeyId}|${AWS.secretAccessKey}|${AWS.region}` : vertexKey;
    const call = adapterForChannel(type, upstream)!.buildRequest(
      adapterRequest({
        model: upstream,
        body: { messages: [{ role: 'user', content: 'hi' }], max_tokens: 16 },
        accessToken: 'ya29.probe',
        channel: { type, baseUrl: mock.url, key: channelKey, other: type === 41 ? 'us-east5' : '' },
      }),
    );
    return call.url.startsWith(`${mock.url}/`);
  }

  function requireBaseUrl(c: Pick<ChatCase, 'type' | 'model' | 'name'>): void {
    if (!usesChannelBaseUrl(c.type, c.model)) {
      throw new Error(
        `${c.name}: the adapter ignores the channel base URL, so the mock upstream is unreachable`,
      );
    }
  }

  describe.each(CHAT_CASES)('$name', (c) => {
    const { model } = c;

    it('sends its calls to the channel base URL', () => {
      expect(usesChannelBaseUrl(c.type, model)).toBe(true);
    });

    it('answers text and bills the reported usage exactly', async () => {
      requireBaseUrl(c);
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      const res = await openai().chat.completions.create({ model, messages: user('hi [[usage=20,5]]') });
      expect(res.choices[0].message.content).toBe(REPLY);
      expect(res.choices[0].finish_reason).toBe('stop');
      expect(res.usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 5 });
      expect(mock.last?.path).toMatch(c.paths[0]);
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
      requireBaseUrl(c);
      const stream = await openai().chat.completions.create({
        model,
        stream: true,
        stream_options: { include_usage: true },
        messages: user('[[usage=20,5]]'),
      });
      const parts: string[] = [];
      let usage: OpenAI.CompletionUsage | null | undefined;
      let finish: string | null | undefined;
      for await (const chunk of stream) {
        const content = chunk.choices[0]?.delta?.content;
        if (content) parts.push(content);
        finish = chunk.choices[0]?.finish_reason ?? finish;
        usage = chunk.usage ?? usage;
      }
      expect(parts.join('')).toBe(REPLY);
      expect(parts.length).toBeGreaterThan(1);
      expect(finish).toBe('stop');
      expect(usage).toMatchObject({ prompt_tokens: 20, completion_tokens: 5 });
      expect(mock.last?.path).toMatch(c.paths[1]);
      await settle(t);
      expect(await lastLog()).toMatchObject({
        is_stream: true,
        prompt_tokens: 20,
        completion_tokens: 5,
        quota: 30,
      });
    });

    (c.tools ? it : it.skip)('returns tool calls, plain and streamed', async () => {
      requireBaseUrl(c);
      const res = await openai().chat.completions.create({
        model,
        tools,
        messages: user('weather? [[tool=get_weather]]'),
      });
      const call = res.choices[0].message.tool_calls?.[0];
      expect(call?.type === 'function' && call.function.name).toBe('get_weather');
      expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
      expect(res.choices[0].finish_reason).toBe('tool_calls');

      const runner = openai().chat.completions.stream({
        model,
        tools,
        messages: user('weather? [[tool=get_weather]]'),
      });
      const final = await runner.finalChatCompletion();
      const streamed = final.choices[0].message.tool_calls?.[0];
      expect(streamed?.type === 'function' && streamed.function.name).toBe('get_weather');
      expect(streamed?.type === 'function' && JSON.parse(streamed.function.arguments)).toEqual({
        city: 'Paris',
      });
      expect(final.choices[0].finish_reason).toBe('tool_calls');
    });

    it.each([false, true])('passes an upstream 400 through without charging (stream: %s)', async (stream) => {
      requireBaseUrl(c);
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      const logs = (await logsOf(t, root.userId!)).length;
      const messages = user('[[status=400]] [[error=bad thing]]');
      const attempt = async () => {
        if (!stream) return openai().chat.completions.create({ model, messages });
        for await (const _chunk of await openai().chat.completions.create({
          model,
          messages,
          stream: true,
        })) {
          // drained: an error may come as an in-stream error chunk
        }
      };
      await expect(attempt()).rejects.toMatchObject({
        status: 400,
        message: expect.stringContaining('bad thing'),
      });
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
      const after = await logsOf(t, root.userId!);
      expect(after).toHaveLength(logs + 1);
      expect(after.at(-1)).toMatchObject({ type: 5, quota: 0 });
    });

    it('ends a cut stream and bills only what was delivered', async () => {
      requireBaseUrl(c);
      const stream = await openai().chat.completions.create({
        model,
        stream: true,
        messages: user('[[chunks=6]] [[cut=2]]'),
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
      expect(log).toMatchObject({ type: 2, is_stream: true });
      expect(log.completion_tokens).toBeGreaterThan(0);
      expect(log.quota).toBeGreaterThan(0);
    });

    it('relays a slow stream without losing chunks, and serves Anthropic-format clients', async () => {
      requireBaseUrl(c);
      const stream = await openai().chat.completions.create({
        model,
        stream: true,
        messages: user('[[chunks=4]] [[slow=30]]'),
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe('w1 w2 w3 w4');

      const anthropic = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
      const msg = await anthropic.messages
        .stream({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hi [[usage=9,4]]' }] })
        .finalMessage();
      expect(msg.content[0]).toMatchObject({ type: 'text', text: REPLY });
      await settle(t);
      expect(await lastLog()).toMatchObject({ prompt_tokens: 9, completion_tokens: 4, quota: 17 });
    });
  });

  describe.each(EMBEDDING_CASES)('embeddings: $name', ({ model, path }) => {
    it('embeds a list of inputs and bills the reported tokens', async () => {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      const res = await openai().embeddings.create({
        model,
        input: ['hello [[usage=7,0]]', 'world'],
        encoding_format: 'float',
      });
      expect(res.data).toHaveLength(2);
      expect(res.data.map((d) => d.index)).toEqual([0, 1]);
      expect(res.data[0].embedding.length).toBeGreaterThan(0);
      expect(res.data[0].embedding.every((x) => typeof x === 'number')).toBe(true);
      expect(res.usage.prompt_tokens).toBe(7);
      expect(mock.last?.path).toMatch(path);
      await settle(t);
      expect(await lastLog()).toMatchObject({ type: 2, model_name: model, prompt_tokens: 7, quota: 7 });
      expect(await quotaOf(t, root.userId!)).toBe(before - 7);
    });

    it('passes an upstream error through without charging', async () => {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      await expect(
        openai().embeddings.create({ model, input: ['[[status=400]] [[error=bad input]]'] }),
      ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('bad input') });
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
      expect(await lastLog()).toMatchObject({ type: 5, quota: 0 });
    });
  });

  describe('rerank', () => {
    const rerank = (body: object) =>
      fetch(`${t.url}/v1/rerank`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    const documents = ['apple', 'car', 'banana'];

    it('Jina (38): relays rerank and bills the reported tokens', async () => {
      const res = await rerank({
        model: 'jina-reranker-v2-base-multilingual',
        query: 'fruit? [[usage=40,0]]',
        documents,
        top_n: 2,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Body;
      expect(body.results).toHaveLength(2);
      expect(body.results[0]).toMatchObject({ index: 0, relevance_score: expect.any(Number) });
      expect(mock.last?.path).toBe('/v1/rerank');
      await settle(t);
      expect(await lastLog()).toMatchObject({ type: 2, prompt_tokens: 40, quota: 40 });
    });

    it('Cohere (34): relays rerank through /v2/rerank, documents echoed on request', async () => {
      const res = await rerank({
        model: 'rerank-english-v3.0',
        query: 'fruit?',
        documents,
        top_n: 2,
        return_documents: true,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as Body;
      expect(body.results).toEqual([
        { index: 0, relevance_score: 1, document: { text: 'apple' } },
        { index: 1, relevance_score: 0.5, document: { text: 'car' } },
      ]);
      expect(mock.last).toMatchObject({ path: '/v2/rerank', credential: 'co-mock-key' });
      expect(mock.last?.body).toEqual({ model: 'rerank-english-v3.0', query: 'fruit?', documents, top_n: 2 });
      await settle(t);
      // Cohere bills rerank in search units and reports no tokens: the gateway falls back to its estimate.
      const log = await lastLog();
      expect(log).toMatchObject({ type: 2, model_name: 'rerank-english-v3.0' });
      expect(log.quota).toBeGreaterThan(0);
    });

    it('Cohere (34): passes a rerank error through without charging', async () => {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      const res = await rerank({
        model: 'rerank-english-v3.0',
        query: '[[status=429]] [[error=slow down]]',
        documents,
      });
      expect(res.status).toBe(429);
      expect(((await res.json()) as Body).error.message).toContain('slow down');
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
    });
  });

  describe('provider specifics', () => {
    it('Cohere: bills billed_units, not the template-inflated token counts', async () => {
      await openai().chat.completions.create({ model: 'command-r', messages: user('hi [[usage=11,3]]') });
      expect(mock.last?.credential).toBe('co-mock-key');
      expect(mock.last?.body).toMatchObject({
        model: 'command-r',
        messages: [{ role: 'user', content: 'hi [[usage=11,3]]' }],
      });
      await settle(t);
      expect(await lastLog()).toMatchObject({ prompt_tokens: 11, completion_tokens: 3 });
    });

    it('Dify: streams an agent app (agent_message events) and bills message_end usage', async () => {
      const stream = await openai().chat.completions.create({
        model: 'dify',
        stream: true,
        messages: user('[[agent]] [[usage=12,6]]'),
      });
      let text = '';
      for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      expect(text).toBe(REPLY);
      expect(mock.last?.body).toMatchObject({
        inputs: {},
        response_mode: 'streaming',
        user: expect.any(String),
      });
      await settle(t);
      expect(await lastLog()).toMatchObject({ prompt_tokens: 12, completion_tokens: 6, quota: 24 });
    });

    it('Dify: a non-stream request is sent as a stream and its events aggregated (chatflow and agent app)', async () => {
      for (const directive of ['', '[[agent]] ']) {
        await settle(t);
        const before = await quotaOf(t, root.userId!);
        const res = await openai().chat.completions.create({
          model: 'dify',
          messages: user(`${directive}[[usage=12,6]]`),
        });
        expect(res.object).toBe('chat.completion');
        expect(res.choices[0].message.content).toBe(REPLY);
        expect(res.choices[0].finish_reason).toBe('stop');
        expect(res.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 6 });
        expect(res.id).toMatch(/^00000000-0000-4000-8000-/);
        expect(mock.last?.body).toMatchObject({ response_mode: 'streaming' });
        await settle(t);
        expect(await lastLog()).toMatchObject({
          type: 2,
          is_stream: false,
          prompt_tokens: 12,
          completion_tokens: 6,
          quota: 24,
        });
        expect(await quotaOf(t, root.userId!)).toBe(before - 24);
      }
    });

    it('Dify: the channel test (a non-stream call) reads the streamed answer', async () => {
      const res = await root.get(`/api/channel/test/${difyChannel}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: '' });
      expect(mock.last?.body).toMatchObject({ response_mode: 'streaming' });
    });

    it('Dify: an error event ends a non-stream request with the error (no charge) and a stream with an error chunk', async () => {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      await expect(
        openai().chat.completions.create({
          model: 'dify',
          messages: user('[[agent]] [[streamerror=the model is overloaded]]'),
        }),
      ).rejects.toMatchObject({ status: 400, message: expect.stringContaining('the model is overloaded') });
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
      expect(await lastLog()).toMatchObject({ type: 5, quota: 0 });

      const consume = async () => {
        const stream = await openai().chat.completions.create({
          model: 'dify',
          stream: true,
          messages: user('[[agent]] [[streamerror=the model is overloaded]]'),
        });
        for await (const _chunk of stream) {
          // drained until the in-stream error
        }
      };
      await expect(consume()).rejects.toThrow(/the model is overloaded/);
    });

    it('Baidu: sends tools as ERNIE functions and a tool result as a function turn', async () => {
      const res = await openai().chat.completions.create({
        model: 'ERNIE-3.5-8K',
        tools,
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        messages: [
          { role: 'user', content: 'weather in Paris?' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_7',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_7', content: '{"temp":21} [[usage=9,4]]' },
        ],
      });
      expect(res.choices[0].message.content).toBe(REPLY);
      expect(res.usage).toMatchObject({ prompt_tokens: 9, completion_tokens: 4 });
      expect(mock.last?.body).toMatchObject({
        functions: [
          { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
        ],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        messages: [
          { role: 'user', content: 'weather in Paris?' },
          {
            role: 'assistant',
            content: '',
            function_call: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
          { role: 'function', name: 'get_weather', content: '{"temp":21} [[usage=9,4]]' },
        ],
      });
    });

    it('Tencent: sends Tools/ToolChoice and a tool result with its ToolCallId', async () => {
      const stream = openai().chat.completions.stream({
        model: 'hunyuan-lite',
        tools,
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        messages: [
          { role: 'user', content: 'weather in Paris? [[usage=9,4]]' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [
              {
                id: 'call_7',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_7', content: '{"temp":21}' },
        ],
      });
      const final = await stream.finalChatCompletion();
      expect(final.choices[0].message.content).toBe(REPLY);
      const tool = {
        Type: 'function',
        Function: { Name: 'get_weather', Parameters: JSON.stringify(tools[0].function.parameters) },
      };
      expect(mock.last?.body).toMatchObject({
        Stream: true,
        Tools: [tool],
        ToolChoice: 'custom',
        CustomTool: tool,
        Messages: [
          { Role: 'user', Content: 'weather in Paris? [[usage=9,4]]' },
          {
            Role: 'assistant',
            ToolCalls: [
              {
                Id: 'call_7',
                Type: 'function',
                Function: { Name: 'get_weather', Arguments: '{"city":"Paris"}' },
              },
            ],
          },
          { Role: 'tool', Content: '{"temp":21}', ToolCallId: 'call_7' },
        ],
      });
      await settle(t);
      expect(await lastLog()).toMatchObject({ prompt_tokens: 9, completion_tokens: 4 });
    });

    it('Bedrock: signs with SigV4 (checked by re-signing) and uses an inference profile where required', async () => {
      requireBaseUrl({ name: 'AWS Bedrock (33)', type: 33, model: 'bedrock-haiku' });
      const res = await openai().chat.completions.create({
        model: 'bedrock-sonnet-4-5',
        messages: user('hi [[usage=8,2]]'),
      });
      expect(res.choices[0].message.content).toBe(REPLY);
      expect(mock.last?.path).toBe('/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke');
      expect(mock.last?.credential).toBe(AWS.accessKeyId);
      expect(mock.last?.headers.authorization).toMatch(
        new RegExp(
          `^AWS4-HMAC-SHA256 Credential=${AWS.accessKeyId}/\\d{8}/${AWS.region}/bedrock/aws4_request, `,
        ),
      );
      expect(mock.last?.body).toMatchObject({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: expect.any(Number),
      });
      expect(mock.last?.body.model).toBeUndefined();
    });

    it('Vertex AI: exchanges the service-account JWT at its token_uri once and sends the token', async () => {
      requireBaseUrl({ name: 'Vertex AI (41)', type: 41, model: 'vertex-gemini' });
      await openai().chat.completions.create({ model: 'vertex-gemini', messages: user('hi') });
      const tokenCalls = mock.requests.filter((r) => r.path === '/token');
      expect(tokenCalls).toHaveLength(1);
      expect(tokenCalls[0].credential).toBe(VERTEX_EMAIL);
      expect(mock.last?.headers.authorization).toMatch(/^Bearer ya29\.mock-\d+$/);
      expect(mock.last?.credential).toBe(VERTEX_EMAIL);
    });

    it('Baidu: exchanges the key for an access token and sends it in the query', async () => {
      await openai().chat.completions.create({
        model: 'ERNIE-3.5-8K',
        messages: [{ role: 'system', content: 'Be brief.' }, ...user('hi')],
      });
      expect(
        mock.requests.some((r) => r.path === '/oauth/2.0/token' && r.query.client_id === BAIDU.apiKey),
      ).toBe(true);
      expect(mock.last?.query.access_token).toMatch(/^24\.mock/);
      expect(mock.last?.credential).toBe(BAIDU.apiKey);
      expect(mock.last?.body).toMatchObject({
        system: 'Be brief.',
        messages: [{ role: 'user', content: 'hi' }],
      });
    });

    it('Baidu: an error answered with HTTP 200 is an error for the client', async () => {
      await expect(
        openai().chat.completions.create({
          model: 'ERNIE-3.5-8K',
          messages: user('[[status=429]] [[error=qps limit]]'),
        }),
      ).rejects.toMatchObject({ status: 429, message: expect.stringContaining('qps limit') });
    });

    it('Zhipu: signs an HS256 JWT with the key secret (checked) and unquotes the v3 content', async () => {
      const res = await openai().chat.completions.create({
        model: 'chatglm_turbo',
        messages: user('hi [[reply="quoted" text]]'),
      });
      expect(res.choices[0].message.content).toBe('"quoted" text');
      expect(mock.last?.credential).toBe(ZHIPU.id);
      expect(mock.last?.body).toMatchObject({
        prompt: [{ role: 'user', content: 'hi [[reply="quoted" text]]' }],
      });
    });

    it('Tencent: signs TC3-HMAC-SHA256 (checked) with the action, version and region headers', async () => {
      await openai().chat.completions.create({ model: 'hunyuan-lite', messages: user('hi') });
      expect(mock.last?.credential).toBe(TENCENT.secretId);
      expect(mock.last?.headers).toMatchObject({
        'x-tc-action': 'ChatCompletions',
        'x-tc-version': '2023-09-01',
        'x-tc-region': 'ap-guangzhou',
      });
      expect(mock.last?.body).toMatchObject({
        Model: 'hunyuan-lite',
        Messages: [{ Role: 'user', Content: 'hi' }],
      });
    });

    it('Bedrock: the stream decoder cuts AWS event-stream frames out of arbitrary network chunks', () => {
      // Frames do not arrive one per network read: several share a read, one spans two reads.
      const frames = [1, 2, 3].map((i) => Buffer.from(bedrockChunk({ type: 'ping', i })));
      const bytes = Buffer.concat(frames);
      const cut = frames[0].length + frames[1].length + 5;
      const events: SseEvent[] = [];
      const decoder = createEventDecoder('aws-eventstream', (e) => events.push(e));
      decoder.feed(new Uint8Array(bytes.subarray(0, cut)));
      decoder.feed(new Uint8Array(bytes.subarray(cut)));
      decoder.end();
      expect(events.map((e) => e.event)).toEqual(['chunk', 'chunk', 'chunk']);
      const decoded = events.map((e) =>
        JSON.parse(Buffer.from(JSON.parse(e.data).bytes, 'base64').toString()),
      );
      expect(decoded.map((d) => d.i)).toEqual([1, 2, 3]);
    });

    it('Cloudflare: puts the account id of the channel in the path', async () => {
      await openai().chat.completions.create({
        model: '@cf/meta/llama-3.1-8b-instruct',
        messages: user('hi'),
      });
      expect(mock.last).toMatchObject({
        path: `/client/v4/accounts/${CLOUDFLARE_ACCOUNT}/ai/v1/chat/completions`,
        credential: 'cf-mock-token',
      });
    });
  });

  describe('the mock upstream checks signatures with the secrets it knows', () => {
    const chat = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

    it('Bedrock: SigV4 by another secret is InvalidSignatureException, by the right one accepted', async () => {
      const url = `${mock.url}/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/invoke`;
      const body = JSON.stringify({
        anthropic_version: 'bedrock-2023-05-31',
        max_tokens: 8,
        messages: chat.messages,
      });
      const signed = (secretAccessKey: string) =>
        signSigV4(
          { method: 'POST', url, headers: { 'content-type': 'application/json' }, body },
          {
            accessKeyId: AWS.accessKeyId,
            secretAccessKey,
          },
          { region: AWS.region, service: 'bedrock', nowMs: Date.now() },
        ).headers;
      const bad = await send({ method: 'POST', url, headers: signed('wrong-secret'), body });
      expect(bad.status).toBe(403);
      expect(bad.headers.get('x-amzn-errortype')).toMatch(/^InvalidSignatureException:/);
      const good = await send({ method: 'POST', url, headers: signed(AWS.secretAccessKey), body });
      expect(good.status).toBe(200);
      expect(good.body).toMatchObject({ type: 'message', content: [{ type: 'text', text: REPLY }] });
    });

    it('Tencent: TC3 by another SecretKey is AuthFailure.SignatureFailure (HTTP 200)', async () => {
      const call = adapterForChannel(23, 'hunyuan-lite')!.buildRequest(
        adapterRequest({
          model: 'hunyuan-lite',
          body: chat,
          channel: { type: 23, baseUrl: mock.url, key: `${TENCENT.secretId}|wrong` },
        }),
      );
      const res = await send(call);
      expect(res.status).toBe(200);
      expect(res.body.Response.Error.Code).toBe('AuthFailure.SignatureFailure');
    });

    it('Zhipu: a JWT signed with another secret is refused (code 1000, HTTP 200)', async () => {
      const call = adapterForChannel(16, 'chatglm_turbo')!.buildRequest(
        adapterRequest({
          model: 'chatglm_turbo',
          body: chat,
          channel: { type: 16, baseUrl: mock.url, key: `${ZHIPU.id}.wrong` },
        }),
      );
      const res = await send(call);
      expect(res.body).toMatchObject({ code: 1000, success: false });
    });

    it('Baidu: a wrong secret key gets OAuth invalid_client', async () => {
      const exchange = baiduCredentials({
        id: 1,
        type: 15,
        baseUrl: mock.url,
        key: `${BAIDU.apiKey}|wrong`,
        other: '',
        organization: '',
      });
      const res = await send(exchange.request);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_client');
    });

    it('Vertex AI: a JWT signed by another key is an invalid_grant', async () => {
      const impostor = JSON.parse(serviceAccount(mock.url).key);
      const exchange = vertexCredentials(
        {
          id: 1,
          type: 41,
          baseUrl: '',
          key: JSON.stringify({ ...impostor, client_email: VERTEX_EMAIL }),
          other: '',
          organization: '',
        },
        Math.floor(Date.now() / 1000),
      );
      const res = await send(exchange.request);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    });
  });
});

import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import WebSocket from 'ws';
import { mockCount } from '../mocks/anthropic';
import { MockUpstream } from '../mocks/mock-upstream';
import { logsOf, makeChannel, makeToken, quotaOf, setQuota, settle } from '../support/relay-fixtures';
import { ApiClient, putOption, setupRoot, startApp, TestApp } from '../support/test-app';

/**
 * Coding agents and agent SDKs on every channel format: the request shapes Codex, Claude Code, the
 * Gemini CLI and the AI SDK really send (their bodies and headers as facts), driven through the
 * gateway with the official SDKs and raw HTTP, against channels speaking OpenAI, Anthropic and Gemini.
 */
const CHANNELS = [
  { type: 1, format: 'openai', model: 'agent-openai' },
  { type: 14, format: 'anthropic', model: 'agent-claude' },
  { type: 24, format: 'gemini', model: 'agent-gemini' },
] as const;

const REPLY = 'Hello from the mock upstream.';

/** Codex CLI's shell tool as it declares it to the Responses API (a function tool, strict off). */
const CODEX_SHELL_TOOL = {
  type: 'function' as const,
  name: 'shell',
  description: 'Runs a shell command and returns its output.',
  strict: false,
  parameters: {
    type: 'object',
    properties: { command: { type: 'array', items: { type: 'string' } }, workdir: { type: 'string' } },
    required: ['command'],
    additionalProperties: false,
  },
};

/** The body Codex sends on each turn (Responses API, streamed, nothing stored upstream). */
function codexBody(model: string, input: unknown[]): Record<string, unknown> {
  return {
    model,
    instructions: 'You are Codex, a coding agent running in a terminal.',
    input,
    tools: [CODEX_SHELL_TOOL],
    tool_choice: 'auto',
    parallel_tool_calls: false,
    reasoning: null,
    store: false,
    stream: true,
    include: [],
    prompt_cache_key: '0199a1c2-7d3e-7b50-9f1e-codexsession01',
  };
}

/** Reads a server-sent event stream into its events (`event:` name and parsed `data:`). */
function sseEvents(text: string): Array<{ event?: string; data: Record<string, unknown> }> {
  const out: Array<{ event?: string; data: Record<string, unknown> }> = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length && data.join('\n') !== '[DONE]')
      out.push({ event, data: JSON.parse(data.join('\n')) as Record<string, unknown> });
  }
  return out;
}

describe('coding agents on every channel format', () => {
  let t: TestApp;
  let mock: MockUpstream;
  let root: ApiClient;
  let key: string;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    t = await startApp();
    root = await setupRoot(t);
    const models = [
      ...CHANNELS.map((c) => c.model),
      'embed-gemini',
      'embed-openai',
      'rsn-o-high',
      'rsn-chat',
      'o4-mini',
      'rsn-claude-high',
      'rsn-gemini-low',
    ];
    await putOption(root, 'ModelRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 1]))));
    await putOption(root, 'CompletionRatio', JSON.stringify(Object.fromEntries(models.map((m) => [m, 2]))));
    for (const c of CHANNELS) await makeChannel(t, { type: c.type, base_url: mock.url, models: c.model });
    await makeChannel(t, { type: 24, base_url: mock.url, models: 'embed-gemini' });
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'embed-openai' });
    await makeChannel(t, { type: 1, base_url: mock.url, models: 'rsn-o-high,rsn-chat,o4-mini' });
    await makeChannel(t, { type: 14, base_url: mock.url, models: 'rsn-claude-high' });
    await makeChannel(t, { type: 24, base_url: mock.url, models: 'rsn-gemini-low' });
    await setQuota(t, root.userId!, 10_000_000);
    key = (await makeToken(t, root.userId!)).key;
  });

  afterAll(async () => {
    await t?.close();
    await mock?.close();
  });

  const openai = () => new OpenAI({ apiKey: key, baseURL: `${t.url}/v1`, maxRetries: 0 });
  const lastLog = async () => (await logsOf(t, root.userId!)).at(-1)!;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
      body: JSON.stringify(body),
    });

  describe.each(CHANNELS)(
    'Responses API (Codex, @ai-sdk/openai) on an $format channel',
    ({ model, format }) => {
      it('answers text, plain and streamed, billed from the upstream usage', async () => {
        await settle(t);
        const before = await quotaOf(t, root.userId!);
        const res = await openai().responses.create({ model, input: 'hi [[usage=20,5]]' });
        expect(res.output_text).toBe(REPLY);
        await settle(t);
        expect(await lastLog()).toMatchObject({
          type: 2,
          model_name: model,
          prompt_tokens: 20,
          completion_tokens: 5,
          quota: 30,
        });
        expect(await quotaOf(t, root.userId!)).toBe(before - 30);

        const stream = await openai().responses.create({ model, input: 'hi [[usage=20,5]]', stream: true });
        let text = '';
        let completed = false;
        for await (const e of stream) {
          if (e.type === 'response.output_text.delta') text += e.delta;
          if (e.type === 'response.completed') completed = true;
        }
        expect(text).toBe(REPLY);
        expect(completed).toBe(true);
        await settle(t);
        expect(await lastLog()).toMatchObject({
          is_stream: true,
          prompt_tokens: 20,
          completion_tokens: 5,
          quota: 30,
        });
      });

      it("completes Codex's tool round trip (shell call, then its output)", async () => {
        mock.reset();
        const first = await post(
          '/v1/responses',
          codexBody(model, [
            {
              type: 'message',
              role: 'user',
              content: [{ type: 'input_text', text: 'list files [[tool=shell]]' }],
            },
          ]),
          {
            'openai-beta': 'responses=experimental',
            originator: 'codex_cli_rs',
            session_id: '0199a1c2-7d3e-7b50-9f1e-codexsession01',
            accept: 'text/event-stream',
          },
        );
        expect(first.status).toBe(200);
        const events = sseEvents(await first.text());
        const done = events.find(
          (e) =>
            e.data.type === 'response.output_item.done' &&
            (e.data.item as { type: string }).type === 'function_call',
        );
        const call = done?.data.item as { call_id: string; name: string; arguments: string };
        expect(call.name).toBe('shell');
        expect(JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
        expect(events.at(-1)?.data.type).toBe('response.completed');
        if (format !== 'openai') {
          // The channel got the conversation in its own format, with the tool declared natively.
          const sent = mock.last!.body as Record<string, unknown>;
          if (format === 'anthropic')
            expect(sent.tools).toEqual([
              expect.objectContaining({ name: 'shell', input_schema: expect.any(Object) }),
            ]);
          else expect(JSON.stringify(sent.tools)).toContain('"name":"shell"');
        }

        const second = await post(
          '/v1/responses',
          codexBody(model, [
            { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] },
            { type: 'function_call', call_id: call.call_id, name: 'shell', arguments: call.arguments },
            { type: 'function_call_output', call_id: call.call_id, output: 'README.md\nsrc' },
          ]),
        );
        expect(second.status).toBe(200);
        const text = sseEvents(await second.text())
          .filter((e) => e.data.type === 'response.output_text.delta')
          .map((e) => e.data.delta)
          .join('');
        expect(text).toBe(REPLY);
        if (format === 'anthropic') {
          const sent = mock.last!.body as { messages: Array<{ role: string; content: unknown }> };
          expect(JSON.stringify(sent.messages)).toContain('"type":"tool_result"');
          expect(JSON.stringify(sent.messages)).toContain('README.md');
        }
        if (format === 'gemini') expect(JSON.stringify(mock.last!.body)).toContain('functionResponse');
      });

      if (format !== 'openai')
        it('refuses Responses features the conversion cannot carry with a clear 400 (no upstream call)', async () => {
          mock.reset();
          for (const extra of [
            { previous_response_id: 'resp_abc' },
            { store: true },
            { tools: [{ type: 'web_search' }] },
            { background: true },
          ]) {
            const res = await post('/v1/responses', { model, input: 'hi', ...extra });
            expect(res.status).toBe(400);
            const body = (await res.json()) as { error: { type: string; message: string } };
            expect(body.error.type).toBe('invalid_request_error');
            expect(body.error.message).toContain(Object.keys(extra)[0]);
          }
          expect(mock.requests).toHaveLength(0);
        });
    },
  );

  it('serves the Anthropic SDK on every channel (Claude Code pointed at any model)', async () => {
    const anthropic = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
    for (const c of CHANNELS) {
      const msg = await anthropic.messages
        .stream({ model: c.model, max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] })
        .finalMessage();
      expect(msg.content[0]).toMatchObject({ type: 'text', text: REPLY });
    }
  });

  describe("token counting, unbilled, in the caller's format", () => {
    it('answers POST /v1/messages/count_tokens (Claude Code) with input_tokens, on every channel', async () => {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      const logs = (await logsOf(t, root.userId!)).length;
      mock.reset();
      const anthropic = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
      const small = { messages: [{ role: 'user' as const, content: 'hi' }] };
      const big = {
        system: 'You are Claude Code, an interactive CLI tool.',
        messages: [
          {
            role: 'user' as const,
            content: 'Please read every file of this repository and explain the architecture in detail.',
          },
        ],
        tools: [
          {
            name: 'Read',
            description: 'Reads a file',
            input_schema: { type: 'object' as const, properties: { file_path: { type: 'string' } } },
          },
        ],
      };
      for (const c of CHANNELS) {
        mock.reset();
        const a = await anthropic.messages.countTokens({ model: c.model, ...small });
        const b = await anthropic.messages.countTokens({ model: c.model, ...big });
        expect(a.input_tokens).toBeGreaterThan(0);
        expect(b.input_tokens).toBeGreaterThan(a.input_tokens + 20);
        if (c.format === 'anthropic') {
          // An Anthropic channel counts with its own endpoint (same credentials), nothing else called.
          expect(mock.requests.map((r) => r.path)).toEqual([
            '/v1/messages/count_tokens',
            '/v1/messages/count_tokens',
          ]);
          expect(mock.last!.credential).toBe('sk-upstream-key');
          expect(b.input_tokens).toBe(
            mockCount({ messages: big.messages, system: big.system, tools: big.tools }),
          );
        } else expect(mock.requests).toHaveLength(0);
      }
      // An upstream count that fails falls back to the gateway's own count.
      mock.requireKey = 'another-key';
      try {
        expect(
          (await anthropic.messages.countTokens({ model: 'agent-claude', ...big })).input_tokens,
        ).toBeGreaterThan(20);
      } finally {
        mock.requireKey = null;
      }
      mock.reset();
      const bad = await post(
        '/v1/messages/count_tokens',
        { model: 'agent-claude', messages: 'nope' },
        { 'anthropic-version': '2023-06-01' },
      );
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      const noKey = await fetch(`${t.url}/v1/messages/count_tokens`, { method: 'POST', body: '{}' });
      expect(noKey.status).toBe(401);
      expect(await noKey.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
      expect((await logsOf(t, root.userId!)).length).toBe(logs);
      expect(mock.requests).toHaveLength(0);
    });

    it('asks a Gemini channel its own :countTokens', async () => {
      mock.reset();
      const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: t.url } });
      const res = await ai.models.countTokens({
        model: 'agent-gemini',
        contents: 'Please explain this repository.',
      });
      expect(mock.last!.path).toBe('/v1beta/models/agent-gemini:countTokens');
      const request = (mock.last!.body as { generateContentRequest: unknown }).generateContentRequest;
      expect(res.totalTokens).toBe(Math.ceil(JSON.stringify(request).length / 4));
    });

    it('answers Gemini :countTokens (the Gemini CLI, @google/genai) with totalTokens', async () => {
      await settle(t);
      const before = await quotaOf(t, root.userId!);
      const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: t.url } });
      const a = await ai.models.countTokens({ model: 'agent-gemini', contents: 'hi' });
      const b = await ai.models.countTokens({
        model: 'agent-gemini',
        contents: 'Please read every file of this repository and explain the architecture in detail.',
      });
      expect(a.totalTokens).toBeGreaterThan(0);
      expect(b.totalTokens).toBeGreaterThan(a.totalTokens! + 10);
      // The whole generateContentRequest form (the Gemini CLI sends its system prompt and tools this way).
      const wrapped = await post(
        '/v1beta/models/agent-gemini:countTokens',
        {
          generateContentRequest: {
            model: 'models/agent-gemini',
            contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
            systemInstruction: {
              parts: [
                { text: 'You are an interactive CLI agent specializing in software engineering tasks.' },
              ],
            },
          },
        },
        { 'x-goog-api-key': key },
      );
      expect(wrapped.status).toBe(200);
      expect(((await wrapped.json()) as { totalTokens: number }).totalTokens).toBeGreaterThan(
        a.totalTokens! + 5,
      );
      await settle(t);
      expect(await quotaOf(t, root.userId!)).toBe(before);
    });
  });

  describe('Gemini clients on the stable /v1 prefix', () => {
    it.each(CHANNELS)(
      'serves @google/genai with apiVersion v1 (generateContent, stream) on an $format channel',
      async ({ model }) => {
        const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: t.url, apiVersion: 'v1' } });
        const res = await ai.models.generateContent({ model, contents: 'hi [[usage=20,5]]' });
        expect(res.text).toBe(REPLY);
        await settle(t);
        expect(await lastLog()).toMatchObject({
          type: 2,
          model_name: model,
          prompt_tokens: 20,
          completion_tokens: 5,
        });
        let text = '';
        for await (const chunk of await ai.models.generateContentStream({ model, contents: 'hi' }))
          text += chunk.text ?? '';
        expect(text).toBe(REPLY);
        const unknown = await post(
          '/v1/models/agent-gemini:frobnicate',
          { contents: [] },
          { 'x-goog-api-key': key },
        );
        expect(unknown.status).toBe(404);
        expect(await unknown.json()).toMatchObject({ error: { status: 'NOT_FOUND' } });
      },
    );
  });

  describe('embeddings across formats', () => {
    const genai = () => new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: t.url } });

    it('serves OpenAI /v1/embeddings on a Gemini channel (batchEmbedContents), billed by the prompt', async () => {
      mock.reset();
      const res = await openai().embeddings.create({
        model: 'embed-gemini',
        input: ['first text to embed', 'second text'],
        dimensions: 8,
      });
      expect(res.data.map((d) => d.index)).toEqual([0, 1]);
      expect(res.data[0].embedding).toHaveLength(8);
      expect(res.data[0].embedding.every((v) => typeof v === 'number' && Number.isFinite(v))).toBe(true);
      expect(res.usage.prompt_tokens).toBeGreaterThan(0);
      expect(mock.last!.path).toBe('/v1beta/models/embed-gemini:batchEmbedContents');
      expect(mock.last!.body).toEqual({
        requests: [
          {
            model: 'models/embed-gemini',
            content: { parts: [{ text: 'first text to embed' }] },
            outputDimensionality: 8,
          },
          {
            model: 'models/embed-gemini',
            content: { parts: [{ text: 'second text' }] },
            outputDimensionality: 8,
          },
        ],
      });
      const floats = await openai().embeddings.create({
        model: 'embed-gemini',
        input: 'one',
        encoding_format: 'float',
        dimensions: 4,
      });
      expect(floats.data[0].embedding).toHaveLength(4);
      await settle(t);
      expect(await lastLog()).toMatchObject({
        type: 2,
        model_name: 'embed-gemini',
        prompt_tokens: floats.usage.prompt_tokens,
      });
      expect((await lastLog()).quota).toBeGreaterThan(0);
    });

    it('serves Gemini embedContent and batchEmbedContents on a Gemini and on an OpenAI channel', async () => {
      for (const model of ['embed-gemini', 'embed-openai']) {
        mock.reset();
        const batch = await genai().models.embedContent({
          model,
          contents: ['alpha beta', 'gamma'],
          config: { outputDimensionality: 6 },
        });
        expect(batch.embeddings).toHaveLength(2);
        expect(batch.embeddings![0].values).toHaveLength(6);
        if (model === 'embed-openai') {
          expect(mock.last!.path).toBe('/v1/embeddings');
          expect(mock.last!.body).toMatchObject({
            model: 'embed-openai',
            input: ['alpha beta', 'gamma'],
            dimensions: 6,
          });
        }
        const single = await post(
          `/v1beta/models/${model}:embedContent`,
          { content: { parts: [{ text: 'just one' }] }, outputDimensionality: 5 },
          { 'x-goog-api-key': key },
        );
        expect(single.status).toBe(200);
        const body = (await single.json()) as { embedding: { values: number[] } };
        expect(body.embedding.values).toHaveLength(5);
      }
    });

    it('bills Gemini-format embeddings by their real prompt and screens their text', async () => {
      mock.reset();
      const text =
        'a fairly long passage of text that an embedding request would carry to the upstream model';
      const res = await post(
        '/v1beta/models/embed-gemini:batchEmbedContents',
        { requests: [{ model: 'models/embed-gemini', content: { parts: [{ text }] } }] },
        { 'x-goog-api-key': key },
      );
      expect(res.status).toBe(200);
      await settle(t);
      const log = await lastLog();
      expect(log).toMatchObject({ type: 2, model_name: 'embed-gemini' });
      expect(log.prompt_tokens).toBeGreaterThan(10);
      expect(log.quota).toBe(log.prompt_tokens);

      await putOption(root, 'SensitiveWords', 'forbiddenword');
      await putOption(root, 'CheckSensitiveEnabled', true);
      await putOption(root, 'CheckSensitiveOnPromptEnabled', true);
      try {
        mock.reset();
        const refused = await post(
          '/v1beta/models/embed-gemini:embedContent',
          { content: { parts: [{ text: 'this holds forbiddenword inside' }] } },
          { 'x-goog-api-key': key },
        );
        expect(refused.status).toBe(400);
        expect(await refused.json()).toMatchObject({
          error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('forbiddenword') },
        });
        expect(mock.requests).toHaveLength(0);
      } finally {
        await putOption(root, 'CheckSensitiveEnabled', false);
      }
    });
  });

  describe('structured output across formats', () => {
    const schema = {
      type: 'object',
      properties: { answer: { type: 'string' } },
      required: ['answer'],
      additionalProperties: false,
    };

    it('maps OpenAI response_format json_schema to Anthropic output_config.format and Gemini responseSchema', async () => {
      mock.reset();
      await openai().chat.completions.create({
        model: 'agent-claude',
        messages: [{ role: 'user', content: 'hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema, strict: true } },
      });
      expect((mock.last!.body as { output_config: unknown }).output_config).toEqual({
        format: { type: 'json_schema', schema },
      });
      await openai().responses.create({
        model: 'agent-claude',
        input: 'hi',
        text: { format: { type: 'json_schema', name: 'answer', schema, strict: true } },
      });
      expect((mock.last!.body as { output_config: unknown }).output_config).toEqual({
        format: { type: 'json_schema', schema },
      });
      await openai().chat.completions.create({
        model: 'agent-gemini',
        messages: [{ role: 'user', content: 'hi' }],
        response_format: { type: 'json_schema', json_schema: { name: 'answer', schema } },
      });
      const config = (mock.last!.body as { generationConfig: Record<string, unknown> }).generationConfig;
      expect(config.responseMimeType).toBe('application/json');
      expect(JSON.stringify(config.responseSchema ?? config.responseJsonSchema)).toContain('"answer"');
    });

    it('maps Anthropic output_config.format to OpenAI response_format and Gemini responseSchema', async () => {
      for (const model of ['agent-openai', 'agent-gemini']) {
        mock.reset();
        const res = await post(
          '/v1/messages',
          {
            model,
            max_tokens: 256,
            messages: [{ role: 'user', content: 'hi' }],
            output_config: { format: { type: 'json_schema', schema } },
          },
          { 'anthropic-version': '2023-06-01' },
        );
        expect(res.status).toBe(200);
        const sent = mock.last!.body as Record<string, Record<string, unknown>>;
        if (model === 'agent-openai')
          expect(sent.response_format).toEqual({
            type: 'json_schema',
            json_schema: { name: 'response', schema, strict: true },
          });
        else
          expect(
            JSON.stringify(sent.generationConfig.responseSchema ?? sent.generationConfig.responseJsonSchema),
          ).toContain('"answer"');
      }
    });

    it('refuses a JSON mode an Anthropic channel cannot carry with a 400 naming it', async () => {
      mock.reset();
      const res = await post('/v1/chat/completions', {
        model: 'agent-claude',
        messages: [{ role: 'user', content: 'hi' }],
        response_format: { type: 'json_object' },
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
        'response_format (json_object)',
      );
      const gemini = await post(
        '/v1beta/models/agent-claude:generateContent',
        {
          contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
          generationConfig: { responseMimeType: 'application/json' },
        },
        { 'x-goog-api-key': key },
      );
      expect(gemini.status).toBe(400);
      expect(await gemini.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
      expect(mock.requests).toHaveLength(0);
    });

    it('refuses several choices or log probabilities an Anthropic channel cannot give', async () => {
      mock.reset();
      for (const [extra, field] of [
        [{ n: 2 }, 'n (several choices)'],
        [{ logprobs: true }, 'logprobs'],
      ] as const) {
        const res = await post('/v1/chat/completions', {
          model: 'agent-claude',
          messages: [{ role: 'user', content: 'hi' }],
          ...extra,
        });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: { message: string } }).error.message).toContain(field);
      }
      expect(mock.requests).toHaveLength(0);
      // The same fields reach an OpenAI channel untouched.
      expect(
        (
          await post('/v1/chat/completions', {
            model: 'agent-openai',
            messages: [{ role: 'user', content: 'hi' }],
            n: 2,
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('client headers for an upstream of the same format', () => {
    const betas = ['context-management-2025-06-27', 'interleaved-thinking-2025-05-14'];
    const claudeCode = () =>
      new Anthropic({
        apiKey: key,
        baseURL: t.url,
        maxRetries: 0,
        defaultHeaders: { 'x-app': 'cli', 'user-agent': 'claude-cli/2.0.31 (external, cli)' },
      });

    it("forwards Claude Code's anthropic-beta to an Anthropic channel (merged with the model's own), not to others", async () => {
      mock.reset();
      await claudeCode().beta.messages.create({
        model: 'agent-claude',
        max_tokens: 64,
        betas,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(mock.last!.headers['anthropic-beta']).toBe(betas.join(','));
      expect(mock.last!.headers['x-api-key']).toBe('sk-upstream-key');

      await putOption(
        root,
        'claude.model_headers_settings',
        JSON.stringify({ 'agent-claude': { 'anthropic-beta': 'output-128k-2025-02-19' } }),
      );
      try {
        await claudeCode().beta.messages.create({
          model: 'agent-claude',
          max_tokens: 64,
          betas,
          messages: [{ role: 'user', content: 'hi' }],
        });
        expect(String(mock.last!.headers['anthropic-beta']).split(',')).toEqual([
          'output-128k-2025-02-19',
          ...betas,
        ]);
      } finally {
        await putOption(root, 'claude.model_headers_settings', '{}');
      }

      await claudeCode().beta.messages.create({
        model: 'agent-openai',
        max_tokens: 64,
        betas,
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(mock.last!.path).toBe('/v1/chat/completions');
      expect(mock.last!.headers['anthropic-beta']).toBeUndefined();
    });

    it('follows the operator allow-list and never forwards credentials', async () => {
      await putOption(root, 'relay.forward_client_headers', JSON.stringify(['x-app', 'x-api-key']));
      try {
        mock.reset();
        await claudeCode().beta.messages.create({
          model: 'agent-claude',
          max_tokens: 64,
          betas,
          messages: [{ role: 'user', content: 'hi' }],
        });
        expect(mock.last!.headers['anthropic-beta']).toBeUndefined();
        expect(mock.last!.headers['x-app']).toBe('cli');
        expect(mock.last!.headers['x-api-key']).toBe('sk-upstream-key');
      } finally {
        await putOption(
          root,
          'relay.forward_client_headers',
          JSON.stringify(['anthropic-beta', 'openai-beta']),
        );
      }
    });
  });

  describe('reasoning controls per provider', () => {
    it('serves -high/-low model suffixes as the base model with that effort on each provider', async () => {
      mock.reset();
      await openai().chat.completions.create({
        model: 'rsn-o-high',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(mock.last!.body).toMatchObject({ model: 'rsn-o', reasoning_effort: 'high' });
      await openai().responses.create({ model: 'rsn-o-high', input: 'hi' });
      expect(mock.last!.path).toBe('/v1/responses');
      expect(mock.last!.body).toMatchObject({ model: 'rsn-o', reasoning: { effort: 'high' } });
      await openai().chat.completions.create({
        model: 'rsn-claude-high',
        temperature: 0.2,
        messages: [{ role: 'user', content: 'hi' }],
      });
      const claude = mock.last!.body as Record<string, unknown>;
      expect(claude).toMatchObject({
        model: 'rsn-claude',
        thinking: { type: 'enabled', budget_tokens: 16384 },
      });
      expect(claude.max_tokens as number).toBeGreaterThan(16384);
      expect(claude.temperature).toBeUndefined();
      await openai().chat.completions.create({
        model: 'rsn-gemini-low',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(mock.last!.path).toBe('/v1beta/models/rsn-gemini:generateContent');
      expect((mock.last!.body as { generationConfig: unknown }).generationConfig).toMatchObject({
        thinkingConfig: { thinkingBudget: 1024, includeThoughts: true },
      });
      await settle(t);
      expect(await lastLog()).toMatchObject({ model_name: 'rsn-gemini-low' });
    });

    it("adapts Claude Code's thinking per model: reasoning_effort only for models that reason", async () => {
      mock.reset();
      const thinking = {
        model: '',
        max_tokens: 20000,
        thinking: { type: 'enabled', budget_tokens: 10000 },
        messages: [{ role: 'user', content: 'hi' }],
      };
      const headers = { 'anthropic-version': '2023-06-01' };
      expect((await post('/v1/messages', { ...thinking, model: 'rsn-chat' }, headers)).status).toBe(200);
      expect(mock.last!.body).not.toHaveProperty('reasoning_effort');
      expect((await post('/v1/messages', { ...thinking, model: 'o4-mini' }, headers)).status).toBe(200);
      expect(mock.last!.body).toMatchObject({ model: 'o4-mini', reasoning_effort: 'medium' });
      // Gemini CLI's thinking budget reaches an Anthropic channel as extended thinking.
      const gemini = await post(
        '/v1beta/models/agent-claude:generateContent',
        {
          contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
          generationConfig: { thinkingConfig: { thinkingBudget: 8192 } },
        },
        { 'x-goog-api-key': key },
      );
      expect(gemini.status).toBe(200);
      expect(mock.last!.body).toMatchObject({
        thinking: { type: 'enabled', budget_tokens: expect.any(Number) },
      });
    });
  });

  describe("Codex's history compaction (/v1/responses/compact)", () => {
    const history = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files [[usage=30,6]]' }] },
      { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{"command":["ls"]}' },
      { type: 'function_call_output', call_id: 'call_1', output: 'README.md' },
    ];

    it('is relayed to an OpenAI channel and billed from its usage', async () => {
      mock.reset();
      const res = await post('/v1/responses/compact', {
        model: 'agent-openai',
        instructions: 'Summarize the conversation.',
        input: history,
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { output: Array<{ type: string }> };
      expect(body.output[0].type).toBe('message');
      expect(mock.last!.path).toBe('/v1/responses/compact');
      await settle(t);
      expect(await lastLog()).toMatchObject({
        type: 2,
        model_name: 'agent-openai',
        prompt_tokens: 30,
        completion_tokens: 6,
        quota: 42,
      });
    });

    it('is refused with a clear 400 for a model only other providers serve', async () => {
      mock.reset();
      const res = await post('/v1/responses/compact', { model: 'agent-claude', input: history });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
        '/v1/responses/compact',
      );
      expect(mock.requests).toHaveLength(0);
    });
  });

  describe('prompt-cache billing', () => {
    // 10 plain + 60 five-minute writes × 1.25 + 40 one-hour writes × 2 (default) + 5 completion × 2.
    const prompt = 'hi [[usage=10,5]] [[cache=0,100]] [[cache1h=40]]';

    it('prices five-minute and one-hour cache writes by their own ratios, plain, streamed and converted', async () => {
      const anthropic = new Anthropic({ apiKey: key, baseURL: t.url, maxRetries: 0 });
      await anthropic.messages.create({
        model: 'agent-claude',
        max_tokens: 64,
        messages: [{ role: 'user', content: prompt }],
      });
      await settle(t);
      const log = await lastLog();
      expect(log).toMatchObject({ prompt_tokens: 110, completion_tokens: 5, quota: 175 });
      expect(log.other).toMatchObject({
        cache_creation_tokens: 100,
        cache_creation_tokens_1h: 40,
        cache_creation_ratio: 1.25,
        cache_creation_1h_ratio: 2,
      });

      await anthropic.messages
        .stream({ model: 'agent-claude', max_tokens: 64, messages: [{ role: 'user', content: prompt }] })
        .finalMessage();
      await settle(t);
      expect(await lastLog()).toMatchObject({ is_stream: true, prompt_tokens: 110, quota: 175 });

      const stream = await openai().chat.completions.create({
        model: 'agent-claude',
        stream: true,
        messages: [{ role: 'user', content: prompt }],
      });
      for await (const chunk of stream) void chunk;
      await settle(t);
      expect(await lastLog()).toMatchObject({ is_stream: true, prompt_tokens: 110, quota: 175 });

      await putOption(root, 'CacheCreation1hRatio', JSON.stringify({ 'agent-claude': 3 }));
      try {
        await openai().chat.completions.create({
          model: 'agent-claude',
          messages: [{ role: 'user', content: prompt }],
        });
        await settle(t);
        expect(await lastLog()).toMatchObject({ quota: 215 });
      } finally {
        await putOption(root, 'CacheCreation1hRatio', '{}');
      }
    });
  });

  describe('the Responses API over a WebSocket', () => {
    const open = (headers: Record<string, string>) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${t.url.replace(/^http/, 'ws')}/v1/responses`, { headers });
        ws.once('open', () => resolve(ws));
        ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
        ws.once('error', reject);
      });
    /** Sends one response.create and collects its events up to the terminal one. */
    const turn = (ws: WebSocket, body: Record<string, unknown>) =>
      new Promise<Array<Record<string, unknown>>>((resolve) => {
        const events: Array<Record<string, unknown>> = [];
        const onMessage = (data: WebSocket.RawData) => {
          const e = JSON.parse((data as Buffer).toString('utf8')) as Record<string, unknown>;
          events.push(e);
          if (e.type === 'response.completed' || e.type === 'error' || e.type === 'response.failed') {
            ws.off('message', onMessage);
            resolve(events);
          }
        };
        ws.on('message', onMessage);
        ws.send(JSON.stringify({ type: 'response.create', ...body }));
      });

    it('streams each response.create as events on every channel format, billed like HTTP', async () => {
      const ws = await open({ authorization: `Bearer ${key}`, session_id: 'ws-session-1' });
      try {
        for (const model of ['agent-openai', 'agent-claude', 'agent-gemini']) {
          const events = await turn(ws, { model, input: 'hi [[usage=20,5]]', store: false });
          const text = events
            .filter((e) => e.type === 'response.output_text.delta')
            .map((e) => e.delta)
            .join('');
          expect(text).toBe(REPLY);
          expect(events.at(-1)!.type).toBe('response.completed');
          await settle(t);
          expect(await lastLog()).toMatchObject({
            type: 2,
            model_name: model,
            is_stream: true,
            prompt_tokens: 20,
            completion_tokens: 5,
            quota: 30,
          });
        }
        const refused = await turn(ws, {
          model: 'agent-claude',
          input: 'again',
          previous_response_id: 'resp_1',
        });
        expect(refused.at(-1)).toMatchObject({
          type: 'error',
          status: 400,
          error: { message: expect.stringContaining('previous_response_id') },
        });
        const bad = await new Promise<Record<string, unknown>>((resolve) => {
          ws.once('message', (d) =>
            resolve(JSON.parse((d as Buffer).toString('utf8')) as Record<string, unknown>),
          );
          ws.send(JSON.stringify({ type: 'session.update' }));
        });
        expect(bad).toMatchObject({ type: 'error', status: 400 });
      } finally {
        ws.close();
      }
    });

    it('refuses the upgrade without a valid key', async () => {
      await expect(open({ authorization: 'Bearer sk-not-a-key' })).rejects.toThrow('HTTP 401');
    });
  });
});

/**
 * The mock upstream is the only fake in the test suite, so it is held to the providers' official SDKs:
 * if the SDKs parse its answers (JSON, streams, errors, uploads), it speaks the real wire formats.
 */
import Anthropic, { APIError as AnthropicError } from '@anthropic-ai/sdk';
import OpenAI, { APIError, AuthenticationError, AzureOpenAI, RateLimitError, toFile } from 'openai';
import { MockUpstream } from '../mocks/mock-upstream';

describe('mock upstream speaks the providers’ wire formats', () => {
  let mock: MockUpstream;
  let openai: OpenAI;
  let anthropic: Anthropic;

  beforeAll(async () => {
    mock = await MockUpstream.start();
    openai = new OpenAI({ apiKey: 'sk-openai', baseURL: `${mock.url}/v1`, maxRetries: 0 });
    anthropic = new Anthropic({ apiKey: 'sk-ant', baseURL: mock.url, maxRetries: 0 });
  });
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());

  describe('OpenAI SDK', () => {
    it('parses a chat completion and the mock records the request', async () => {
      const res = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [
          { role: 'system', content: 'Be brief. [[status=500]]' },
          { role: 'user', content: [{ type: 'text', text: 'Hi [[cache=3,0]]' }] },
        ],
      });
      expect(res).toMatchObject({ id: 'chatcmpl-mock-1', object: 'chat.completion', created: 1_700_000_000 });
      expect(res.choices[0].message.content).toBe('Hello from the mock upstream.');
      expect(res.choices[0].finish_reason).toBe('stop');
      expect(res.usage).toMatchObject({ prompt_tokens: 13, completion_tokens: 5, total_tokens: 18 });
      expect(res.usage?.prompt_tokens_details?.cached_tokens).toBe(3);
      expect(mock.last).toMatchObject({
        method: 'POST',
        path: '/v1/chat/completions',
        credential: 'sk-openai',
      });
      expect(mock.last?.headers.authorization).toBe('Bearer sk-openai');
      expect(mock.last?.body.model).toBe('gpt-4o-mini');
      expect(mock.last?.aborted).toBe(false);
    });

    it('streams a chat completion word by word with a usage chunk when include_usage is set', async () => {
      const stream = await openai.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Go [[chunks=12]] [[usage=7,30]]' }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const deltas: string[] = [];
      const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
      for await (const chunk of stream) {
        chunks.push(chunk);
        const content = chunk.choices[0]?.delta.content;
        if (content) deltas.push(content);
      }
      expect(deltas).toHaveLength(12);
      expect(deltas.join('')).toBe(Array.from({ length: 12 }, (_, i) => `w${i + 1}`).join(' '));
      expect(chunks.at(-2)?.choices[0].finish_reason).toBe('stop');
      expect(chunks.at(-1)?.choices).toEqual([]);
      expect(chunks.at(-1)?.usage).toMatchObject({
        prompt_tokens: 7,
        completion_tokens: 30,
        total_tokens: 37,
      });
      expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    });

    it('streams no usage chunk without include_usage, nor under [[nousage]]', async () => {
      for (const [text, options] of [
        ['Hi', undefined],
        ['Hi [[nousage]]', { include_usage: true }],
      ] as const) {
        const stream = await openai.chat.completions.create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: text }],
          stream: true,
          ...(options ? { stream_options: options } : {}),
        });
        const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
        for await (const chunk of stream) chunks.push(chunk);
        expect(chunks.some((c) => c.usage)).toBe(false);
        expect(chunks.at(-1)?.choices[0].finish_reason).toBe('stop');
      }
    });

    it('streams a tool call whose arguments the SDK reassembles', async () => {
      const stream = openai.chat.completions.stream({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'Weather? [[tool=get_weather]]' }],
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }],
      });
      const final = await stream.finalChatCompletion();
      const choice = final.choices[0];
      expect(choice.finish_reason).toBe('tool_calls');
      const call = choice.message.tool_calls?.[0];
      expect(call).toMatchObject({ id: 'call_mock_1', type: 'function' });
      expect(call?.type === 'function' && call.function.name).toBe('get_weather');
      expect(call?.type === 'function' && JSON.parse(call.function.arguments)).toEqual({ city: 'Paris' });
    });

    it('streams a Responses API answer the SDK accumulates, with usage on response.completed', async () => {
      const stream = openai.responses.stream({
        model: 'gpt-4o-mini',
        input: [
          {
            role: 'user',
            content: [{ type: 'input_text', text: 'Hi [[reply=Bonjour le monde]] [[cache=2,0]]' }],
          },
        ],
      });
      const types: string[] = [];
      stream.on('event', (e) => types.push(e.type));
      const final = await stream.finalResponse();
      const message = final.output[0];
      expect(message.type === 'message' && message.content).toEqual([
        expect.objectContaining({ type: 'output_text', text: 'Bonjour le monde' }),
      ]);
      expect(final.status).toBe('completed');
      expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 3, total_tokens: 15 });
      expect(final.usage?.input_tokens_details.cached_tokens).toBe(2);
      expect(types).toEqual([
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.delta',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.output_item.done',
        'response.completed',
      ]);
    });

    it('answers embeddings in the base64 encoding the SDK asks for by default', async () => {
      const res = await openai.embeddings.create({
        model: 'text-embedding-3-small',
        input: ['first', 'second'],
        dimensions: 8,
      });
      expect(mock.last?.body.encoding_format).toBe('base64');
      expect(res.data.map((d) => d.index)).toEqual([0, 1]);
      expect(res.data[0].embedding).toHaveLength(8);
      expect(res.data[0].embedding.every((v) => typeof v === 'number' && Math.abs(v) <= 1)).toBe(true);
      expect(res.usage).toEqual({ prompt_tokens: 10, total_tokens: 10 });
    });

    it('takes an audio upload as multipart and records the file intact', async () => {
      const audio = Buffer.alloc(48_000, 7);
      const res = await openai.audio.transcriptions.create({
        file: await toFile(audio, 'speech.mp3', { type: 'audio/mpeg' }),
        model: 'whisper-1',
        response_format: 'verbose_json',
        prompt: '[[reply=Transcribed words]]',
      });
      expect(res.text).toBe('Transcribed words');
      expect(res.duration).toBe(3);
      expect(mock.last?.multipart?.fields).toMatchObject({
        model: 'whisper-1',
        response_format: 'verbose_json',
      });
      expect(mock.last?.multipart?.files).toEqual([
        expect.objectContaining({ field: 'file', filename: 'speech.mp3', size: 48_000, type: 'audio/mpeg' }),
      ]);

      const text = await openai.audio.transcriptions.create({
        file: await toFile(audio, 'speech.mp3'),
        model: 'whisper-1',
        response_format: 'text',
      });
      expect(text).toBe('Hello from the mock upstream.\n');
    });

    it('surfaces error directives as the SDK’s APIError with the status and message', async () => {
      const err = await openai.chat.completions
        .create({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'Hi [[status=429]] [[error=Slow down]]' }],
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RateLimitError);
      expect(err).toMatchObject({ status: 429, type: 'requests', code: 'rate_limit_exceeded' });
      expect((err as APIError).message).toContain('Slow down');

      mock.requireKey = 'sk-other';
      const denied = await openai.models.list().catch((e: unknown) => e);
      expect(denied).toBeInstanceOf(AuthenticationError);
      expect((denied as APIError).message).toContain('Incorrect API key provided');
    });

    it('serves the Azure deployment path with the deployment as the model', async () => {
      const azure = new AzureOpenAI({
        endpoint: mock.url,
        apiKey: 'azure-key',
        apiVersion: '2024-10-21',
        deployment: 'prod-gpt',
        maxRetries: 0,
      });
      const res = await azure.chat.completions.create({
        model: '',
        messages: [{ role: 'user', content: 'Hi' }],
      });
      expect(res.model).toBe('prod-gpt');
      expect(res.choices[0].message.content).toBe('Hello from the mock upstream.');
      expect(mock.last).toMatchObject({
        path: '/openai/deployments/prod-gpt/chat/completions',
        query: { 'api-version': '2024-10-21' },
        credential: 'azure-key',
      });
    });
  });

  describe('Anthropic SDK', () => {
    it('parses a message', async () => {
      const res = await anthropic.messages.create({
        model: 'claude-opus-4-6',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi [[reply=Hi there]]' }] }],
      });
      expect(res).toMatchObject({
        id: 'msg_mock_1',
        type: 'message',
        role: 'assistant',
        stop_reason: 'end_turn',
      });
      expect(res.content).toEqual([{ type: 'text', text: 'Hi there' }]);
      expect(res.usage).toMatchObject({ input_tokens: 10, output_tokens: 2 });
      expect(mock.last?.credential).toBe('sk-ant');
      expect(mock.last?.headers['anthropic-version']).toBeTruthy();
    });

    it('streams a message the SDK assembles, with cache tokens in usage', async () => {
      const stream = anthropic.messages.stream({
        model: 'claude-opus-4-6',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'Go [[chunks=4]] [[usage=12,40]] [[cache=100,20]]' }],
      });
      const types: string[] = [];
      stream.on('streamEvent', (e) => types.push(e.type));
      const final = await stream.finalMessage();
      expect(final.content).toEqual([{ type: 'text', text: 'w1 w2 w3 w4' }]);
      expect(final.stop_reason).toBe('end_turn');
      expect(final.usage).toMatchObject({
        input_tokens: 12,
        output_tokens: 40,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 20,
      });
      expect(types).toEqual([
        'message_start',
        'content_block_start',
        ...Array<string>(4).fill('content_block_delta'),
        'content_block_stop',
        'message_delta',
        'message_stop',
      ]);
    });

    it('streams a tool_use block through input_json_delta', async () => {
      const final = await anthropic.messages
        .stream({
          model: 'claude-opus-4-6',
          max_tokens: 100,
          messages: [{ role: 'user', content: 'Weather? [[tool=get_weather]]' }],
          tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
        })
        .finalMessage();
      expect(final.stop_reason).toBe('tool_use');
      expect(final.content).toEqual([
        { type: 'tool_use', id: 'toolu_mock_1', name: 'get_weather', input: { city: 'Paris' } },
      ]);
    });

    it('surfaces error directives as the SDK’s APIError with the Anthropic error body', async () => {
      const err = await anthropic.messages
        .create({
          model: 'claude-opus-4-6',
          max_tokens: 10,
          messages: [{ role: 'user', content: '[[status=529]]' }],
        })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AnthropicError);
      expect((err as AnthropicError).status).toBe(529);
      expect((err as AnthropicError).error).toEqual({
        type: 'error',
        error: { type: 'overloaded_error', message: 'Overloaded' },
      });
    });
  });

  describe('Gemini (no SDK installed: raw HTTP)', () => {
    it('streams data-only SSE chunks with cumulative usage on the last', async () => {
      const res = await fetch(`${mock.url}/v1beta/models/gemini-2.0-flash:streamGenerateContent?alt=sse`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-goog-api-key': 'g-key' },
        body: JSON.stringify({
          contents: [{ role: 'user', parts: [{ text: 'Hi [[usage=9,6]] [[cache=1,0]]' }] }],
        }),
      });
      expect(res.headers.get('content-type')).toBe('text/event-stream');
      const events = (await res.text()).split('\r\n\r\n').filter(Boolean);
      expect(events.every((e) => e.startsWith('data: '))).toBe(true);
      const chunks = events.map((e) => JSON.parse(e.slice(6)));
      expect(chunks.map((c) => c.candidates[0].content.parts[0].text).join('')).toBe(
        'Hello from the mock upstream.',
      );
      expect(chunks.at(-1).candidates[0].finishReason).toBe('STOP');
      expect(chunks.at(-1).usageMetadata).toMatchObject({
        promptTokenCount: 10,
        candidatesTokenCount: 6,
        totalTokenCount: 16,
        cachedContentTokenCount: 1,
      });
      expect(mock.last?.credential).toBe('g-key');
    });
  });
});

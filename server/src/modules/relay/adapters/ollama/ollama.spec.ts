import type { JsonObject, SseEvent } from '../../types';
import { adapterRequest, bodyOf, chunksOf, type RequestOverrides } from '../testing';
import { ollamaAdapter } from '.';

const request = (overrides: RequestOverrides = {}) =>
  adapterRequest({
    model: 'llama3.1',
    ...overrides,
    channel: { type: 4, baseUrl: 'http://localhost:11434', key: '', ...overrides.channel },
  });
const line = (data: object): SseEvent => ({ data: JSON.stringify(data) });

describe('ollama adapter', () => {
  it('cuts streams as NDJSON', () => {
    expect(ollamaAdapter.framing).toBe('ndjson');
  });

  it('posts chat to /api/chat with images, options and format', () => {
    const call = ollamaAdapter.buildRequest(
      request({
        body: {
          messages: [
            { role: 'developer', content: 'Be brief.' },
            {
              role: 'user',
              content: [
                { type: 'text', text: 'What is this?' },
                { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
                { type: 'image_url', image_url: { url: 'https://x.test/remote.png' } },
              ],
            },
            {
              role: 'assistant',
              content: '',
              tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
            },
            { role: 'tool', tool_call_id: 'c', name: 'f', content: 'done' },
          ],
          temperature: 0.5,
          top_p: 0.8,
          max_tokens: 200,
          stop: ['x'],
          response_format: { type: 'json_object' },
          stream_options: { include_usage: true },
        },
      }),
    );
    expect(call.url).toBe('http://localhost:11434/api/chat');
    expect(call.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(bodyOf(call)).toEqual({
      model: 'llama3.1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'What is this?', images: ['iVBORw0KGgo='] },
        { role: 'assistant', content: '', tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }] },
        { role: 'tool', content: 'done', tool_name: 'f' },
      ],
      stream: false,
      options: { temperature: 0.5, top_p: 0.8, num_predict: 200, stop: ['x'] },
      format: 'json',
    });
  });

  it('sends a Bearer token only when the channel has a key', () => {
    const call = ollamaAdapter.buildRequest(
      request({ stream: true, body: { messages: [] }, channel: { key: 'k' } }),
    );
    expect(call.headers.Authorization).toBe('Bearer k');
    expect((bodyOf(call) as JsonObject).stream).toBe(true);
  });

  it('converts a chat answer with usage', () => {
    const answer = {
      model: 'llama3.1',
      created_at: '2024-07-01T00:00:10Z',
      message: { role: 'assistant', content: 'Hi there' },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 12,
      eval_count: 3,
    };
    expect(ollamaAdapter.convertResponse?.(answer, request())).toEqual({
      id: 'chatcmpl-ollama',
      object: 'chat.completion',
      created: 1719792010,
      model: 'llama3.1',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi there' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    });
  });

  it('converts tool calls of an answer', () => {
    const answer = {
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'f', arguments: { a: 1 } } }],
      },
      done: true,
    };
    const converted = ollamaAdapter.convertResponse?.(answer, request()) as JsonObject;
    expect(converted.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ]);
  });

  it('converts NDJSON stream lines to OpenAI chunks and a usage chunk', () => {
    const converter = ollamaAdapter.createStreamConverter!(request({ stream: true }));
    const lines = [
      line({
        model: 'llama3.1',
        created_at: '2024-07-01T00:00:10Z',
        message: { role: 'assistant', content: 'He' },
        done: false,
      }),
      line({ message: { role: 'assistant', content: 'llo' }, done: false }),
      line({
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'length',
        prompt_eval_count: 7,
        eval_count: 2,
      }),
    ];
    const out = [...lines.flatMap((event) => converter.push(event)), ...converter.end()];
    const chunks = chunksOf(out) as {
      created: number;
      choices: { delta: unknown; finish_reason: unknown }[];
      usage?: unknown;
    }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'He' },
      { content: 'llo' },
      {},
      undefined,
    ]);
    expect(chunks[3].choices[0].finish_reason).toBe('length');
    expect(chunks[4].usage).toEqual({ prompt_tokens: 7, completion_tokens: 2, total_tokens: 9 });
    expect(chunks[0].created).toBe(1719792010);
  });

  it('turns an error line into an in-stream error', () => {
    const converter = ollamaAdapter.createStreamConverter!(request({ stream: true }));
    expect(chunksOf(converter.push({ data: '{"error":"model not found"}' }))).toEqual([
      { error: { message: 'model not found', type: 'upstream_error' } },
    ]);
  });

  describe('embeddings', () => {
    const embed = request({
      mode: 'embeddings',
      model: 'nomic-embed-text',
      body: { input: ['a', 'b'], user: 'u' },
    });

    it('posts to /api/embed', () => {
      const call = ollamaAdapter.buildRequest(embed);
      expect(call.url).toBe('http://localhost:11434/api/embed');
      expect(bodyOf(call)).toEqual({ model: 'nomic-embed-text', input: ['a', 'b'] });
    });

    it('answers an OpenAI embeddings list', () => {
      const answer = { model: 'nomic-embed-text', embeddings: [[1], [2]], prompt_eval_count: 4 };
      expect(ollamaAdapter.convertResponse?.(answer, embed)).toEqual({
        object: 'list',
        data: [
          { object: 'embedding', index: 0, embedding: [1] },
          { object: 'embedding', index: 1, embedding: [2] },
        ],
        model: 'nomic-embed-text',
        usage: { prompt_tokens: 4, total_tokens: 4 },
      });
    });
  });

  describe('OpenAI-compatible modes', () => {
    it('use the /v1 endpoints and forward the body', () => {
      const call = ollamaAdapter.buildRequest(request({ mode: 'completions', body: { prompt: 'x' } }));
      expect(call.url).toBe('http://localhost:11434/v1/completions');
      expect(bodyOf(call)).toEqual({ prompt: 'x', model: 'llama3.1' });
      expect(ollamaAdapter.buildRequest(request({ mode: 'responses' })).url).toBe(
        'http://localhost:11434/v1/responses',
      );
      const answer = { id: 'cmpl', choices: [] };
      expect(ollamaAdapter.convertResponse?.(answer, request({ mode: 'completions' }))).toEqual(answer);
    });

    it('re-assemble SSE events from the stream lines', () => {
      const converter = ollamaAdapter.createStreamConverter!(request({ mode: 'responses', stream: true }));
      const out = [
        'event: response.created',
        'data: {"type":"response.created"}',
        '',
        ': keep-alive',
        'data: {"choices":[]}\r',
        'data: [DONE]',
      ].flatMap((data) => converter.push({ data }));
      expect(out).toEqual([
        { event: 'response.created', data: '{"type":"response.created"}' },
        { data: '{"choices":[]}' },
      ]);
    });

    it('refuses modes Ollama does not serve', () => {
      expect(() => ollamaAdapter.buildRequest(request({ mode: 'rerank' }))).toThrow(/does not support/);
    });
  });
});

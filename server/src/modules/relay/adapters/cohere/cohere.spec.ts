import type { JsonObject, SseEvent } from '../../types';
import { adapterRequest, bodyOf, chunksOf, type RequestOverrides } from '../testing';
import { cohereAdapter } from '.';

const request = (overrides: RequestOverrides = {}) =>
  adapterRequest({
    model: 'command-r-plus',
    ...overrides,
    channel: { type: 34, baseUrl: 'https://api.cohere.ai', key: 'co-key' },
  });
const sse = (data: object): SseEvent => ({ data: JSON.stringify(data) });

describe('cohere adapter', () => {
  describe('chat request', () => {
    it('posts an OpenAI conversation to /v2/chat with Cohere parameter names', () => {
      const call = cohereAdapter.buildRequest(
        request({
          stream: true,
          body: {
            model: 'alias',
            messages: [
              { role: 'system', content: 'Be brief.' },
              {
                role: 'user',
                content: [
                  { type: 'text', text: 'What is this?' },
                  { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
                ],
              },
              {
                role: 'assistant',
                content: null,
                tool_calls: [
                  { id: 'c1', type: 'function', function: { name: 'look', arguments: '{"q":1}' } },
                ],
              },
              { role: 'tool', tool_call_id: 'c1', content: 'a cat' },
            ],
            max_completion_tokens: 300,
            top_p: 0.9,
            stop: 'END',
            temperature: 0.2,
            tools: [{ type: 'function', function: { name: 'look', parameters: {} } }],
            tool_choice: 'required',
            response_format: { type: 'json_schema', json_schema: { name: 'x', schema: { type: 'object' } } },
            stream_options: { include_usage: true },
            n: 1,
          },
        }),
      );
      expect(call.url).toBe('https://api.cohere.ai/v2/chat');
      expect(call.headers).toEqual({ Authorization: 'Bearer co-key', 'Content-Type': 'application/json' });
      expect(bodyOf(call)).toEqual({
        model: 'command-r-plus',
        messages: [
          { role: 'system', content: 'Be brief.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
            ],
          },
          {
            role: 'assistant',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{"q":1}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'a cat' },
        ],
        stream: true,
        max_tokens: 300,
        temperature: 0.2,
        p: 0.9,
        stop_sequences: ['END'],
        tools: [{ type: 'function', function: { name: 'look', parameters: {} } }],
        tool_choice: 'REQUIRED',
        response_format: { type: 'json_object', json_schema: { type: 'object' } },
      });
    });
  });

  it('converts a chat answer to chat.completion', () => {
    const answer = {
      id: 'co-1',
      finish_reason: 'COMPLETE',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Hello' },
          { type: 'text', text: '!' },
        ],
      },
      usage: {
        billed_units: { input_tokens: 5, output_tokens: 2 },
        tokens: { input_tokens: 70, output_tokens: 2 },
      },
    };
    expect(cohereAdapter.convertResponse?.(answer, request())).toEqual({
      id: 'co-1',
      object: 'chat.completion',
      created: 0,
      model: 'command-r-plus',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello!' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
    });
  });

  it('converts tool calls and falls back to raw token counts', () => {
    const answer = {
      id: 'co-2',
      finish_reason: 'TOOL_CALL',
      message: {
        role: 'assistant',
        tool_plan: 'I will look.',
        tool_calls: [{ id: 'look_1', type: 'function', function: { name: 'look', arguments: '{}' } }],
      },
      usage: { tokens: { input_tokens: 10, output_tokens: 4 } },
    };
    const converted = cohereAdapter.convertResponse?.(answer, request()) as JsonObject;
    expect(converted.choices).toEqual([
      {
        index: 0,
        message: {
          role: 'assistant',
          content: null,
          reasoning_content: 'I will look.',
          tool_calls: [{ id: 'look_1', type: 'function', function: { name: 'look', arguments: '{}' } }],
        },
        finish_reason: 'tool_calls',
      },
    ]);
    expect(converted.usage).toEqual({ prompt_tokens: 10, completion_tokens: 4, total_tokens: 14 });
  });

  it('converts a stream to OpenAI chunks with a final usage chunk', () => {
    const converter = cohereAdapter.createStreamConverter!(request({ stream: true }));
    const events = [
      sse({ type: 'message-start', id: 'co-3', delta: { message: { role: 'assistant', content: [] } } }),
      sse({ type: 'content-start', index: 0, delta: { message: { content: { type: 'text', text: '' } } } }),
      sse({ type: 'content-delta', index: 0, delta: { message: { content: { text: 'Hi' } } } }),
      sse({ type: 'content-end', index: 0 }),
      sse({
        type: 'tool-call-start',
        index: 0,
        delta: {
          message: { tool_calls: { id: 't1', type: 'function', function: { name: 'f', arguments: '' } } },
        },
      }),
      sse({
        type: 'tool-call-delta',
        index: 0,
        delta: { message: { tool_calls: { function: { arguments: '{}' } } } },
      }),
      sse({ type: 'tool-call-end', index: 0 }),
      sse({
        type: 'message-end',
        delta: {
          finish_reason: 'MAX_TOKENS',
          usage: { billed_units: { input_tokens: 3, output_tokens: 9 } },
        },
      }),
    ];
    const out = [...events.flatMap((event) => converter.push(event)), ...converter.end()];
    const chunks = chunksOf(out) as {
      id: string;
      choices: { delta: unknown; finish_reason: unknown }[];
      usage?: unknown;
    }[];
    expect(chunks.every((chunk) => chunk.id === 'co-3')).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hi' },
      { tool_calls: [{ index: 0, id: 't1', type: 'function', function: { name: 'f', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{}' } }] },
      {},
      undefined,
    ]);
    expect(chunks[4].choices[0].finish_reason).toBe('length');
    expect(chunks[5]).toMatchObject({
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 9, total_tokens: 12 },
    });
    expect(out.some((event) => event.data === '[DONE]')).toBe(false);
  });

  describe('rerank', () => {
    const rerank = request({
      mode: 'rerank',
      model: 'rerank-english-v3.0',
      body: { query: 'q', documents: ['a', { text: 'b' }], top_n: 2, return_documents: true },
    });

    it('posts to /v2/rerank with plain-text documents', () => {
      const call = cohereAdapter.buildRequest(rerank);
      expect(call.url).toBe('https://api.cohere.ai/v2/rerank');
      expect(bodyOf(call)).toEqual({
        model: 'rerank-english-v3.0',
        query: 'q',
        documents: ['a', 'b'],
        top_n: 2,
      });
    });

    it('answers results with the requested documents', () => {
      const answer = {
        id: 'rr',
        results: [
          { index: 1, relevance_score: 0.8 },
          { index: 0, relevance_score: 0.1 },
        ],
        meta: { billed_units: { search_units: 1 } },
      };
      expect(cohereAdapter.convertResponse?.(answer, rerank)).toEqual({
        id: 'rr',
        results: [
          { index: 1, relevance_score: 0.8, document: { text: 'b' } },
          { index: 0, relevance_score: 0.1, document: { text: 'a' } },
        ],
        meta: { billed_units: { search_units: 1 } },
        usage: { prompt_tokens: 0, total_tokens: 0 },
      });
    });
  });

  describe('embeddings', () => {
    const embed = request({
      mode: 'embeddings',
      model: 'embed-v4.0',
      body: { input: 'hello', dimensions: 256 },
    });

    it('posts to /v2/embed asking for float vectors', () => {
      const call = cohereAdapter.buildRequest(embed);
      expect(call.url).toBe('https://api.cohere.ai/v2/embed');
      expect(bodyOf(call)).toEqual({
        model: 'embed-v4.0',
        texts: ['hello'],
        input_type: 'search_document',
        embedding_types: ['float'],
        output_dimension: 256,
      });
    });

    it('answers an OpenAI embeddings list', () => {
      const answer = {
        id: 'e',
        embeddings: { float: [[0.1, 0.2]] },
        meta: { billed_units: { input_tokens: 2 } },
      };
      expect(cohereAdapter.convertResponse?.(answer, embed)).toEqual({
        object: 'list',
        data: [{ object: 'embedding', index: 0, embedding: [0.1, 0.2] }],
        model: 'embed-v4.0',
        usage: { prompt_tokens: 2, total_tokens: 2 },
      });
    });
  });

  it('refuses other modes and reads Cohere errors', () => {
    expect(() => cohereAdapter.buildRequest(request({ mode: 'images' }))).toThrow(/does not support/);
    expect(cohereAdapter.errorMessage?.(400, '{"id":"x","message":"invalid request: model required"}')).toBe(
      'invalid request: model required',
    );
  });
});

import type { SseEvent } from '../../types';
import { adapterRequest, bodyOf, chunksOf, type RequestOverrides } from '../testing';
import { difyAdapter } from '.';
import { difyQuery } from './query';

const request = (overrides: RequestOverrides = {}) =>
  adapterRequest({
    model: 'dify',
    ...overrides,
    channel: { type: 37, baseUrl: 'https://api.dify.ai', key: 'app-key', ...overrides.channel },
  });
const sse = (data: object): SseEvent => ({ data: JSON.stringify(data) });

describe('dify adapter', () => {
  it('sends a lone user message as the query', () => {
    const call = difyAdapter.buildRequest(
      request({ body: { messages: [{ role: 'user', content: 'Hello' }] } }),
    );
    expect(call.url).toBe('https://api.dify.ai/v1/chat-messages');
    expect(call.headers).toEqual({ Authorization: 'Bearer app-key', 'Content-Type': 'application/json' });
    expect(bodyOf(call)).toEqual({
      inputs: {},
      query: 'Hello',
      response_mode: 'streaming',
      user: 'gatehouse',
    });
  });

  it('renders a conversation with the last user message last', () => {
    expect(
      difyQuery([
        { role: 'system', content: 'Be nice.' },
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: [{ type: 'text', text: 'How are you?' }] },
        { role: 'assistant', content: 'I am' },
      ]),
    ).toBe('System: Be nice.\n\nUser: Hi\n\nAssistant: Hello!\n\nAssistant: I am\n\nUser: How are you?');
  });

  it('streams, passes the user on, attaches remote images and accepts a base URL ending in /v1', () => {
    const call = difyAdapter.buildRequest(
      request({
        stream: true,
        channel: { baseUrl: 'https://dify.internal/v1' },
        body: {
          user: 'alice',
          messages: [
            {
              role: 'user',
              content: [
                { type: 'text', text: 'Describe' },
                { type: 'image_url', image_url: { url: 'https://x.test/cat.png' } },
                { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
              ],
            },
          ],
        },
      }),
    );
    expect(call.url).toBe('https://dify.internal/v1/chat-messages');
    expect(bodyOf(call)).toEqual({
      inputs: {},
      query: 'Describe',
      response_mode: 'streaming',
      user: 'alice',
      files: [{ type: 'image', transfer_method: 'remote_url', url: 'https://x.test/cat.png' }],
    });
  });

  it('converts a blocking answer to chat.completion', () => {
    const answer = {
      event: 'message',
      message_id: 'm-1',
      conversation_id: 'c-1',
      answer: 'Hi!',
      created_at: 1705395332,
      metadata: { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } },
    };
    expect(difyAdapter.convertResponse?.(answer, request())).toEqual({
      id: 'm-1',
      object: 'chat.completion',
      created: 1705395332,
      model: 'dify',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hi!' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
  });

  it('converts stream events to OpenAI chunks and a usage chunk', () => {
    const converter = difyAdapter.createStreamConverter!(request({ stream: true }));
    const events = [
      sse({ event: 'workflow_started', task_id: 't' }),
      sse({ event: 'message', message_id: 'm-2', answer: 'Hel', created_at: 1700000000 }),
      sse({ event: 'agent_message', message_id: 'm-2', answer: 'lo' }),
      sse({ event: 'ping' }),
      sse({
        event: 'message_end',
        message_id: 'm-2',
        metadata: { usage: { prompt_tokens: 4, completion_tokens: 2 } },
      }),
    ];
    const out = [...events.flatMap((event) => converter.push(event)), ...converter.end()];
    const chunks = chunksOf(out) as {
      id: string;
      created: number;
      choices: { delta: unknown; finish_reason: unknown }[];
      usage?: unknown;
    }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hel' },
      { content: 'lo' },
      {},
      undefined,
    ]);
    expect(chunks.every((chunk) => chunk.id === 'm-2' && chunk.created === 1700000000)).toBe(true);
    expect(chunks[3].choices[0].finish_reason).toBe('stop');
    expect(chunks[4].usage).toEqual({ prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 });
  });

  it('aggregates the events of a streamed answer into one chat.completion (non-stream requests)', () => {
    const aggregator = difyAdapter.createStreamAggregator!(request());
    for (const event of [
      sse({ event: 'agent_thought', id: 'th', thought: '' }),
      sse({ event: 'agent_message', message_id: 'm-3', answer: 'Hel', created_at: 1700000001 }),
      sse({ event: 'agent_message', message_id: 'm-3', answer: 'lo' }),
      sse({
        event: 'message_end',
        message_id: 'm-3',
        metadata: { usage: { prompt_tokens: 7, completion_tokens: 3 } },
      }),
    ])
      aggregator.push(event);
    expect(aggregator.result()).toEqual({
      id: 'm-3',
      object: 'chat.completion',
      created: 1700000001,
      model: 'dify',
      choices: [{ index: 0, message: { role: 'assistant', content: 'Hello' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 },
    });
    const failing = difyAdapter.createStreamAggregator!(request());
    failing.push(sse({ event: 'message', message_id: 'm-4', answer: 'x' }));
    failing.push(sse({ event: 'error', status: 429, code: 'too_many_requests', message: 'slow down' }));
    expect(() => failing.result()).toThrow(expect.objectContaining({ status: 429, text: 'slow down' }));
  });

  it('turns an error event into an in-stream error', () => {
    const converter = difyAdapter.createStreamConverter!(request({ stream: true }));
    expect(
      chunksOf(converter.push(sse({ event: 'error', status: 400, code: 'invalid_param', message: 'bad' }))),
    ).toEqual([{ error: { message: 'bad', type: 'upstream_error', code: 'invalid_param' } }]);
  });

  it('reads Dify errors and refuses other modes', () => {
    expect(
      difyAdapter.errorMessage?.(400, '{"code":"invalid_param","message":"query is required","status":400}'),
    ).toBe('query is required');
    expect(() => difyAdapter.buildRequest(request({ mode: 'embeddings' }))).toThrow(/does not support/);
  });
});

import type { JsonObject, SseEvent } from '../../types';
import type { JsonMap } from './shared';
import { AnthropicToOpenAIStream, OpenAIToAnthropicStream } from './stream';

/** An Anthropic SSE event as the API writes it. */
function ev(data: Record<string, unknown>): SseEvent {
  return { event: String(data.type), data: JSON.stringify(data) };
}

function run(events: SseEvent[], created = 42): JsonObject[] {
  const converter = new AnthropicToOpenAIStream({ created });
  return [...events.flatMap((e) => converter.push(e)), ...converter.end()];
}

const messageStart = ev({
  type: 'message_start',
  message: {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: {
      input_tokens: 25,
      output_tokens: 1,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 5,
    },
  },
});

const deltas = (chunks: JsonObject[]): unknown[] =>
  chunks
    .filter((c) => (c.choices as unknown[]).length > 0)
    .map((c) => (c.choices as { delta: unknown }[])[0].delta);

describe('AnthropicToOpenAIStream', () => {
  it('converts thinking, text and a tool call, then finish and usage chunks', () => {
    const chunks = run([
      messageStart,
      ev({ type: 'ping' }),
      ev({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
      ev({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'Let me think' },
      }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } }),
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: ' world' } }),
      ev({ type: 'content_block_stop', index: 1 }),
      ev({
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
      }),
      ev({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } }),
      ev({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '{"city": ' },
      }),
      ev({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '"Paris"}' },
      }),
      ev({ type: 'content_block_stop', index: 2 }),
      ev({
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 89 },
      }),
      ev({ type: 'message_stop' }),
    ]);
    expect(chunks[0]).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 42,
      model: 'claude-sonnet-4',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    });
    expect(deltas(chunks)).toEqual([
      { role: 'assistant', content: '' },
      { reasoning_content: 'Let me think' },
      { content: 'Hello' },
      { content: ' world' },
      {
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      },
      { tool_calls: [{ index: 0, function: { arguments: '{"city": ' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] },
      {},
    ]);
    expect((chunks.at(-2)?.choices as { finish_reason: string }[])[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 42,
      model: 'claude-sonnet-4',
      choices: [],
      usage: {
        prompt_tokens: 130,
        completion_tokens: 89,
        total_tokens: 219,
        prompt_tokens_details: { cached_tokens: 100, cache_creation_tokens: 5 },
      },
    });
  });

  it('numbers several tool calls', () => {
    const tool = (index: number, id: string): SseEvent[] => [
      ev({
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id, name: 'f', input: {} },
      }),
      ev({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '{}' } }),
      ev({ type: 'content_block_stop', index }),
    ];
    const chunks = run([messageStart, ...tool(0, 'a'), ...tool(1, 'b')]);
    const indexes = deltas(chunks).flatMap((d) =>
      ((d as { tool_calls?: { index: number }[] }).tool_calls ?? []).map((c) => c.index),
    );
    expect(indexes).toEqual([0, 0, 1, 1]);
  });

  it('closes a stream that misses message_delta (and message_stop) with usage from message_start', () => {
    const chunks = run([
      messageStart,
      ev({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
      ev({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
    ]);
    expect((chunks.at(-2)?.choices as { finish_reason: string }[])[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)?.usage).toEqual({
      prompt_tokens: 130,
      completion_tokens: 1,
      total_tokens: 131,
      prompt_tokens_details: { cached_tokens: 100, cache_creation_tokens: 5 },
    });
    const withStop = run([messageStart, ev({ type: 'message_stop' })]);
    expect(withStop).toHaveLength(3);
    expect(withStop.at(-1)?.choices).toEqual([]);
  });

  it('maps max_tokens to length and takes the final counters of message_delta', () => {
    const chunks = run([
      messageStart,
      ev({
        type: 'message_delta',
        delta: { stop_reason: 'max_tokens', stop_sequence: null },
        usage: { input_tokens: 30, output_tokens: 7 },
      }),
      ev({ type: 'message_stop' }),
    ]);
    expect((chunks[1].choices as { finish_reason: string }[])[0].finish_reason).toBe('length');
    expect((chunks[2].usage as { prompt_tokens: number }).prompt_tokens).toBe(135);
  });

  it('waits for a message_delta that carries a stop_reason', () => {
    const chunks = run([
      messageStart,
      ev({ type: 'message_delta', delta: { stop_reason: null }, usage: { output_tokens: 3 } }),
      ev({
        type: 'message_delta',
        delta: { stop_reason: 'refusal', stop_sequence: null },
        usage: { output_tokens: 4 },
      }),
      ev({ type: 'message_stop' }),
    ]);
    expect(chunks).toHaveLength(3);
    expect((chunks[1].choices as { finish_reason: string }[])[0].finish_reason).toBe('content_filter');
    expect((chunks[2].usage as { completion_tokens: number }).completion_tokens).toBe(4);
  });

  it('throws the upstream message on an error event', () => {
    const converter = new AnthropicToOpenAIStream({});
    converter.push(messageStart);
    expect(() =>
      converter.push(ev({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })),
    ).toThrow('Overloaded');
  });

  it('emits nothing for an empty stream and ignores unknown events', () => {
    const converter = new AnthropicToOpenAIStream();
    expect(converter.push({ event: 'whatever', data: '{"type":"whatever"}' })).toEqual([]);
    expect(converter.push({ data: 'not json' })).toEqual([]);
    expect(converter.end()).toEqual([]);
  });
});

function parsed(events: SseEvent[]): { event: string | undefined; data: Record<string, unknown> }[] {
  return events.map((e) => ({ event: e.event, data: JSON.parse(e.data) as Record<string, unknown> }));
}

const chunk = (delta: JsonMap, finish: string | null = null): JsonObject => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1,
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('OpenAIToAnthropicStream', () => {
  it('converts reasoning, text and a tool call; message_delta waits for the usage chunk', () => {
    const converter = new OpenAIToAnthropicStream({ model: 'claude-via-openai', id: 'msg_x' });
    const before = [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'Hmm' }),
      chunk({ content: 'Hello' }),
      chunk({ content: ' there' }),
      chunk({
        tool_calls: [
          { index: 0, id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"Rome"}' } }] }),
      chunk({}, 'tool_calls'),
    ].flatMap((c) => converter.push(c));
    const last = converter.push({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      choices: [],
      usage: { prompt_tokens: 50, completion_tokens: 12, prompt_tokens_details: { cached_tokens: 30 } },
    });
    expect(converter.end()).toEqual([]);
    expect(parsed(before)).toEqual([
      {
        event: 'message_start',
        data: {
          type: 'message_start',
          message: {
            id: 'msg_x',
            type: 'message',
            role: 'assistant',
            model: 'claude-via-openai',
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: {
              input_tokens: 0,
              output_tokens: 0,
              cache_read_input_tokens: 0,
              cache_creation_input_tokens: 0,
            },
          },
        },
      },
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'thinking', thinking: '', signature: '' },
        },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm' } },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'content_block_start',
        data: { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hello' } },
      },
      {
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: ' there' } },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
      {
        event: 'content_block_start',
        data: {
          type: 'content_block_start',
          index: 2,
          content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} },
        },
      },
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 2,
          delta: { type: 'input_json_delta', partial_json: '{"city":' },
        },
      },
      {
        event: 'content_block_delta',
        data: {
          type: 'content_block_delta',
          index: 2,
          delta: { type: 'input_json_delta', partial_json: '"Rome"}' },
        },
      },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 2 } },
    ]);
    expect(parsed(last)).toEqual([
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: 'tool_use', stop_sequence: null },
          usage: {
            input_tokens: 20,
            output_tokens: 12,
            cache_read_input_tokens: 30,
            cache_creation_input_tokens: 0,
          },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
  });

  it('opens one block per tool call and closes on a finish chunk carrying usage', () => {
    const converter = new OpenAIToAnthropicStream({ model: 'm' });
    const events = parsed(
      [
        chunk({ tool_calls: [{ index: 0, id: 'call_a', function: { name: 'f', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'call_b', function: { name: 'g', arguments: '{"x":1}' } }] }),
        { ...chunk({}, 'tool_calls'), usage: { prompt_tokens: 3, completion_tokens: 4 } },
      ].flatMap((c) => converter.push(c)),
    );
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect((events[0].data.message as { id: string }).id).toBe('msg_1');
    expect(events[4].data).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_b', name: 'g', input: {} },
    });
    expect(converter.push(chunk({ content: 'late' }))).toEqual([]);
  });

  it('end() closes a stream without finish_reason', () => {
    const converter = new OpenAIToAnthropicStream({ model: 'm', id: 'msg_1' });
    converter.push(chunk({ content: 'Hi' }));
    const events = parsed(converter.end());
    expect(events).toEqual([
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
      {
        event: 'message_delta',
        data: {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: {
            input_tokens: 0,
            output_tokens: 0,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 0,
          },
        },
      },
      { event: 'message_stop', data: { type: 'message_stop' } },
    ]);
    expect(converter.end()).toEqual([]);
  });

  it('end() on a stream that finished without usage emits message_delta with the finish reason', () => {
    const converter = new OpenAIToAnthropicStream({ model: 'm' });
    converter.push(chunk({ content: 'Hi' }));
    converter.push(chunk({}, 'length'));
    const events = parsed(converter.end());
    expect(events.map((e) => e.event)).toEqual(['message_delta', 'message_stop']);
    expect((events[0].data.delta as { stop_reason: string }).stop_reason).toBe('max_tokens');
  });

  it('end() on an empty stream still yields a whole message', () => {
    const events = parsed(new OpenAIToAnthropicStream({ model: 'm' }).end());
    expect(events.map((e) => e.event)).toEqual(['message_start', 'message_delta', 'message_stop']);
  });
});

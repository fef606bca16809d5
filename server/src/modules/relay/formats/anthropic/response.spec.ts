import type { Json, JsonObject } from '../../types';
import { anthropicToOpenAIResponse, openAIToAnthropicResponse } from './response';

const anthropicMessage: JsonObject = {
  id: 'msg_01',
  type: 'message',
  role: 'assistant',
  model: 'claude-sonnet-4',
  content: [
    { type: 'thinking', thinking: 'Paris is in France.', signature: 'sig' },
    { type: 'text', text: 'Let me check ' },
    { type: 'text', text: 'the weather.' },
    { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
  ],
  stop_reason: 'tool_use',
  stop_sequence: null,
  usage: {
    input_tokens: 10,
    output_tokens: 20,
    cache_read_input_tokens: 300,
    cache_creation_input_tokens: 40,
  },
};

describe('anthropicToOpenAIResponse', () => {
  it('maps text, thinking, tool calls and usage with cache tokens', () => {
    expect(anthropicToOpenAIResponse(anthropicMessage, 1700000000)).toEqual({
      id: 'chatcmpl-01',
      object: 'chat.completion',
      created: 1700000000,
      model: 'claude-sonnet-4',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Let me check the weather.',
            reasoning_content: 'Paris is in France.',
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 350,
        completion_tokens: 20,
        total_tokens: 370,
        prompt_tokens_details: { cached_tokens: 300, cache_creation_tokens: 40 },
      },
    });
  });

  it('has null content without text and created 0 by default', () => {
    const out = anthropicToOpenAIResponse({ ...anthropicMessage, content: [] });
    expect(out.created).toBe(0);
    expect(out.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: null },
        logprobs: null,
        finish_reason: 'tool_calls',
      },
    ]);
  });

  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['tool_use', 'tool_calls'],
    ['refusal', 'content_filter'],
    [null, 'stop'],
  ])('maps stop_reason %s to finish_reason %s', (stopReason, finishReason) => {
    const out = anthropicToOpenAIResponse({ ...anthropicMessage, stop_reason: stopReason });
    expect((out.choices as { finish_reason: string }[])[0].finish_reason).toBe(finishReason);
  });
});

describe('openAIToAnthropicResponse', () => {
  const completion: JsonObject = {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Checking.',
          reasoning_content: 'Think first.',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
            },
            { id: 'call_2', type: 'function', function: { name: 'broken', arguments: '{oops' } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
    usage: {
      prompt_tokens: 350,
      completion_tokens: 20,
      total_tokens: 370,
      prompt_tokens_details: { cached_tokens: 300, cache_creation_tokens: 40 },
    },
  };

  it('maps reasoning, text, tool calls and usage', () => {
    expect(openAIToAnthropicResponse(completion)).toEqual({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      content: [
        { type: 'thinking', thinking: 'Think first.', signature: '' },
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Rome' } },
        { type: 'tool_use', id: 'toolu_2', name: 'broken', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 10,
        output_tokens: 20,
        cache_read_input_tokens: 300,
        cache_creation_input_tokens: 40,
      },
    });
  });

  it.each([
    ['stop', 'end_turn'],
    ['length', 'max_tokens'],
    ['tool_calls', 'tool_use'],
    ['content_filter', 'refusal'],
  ])('maps finish_reason %s to stop_reason %s', (finishReason, stopReason) => {
    const out = openAIToAnthropicResponse({
      model: 'm',
      choices: [{ message: { role: 'assistant', content: 'x' }, finish_reason: finishReason }],
    });
    expect(out.stop_reason).toBe(stopReason);
    expect(out.usage).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });

  it('reports tool_use when an upstream says "stop" for an answer with tool calls', () => {
    const [choice] = completion.choices as { [key: string]: Json }[];
    const out = openAIToAnthropicResponse({ ...completion, choices: [{ ...choice, finish_reason: 'stop' }] });
    expect(out.stop_reason).toBe('tool_use');
  });

  it('round-trips through the hub', () => {
    const back = openAIToAnthropicResponse(anthropicToOpenAIResponse(anthropicMessage));
    expect(back).toEqual({
      ...anthropicMessage,
      content: [
        { type: 'thinking', thinking: 'Paris is in France.', signature: '' },
        { type: 'text', text: 'Let me check the weather.' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
    });
  });
});

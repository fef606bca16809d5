import type { JsonMap } from '../json';
import type { JsonObject, SseEvent } from '../../types';
import { OpenAIToResponsesStream, ResponsesToOpenAIStream } from './index';

function run<I, O>(conv: { push(i: I): O[]; end(): O[] }, inputs: I[]): O[] {
  return [...inputs.flatMap((i) => conv.push(i)), ...conv.end()];
}

const chunk = (delta: JsonMap, finish: string | null = null): JsonObject => ({
  id: 'chatcmpl-s1',
  object: 'chat.completion.chunk',
  created: 77,
  model: 'gpt-4o',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const usageChunk: JsonObject = {
  id: 'chatcmpl-s1',
  choices: [],
  usage: {
    prompt_tokens: 11,
    completion_tokens: 22,
    total_tokens: 33,
    prompt_tokens_details: { cached_tokens: 4 },
    completion_tokens_details: { reasoning_tokens: 5 },
  },
};

const chatStream: JsonObject[] = [
  chunk({ role: 'assistant', content: '' }),
  chunk({ reasoning_content: 'Hmm' }),
  chunk({ content: 'Hel' }),
  chunk({ content: 'lo' }),
  chunk({
    tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
  chunk({
    tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{}' } }],
  }),
  chunk({}, 'tool_calls'),
  usageChunk,
];

type Event = JsonObject & { type: string; sequence_number: number };

function parse(events: SseEvent[]): Event[] {
  return events.map((e) => {
    const data = JSON.parse(e.data) as Event;
    expect(e.event).toBe(data.type);
    return data;
  });
}

describe('OpenAIToResponsesStream', () => {
  it('emits the Responses event sequence for reasoning, text and tool calls', () => {
    const conv = new OpenAIToResponsesStream({ model: 'gpt-4o', id: 'resp_fixed', createdAt: 100 });
    const events = parse(run(conv, chatStream));
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events[0]).toMatchObject({
      response: { id: 'resp_fixed', object: 'response', created_at: 100, status: 'in_progress', output: [] },
    });
    expect(events[10]).toEqual({
      type: 'response.output_text.delta',
      sequence_number: 10,
      item_id: 'msg_fixed_1',
      output_index: 1,
      content_index: 0,
      delta: 'Hel',
      logprobs: [],
    });
    expect(events[12]).toMatchObject({
      type: 'response.output_text.done',
      text: 'Hello',
      item_id: 'msg_fixed_1',
    });
    expect(events[20]).toMatchObject({ item_id: 'fc_fixed_2', output_index: 2, arguments: '{"x":1}' });
    const completed = events[events.length - 1];
    expect(completed.response).toMatchObject({
      id: 'resp_fixed',
      status: 'completed',
      model: 'gpt-4o',
      output: [
        { type: 'reasoning', id: 'rs_fixed_0', summary: [{ type: 'summary_text', text: 'Hmm' }] },
        {
          type: 'message',
          id: 'msg_fixed_1',
          content: [{ type: 'output_text', text: 'Hello', annotations: [] }],
        },
        { type: 'function_call', id: 'fc_fixed_2', call_id: 'call_a', name: 'f', arguments: '{"x":1}' },
        { type: 'function_call', id: 'fc_fixed_3', call_id: 'call_b', name: 'g', arguments: '{}' },
      ],
      usage: {
        input_tokens: 11,
        input_tokens_details: { cached_tokens: 4 },
        output_tokens: 22,
        output_tokens_details: { reasoning_tokens: 5 },
        total_tokens: 33,
      },
    });
  });

  it('derives the id from the chat chunk and completes at end() without usage', () => {
    const conv = new OpenAIToResponsesStream({ model: 'm' });
    const events = parse(run(conv, [chunk({ content: 'x' }), chunk({}, 'length')]));
    const last = events[events.length - 1];
    expect(last.type).toBe('response.incomplete');
    expect(last.response).toMatchObject({
      id: 'resp_s1',
      created_at: 77,
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      usage: null,
    });
    expect(conv.end()).toEqual([]);
    expect(new OpenAIToResponsesStream({ model: 'm' }).end()).toEqual([]);
  });
});

describe('OpenAIToResponsesStream against the Responses document', () => {
  it('carries the members the events require and echoes the request in the Response', () => {
    const request = {
      model: 'claude-x',
      instructions: 'Be brief.',
      input: 'hi',
      max_output_tokens: 64,
      temperature: 0.3,
      top_p: 0.9,
      tools: [{ type: 'function', name: 'f', parameters: { type: 'object' } }],
      text: { format: { type: 'json_schema', name: 'a', schema: { type: 'object' } } },
    };
    const conv = new OpenAIToResponsesStream({ model: 'claude-x', id: 'resp_1', createdAt: 1, request });
    const events = parse(run(conv, chatStream));
    const of = (type: string) => events.filter((e) => e.type === type);
    expect(of('response.content_part.added')[0].part).toEqual({
      type: 'output_text',
      text: '',
      annotations: [],
      logprobs: [],
    });
    expect(of('response.function_call_arguments.done').map((e) => e.name)).toEqual(['f', 'g']);
    const completed = of('response.completed')[0].response as JsonObject;
    expect('store' in completed).toBe(false);
    expect(completed).toMatchObject({
      instructions: 'Be brief.',
      max_output_tokens: 64,
      temperature: 0.3,
      top_p: 0.9,
      tools: request.tools,
      text: request.text,
      usage: { input_tokens_details: { cached_tokens: 4, cache_write_tokens: 0 } },
    });
  });

  it('marks a message cut by the token limit incomplete, in an incomplete Response', () => {
    const conv = new OpenAIToResponsesStream({ model: 'm', id: 'resp_2', createdAt: 1 });
    const events = parse(run(conv, [chunk({ content: 'Hel' }), chunk({}, 'length'), usageChunk]));
    const last = events.at(-1)!;
    expect(last.type).toBe('response.incomplete');
    expect(((last.response as JsonObject).output as JsonObject[])[0]).toMatchObject({
      type: 'message',
      status: 'incomplete',
    });
  });
});

describe('ResponsesToOpenAIStream', () => {
  it('round-trips a chat stream through Responses events', () => {
    const responses = run(new OpenAIToResponsesStream({ model: 'gpt-4o' }), chatStream);
    const chat = run(new ResponsesToOpenAIStream(), responses);
    const base = { id: 'chatcmpl-s1', object: 'chat.completion.chunk', created: 77, model: 'gpt-4o' };
    const c = (delta: JsonMap, finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    expect(chat).toEqual([
      c({ role: 'assistant', content: '' }),
      c({ reasoning_content: 'Hmm' }),
      c({ content: 'Hel' }),
      c({ content: 'lo' }),
      c({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }],
      }),
      c({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
      c({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      c({
        tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '' } }],
      }),
      c({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }),
      c({}, 'tool_calls'),
      { ...base, choices: [], usage: usageChunk.usage },
    ]);
  });

  it('sends whole arguments given only on output_item.done, and turns failures into errors', () => {
    const ev = (data: JsonObject): SseEvent => ({ event: data.type as string, data: JSON.stringify(data) });
    const conv = new ResponsesToOpenAIStream({ model: 'x' });
    const out = run(conv, [
      ev({
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', call_id: 'c', name: 'f', arguments: '' },
      }),
      ev({
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'function_call', call_id: 'c', name: 'f', arguments: '{"a":2}' },
      }),
      ev({ type: 'response.failed', response: { error: { code: 'server_error', message: 'boom' } } }),
    ]);
    expect(out.map((o) => (o.choices as { delta: JsonObject }[] | undefined)?.[0]?.delta ?? o)).toEqual([
      { role: 'assistant', content: '' },
      { tool_calls: [{ index: 0, id: 'c', type: 'function', function: { name: 'f', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"a":2}' } }] },
      { error: { message: 'boom', type: 'upstream_error', code: 'server_error' } },
    ]);
  });

  it('maps response.incomplete to length', () => {
    const ev = (data: JsonObject): SseEvent => ({ data: JSON.stringify(data) });
    const out = run(new ResponsesToOpenAIStream(), [
      ev({ type: 'response.created', response: { id: 'resp_q', model: 'm', created_at: 1 } }),
      ev({
        type: 'response.output_text.delta',
        delta: 'ab',
        output_index: 0,
        content_index: 0,
        item_id: 'i',
      }),
      ev({
        type: 'response.incomplete',
        response: { id: 'resp_q', incomplete_details: { reason: 'max_output_tokens' }, output: [] },
      }),
    ]);
    expect(out.map((o) => (o.choices as { finish_reason: string | null }[])[0].finish_reason)).toEqual([
      null,
      null,
      'length',
    ]);
    expect(out[0].id).toBe('chatcmpl-q');
  });
});

import type { JsonMap } from './json';
import type { JsonObject, SseEvent } from '../../types';
import { GeminiToOpenAIStream, OpenAIToGeminiStream } from './index';

/** A call id made up for a Gemini function call without one: random per answer, then its position. */
const madeId = (n: number) => expect.stringMatching(new RegExp(`^call_[A-Za-z0-9_-]{12}_${n}$`));

const sse = (body: unknown): SseEvent => ({ data: JSON.stringify(body) });

function run<I, O>(conv: { push(i: I): O[]; end(): O[] }, inputs: I[]): O[] {
  return [...inputs.flatMap((i) => conv.push(i)), ...conv.end()];
}

describe('GeminiToOpenAIStream', () => {
  it('streams role, reasoning, text, tool calls, finish and the last usage', () => {
    const conv = new GeminiToOpenAIStream({ model: 'gemini-2.5-flash', created: 42 });
    const usage1 = { promptTokenCount: 10, candidatesTokenCount: 1, totalTokenCount: 11 };
    const usage2 = {
      promptTokenCount: 10,
      candidatesTokenCount: 5,
      thoughtsTokenCount: 3,
      cachedContentTokenCount: 4,
      totalTokenCount: 18,
    };
    const out = run(conv, [
      sse({
        candidates: [{ content: { role: 'model', parts: [{ text: 'plan', thought: true }] }, index: 0 }],
        usageMetadata: usage1,
        responseId: 'r1',
      }),
      sse({
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }],
        usageMetadata: usage1,
      }),
      sse({ candidates: [{ content: { role: 'model', parts: [{ text: 'lo' }] }, index: 0 }] }),
      sse({
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                { functionCall: { name: 'a', args: { x: 1 } } },
                { functionCall: { name: 'b', args: {} } },
              ],
            },
            index: 0,
          },
        ],
      }),
      sse({
        candidates: [
          { content: { role: 'model', parts: [{ functionCall: { name: 'c', args: {} } }] }, index: 0 },
        ],
      }),
      sse({
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: usage2,
      }),
    ]);
    const base = {
      id: 'chatcmpl-r1',
      object: 'chat.completion.chunk',
      created: 42,
      model: 'gemini-2.5-flash',
    };
    const choice = (delta: JsonMap, finish: string | null = null) => ({
      ...base,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    expect(out).toEqual([
      choice({ role: 'assistant', content: '' }),
      choice({ reasoning_content: 'plan' }),
      choice({ content: 'Hel' }),
      choice({ content: 'lo' }),
      choice({
        tool_calls: [
          { index: 0, id: madeId(0), type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
          { index: 1, id: madeId(1), type: 'function', function: { name: 'b', arguments: '{}' } },
        ],
      }),
      choice({
        tool_calls: [{ index: 2, id: madeId(2), type: 'function', function: { name: 'c', arguments: '{}' } }],
      }),
      choice({}, 'tool_calls'),
      {
        ...base,
        choices: [],
        usage: {
          prompt_tokens: 10,
          completion_tokens: 8,
          total_tokens: 18,
          prompt_tokens_details: { cached_tokens: 4 },
          completion_tokens_details: { reasoning_tokens: 3 },
        },
      },
    ]);
  });

  it('makes up call ids of one random part per stream, another for the next stream', () => {
    const calls = (conv: GeminiToOpenAIStream) =>
      run(conv, [
        sse({
          candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'a' } }] }, index: 0 }],
        }),
        sse({
          candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'b' } }] }, index: 0 }],
        }),
      ])
        .flatMap(
          (c) => (c.choices as { delta: { tool_calls?: { id: string }[] } }[])[0]?.delta.tool_calls ?? [],
        )
        .map((c) => c.id);
    const first = calls(new GeminiToOpenAIStream({ model: 'm' }));
    const second = calls(new GeminiToOpenAIStream({ model: 'm' }));
    expect(first).toEqual([madeId(0), madeId(1)]);
    expect(first[0].slice(0, -2)).toBe(first[1].slice(0, -2));
    expect(second[0]).not.toBe(first[0]);
  });

  it('maps MAX_TOKENS and safety blocks, and closes an unfinished stream', () => {
    const length = run(new GeminiToOpenAIStream({ model: 'm' }), [
      sse({ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: 'MAX_TOKENS' }] }),
    ]);
    expect(length.map((c) => (c.choices as { finish_reason: string | null }[])[0]?.finish_reason)).toEqual([
      null,
      null,
      'length',
    ]);
    const blocked = run(new GeminiToOpenAIStream({ model: 'm' }), [
      sse({ promptFeedback: { blockReason: 'SAFETY' } }),
    ]);
    expect(blocked.map((c) => (c.choices as { finish_reason: string | null }[])[0]?.finish_reason)).toEqual([
      null,
      'content_filter',
    ]);
    const cut = run(new GeminiToOpenAIStream({ model: 'm' }), [
      sse({ candidates: [{ content: { parts: [{ text: 'x' }] } }] }),
      { data: 'not json' },
    ]);
    expect(cut.map((c) => (c.choices as { finish_reason: string | null }[])[0]?.finish_reason)).toEqual([
      null,
      null,
      'stop',
    ]);
  });
});

describe('OpenAIToGeminiStream', () => {
  const chunk = (delta: JsonMap, finish: string | null = null): JsonObject => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    model: 'gpt-4o',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

  it('streams text and sends tool calls, finishReason and usage on the last event', () => {
    const conv = new OpenAIToGeminiStream();
    const out = run(conv, [
      chunk({ role: 'assistant', content: '' }),
      chunk({ reasoning_content: 'think' }),
      chunk({ content: 'Hi' }),
      chunk({
        tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'w', arguments: '' } }],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"c":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
      chunk({}, 'tool_calls'),
      {
        id: 'chatcmpl-1',
        choices: [],
        usage: {
          prompt_tokens: 5,
          completion_tokens: 7,
          total_tokens: 12,
          prompt_tokens_details: { cached_tokens: 2 },
        },
      },
    ]).map((e) => {
      expect(e.event).toBeUndefined();
      return JSON.parse(e.data) as unknown;
    });
    const meta = { modelVersion: 'gpt-4o', responseId: 'chatcmpl-1' };
    expect(out).toEqual([
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'think', thought: true }] }, index: 0 }],
        ...meta,
      },
      { candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, index: 0 }], ...meta },
      {
        candidates: [
          {
            content: { role: 'model', parts: [{ functionCall: { name: 'w', args: { c: 1 } } }] },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: {
          promptTokenCount: 5,
          candidatesTokenCount: 7,
          totalTokenCount: 12,
          cachedContentTokenCount: 2,
        },
        ...meta,
      },
    ]);
  });

  it('emits the last event at end() when no usage arrives', () => {
    const conv = new OpenAIToGeminiStream({ model: 'gemini-x' });
    const during = [chunk({ content: 'a' }), chunk({}, 'length')].flatMap((c) => conv.push(c));
    expect(during).toHaveLength(1);
    const tail = conv.end().map((e) => JSON.parse(e.data) as unknown);
    expect(tail).toEqual([
      {
        candidates: [
          { content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'MAX_TOKENS', index: 0 },
        ],
        modelVersion: 'gemini-x',
        responseId: 'chatcmpl-1',
      },
    ]);
    expect(conv.end()).toEqual([]);
  });

  it('attaches usage that arrives together with the finish', () => {
    const conv = new OpenAIToGeminiStream();
    const out = conv.push({
      choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
    expect(out.map((e) => JSON.parse(e.data) as unknown)).toEqual([
      { candidates: [{ content: { role: 'model', parts: [{ text: 'x' }] }, index: 0 }] },
      {
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
      },
    ]);
    expect(conv.end()).toEqual([]);
  });

  it('round-trips with GeminiToOpenAIStream', () => {
    const toGemini = new OpenAIToGeminiStream();
    const gemini = run(toGemini, [
      chunk({ content: 'Hello' }),
      chunk({
        tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'f', arguments: '{}' } }],
      }),
      chunk({}, 'tool_calls'),
      { choices: [], usage: { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 } },
    ]);
    const chat = run(new GeminiToOpenAIStream({ model: 'm' }), gemini);
    const deltas = chat.map((c) => (c.choices as { delta: JsonObject; finish_reason: string | null }[])[0]);
    expect(deltas.map((d) => d?.delta)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'Hello' },
      {
        tool_calls: [{ index: 0, id: madeId(0), type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      {},
      undefined,
    ]);
    expect(deltas[3]?.finish_reason).toBe('tool_calls');
    expect(chat[4].usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 });
  });
});

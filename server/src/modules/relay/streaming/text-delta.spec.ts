import { OpenAIToAnthropicStream } from '../formats/anthropic/stream';
import { OpenAIToGeminiStream } from '../formats/gemini/stream';
import { OpenAIToResponsesStream } from '../formats/responses/stream';
import type { JsonObject, SseEvent, StreamConverter } from '../types';
import { fromHubStream, toHubStream } from '../formats';
import { anthropicTextDelta, isAnthropicDelta, openaiTextDelta, UsageProbe } from './usage-probe';

const chunk = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}, finish: unknown = null) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'deepseek-chat',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  });

describe('openaiTextDelta: a chunk that is only a text delta, read without a parse', () => {
  const cases: [string, string, string | null][] = [
    ['a token', chunk({ content: 'Hello' }), 'Hello'],
    ['unicode', chunk({ content: '你好' }), '你好'],
    ['an empty token', chunk({ content: '' }), ''],
    ['usage null beside it', chunk({ content: 'x' }, { usage: null }), 'x'],
    ['a role chunk with empty content', chunk({ role: 'assistant', content: '' }), ''],
    ['a token with escapes', chunk({ content: 'a\nb "c" \\ \u0001' }), 'a\nb "c" \\ \u0001'],
    [
      'members in another order (as DashScope writes them)',
      '{"choices":[{"delta":{"content":"x"},"finish_reason":null,"index":0,"logprobs":null}],"object":"chat.completion.chunk","usage":null,"created":1,"system_fingerprint":null,"model":"qwen-plus","id":"chatcmpl-1"}',
      'x',
    ],
    ['null content', chunk({ content: null }), null],
    ['reasoning_content', chunk({ reasoning_content: 'hmm', content: null }), null],
    ['reasoning (another spelling)', chunk({ reasoning: 'hmm', content: 'x' }), null],
    ['a tool call', chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }), null],
    ['the finish chunk', chunk({}, {}, 'stop'), null],
    ['text with a finish reason', chunk({ content: 'x' }, {}, 'length'), null],
    ['usage', chunk({ content: 'x' }, { usage: { prompt_tokens: 1, completion_tokens: 1 } }), null],
    ['two choices', JSON.stringify({ choices: [{ delta: {} }, { delta: { content: 'b' } }] }), null],
    ['the second choice of n', JSON.stringify({ choices: [{ index: 1, delta: { content: 'b' } }] }), null],
    ['a logprobs array', chunk({ content: 'x' }, { logprobs: { content: [] } }), null],
    ['completions text', JSON.stringify({ choices: [{ text: 'Hi', index: 0 }] }), null],
    ['choices again after it', chunk({ content: 'x' }).slice(0, -1) + ',"choices":"none"}', null],
    ['choices not at the top', JSON.stringify({ x: { choices: [{ delta: { content: 'b' } }] } }), null],
    ['an escape outside the content', chunk({ content: 'x' }, { id: 'a"b\\c' }), 'x'],
    ['a raw control character in the content', chunk({ content: 'x' }).replace('"x"', '"a\nb"'), null],
    [
      'a raw control character in another string',
      chunk({ content: 'x' }, { id: 'a\u0001' }).replace('\\u0001', '\u0001'),
      null,
    ],
    [
      'a number with a leading zero',
      chunk({ content: 'x' }).replace('"created":1700000000', '"created":01'),
      null,
    ],
    ['whitespace between tokens', chunk({ content: 'x' }).replace('"content":', '"content": '), null],
    ['an escape JSON does not have', chunk({ content: 'x' }).replace('"x"', '"a\\qb"'), null],
    ['not an object', '[DONE]', null],
    ['longer than the grammar is worth', chunk({ content: 'x'.repeat(1000) }), null],
    ['cut short', chunk({ content: 'Hello' }).slice(0, -3), null],
  ];
  it.each(cases)('%s', (_label, json, expected) => {
    expect(openaiTextDelta(json)).toBe(expected);
    // Wherever it answers, the parser reads the same text from the one choice.
    if (expected !== null)
      expect(
        (JSON.parse(json) as { choices: { delta: { content: string } }[] }).choices[0].delta.content,
      ).toBe(expected);
  });
});

describe.each([
  ['an Anthropic caller', () => new OpenAIToAnthropicStream({ model: 'claude-sonnet-4', id: 'msg_1' })],
  ['a Responses caller', () => new OpenAIToResponsesStream({ model: 'gpt-5', id: 'resp_1', createdAt: 1 })],
  ['a Gemini caller', () => new OpenAIToGeminiStream()],
] as [string, () => StreamConverter<JsonObject, SseEvent>][])(
  'an OpenAI stream converted for %s: text deltas unparsed, the same events',
  (_caller, converter) => {
    /** Runs the chunks through the converter and the probe as the stream pump does, with or without the fast path. */
    function run(chunks: string[], fast: boolean) {
      const conv = converter();
      const probe = new UsageProbe('openai');
      const out: SseEvent[] = [];
      let unparsed = 0;
      for (const c of chunks) {
        const text = fast ? openaiTextDelta(c) : null;
        const events = text === null ? null : conv.pushText!(text);
        if (events) {
          unparsed++;
          probe.observeText(text!);
          out.push(...events);
          continue;
        }
        const parsed = JSON.parse(c) as JsonObject;
        probe.observe(undefined, parsed);
        out.push(...conv.push(parsed));
      }
      out.push(...conv.end());
      return {
        out,
        unparsed,
        usage: probe.reportedUsage(),
        counted: probe.countedCompletion(),
        first: probe.firstTokenAt > 0,
      };
    }

    const usage = { prompt_tokens: 9, completion_tokens: 21, total_tokens: 30 };
    const streams: [string, string[]][] = [
      [
        'text only',
        [
          chunk({ role: 'assistant', content: '' }),
          ...['Hel', 'lo', ', ', '世界', '', ' again'].map((t) => chunk({ content: t })),
          chunk({ content: 'line\nbreak' }),
          chunk({}, {}, 'stop'),
          chunk({}, { choices: [], usage }),
        ],
      ],
      [
        'reasoning, then text, then a tool call',
        [
          chunk({ role: 'assistant', content: null, reasoning_content: 'Think' }),
          chunk({ reasoning_content: 'ing.' }),
          chunk({ content: 'I will ' }),
          chunk({ content: 'read it.' }),
          chunk({ tool_calls: [{ index: 0, id: 'call_1', function: { name: 'read', arguments: '' } }] }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{"path":"a.ts"}' } }] }),
          chunk({ content: 'after the tool' }),
          chunk({}, {}, 'tool_calls'),
          chunk({}, { choices: [], usage }),
        ],
      ],
      [
        'a first chunk without id or model',
        [
          JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant', content: 'A' } }] }),
          chunk({ content: 'B' }),
          chunk({ content: 'C' }),
          chunk({ content: 'D' }),
          chunk({}, { usage }, 'stop'),
        ],
      ],
      [
        'no usage at all, cut after text',
        [
          chunk({ role: 'assistant', content: 'First' }),
          chunk({ content: ' second' }),
          chunk({ content: ' third' }),
        ],
      ],
    ];

    it.each(streams)('%s', (_label, chunks) => {
      const parsed = run(chunks, false);
      const fast = run(chunks, true);
      expect(fast.out).toEqual(parsed.out);
      expect(fast.usage).toEqual(parsed.usage);
      expect(fast.counted).toBe(parsed.counted);
      expect(fast.first).toBe(parsed.first);
      // The text deltas after the first chunk took the unparsed way.
      expect(fast.unparsed).toBeGreaterThanOrEqual(2);
    });
  },
);

describe('anthropicTextDelta: a Messages API text delta read without a parse', () => {
  const delta = (d: Record<string, unknown>, index = 0) =>
    JSON.stringify({ type: 'content_block_delta', index, delta: d });
  const cases: [string, string, string | null][] = [
    ['a token', delta({ type: 'text_delta', text: 'Hello' }), 'Hello'],
    ['escapes', delta({ type: 'text_delta', text: 'a\n"b"\t\\' }, 3), 'a\n"b"\t\\'],
    ['empty', delta({ type: 'text_delta', text: '' }), ''],
    ['thinking', delta({ type: 'thinking_delta', thinking: 'x' }), null],
    ['tool input', delta({ type: 'input_json_delta', partial_json: '{"a":1}' }), null],
    [
      'another member order',
      JSON.stringify({ index: 0, type: 'content_block_delta', delta: { type: 'text_delta', text: 'x' } }),
      null,
    ],
    ['an extra member', delta({ type: 'text_delta', text: 'x', extra: 1 }), null],
    ['a bad escape', delta({ type: 'text_delta', text: 'x' }).replace('"x"', '"\\q"'), null],
    ['cut short', delta({ type: 'text_delta', text: 'Hello' }).slice(0, -2), null],
  ];
  it.each(cases)('%s', (_label, json, expected) => {
    expect(anthropicTextDelta(json)).toBe(expected);
    // A text delta is one of the deltas held unparsed; what is held is valid JSON.
    if (expected !== null) expect(isAnthropicDelta(json)).toBe(true);
    if (expected !== null)
      expect((JSON.parse(json) as { delta: { text: string } }).delta.text).toBe(expected);
  });
});

describe('isAnthropicDelta: a content block delta held unparsed is one JSON would read', () => {
  const delta = (d: Record<string, unknown>) =>
    JSON.stringify({ type: 'content_block_delta', index: 12, delta: d });
  it.each([
    ['text', delta({ type: 'text_delta', text: 'a "b"\n' }), true],
    ['thinking', delta({ type: 'thinking_delta', thinking: 'hmm' }), true],
    ['tool input', delta({ type: 'input_json_delta', partial_json: '{"path": "src/a.ts"' }), true],
    ['signature', delta({ type: 'signature_delta', signature: 'EqQBCgIYAhIM' }), true],
    ['another kind', delta({ type: 'citations_delta', citation: {} }), false],
    [
      'a raw line break in the text',
      delta({ type: 'text_delta', text: 'x' }).replace('"x"', '"a\nb"'),
      false,
    ],
    ['an escape JSON does not have', delta({ type: 'text_delta', text: 'x' }).replace('"x"', '"\\q"'), false],
    [
      'an index with a leading zero',
      delta({ type: 'text_delta', text: 'x' }).replace('"index":12', '"index":012'),
      false,
    ],
    ['a brace short', delta({ type: 'text_delta', text: 'x' }).slice(0, -1), false],
    ['something after it', delta({ type: 'text_delta', text: 'x' }).slice(0, -1) + ',"x":1}', false],
  ])('%s', (_label, json, expected) => {
    expect(isAnthropicDelta(json)).toBe(expected);
    if (expected) expect(() => JSON.parse(json) as unknown).not.toThrow();
  });
});

describe('a long event is left to the parser', () => {
  it('answers null at once for a 10 MB chunk (a regular expression would run out of stack on it)', () => {
    const content = 'ab"\n'.repeat(2_500_000);
    const openai = JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] });
    const anthropic = JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: content },
    });
    expect(openaiTextDelta(openai)).toBeNull();
    expect(anthropicTextDelta(anthropic)).toBeNull();
    expect(isAnthropicDelta(anthropic)).toBe(false);
    // Just under the bound, read as the parser reads it.
    const near = chunk({ content: 'y'.repeat(840) });
    expect(near.length).toBeLessThanOrEqual(1024);
    expect(openaiTextDelta(near)).toBe('y'.repeat(840));
  });
});

describe('an Anthropic stream converted for an OpenAI caller: text deltas unparsed, the same bytes', () => {
  const ev = (type: string, data: Record<string, unknown>): SseEvent => ({
    event: type,
    data: JSON.stringify({ type, ...data }),
  });
  const text = (t: string, index = 0) =>
    ev('content_block_delta', { index, delta: { type: 'text_delta', text: t } });
  const events: SseEvent[] = [
    ev('message_start', {
      message: {
        id: 'msg_01X',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-20250514',
        content: [],
        usage: { input_tokens: 12, output_tokens: 1 },
      },
    }),
    ev('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '' } }),
    ev('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'Let me see.' } }),
    ev('content_block_stop', { index: 0 }),
    ev('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
    ev('ping', {}),
    ...['Hel', 'lo', '', ' 世界', ' "quoted"\n', '\\'].map((t) => text(t, 1)),
    ev('content_block_stop', { index: 1 }),
    ev('content_block_start', {
      index: 2,
      content_block: { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} },
    }),
    ev('content_block_delta', {
      index: 2,
      delta: { type: 'input_json_delta', partial_json: '{"path":"a.ts"}' },
    }),
    ev('content_block_stop', { index: 2 }),
    ev('message_delta', {
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 30 },
    }),
    ev('message_stop', {}),
  ];

  function run(fast: boolean) {
    const toHub = toHubStream('anthropic', 'claude-sonnet-4');
    const fromHub = fromHubStream('openai', 'claude-sonnet-4', 'req1');
    const probe = new UsageProbe('openai');
    const out: string[] = [];
    let unparsed = 0;
    const emit = (chunk: JsonObject) => {
      probe.observe(undefined, chunk);
      for (const o of fromHub.push(chunk)) out.push(o.data);
    };
    for (const e of events) {
      const t = fast ? anthropicTextDelta(e.data) : null;
      const hub = t === null ? null : toHub.pushText!(t);
      if (hub) unparsed++;
      for (const chunk of hub ?? toHub.push(e)) emit(chunk);
    }
    for (const chunk of toHub.end()) emit(chunk);
    return { out, unparsed, usage: probe.reportedUsage(), counted: probe.countedCompletion() };
  }

  it('gives the caller the same text, byte for byte, and the same usage', () => {
    const parsed = run(false);
    const fast = run(true);
    expect(fast.out).toEqual(parsed.out);
    expect(fast.usage).toEqual(parsed.usage);
    expect(fast.counted).toBe(parsed.counted);
    expect(fast.unparsed).toBe(6);
    expect(parsed.out.join('')).toContain('"content":" \\"quoted\\"\\n"');
  });

  it('writes a text chunk as JSON.stringify does, and any other chunk by JSON.stringify itself', () => {
    const fromHub = fromHubStream('openai', 'gpt-4o', 'req1');
    const chunks: JsonObject[] = [
      {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: 'x',
        choices: [{ index: 0, delta: { content: 'a"\u2028\ud83d\ude00' }, finish_reason: null }],
      },
      {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1.5,
        model: 'x',
        choices: [{ index: 0, delta: { content: '' }, finish_reason: null }],
      },
      {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'x',
        choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
      },
      {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'x',
        choices: [{ index: 0, delta: { content: 'x' }, finish_reason: 'stop' }],
      },
      {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'x',
        choices: [{ index: 1, delta: { content: 'x' }, finish_reason: null }],
      },
      {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'x',
        choices: [{ delta: { content: 'x' }, index: 0, finish_reason: null }],
      },
      {
        id: 'c1',
        object: 'chat.completion.chunk',
        created: 1,
        model: 'x',
        choices: [],
        usage: { prompt_tokens: 1 },
      },
      {
        object: 'chat.completion.chunk',
        id: 'c1',
        created: 1,
        model: 'x',
        choices: [{ index: 0, delta: { content: 'x' }, finish_reason: null }],
      },
    ];
    for (const chunk of chunks)
      expect(fromHub.push(chunk).map((e) => e.data)).toEqual([JSON.stringify({ ...chunk, model: 'gpt-4o' })]);
  });
});

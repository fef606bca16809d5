import { OpenAIToAnthropicStream } from '../formats/anthropic/stream';
import { OpenAIToResponsesStream } from '../formats/responses/stream';
import type { JsonObject, SseEvent, StreamConverter } from '../types';
import { openaiTextDelta, UsageProbe } from './usage-probe';

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
    ['an escape outside the content', chunk({ content: 'x' }, { id: 'a"b' }), null],
    ['an escape JSON does not have', chunk({ content: 'x' }).replace('"x"', '"a\\qb"'), null],
    ['not an object', '[DONE]', null],
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

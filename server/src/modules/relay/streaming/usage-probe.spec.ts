import { textTokens } from '../usage';
import { anthropicDeltaContent, openaiChunkContent, UsageProbe } from './usage-probe';

/** Whether a chunk carries text, as `hold` reads it before the first token (null: only a parse can tell). */
const openaiChunkText = (json: string) => {
  const text = openaiChunkContent(json);
  return text === null ? null : text.length > 0;
};

const chunk = (content: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    id: 'c1',
    object: 'chat.completion.chunk',
    model: 'gpt-4o-mini',
    choices: [{ index: 0, delta: { content } }],
    ...extra,
  });

describe('UsageProbe', () => {
  it('counts deferred chunks when the upstream never reports usage', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i} 你好 `);
    const eager = new UsageProbe('openai');
    const lazy = new UsageProbe('openai');
    for (const w of words) {
      eager.observe(undefined, JSON.parse(chunk(w)));
      lazy.defer(chunk(w));
    }
    expect(lazy.reportedUsage()).toBeNull();
    expect(lazy.countedCompletion()).toBe(textTokens(words.join('')));
    expect(lazy.countedCompletion()).toBe(eager.countedCompletion());
  });

  it('reads held chunks once they pass the limit, so long answers keep a bounded buffer', () => {
    const piece = 'x'.repeat(200) + ' ';
    const probe = new UsageProbe('openai');
    const eager = new UsageProbe('openai');
    // ~300 chunks of ~300 bytes: several drains of the 16 KiB holding buffer.
    for (let i = 0; i < 300; i++) {
      probe.defer(chunk(piece));
      eager.observe(undefined, JSON.parse(chunk(piece)));
    }
    expect((probe as unknown as { deferredSize: number }).deferredSize).toBeLessThan(16_384);
    const counted = probe.countedCompletion();
    expect(counted).toBe(eager.countedCompletion());
    // The tokenizer reads the text in batches, so the count is within a few tokens of the whole text's.
    expect(Math.abs(counted - textTokens(piece.repeat(300)))).toBeLessThan(30);
  });

  it('skips held chunks that are not JSON and still counts the rest', () => {
    const probe = new UsageProbe('openai');
    probe.defer('{not json');
    probe.defer(chunk('hello world'));
    expect(probe.countedCompletion()).toBe(textTokens('hello world'));
  });

  it('reads plain held chunks without a parse, and counts what a parse would', () => {
    const pieces = Array.from({ length: 400 }, (_, i) => (i % 7 ? ` word${i}` : ` 你好${i}`));
    const probe = new UsageProbe('openai');
    const eager = new UsageProbe('openai');
    const parse = jest.spyOn(JSON, 'parse');
    try {
      // 400 chunks of ~110 bytes pass the 16 KiB holding limit twice: both drains read the text alone.
      for (const p of pieces) probe.defer(chunk(p));
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    for (const p of pieces) eager.observe(undefined, JSON.parse(chunk(p)));
    expect(probe.countedCompletion()).toBe(eager.countedCompletion());
    expect(probe.countedCompletion()).toBe(textTokens(pieces.join('')));
  });

  it('does not run the tokenizer on a long answer before it knows the usage is missing', () => {
    type Inside = { counted: number; pending: string };
    const probe = new UsageProbe('anthropic');
    probe.observe('message_start', { message: { usage: { input_tokens: 12, output_tokens: 1 } } });
    const piece = 'const total = items.reduce((sum, x) => sum + x.price, 0);\n';
    // 59,000 characters of text, in the deltas Claude Code's answers arrive in: held, none counted yet.
    for (let i = 0; i < 1000; i++)
      probe.observe('content_block_delta', { type: 'content_block_delta', delta: { text: piece } });
    expect((probe as unknown as Inside).counted).toBe(0);
    expect((probe as unknown as Inside).pending).toBe(piece.repeat(1000));
    probe.observe('message_delta', { usage: { output_tokens: 15_000 } });
    expect(probe.reportedUsage()).toMatchObject({ prompt_tokens: 12, completion_tokens: 15_000 });
    // Had the usage not come, the text is all there to count, once.
    const cut = new UsageProbe('anthropic');
    for (let i = 0; i < 1000; i++)
      cut.observe('content_block_delta', { type: 'content_block_delta', delta: { text: piece } });
    expect(cut.countedCompletion()).toBe(textTokens(piece.repeat(1000)));
  });

  it('counts a very long answer in batches, so the held text stays bounded', () => {
    const probe = new UsageProbe('openai');
    const piece = 'abc '.repeat(50);
    for (let i = 0; i < 1000; i++) probe.observe(undefined, JSON.parse(chunk(piece)));
    // 200,000 characters: counted in batches of 65,536 on the way, the rest at the end.
    expect((probe as unknown as { pending: string }).pending.length).toBeLessThan(65_536);
    const counted = probe.countedCompletion();
    expect(Math.abs(counted - textTokens(piece.repeat(1000)))).toBeLessThan(10);
  });

  it('reported usage wins over held text', () => {
    const probe = new UsageProbe('openai');
    probe.observe(undefined, JSON.parse(chunk('first')));
    expect(probe.firstTokenAt).toBeGreaterThan(0);
    probe.defer(chunk(' second'));
    probe.observe(undefined, {
      choices: [],
      usage: { prompt_tokens: 7, completion_tokens: 9, total_tokens: 16 },
    });
    expect(probe.reportedUsage()).toMatchObject({ prompt_tokens: 7, completion_tokens: 9 });
  });

  describe('openaiChunkContent: the text a chunk carries, without parsing it', () => {
    const delta = (d: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      JSON.stringify({
        id: 'c1',
        object: 'chat.completion.chunk',
        model: 'gpt-4o-mini',
        choices: [{ index: 0, delta: d, logprobs: null, finish_reason: null }],
        ...extra,
      });
    const cases: [string, string, boolean | null][] = [
      ['role only, empty content', delta({ role: 'assistant', content: '', refusal: null }), false],
      ['role only, no content', delta({ role: 'assistant' }), false],
      ['null content', delta({ content: null }), false],
      ['finish chunk', delta({}), false],
      ['a token', delta({ content: 'Hello' }), true],
      ['a token of one quote-free space', delta({ content: ' ' }), true],
      ['reasoning before content', delta({ reasoning_content: 'think', content: null }), true],
      ['completions text', JSON.stringify({ choices: [{ text: 'Hi', index: 0 }], model: 'm' }), true],
      ['unicode token', delta({ content: '你好' }), true],
      ['a token with an escape', delta({ content: 'line\nbreak' }), null],
      ['an escaped quote', delta({ content: 'say "hi"' }), null],
      ['tool call', delta({ tool_calls: [{ index: 0, function: { name: 'f', arguments: '' } }] }), null],
      ['logprobs content array', delta({ content: '' }, { logprobs: { content: [] } }), null],
      ['a space after the colon', '{"model":"m","choices":[{"delta":{"content": "Hi"}}]}', null],
      ['a space before the colon', '{"model":"m","choices":[{"delta":{"content" :""}}]}', null],
      ['content as a value', '{"model":"m","choices":[{"delta":{"role":"content"}}]}', null],
    ];
    it.each(cases)('%s', (_label, json, expected) => {
      expect(openaiChunkText(json)).toBe(expected);
      if (expected === null) return expect(openaiChunkContent(json)).toBeNull();
      // Where it answers, it answers as the parser does, and reads the text the parser reads.
      const probe = new UsageProbe('openai');
      probe.observe(undefined, JSON.parse(json));
      expect(probe.firstTokenAt > 0).toBe(expected);
      expect(openaiChunkContent(json)).toBe((probe as unknown as { pending: string }).pending);
    });

    it('leaves a chunk with two text values or text beside a tool call to the parser', () => {
      expect(openaiChunkContent(delta({ reasoning_content: 'think', content: 'say' }))).toBeNull();
      expect(
        openaiChunkContent(
          JSON.stringify({
            model: 'm',
            choices: [
              { index: 0, delta: { content: 'a' } },
              { index: 1, delta: { content: 'b' } },
            ],
          }),
        ),
      ).toBeNull();
      expect(
        openaiChunkContent(
          delta({ content: 'x', tool_calls: [{ index: 0, function: { name: 'f', arguments: '{}' } }] }),
        ),
      ).toBeNull();
    });

    it('hold times the first token by the text alone and parses nothing before usage is missing', () => {
      const probe = new UsageProbe('openai');
      const parse = jest.spyOn(JSON, 'parse');
      try {
        expect(probe.hold(delta({ role: 'assistant', content: '' }))).toBe(true);
        expect(probe.firstTokenAt).toBe(0);
        const before = Date.now();
        expect(probe.hold(delta({ content: 'Hello' }))).toBe(true);
        expect(probe.firstTokenAt).toBeGreaterThanOrEqual(before);
        const first = probe.firstTokenAt;
        expect(probe.hold(delta({ content: ' world' }))).toBe(true);
        expect(probe.firstTokenAt).toBe(first);
        expect(parse).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
      }
      // Usage never came: the held chunks are read for the tokenizer, the first token's time kept.
      expect(probe.countedCompletion()).toBe(textTokens('Hello world'));
      expect(probe.firstTokenAt).toBeGreaterThan(0);
    });

    it('hold refuses a chunk only a parse can read while the first token is not timed', () => {
      const probe = new UsageProbe('openai');
      expect(probe.hold(delta({ content: 'a\nb' }))).toBe(false);
      expect(probe.countedCompletion()).toBe(0);
      probe.observe(undefined, JSON.parse(delta({ content: 'a\nb' })));
      expect(probe.firstTokenAt).toBeGreaterThan(0);
      // Once timed, every chunk is held.
      expect(probe.hold(delta({ content: 'c\nd' }))).toBe(true);
    });
  });

  describe('anthropicDeltaContent: the text a Messages API delta carries, without parsing it', () => {
    const delta = (d: Record<string, unknown>) =>
      JSON.stringify({ type: 'content_block_delta', index: 0, delta: d });
    const cases: [string, string, string | null][] = [
      ['a text delta', delta({ type: 'text_delta', text: 'Hello' }), 'Hello'],
      ['an empty text delta', delta({ type: 'text_delta', text: '' }), ''],
      ['unicode text', delta({ type: 'text_delta', text: '你好，世界' }), '你好，世界'],
      ['thinking', delta({ type: 'thinking_delta', thinking: 'Let me see' }), 'Let me see'],
      ['a signature', delta({ type: 'signature_delta', signature: 'EqQBCgIYAhIM' }), ''],
      ['tool input without escapes', delta({ type: 'input_json_delta', partial_json: '' }), ''],
      [
        'tool input with quotes',
        delta({ type: 'input_json_delta', partial_json: '{"path": "a.ts"' }),
        '{"path": "a.ts"',
      ],
      ['text with a line break', delta({ type: 'text_delta', text: 'a\nb' }), 'a\nb'],
      ['a type without its text', delta({ type: 'text_delta' }), null],
      ['text under another type', delta({ type: 'thinking_delta', text: 'x' }), null],
      ['an empty text beside thinking', delta({ type: 'text_delta', text: '', thinking: 'x' }), null],
      ['a space after the colon', '{"type":"content_block_delta","index":0,"delta":{"text": "Hi"}}', null],
      ['text as a value', '{"type":"content_block_delta","index":0,"delta":{"type":"text"}}', null],
    ];
    it.each(cases)('%s', (_label, json, expected) => {
      expect(anthropicDeltaContent(json)).toBe(expected);
      if (expected === null) return;
      // Where it answers, it reads the text the parser reads.
      const probe = new UsageProbe('anthropic');
      probe.observe('content_block_delta', JSON.parse(json));
      expect((probe as unknown as { pending: string }).pending).toBe(expected);
      expect(probe.firstTokenAt > 0).toBe(expected.length > 0);
    });

    it('holds text deltas unparsed, times the first token, and counts them only if usage is missing', () => {
      const words = Array.from({ length: 300 }, (_, i) => (i % 5 ? ` token${i}` : ` 漢字${i}`));
      const probe = new UsageProbe('anthropic');
      const eager = new UsageProbe('anthropic');
      const parse = jest.spyOn(JSON, 'parse');
      try {
        expect(probe.hold(delta({ type: 'text_delta', text: '' }))).toBe(true);
        expect(probe.firstTokenAt).toBe(0);
        for (const w of words) expect(probe.hold(delta({ type: 'text_delta', text: w }))).toBe(true);
        expect(probe.firstTokenAt).toBeGreaterThan(0);
        // 300 deltas of ~90 bytes pass the 16 KiB holding limit: read by their text alone.
        expect(parse).not.toHaveBeenCalled();
      } finally {
        parse.mockRestore();
      }
      for (const w of words)
        eager.observe('content_block_delta', JSON.parse(delta({ type: 'text_delta', text: w })));
      expect(probe.countedCompletion()).toBe(eager.countedCompletion());
      expect(probe.countedCompletion()).toBe(textTokens(words.join('')));
    });

    it('refuses a delta not in the shape Anthropic writes while the first token is not timed', () => {
      const probe = new UsageProbe('anthropic');
      const spaced = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text": "a"}}';
      expect(probe.hold(spaced)).toBe(false);
      probe.observe('content_block_delta', JSON.parse(spaced));
      expect(probe.firstTokenAt).toBeGreaterThan(0);
      // Once timed, every delta is held; one with escapes is read by its text all the same.
      expect(probe.hold(delta({ type: 'input_json_delta', partial_json: '{"a":1}' }))).toBe(true);
      expect(probe.hold(spaced)).toBe(true);
      expect(probe.countedCompletion()).toBe(textTokens('a{"a":1}a'));
    });
  });
});

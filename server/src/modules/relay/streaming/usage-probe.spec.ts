import { textTokens } from '../usage';
import { UsageProbe } from './usage-probe';

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
});

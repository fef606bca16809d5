import { anthropicUsage, anthropicUsageFromOpenAI, openAIUsageFromCounts } from './usage';

describe('anthropicUsage', () => {
  it('counts cache reads and cache creation in the prompt', () => {
    expect(
      anthropicUsage({
        input_tokens: 10,
        output_tokens: 7,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 20,
      }),
    ).toEqual({
      prompt_tokens: 130,
      completion_tokens: 7,
      cached_tokens: 100,
      cache_creation_tokens: 20,
      reasoning_tokens: 0,
    });
  });

  it('reads missing, null, negative or non-numeric counters as 0', () => {
    expect(anthropicUsage(undefined)).toEqual({
      prompt_tokens: 0,
      completion_tokens: 0,
      cached_tokens: 0,
      cache_creation_tokens: 0,
      reasoning_tokens: 0,
    });
    expect(
      anthropicUsage({ input_tokens: '5', output_tokens: -3, cache_read_input_tokens: null }).prompt_tokens,
    ).toBe(0);
  });
});

describe('usage between OpenAI and Anthropic', () => {
  it('OpenAI usage → Anthropic input excludes cached and cache-creation tokens', () => {
    expect(
      anthropicUsageFromOpenAI({
        prompt_tokens: 130,
        completion_tokens: 7,
        prompt_tokens_details: { cached_tokens: 100, cache_creation_tokens: 20 },
      }),
    ).toEqual({
      input_tokens: 10,
      output_tokens: 7,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 20,
    });
  });

  it('round-trips through the hub', () => {
    const anthropic = {
      input_tokens: 3,
      output_tokens: 4,
      cache_read_input_tokens: 5,
      cache_creation_input_tokens: 6,
    };
    const openai = openAIUsageFromCounts(anthropicUsage(anthropic));
    expect(openai).toEqual({
      prompt_tokens: 14,
      completion_tokens: 4,
      total_tokens: 18,
      prompt_tokens_details: { cached_tokens: 5, cache_creation_tokens: 6 },
    });
    expect(anthropicUsageFromOpenAI(openai)).toEqual(anthropic);
  });
});

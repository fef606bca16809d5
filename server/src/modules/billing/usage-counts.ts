/** Token counts of one request, provider-neutral. prompt includes cached and cache-creation tokens. */
export interface UsageCounts {
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
  cache_creation_tokens: number;
  /** Of cache_creation_tokens, those written to a one-hour cache (priced by CacheCreation1hRatio). */
  cache_creation_1h_tokens?: number;
  reasoning_tokens: number;
  /** Audio and image parts of the prompt/completion when the provider reports them. */
  audio_prompt_tokens?: number;
  audio_completion_tokens?: number;
  image_prompt_tokens?: number;
}

export function emptyUsage(): UsageCounts {
  return {
    prompt_tokens: 0,
    completion_tokens: 0,
    cached_tokens: 0,
    cache_creation_tokens: 0,
    reasoning_tokens: 0,
  };
}

/**
 * Responses API usage ⇄ provider-neutral counts and OpenAI chat usage. Both OpenAI formats count
 * cached tokens inside the input and reasoning tokens inside the output.
 */
import type { UsageCounts } from '../../types';
import { asObject, isObject, num, type JsonMap } from '../json';

export function responsesUsage(usage: unknown): UsageCounts {
  const u = asObject(usage);
  return {
    prompt_tokens: num(u.input_tokens) ?? 0,
    completion_tokens: num(u.output_tokens) ?? 0,
    cached_tokens: num(asObject(u.input_tokens_details).cached_tokens) ?? 0,
    cache_creation_tokens: 0,
    reasoning_tokens: num(asObject(u.output_tokens_details).reasoning_tokens) ?? 0,
  };
}

/** Responses `usage` → chat `usage`, or undefined when there is none. */
export function responsesUsageToOpenAI(usage: unknown): JsonMap | undefined {
  if (!isObject(usage)) return undefined;
  const c = responsesUsage(usage);
  return {
    prompt_tokens: c.prompt_tokens,
    completion_tokens: c.completion_tokens,
    total_tokens: num(usage.total_tokens) ?? c.prompt_tokens + c.completion_tokens,
    prompt_tokens_details: { cached_tokens: c.cached_tokens },
    completion_tokens_details: { reasoning_tokens: c.reasoning_tokens },
  };
}

/** Chat `usage` → Responses `usage`, or undefined when there is none. */
export function openAIUsageToResponses(usage: unknown): JsonMap | undefined {
  if (!isObject(usage)) return undefined;
  const input = num(usage.prompt_tokens) ?? 0;
  const output = num(usage.completion_tokens) ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: {
      cached_tokens: num(asObject(usage.prompt_tokens_details).cached_tokens) ?? 0,
      // Cache writes an Anthropic channel reports (chat usage carries them as cache_creation_tokens).
      cache_write_tokens: num(asObject(usage.prompt_tokens_details).cache_creation_tokens) ?? 0,
    },
    output_tokens: output,
    output_tokens_details: {
      reasoning_tokens: num(asObject(usage.completion_tokens_details).reasoning_tokens) ?? 0,
    },
    total_tokens: num(usage.total_tokens) ?? input + output,
  };
}

/** Token usage between Anthropic's shape (input excludes cache) and OpenAI's (prompt includes cache). */
import type { UsageCounts } from '../../types';
import { asNumber, asObject, type JsonMap } from './shared';

function count(x: unknown): number {
  const n = asNumber(x);
  return n !== undefined && n > 0 ? Math.floor(n) : 0;
}

/** Anthropic usage object → provider-neutral counts (prompt includes cache reads and cache creation). */
export function anthropicUsage(usage: unknown): UsageCounts {
  const u = asObject(usage);
  const cached = count(u.cache_read_input_tokens);
  const creation = count(u.cache_creation_input_tokens);
  const out: UsageCounts = {
    prompt_tokens: count(u.input_tokens) + cached + creation,
    completion_tokens: count(u.output_tokens),
    cached_tokens: cached,
    cache_creation_tokens: creation,
    reasoning_tokens: 0,
  };
  // The one-hour part of the cache writes (`cache_creation.ephemeral_1h_input_tokens`) has its own price.
  const oneHour = Math.min(creation, count(asObject(u.cache_creation).ephemeral_1h_input_tokens));
  if (oneHour > 0) out.cache_creation_1h_tokens = oneHour;
  return out;
}

/** Counts → the `usage` member of an OpenAI chat completion (or its last stream chunk). */
export function openAIUsageFromCounts(counts: UsageCounts): JsonMap {
  return {
    prompt_tokens: counts.prompt_tokens,
    completion_tokens: counts.completion_tokens,
    total_tokens: counts.prompt_tokens + counts.completion_tokens,
    prompt_tokens_details: {
      cached_tokens: counts.cached_tokens,
      cache_creation_tokens: counts.cache_creation_tokens,
      ...(counts.cache_creation_1h_tokens
        ? { cache_creation_1h_tokens: counts.cache_creation_1h_tokens }
        : {}),
    },
  };
}

/** OpenAI usage object → Anthropic usage (input_tokens excludes cache reads and cache creation). */
export function anthropicUsageFromOpenAI(usage: unknown): JsonMap {
  const u = asObject(usage);
  const details = asObject(u.prompt_tokens_details);
  const cached = count(details.cached_tokens ?? u.prompt_cache_hit_tokens);
  const creation = count(details.cache_creation_tokens ?? u.cache_creation_input_tokens);
  return {
    input_tokens: Math.max(0, count(u.prompt_tokens) - cached - creation),
    output_tokens: count(u.completion_tokens),
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: creation,
  };
}

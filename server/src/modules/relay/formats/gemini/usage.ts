/**
 * Gemini usageMetadata ⇄ provider-neutral counts and OpenAI chat usage.
 *
 * Gemini reports thinking separately (thoughtsTokenCount) from candidatesTokenCount; both are billed
 * as output, so completion = candidates + thoughts. Tool-use prompt tokens (built-in tools) are input.
 */
import type { UsageCounts } from '../../types';
import { asObject, isObject, num, objects, str, type JsonMap } from './json';

function modalityCount(details: unknown, modality: string): number | undefined {
  let total: number | undefined;
  for (const d of objects(details)) {
    if (str(d.modality) === modality) total = (total ?? 0) + (num(d.tokenCount) ?? 0);
  }
  return total;
}

export function geminiUsage(usageMetadata: unknown): UsageCounts {
  const u = asObject(usageMetadata);
  const thoughts = num(u.thoughtsTokenCount) ?? 0;
  const counts: UsageCounts = {
    prompt_tokens: (num(u.promptTokenCount) ?? 0) + (num(u.toolUsePromptTokenCount) ?? 0),
    completion_tokens: (num(u.candidatesTokenCount) ?? 0) + thoughts,
    cached_tokens: num(u.cachedContentTokenCount) ?? 0,
    cache_creation_tokens: 0,
    reasoning_tokens: thoughts,
  };
  const audioIn = modalityCount(u.promptTokensDetails, 'AUDIO');
  const imageIn = modalityCount(u.promptTokensDetails, 'IMAGE');
  const audioOut = modalityCount(u.candidatesTokensDetails, 'AUDIO');
  if (audioIn !== undefined) counts.audio_prompt_tokens = audioIn;
  if (imageIn !== undefined) counts.image_prompt_tokens = imageIn;
  if (audioOut !== undefined) counts.audio_completion_tokens = audioOut;
  return counts;
}

/** usageMetadata → OpenAI chat `usage`, or undefined when there is none. */
export function geminiUsageToOpenAI(usageMetadata: unknown): JsonMap | undefined {
  if (!isObject(usageMetadata)) return undefined;
  const c = geminiUsage(usageMetadata);
  const usage: JsonMap = {
    prompt_tokens: c.prompt_tokens,
    completion_tokens: c.completion_tokens,
    total_tokens: num(usageMetadata.totalTokenCount) ?? c.prompt_tokens + c.completion_tokens,
    prompt_tokens_details: { cached_tokens: c.cached_tokens },
    completion_tokens_details: { reasoning_tokens: c.reasoning_tokens },
  };
  if (c.audio_prompt_tokens !== undefined) {
    usage.prompt_tokens_details = { cached_tokens: c.cached_tokens, audio_tokens: c.audio_prompt_tokens };
  }
  return usage;
}

/** OpenAI chat `usage` → Gemini usageMetadata, or undefined when there is none. */
export function openAIUsageToGemini(usage: unknown): JsonMap | undefined {
  if (!isObject(usage)) return undefined;
  const prompt = num(usage.prompt_tokens) ?? 0;
  const completion = num(usage.completion_tokens) ?? 0;
  const cached = num(asObject(usage.prompt_tokens_details).cached_tokens) ?? 0;
  const reasoning = num(asObject(usage.completion_tokens_details).reasoning_tokens) ?? 0;
  const meta: JsonMap = {
    promptTokenCount: prompt,
    candidatesTokenCount: Math.max(0, completion - reasoning),
    totalTokenCount: num(usage.total_tokens) ?? prompt + completion,
  };
  if (cached > 0) meta.cachedContentTokenCount = cached;
  if (reasoning > 0) meta.thoughtsTokenCount = reasoning;
  return meta;
}

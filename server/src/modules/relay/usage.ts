import type { JsonObject, UsageCounts } from './types';
import { emptyUsage } from './types';
import { asObject } from './formats/json';

const num = (v: unknown): number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0;

/** OpenAI chat/completions/embeddings usage, or Responses usage (input_tokens/output_tokens). */
export function openaiUsage(raw: unknown): UsageCounts | null {
  const u = asObject(raw);
  if (!Object.keys(u).length) return null;
  const out = emptyUsage();
  if ('input_tokens' in u || 'output_tokens' in u) {
    out.prompt_tokens = num(u.input_tokens);
    out.completion_tokens = num(u.output_tokens);
    out.cached_tokens = num(asObject(u.input_tokens_details).cached_tokens);
    out.reasoning_tokens = num(asObject(u.output_tokens_details).reasoning_tokens);
    return out;
  }
  const pd = asObject(u.prompt_tokens_details);
  const cd = asObject(u.completion_tokens_details);
  out.prompt_tokens = num(u.prompt_tokens);
  out.completion_tokens = num(u.completion_tokens);
  out.cached_tokens = num(pd.cached_tokens);
  out.cache_creation_tokens = num(pd.cache_creation_tokens);
  const oneHour = Math.min(out.cache_creation_tokens, num(pd.cache_creation_1h_tokens));
  if (oneHour > 0) out.cache_creation_1h_tokens = oneHour;
  out.reasoning_tokens = num(cd.reasoning_tokens);
  if (num(pd.audio_tokens)) out.audio_prompt_tokens = num(pd.audio_tokens);
  if (num(pd.image_tokens)) out.image_prompt_tokens = num(pd.image_tokens);
  if (num(cd.audio_tokens)) out.audio_completion_tokens = num(cd.audio_tokens);
  if (!out.prompt_tokens && !out.completion_tokens && num(u.total_tokens))
    out.prompt_tokens = num(u.total_tokens);
  return out;
}

/** Tokens of a text (tiktoken o200k encoding; an estimate for other providers' models). */
export function textTokens(text: string): number {
  if (!text) return 0;
  // Very long inputs are estimated by length: exact counts would cost more than they are worth.
  if (text.length > 200_000) return Math.ceil(text.length / 4);
  return tokenizer().countTokens(text);
}

/**
 * The tokenizer's tables take ~70 MB, so they are loaded on the first count rather than at start: a
 * gateway whose upstreams all report usage never loads them.
 */
let loaded: typeof import('gpt-tokenizer') | null = null;
function tokenizer(): typeof import('gpt-tokenizer') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('gpt-tokenizer') as typeof import('gpt-tokenizer');
  return loaded;
}

/** A fixed estimate per image part when the upstream reports no usage. */
export const IMAGE_TOKENS_ESTIMATE = 85;

function contentText(content: unknown, acc: { text: string; images: number }): void {
  if (typeof content === 'string') acc.text += content + '\n';
  else if (Array.isArray(content))
    for (const part of content) {
      const p = asObject(part);
      if (typeof p.text === 'string') acc.text += p.text + '\n';
      else if (p.type === 'image_url' || p.type === 'input_image' || p.type === 'image') acc.images++;
    }
}

/** The text of an OpenAI-format request body (chat messages, prompt, input) for counting and screening. */
export function promptText(body: JsonObject): { text: string; images: number; messages: number } {
  const acc = { text: '', images: 0 };
  let messages = 0;
  if (Array.isArray(body.messages))
    for (const m of body.messages) {
      messages++;
      const msg = asObject(m);
      contentText(msg.content, acc);
      if (Array.isArray(msg.tool_calls)) acc.text += JSON.stringify(msg.tool_calls);
    }
  for (const key of ['prompt', 'input', 'query', 'instructions', 'system'] as const) {
    const v = body[key];
    if (typeof v === 'string') acc.text += v + '\n';
    else if (Array.isArray(v))
      for (const item of v) {
        if (typeof item === 'string') acc.text += item + '\n';
        else contentText(asObject(item).content ?? asObject(item).text, acc);
      }
  }
  if (Array.isArray(body.documents))
    for (const d of body.documents) acc.text += (typeof d === 'string' ? d : JSON.stringify(d)) + '\n';
  if (Array.isArray(body.tools)) acc.text += JSON.stringify(body.tools);
  return { ...acc, messages };
}

/** Estimated prompt tokens of an OpenAI-format body (message framing included). */
export function estimatePromptTokens(body: JsonObject): number {
  const p = promptText(body);
  return textTokens(p.text) + p.messages * 3 + (p.messages ? 3 : 0) + p.images * IMAGE_TOKENS_ESTIMATE;
}

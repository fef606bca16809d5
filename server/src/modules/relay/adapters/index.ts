/**
 * Registry of provider adapters by channel type id (see channel-types.ts). Types without an entry
 * (2, 5 Midjourney, 11 PaLM, 36 Suno, and the ones below still to be wired) have no relay adapter.
 */
import type { ProviderAdapter } from '../types';
import { anthropicAdapter } from './anthropic';
import { azureAdapter } from './azure';
import { cloudflareAdapter } from './cloudflare';
import { cohereAdapter } from './cohere';
import { difyAdapter } from './dify';
import { geminiAdapter } from './gemini';
import { jinaAdapter } from './jina';
import { mokaAdapter } from './moka';
import { ollamaAdapter } from './ollama';
import { openaiAdapter } from './openai';

/** Channel types that speak the OpenAI API (at the URLs of openai/paths.ts). */
export const OPENAI_COMPATIBLE_TYPES: readonly number[] = [
  1, 6, 7, 8, 9, 10, 12, 13, 17, 19, 20, 21, 22, 25, 26, 27, 31, 35, 40, 42, 43, 45, 46, 47, 48,
];

export const ADAPTERS: Readonly<Record<number, ProviderAdapter>> = {
  ...Object.fromEntries(OPENAI_COMPATIBLE_TYPES.map((type) => [type, openaiAdapter])),
  3: azureAdapter,
  4: ollamaAdapter,
  14: anthropicAdapter,
  24: geminiAdapter,
  34: cohereAdapter,
  37: difyAdapter,
  38: jinaAdapter,
  39: cloudflareAdapter,
  44: mokaAdapter,
  // Written separately and wired by the lead (no imports yet):
  // 15: Baidu (legacy)   → ./baidu-legacy
  // 16: Zhipu (legacy)   → ./zhipu-legacy
  // 18: iFlytek Spark    → ./spark
  // 23: Tencent Hunyuan  → ./tencent
  // 33: AWS Bedrock      → ./bedrock
  // 41: Google Vertex AI → ./vertex
};

export function adapterFor(type: number): ProviderAdapter | null {
  return Object.hasOwn(ADAPTERS, type) ? ADAPTERS[type] : null;
}

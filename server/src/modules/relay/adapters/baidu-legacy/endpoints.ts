/**
 * Wenxin Workshop endpoint names of the legacy Baidu API. Chat models use the well-known mapping
 * (ERNIE-4.0-8K → completions_pro, ERNIE-3.5-8K → completions, …); any other name is lower-cased, which
 * is how Baidu names the endpoints of newer models and of custom deployments. Embeddings default to
 * embedding-v1.
 */

const CHAT: Record<string, string> = {
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot': 'completions',
  'ERNIE-Bot-8K': 'ernie_bot_8k',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Speed-128K': 'ernie-speed-128k',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Lite-8K-0308': 'ernie-lite-8k',
  'ERNIE-Tiny-8K': 'ernie-tiny-8k',
  'BLOOMZ-7B': 'bloomz_7b1',
};

const EMBEDDINGS: Record<string, string> = {
  'Embedding-V1': 'embedding-v1',
  'bge-large-zh': 'bge_large_zh',
  'bge-large-en': 'bge_large_en',
  'tao-8k': 'tao_8k',
};

export const DEFAULT_EMBEDDING_ENDPOINT = 'embedding-v1';

export function chatEndpoint(model: string): string {
  return CHAT[model] ?? model.toLowerCase();
}

export function embeddingEndpoint(model: string): string {
  if (model.trim() === '') return DEFAULT_EMBEDDING_ENDPOINT;
  return EMBEDDINGS[model] ?? model.toLowerCase();
}

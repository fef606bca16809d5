/**
 * Upstream URLs of OpenAI-compatible providers: base URL + version prefix + endpoint path. The prefix
 * is `/v1` unless the provider mounts its compatible API elsewhere; a base URL that already ends with
 * the prefix (e.g. a custom `https://host/v1`) does not get it twice.
 */
import type { ChannelTarget, RelayMode } from '../../types';

/** Endpoint of each mode below the version prefix. */
export const OPENAI_PATHS: Readonly<Record<RelayMode, string>> = {
  chat: '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
  responses: '/responses',
  'responses-compact': '/responses/compact',
  images: '/images/generations',
  'image-edits': '/images/edits',
  speech: '/audio/speech',
  transcriptions: '/audio/transcriptions',
  translations: '/audio/translations',
  moderations: '/moderations',
  rerank: '/rerank',
};

/** Channel types whose OpenAI-compatible API does not live under `/v1`. */
const PREFIX_BY_TYPE: Readonly<Record<number, string>> = {
  17: '/compatible-mode/v1', // Alibaba DashScope
  26: '/api/paas/v4', // Zhipu v4
  27: '', // Perplexity
  45: '/api/v3', // Volcengine Ark
  46: '/v2', // Baidu Qianfan v2
};

const MINIMAX = 35;

export function versionPrefix(type: number): string {
  return PREFIX_BY_TYPE[type] ?? '/v1';
}

/** The root every endpoint path is appended to: base URL + version prefix, never doubled. */
export function apiRoot(baseUrl: string, prefix: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return prefix === '' || base.endsWith(prefix) ? base : base + prefix;
}

export function openAiUrl(channel: Pick<ChannelTarget, 'type' | 'baseUrl'>, mode: RelayMode): string {
  const path = channel.type === MINIMAX && mode === 'chat' ? '/text/chatcompletion_v2' : OPENAI_PATHS[mode];
  return apiRoot(channel.baseUrl, versionPrefix(channel.type)) + path;
}

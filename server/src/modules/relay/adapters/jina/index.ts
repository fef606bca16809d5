/**
 * Jina (type 38): OpenAI-compatible embeddings at `/v1/embeddings` and rerank at `/v1/rerank`
 * ({model, query, documents, top_n, return_documents}), Bearer auth. Jina reports rerank usage as
 * `usage.total_tokens` only; the answer gets `prompt_tokens` too.
 */
import type { ProviderAdapter } from '../../types';
import { bearerAuth, openAiStyleCall, openAiUrl } from '../openai';
import { isObj, jsonObject, normalizeRerank, unsupportedMode, upstreamErrorMessage } from '../util';

export const jinaAdapter: ProviderAdapter = {
  name: 'jina',
  format: 'openai',
  modes: ['embeddings', 'rerank'],

  buildRequest(req) {
    if (req.mode !== 'embeddings' && req.mode !== 'rerank') throw unsupportedMode('jina', req.mode);
    return openAiStyleCall(req, openAiUrl(req.channel, req.mode), bearerAuth(req.channel.key));
  },

  convertResponse(body, req) {
    if (req.mode === 'rerank') return normalizeRerank(body);
    return isObj(body) ? jsonObject(body) : {};
  },

  errorMessage: upstreamErrorMessage,
};

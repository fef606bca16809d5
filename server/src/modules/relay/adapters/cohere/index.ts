/**
 * Cohere (type 34), v2 API, converting from and to the hub itself (format 'openai'):
 *  - chat → POST `{base}/v2/chat` (request.ts); answers → chat.completion (response.ts); stream
 *    events → OpenAI chunks with a final usage chunk (stream.ts);
 *  - rerank → `{base}/v2/rerank`, answer → {results: [{index, relevance_score, document?}], usage};
 *  - embeddings → `{base}/v2/embed` (float vectors), answer → an OpenAI embeddings list.
 * Bearer auth.
 */
import type { AdapterRequest, JsonObject, ProviderAdapter } from '../../types';
import { bearerAuth } from '../openai';
import { joinUrl, jsonHeaders, unsupportedMode, upstreamErrorMessage } from '../util';
import { cohereChatBody, cohereEmbedBody, cohereRerankBody } from './request';
import { cohereChatToOpenAi, cohereEmbedToOpenAi, cohereRerankToOpenAi } from './response';
import { cohereStreamConverter } from './stream';

function endpoint(req: AdapterRequest): { path: string; body: JsonObject } {
  switch (req.mode) {
    case 'chat':
      return { path: '/v2/chat', body: cohereChatBody(req.body, req.model, req.stream) };
    case 'rerank':
      return { path: '/v2/rerank', body: cohereRerankBody(req.body, req.model) };
    case 'embeddings':
      return { path: '/v2/embed', body: cohereEmbedBody(req.body, req.model) };
    default:
      throw unsupportedMode('cohere', req.mode);
  }
}

export const cohereAdapter: ProviderAdapter = {
  name: 'cohere',
  format: 'openai',
  modes: ['chat', 'rerank', 'embeddings'],

  buildRequest(req) {
    const { path, body } = endpoint(req);
    return {
      method: 'POST',
      url: joinUrl(req.channel.baseUrl, path),
      headers: jsonHeaders(bearerAuth(req.channel.key)),
      body: JSON.stringify(body),
    };
  },

  convertResponse(body, req) {
    if (req.mode === 'rerank') return cohereRerankToOpenAi(body, req.body);
    if (req.mode === 'embeddings') return cohereEmbedToOpenAi(body, req.model);
    return cohereChatToOpenAi(body, req.model);
  },

  createStreamConverter(req) {
    return cohereStreamConverter(req.model);
  },

  errorMessage: upstreamErrorMessage,
};

/**
 * Baidu Wenxin Workshop, legacy API (channel type 15). Declares the OpenAI format and converts itself.
 *
 * Credentials: the "API_KEY|SECRET_KEY" key is exchanged for an access token (credentials.ts), sent
 * as the `access_token` query parameter of
 *   chat:       {baseUrl}/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}
 *   embeddings: {baseUrl}/rpc/2.0/ai_custom/v1/wenxinworkshop/embeddings/{endpoint}
 * with endpoints from endpoints.ts. Bodies: request.ts; answers: response.ts; streams (SSE): stream.ts.
 * Baidu reports most errors with HTTP 200 and {error_code, error_msg}: convertResponse throws a
 * RelayError for them (errors.ts).
 */
import type { AdapterRequest, ProviderAdapter, UpstreamCall } from '../../types';
import { isObj, joinUrl, parseJson, str, unsupportedMode, upstreamErrorMessage } from '../util';
import { baiduCredentials } from './credentials';
import { chatEndpoint, embeddingEndpoint } from './endpoints';
import { baiduChatBody, baiduEmbeddingBody } from './request';
import { baiduChatToOpenAI, baiduEmbeddingsToOpenAI } from './response';
import { createBaiduStreamConverter } from './stream';

export { baiduCredentials, parseBaiduKey } from './credentials';
export { chatEndpoint, embeddingEndpoint } from './endpoints';
export { baiduChatBody, baiduEmbeddingBody } from './request';
export { baiduChatToOpenAI, baiduEmbeddingsToOpenAI } from './response';

const WENXIN = '/rpc/2.0/ai_custom/v1/wenxinworkshop';

function url(req: AdapterRequest, path: string): string {
  if (!req.accessToken) throw new Error('Baidu needs an access token from the credential exchange');
  return `${joinUrl(req.channel.baseUrl, `${WENXIN}${path}`)}?access_token=${encodeURIComponent(req.accessToken)}`;
}

/** {error_code, error_msg} and OAuth {error, error_description} bodies, then the common shapes. */
export function baiduErrorMessage(status: number, body: string): string {
  const parsed = parseJson(body.trim());
  const answer = isObj(parsed) ? parsed : {};
  const message = str(answer.error_msg) ?? str(answer.error_description);
  return upstreamErrorMessage(status, message ?? body);
}

export const baiduLegacyAdapter: ProviderAdapter = {
  name: 'baidu-legacy',
  format: 'openai',
  modes: ['chat', 'embeddings'],

  credentials: (channel) => baiduCredentials(channel),

  buildRequest(req): UpstreamCall {
    const headers = { 'Content-Type': 'application/json' };
    switch (req.mode) {
      case 'chat':
        return {
          method: 'POST',
          url: url(req, `/chat/${encodeURIComponent(chatEndpoint(req.model))}`),
          headers,
          body: JSON.stringify(baiduChatBody(req.body, req.stream)),
        };
      case 'embeddings':
        return {
          method: 'POST',
          url: url(req, `/embeddings/${encodeURIComponent(embeddingEndpoint(req.model))}`),
          headers,
          body: JSON.stringify(baiduEmbeddingBody(req.body)),
        };
      default:
        throw unsupportedMode('Baidu', req.mode);
    }
  },

  convertResponse(body, req) {
    if (req.mode === 'embeddings') return baiduEmbeddingsToOpenAI(body, req.model);
    return baiduChatToOpenAI(body, req.model);
  },

  createStreamConverter: (req) => createBaiduStreamConverter(req.model),

  errorMessage: baiduErrorMessage,
};
